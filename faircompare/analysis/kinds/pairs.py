"""The measure-pairs figure: one measure against others, every run pooled (Friedler et al. Fig. 4).

Friedler et al. compare their fairness measures by plotting one against another over every
run of every dataset: Fig. 4 sets CV against the comparative TPR and TNR differences. A panel
per measure up, the same measure across each; the runs of every selected dataset, attribute and
variant in one panel, each algorithm as the report shows it, in its style. Past eight
algorithms with known families, a row of panels per measure up and a panel per family, the
other families' runs in light grey behind, every panel of a row on one range.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, MIN_PANEL, Layout, canvas, finish, wrapped
from faircompare.analysis.kinds._panels import (
    behind,
    family_panels,
    same_limits,
    scatter,
    styled,
)
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import Style, paper_style

__all__ = ["ACROSS", "UP", "PairsFrames", "draw", "frames"]

#: Fig. 4's measure across every panel.
ACROSS = "CV"
#: Fig. 4's measures up, a panel each.
UP = ("comparative-sensitive-TPR-diff", "comparative-sensitive-TNR-diff")
ASPECT = 0.8  # a panel's height over its width


@dataclass(frozen=True)
class PairsFrames:
    """What the measure-pairs figure shows.

    Attributes
    ----------
    runs
        One row per run: ``name`` (the legend's), ``style``, ``filled``, ``family`` (its panel
        in each row: ``""`` where the panels are not split by family) and a column per measure
        shown.
    families
        The families of a row's panels, in order (``[""]``: one panel per measure up).
    x
        The measure across every panel.
    ups
        The measures up, a panel each.
    labels
        Each measure's display name.
    order
        The names, in the legend's order.
    styles
        Each style key's colour and marker.
    """

    runs: pd.DataFrame
    families: list[str]
    x: str
    ups: tuple[str, ...]
    labels: Mapping[str, str]
    order: list[str]
    styles: Mapping[str, Style]


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
    measures: Sequence[str] | None = None,
) -> PairsFrames:
    """Select the runs of a measure-pairs figure and their measures.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown (every dataset, attribute and variant selected, pooled) and their names.
    x
        The measure across every panel (:data:`ACROSS`).
    y
        One measure up, where ``measures`` is not given.
    measures
        The measures up, a panel each (:data:`UP`).

    Returns
    -------
    PairsFrames
        The runs and measures.

    Raises
    ------
    ValueError
        Where no selected run has the measure across and one measure up.
    """
    x = x or ACROSS
    ups = tuple(measures or ((y,) if y else UP))
    chosen = study.shown(selection.measures(study.measures))
    wide = tidy.runs_wide(chosen[chosen["measure"].isin([x, *ups])])
    held = [m for m in ups if m in wide.columns and not wide[[x, m]].dropna().empty]
    if x not in wide.columns or not held:
        raise ValueError(
            f"no selected run has {x} and any of {', '.join(ups)}: choose measures it holds"
        )
    runs, order = styled(wide.dropna(subset=[x]), selection)
    groups = family_panels(order, study.families)
    family = {a: f for f, members in groups for a in members}
    runs["family"] = runs["algorithm"].map(family)
    labels = {m: selection.label(m) for m in (x, *held)}
    return PairsFrames(runs, [f for f, _ in groups], x, tuple(held), labels,
                       list(dict.fromkeys(runs["name"])), study.styles)  # fmt: skip


def draw(frames: PairsFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the measure-pairs figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw one panel into (one measure up).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    panels = [(up, family) for up in frames.ups for family in frames.families]
    split = len(frames.families) > 1
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(panels), frames.order, aspect=ASPECT, titled=split,
                       most_columns=len(frames.families) if split else None)  # fmt: skip
        for panel, (up, family) in zip(drawn.axes, panels, strict=True):
            shown = frames.runs.dropna(subset=[frames.x, up]).assign(panel=frames.runs["family"])
            if split:
                behind(panel, shown, family, frames.x, up)
                panel.set_title(family)
            mine = shown[shown["family"] == family]
            scatter(panel, mine, frames.x, up, frames.styles, frames.order)
            panel.set_xlabel(frames.labels[frames.x])
            tall = max(drawn.panel_width * ASPECT, MIN_PANEL)  # a long measure in two lines
            panel.set_ylabel(wrapped(frames.labels[up], tall, layout.font_size, after="-"))
        if split:  # a row's families on one range, to compare them
            for row in range(len(frames.ups)):
                same_limits(
                    drawn.axes[row * len(frames.families) : (row + 1) * len(frames.families)]
                )
        return finish(drawn)
