"""The preprocessing figure: a measure under the numerical and numerical+binary variants (Fig. 2).

Friedler et al. (§5.1, Fig. 2) ask whether the way the data is encoded changes a measure: each
run of an algorithm on a split is a point at the measure's value under ``numerical`` (across)
and under ``numerical+binary`` (up); on the grey diagonal both encodings give the same value.
A panel per dataset and attribute, each algorithm as the report shows it, in its style.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.kinds._panels import panel_title, scatter, styled, y_labelled
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import Style, paper_style

__all__ = ["ENCODINGS", "PreprocessingFrames", "draw", "frames"]

#: The variants compared: across, and up.
ENCODINGS = ("numerical", "numerical+binary")
DIAGONAL = "#BBBBBB"


@dataclass(frozen=True)
class PreprocessingFrames:
    """What the preprocessing figure shows.

    Attributes
    ----------
    runs
        One row per algorithm and split run under both variants: ``panel``, ``name`` (the
        legend's), ``style``, ``filled`` and the measure's value under each variant (the
        columns ``numerical`` and ``numerical+binary``).
    panels
        The panels' titles (dataset and attribute), in order.
    measure
        The measure's display name.
    order
        The names, in the legend's order.
    styles
        Each style key's colour and marker.
    """

    runs: pd.DataFrame
    panels: list[str]
    measure: str
    order: list[str]
    styles: Mapping[str, Style]


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> PreprocessingFrames:
    """Pair each selected run's measure under the two variants.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown (both variants of each selected dataset and attribute) and their names.
    x
        The measure compared (``accuracy``).
    y
        Not used: the variants are the axes.

    Returns
    -------
    PreprocessingFrames
        The pairs and panels.

    Raises
    ------
    ValueError
        Where no selected run ran under both variants.
    """
    measure = x or "accuracy"
    chosen = study.shown(selection.measures(study.measures))
    pairs = tidy.preprocessing_comparison(chosen, measure)
    if pairs.empty:
        raise ValueError(
            f"no selected algorithm has {measure} under both {' and '.join(ENCODINGS)} on one "
            "split: the figure needs both variants"
        )
    runs, _ = styled(pairs, selection)
    where = [(str(d), str(a)) for d, a in runs[["dataset", "sensitive_attribute"]].to_numpy()]
    order = selection.arranged((d, a, "") for d, a in where)
    runs["panel"] = [panel_title(selection, w) for w in where]
    panels = [panel_title(selection, (d, a)) for d, a, _ in order]
    return PreprocessingFrames(runs, panels, selection.label(measure),
                               list(dict.fromkeys(runs["name"])), study.styles)  # fmt: skip


def draw(
    frames: PreprocessingFrames, layout: Layout | None = None, ax: Axes | None = None
) -> Figure:
    """Draw the preprocessing figure.

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
    across, up = ENCODINGS
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), frames.order, aspect=1.0, titled=True)
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            mine = frames.runs[frames.runs["panel"] == title]
            values = mine[[across, up]].to_numpy(float)
            low, high = float(np.nanmin(values)), float(np.nanmax(values))
            panel.plot([low, high], [low, high], color=DIAGONAL, linewidth=0.8, zorder=0)
            scatter(panel, mine, across, up, frames.styles, frames.order)
            panel.set_title(title)
            panel.set_xlabel(f"{frames.measure}, {across}")
            y_labelled(panel, f"{frames.measure}, {up}", layout)
        return finish(drawn)
