"""The stability figure (Friedler et al. Fig. 7): each algorithm's mean over splits and its spread.

Each algorithm, as the report shows it (its defaults, or tuned for accuracy on validation data),
is a marker at its mean over splits and a rectangle of +/- one standard deviation each way, on
the paper's axes: CV, taken over the binary sensitive attribute, across and accuracy up ("each
algorithm occupies a slightly different place on the trade-off between fairness (measured here
by CV ...) and accuracy", §7.1). A ratio measure asked for instead (DIbinary) is shown on the
bounded scale of every kind, its gap 1 - min(r, 1/r) per run: one split's DI of 478 would
otherwise stretch the axis past every other algorithm. A panel per dataset, attribute and
variant (the paper's Fig. 7 is Adult by race and by sex); a configuration of more than eight
algorithms with known families, a panel per family.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.kinds._panels import (
    chart_range,
    in_order,
    note_off_chart,
    panels_of,
    same_limits,
    y_labelled,
)
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import Style, paper_style
from faircompare.measures import MEASURES

__all__ = ["AXES", "StabilityFrames", "draw", "frames"]

#: Fig. 7's axes: CV across, accuracy up.
AXES = ("CV", "accuracy")


@dataclass(frozen=True)
class StabilityFrames:
    """What the stability figure shows.

    Attributes
    ----------
    summary
        One row per algorithm and panel: ``panel``, ``name`` (the legend's), ``style``,
        ``x_mean``, ``x_sd``, ``y_mean``, ``y_sd`` (the sd NaN with one split).
    panels
        The panels' titles, in order ("" for one panel).
    order
        The names, in the legend's order.
    styles
        Each style key's colour, marker and hatch.
    x_label, y_label
        The axes' labels.
    same_range
        Whether the panels share one range (the families of one configuration).
    """

    summary: pd.DataFrame
    panels: list[str]
    order: list[str]
    styles: Mapping[str, Style]
    x_label: str
    y_label: str
    same_range: bool = False


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
) -> StabilityFrames:
    """Summarise the selected runs over splits for the stability figure.

    Parameters
    ----------
    study
        The study's frames; with its algorithms' families, one configuration of more than
        eight algorithms is drawn a panel per family.
    selection
        The runs shown and their names.
    x, y
        The measures across (CV) and up (accuracy).

    Returns
    -------
    StabilityFrames
        The summaries and panels.
    """
    x, y = x or AXES[0], y or AXES[1]
    chosen = study.shown(selection.measures(study.measures))
    chosen = _bounded(chosen[chosen["measure"].isin([x, y]) & (chosen["group"] == "")])
    summary = (
        tidy.stability(chosen, [x, y])
        .set_index([*tidy.CONFIGURATION, "measure"])[["mean", "sd"]]
        .unstack("measure")
        .reset_index()
    )
    summary.columns = ["_".join(c[::-1]).strip("_") for c in summary.columns]
    summary = summary.rename(columns={f"{x}_mean": "x_mean", f"{x}_sd": "x_sd",
                                      f"{y}_mean": "y_mean", f"{y}_sd": "y_sd"})  # fmt: skip
    settings = list(zip(summary["algorithm"], summary["setting"], strict=True))
    summary = summary.assign(style=[tidy.label(a, s) for a, s in settings],
                             name=[selection.label(a, s) for a, s in settings])  # fmt: skip
    order = selection.order(summary["algorithm"].unique())
    summary["panel"], panels, by_family = panels_of(summary, order, study.families, selection)
    summary = in_order(summary, order)
    legend = list(dict.fromkeys(summary["name"]))
    return StabilityFrames(summary.reset_index(drop=True), panels, legend, study.styles,
                           f"{_shown(x, selection)} (mean ± sd)",
                           f"{_shown(y, selection)} (mean ± sd)", by_family)  # fmt: skip


def _bounded(measures: pd.DataFrame) -> pd.DataFrame:
    """Return ``measures`` with a ratio measure's values as their gaps, in [0, 1]."""
    ratio = measures["measure"].map(lambda m: MEASURES[m].ratio).astype(bool)
    if not ratio.any():
        return measures
    values = measures["value"].to_numpy(dtype=float).copy()
    for measure in measures.loc[ratio, "measure"].unique():
        rows = (measures["measure"] == measure).to_numpy()
        values[rows] = MEASURES[measure].gap(values[rows])
    return measures.assign(value=values)


def _shown(measure: str, selection: Selection) -> str:
    """Return an axis' measure in the selection's label, a ratio's as its gap."""
    shown = selection.label(measure)
    return f"{shown} gap" if MEASURES[measure].ratio else shown


def draw(frames: StabilityFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the stability figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw one panel into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: with one split, each algorithm is its mean's marker alone.
    """
    layout = layout or Layout(COLUMN)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), frames.order, aspect=0.8)
        means = dict(iter(frames.summary.groupby("panel")["y_mean"]))
        shared = chart_range(frames.summary["y_mean"])
        limits = {t: shared if frames.same_range else chart_range(means[t]) for t in means}
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            for _, row in frames.summary[frames.summary["panel"] == title].iterrows():
                _rectangle(panel, row, frames.styles[row["style"]], limits[title])
            panel.autoscale_view()
            panel.set_title(title)
            panel.set_xlabel(frames.x_label)
            y_labelled(panel, frames.y_label, layout)
        if frames.same_range:
            same_limits(drawn.axes)
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            cut = limits[title]
            if cut is not None:  # set last: a shared range spans every mean
                panel.set_ylim(cut)
                note_off_chart(panel, means[title].to_numpy(), cut)
        return finish(drawn)


def _rectangle(ax: Axes, row: pd.Series, style: Style, limits: tuple[float, float] | None) -> None:
    """Draw one algorithm's mean and its rectangle of +/- one sd; off the chart, at the edge."""
    sd_x, sd_y = np.nan_to_num(row["x_sd"]), np.nan_to_num(row["y_sd"])
    colour = style["color"]
    corner = (row["x_mean"] - sd_x, row["y_mean"] - sd_y)
    ax.add_patch(Rectangle(corner, 2 * sd_x, 2 * sd_y, facecolor=colour, alpha=0.3,
                           edgecolor=colour, linewidth=0.6, hatch=style["hatch"]))  # fmt: skip
    y = row["y_mean"] if limits is None else float(np.clip(row["y_mean"], *limits))
    ax.scatter(row["x_mean"], y, s=14, color=colour, marker=style["marker"], label=row["name"],
               clip_on=False)  # fmt: skip
