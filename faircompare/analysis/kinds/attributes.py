"""The attributes figure: a measure of each algorithm under each sensitive attribute (Fig. 9).

Friedler et al. (§7.3, Fig. 9) ask whether an algorithm fair for one attribute is fair for
another: each algorithm, as the report shows it, has a row, in which each split's value of the
measure (CV, as in the paper) is a point coloured by the sensitive attribute it was run for,
the attributes side by side. A panel per dataset of two attributes or more and per variant, the
rows shared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish, widest
from faircompare.analysis.kinds._panels import panel_title, styled
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import PALETTE, paper_style

__all__ = ["AttributesFrames", "draw", "frames"]

ROW = 0.22  # inches a row takes
SPREAD = 0.7  # of a row's height, over which its attributes' points are set side by side


@dataclass(frozen=True)
class AttributesFrames:
    """What the attributes figure shows.

    Attributes
    ----------
    runs
        One row per run: ``panel``, ``name`` (its row's), ``attribute`` (the legend's) and
        ``value``.
    panels
        The panels' titles (dataset and variant), in order.
    rows
        The rows' names, top to bottom.
    attributes
        The attributes' names, in the legend's order.
    measure
        The measure's display name.
    """

    runs: pd.DataFrame
    panels: list[str]
    rows: list[str]
    attributes: list[str]
    measure: str


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> AttributesFrames:
    """Select the runs of each selected dataset that has two sensitive attributes or more.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown and their names.
    x
        The measure (``CV``).
    y
        Not used: the rows are the algorithms.

    Returns
    -------
    AttributesFrames
        The runs, panels and rows.

    Raises
    ------
    ValueError
        Where no selected dataset was run for two sensitive attributes or more.
    """
    measure = x or "CV"
    chosen = study.shown(selection.measures(study.measures))
    wide = tidy.runs_wide(chosen[chosen["measure"] == measure])
    if measure not in wide.columns:
        raise ValueError(f"no selected run has {measure}: choose a measure it holds")
    wide = wide.dropna(subset=[measure])
    several = wide.groupby(["dataset", "variant"])["sensitive_attribute"].transform("nunique")
    runs, _ = styled(wide[several > 1], selection)
    if runs.empty:
        raise ValueError(
            "the attributes figure needs a dataset run for two sensitive attributes or more; "
            "the selection holds none (sensitive_attributes = 'all' in the settings)"
        )
    where = [(str(d), "", str(v)) for d, v in runs[["dataset", "variant"]].to_numpy()]
    runs = runs.assign(
        panel=[panel_title(selection, (d, v)) for d, _, v in where],
        attribute=[selection.label(str(a)) for a in runs["sensitive_attribute"]],
        value=runs[measure],
    )
    panels = [panel_title(selection, (d, v)) for d, _, v in selection.arranged(where)]
    attributes = [selection.label(str(a)) for a in sorted(wide["sensitive_attribute"].unique())]
    shown = [a for a in attributes if a in set(runs["attribute"])]
    return AttributesFrames(runs[["panel", "name", "attribute", "value"]], panels,
                            list(dict.fromkeys(runs["name"])), shown,
                            selection.label(measure))  # fmt: skip


def draw(frames: AttributesFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the attributes figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default. The rows are shared by the panels.
    ax
        Axes of your own to draw one panel into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    room = widest(frames.rows, layout.small) + 0.2
    colours = dict(zip(frames.attributes, PALETTE, strict=False))
    step = SPREAD / max(len(frames.attributes), 1)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), frames.attributes, aspect=1.0,
                       label_room=room, panel_height=ROW * len(frames.rows) + 0.4,
                       titled=True, shared_rows=True)  # fmt: skip
        rows = {name: i for i, name in enumerate(frames.rows)}
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            mine = frames.runs[frames.runs["panel"] == title]
            for j, attribute in enumerate(frames.attributes):
                part = mine[mine["attribute"] == attribute]
                offset = -SPREAD / 2 + (j + 0.5) * step
                y = part["name"].map(rows).to_numpy(float) + offset
                panel.scatter(part["value"], y, s=10, color=colours[attribute],
                              label=attribute)  # fmt: skip
            panel.set_ylim(len(frames.rows) - 0.5, -0.5)
            panel.set_yticks(np.arange(len(frames.rows)), frames.rows)
            panel.set_title(title)
            panel.set_xlabel(frames.measure)
        return finish(drawn)
