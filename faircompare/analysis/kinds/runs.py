"""The runs figure: two measures of every run shown, a point per run (Friedler et al. Figs. 4-5).

Each run of each algorithm as the report shows it (its defaults, tuned for accuracy on
validation data, or its grid pooled) is a point at its values of two measures, as stored: by
default Fig. 5's calibration against TPR conditioned on the groups (``sensitive-TPR`` across,
``sensitive-calibration-`` up). A panel per dataset, attribute and variant, each with its own
ranges; a configuration of more than eight algorithms with known families gets a panel per
family, the other families' runs in light grey behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.kinds._panels import (
    behind,
    panel_title,
    panels_of,
    same_limits,
    scatter,
    styled,
    y_labelled,
)
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import Style, paper_style

__all__ = ["AXES", "RunsFrames", "draw", "frames"]

#: Fig. 5's axes: TPR across and calibration up, each conditioned on the groups.
AXES = ("sensitive-TPR", "sensitive-calibration-")


@dataclass(frozen=True)
class RunsFrames:
    """What the runs figure shows (the tradeoff figure's frames take the same form).

    Attributes
    ----------
    runs
        One row per run: ``panel``, ``configuration`` (the panel's dataset, attribute and
        variant, in words), ``name`` (the legend's), ``style``, ``x``, ``y`` and ``filled``.
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

    runs: pd.DataFrame
    panels: list[str]
    order: list[str]
    styles: Mapping[str, Style]
    x_label: str
    y_label: str
    context: bool = False


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> RunsFrames:
    """Select the runs of a runs figure and their two measures.

    Parameters
    ----------
    study
        The study's frames; with its algorithms' families, one configuration of more than
        eight algorithms is drawn a panel per family.
    selection
        The runs shown and their names.
    x, y
        The measures across (``sensitive-TPR``) and up (``sensitive-calibration-``).

    Returns
    -------
    RunsFrames
        The runs and panels.

    Raises
    ------
    ValueError
        Where no selected run has both measures.
    """
    x, y = x or AXES[0], y or AXES[1]
    chosen = study.shown(selection.measures(study.measures))
    wide = tidy.runs_wide(chosen[chosen["measure"].isin([x, y])])
    if not {x, y} <= set(wide.columns) or wide[[x, y]].dropna().empty:
        raise ValueError(f"no selected run has both {x} and {y}: choose measures it holds")
    runs, order = styled(wide.dropna(subset=[x, y]), selection)
    runs = runs.assign(
        configuration=[panel_title(selection, w) for w in runs[tidy.WHERE].astype(str).to_numpy()],
        x=runs[x],
        y=runs[y],
    )
    runs["panel"], panels, by_family = panels_of(runs, order, study.families, selection)
    return RunsFrames(runs, panels, list(dict.fromkeys(runs["name"])),
                      study.styles, selection.label(x), selection.label(y), by_family)  # fmt: skip


def draw(frames: RunsFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the runs figure.

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
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), frames.order, aspect=0.8)
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            mine = runs["panel"] == title
            if frames.context:
                shown = runs.loc[mine, "configuration"]
                behind(panel, runs[runs["configuration"].isin(shown)], title, "x", "y")
            scatter(panel, runs[mine], "x", "y", frames.styles, frames.order)
            panel.set_title(title)
            panel.set_xlabel(frames.x_label)
            y_labelled(panel, frames.y_label, layout)
        if frames.context:  # a configuration's families: one range, to compare them
            same_limits(drawn.axes)
        return finish(drawn)
