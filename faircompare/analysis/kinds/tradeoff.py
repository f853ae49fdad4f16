"""The tradeoff figure: accuracy against a fairness gap, a point per run, with the Pareto front.

Every run (each grid value and split) is a point at its accuracy and its distance from fairness,
on the bounded scale every kind uses for a measure (:meth:`faircompare.measures.Measure.gap`:
a ratio r such as DI is 1 - min(r, 1/r), in [0, 1]); filled where the run's demographic-parity
permutation test rejects after Holm's correction (:func:`~faircompare.analysis.tidy.tradeoff`).
A panel per dataset, attribute and variant, each with its own accuracy range; a configuration
with more than eight algorithms and known families gets a panel per family, the other families'
runs in light grey behind, and the Pareto front of all its runs in each.
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.kinds._panels import (
    behind,
    chart_range,
    note_off_chart,
    panel_title,
    panels_of,
    same_limits,
    scatter,
    y_labelled,
)
from faircompare.analysis.kinds.runs import RunsFrames
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import paper_style
from faircompare.measures import MEASURES

__all__ = ["TradeoffFrames", "draw", "frames"]


class TradeoffFrames(RunsFrames):
    """What the tradeoff figure shows: the runs figure's frames, with these columns.

    Attributes
    ----------
    runs
        One row per run: ``panel``, ``configuration`` (the panel's dataset, attribute and
        variant, in words), ``name`` (the legend's), ``style``, ``gap``, ``accuracy``,
        ``filled`` (its parity test significant) and ``pareto``.
    panels
        The panels' titles, in order ("" for a figure of one panel).
    order
        The names, in the legend's order.
    styles
        Each style key's colour and marker.
    x_label, y_label
        The axes' labels.
    context
        Whether each panel shows the rest of its configuration's runs in grey.
    """


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
    *,
    excluded: Collection[str] | None = None,
) -> TradeoffFrames:
    """Select the runs of a tradeoff figure.

    Parameters
    ----------
    study
        The study's frames; with its algorithms' families, one configuration of more than
        eight algorithms is drawn a panel per family.
    selection
        The runs shown and their names.
    x, y
        The fairness measure (DIbinary) and the accuracy measure (accuracy).
    excluded
        Keys of runs drawn but kept off the Pareto front (:func:`~.tidy.tradeoff`): those
        whose measures on the axes are flagged, which the report passes as it has judged
        them; None judges the selected runs (:meth:`~.StudyFrames.flagged_runs`).

    Returns
    -------
    TradeoffFrames
        The runs and panels.
    """
    x, y = x or "DIbinary", y or "accuracy"
    measures = selection.measures(study.measures)
    audits = study.audits[study.audits["key"].isin(measures["key"].unique())]
    if excluded is None:
        excluded = study.flagged_runs(measures, [x, y])
    runs = tidy.tradeoff(measures, audits, accuracy=y, fairness=x, excluded=excluded)
    order = selection.order(runs["algorithm"].unique())
    configurations = [panel_title(selection, w) for w in runs[tidy.WHERE].astype(str).to_numpy()]
    runs = runs.assign(
        configuration=configurations,
        name=runs["algorithm"].map(selection.label),
        style=runs["algorithm"],
        filled=runs["significant"],
    )
    runs["panel"], panels, by_family = panels_of(runs, order, study.families, selection)
    gap = f"{selection.label(x)} gap" + ("\n1 - min(r, 1/r)" if MEASURES[x].ratio else "")
    return TradeoffFrames(
        runs, panels, [selection.label(a) for a in order], study.styles, gap,
        selection.label(y), context=by_family,
    )  # fmt: skip


def draw(frames: TradeoffFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the tradeoff figure.

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
        The figure.
    """
    layout = layout or Layout(COLUMN)
    runs = frames.runs
    fills = _fills(runs)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), ["Pareto front", *frames.order, *fills],
                       aspect=0.8)  # fmt: skip
        limits = {}
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            same = runs[runs["configuration"].isin(runs.loc[runs["panel"] == title,
                                                             "configuration"])]  # fmt: skip
            limits[title] = chart_range(same["accuracy"])
            _panel(panel, same, title, frames, limits[title])
            panel.set_xlabel(frames.x_label)
            panel.set_title(title)
            y_labelled(panel, frames.y_label, layout)
        for entry, face in fills.items():  # what filled and hollow mean, once, in grey
            drawn.axes[0].scatter([], [], s=14, marker="o", edgecolors=FILL_KEY,
                                  facecolors=face, linewidths=0.7, label=entry)  # fmt: skip
        if frames.context:  # a configuration's families: one range, to compare them
            same_limits(drawn.axes)
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            cut = limits[title]
            if cut is not None:  # set last: a shared range spans every run
                panel.set_ylim(cut)
                shown = runs.loc[runs["panel"] == title, "accuracy"].to_numpy()
                note_off_chart(panel, shown, cut)
        return finish(drawn)


FILL_KEY = "#777777"  # the colour of the legend's filled and hollow keys
FILLED = "filled: its parity test rejects"
HOLLOW = "hollow: it does not, or did not run"


def _fills(runs: pd.DataFrame) -> dict[str, str]:
    """Return the legend's entries saying what filled and hollow points mean, as drawn."""
    filled = runs["filled"].astype("boolean").fillna(False).to_numpy(bool)
    return {
        entry: face
        for entry, face, shown in ((FILLED, FILL_KEY, filled.any()), (HOLLOW, "none",
                                                                        (~filled).any()))
        if shown
    }  # fmt: skip


def _panel(
    ax: Axes,
    same: pd.DataFrame,
    title: str,
    frames: TradeoffFrames,
    limits: tuple[float, float] | None,
) -> None:
    """Draw one panel's runs and its configuration's Pareto front, off the chart at its edge."""
    if limits is not None:
        same = same.assign(accuracy=same["accuracy"].clip(*limits))
    if frames.context:
        behind(ax, same, title, "gap", "accuracy")
    front = same[same["pareto"]].sort_values("gap")  # drawn over the points, which lie on it
    ax.step(front["gap"], front["accuracy"], where="post", color="black", linewidth=0.8,
            label="Pareto front", zorder=3)  # fmt: skip
    scatter(ax, same[same["panel"] == title], "gap", "accuracy", frames.styles, frames.order)
