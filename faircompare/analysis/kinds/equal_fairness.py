"""The equal-fairness figure: every run against the post-processed frontier (Cruz & Hardt 2024).

The frontier of the most accurate unconstrained model (``unprocessed-*``), post-processed to
each tolerance of a constraint, is a thin grey line per split and their mean in black; every
other run is a point at its test violation of the constraint and its accuracy (grid values
pooled). A point above the lines beats the post-processed model at its own level of
unfairness. A panel per constraint, a row of them per dataset, attribute and variant, each row
with its own accuracy range (:func:`~faircompare.analysis.equal_fairness.accuracy_limits`): a
run far below it, such as naive Bayes at 0.38 on credit default where the frontier is at 0.82,
is drawn at the bottom edge and counted in its panel's title, never stretching the axis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import equal_fairness, tidy
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.equal_fairness import CONSTRAINT_MEASURES
from faircompare.analysis.kinds._panels import panel_title, scatter, y_labelled
from faircompare.analysis.selection import Selection, StudyFrames, configurations
from faircompare.analysis.style import Style, paper_style
from faircompare.records import DEFAULTS, POOLED

__all__ = ["FRONTIER_LINES", "EqualFairnessFrames", "Panel", "draw", "frames"]

#: The legend's names of the frontier's lines.
FRONTIER_LINES = ("frontier, per split", "frontier, mean")


@dataclass(frozen=True)
class Panel:
    """One constraint of one configuration.

    Attributes
    ----------
    title
        The constraint (and the configuration, where there are several).
    measure
        The measure of the constraint's violation.
    x_label
        The violation's axis label.
    points
        The frontier's points (:func:`~faircompare.analysis.equal_fairness.frontier_points`).
    runs
        The other runs: ``name``, ``style``, ``filled``, ``violation`` and ``accuracy``.
    limits
        The accuracy axis' floor and top.
    """

    title: str
    measure: str
    x_label: str
    points: pd.DataFrame
    runs: pd.DataFrame
    limits: tuple[float, float]


@dataclass(frozen=True)
class EqualFairnessFrames:
    """What the equal-fairness figure shows.

    Attributes
    ----------
    panels
        A panel per configuration and constraint, configurations first.
    constraints
        The constraints: the panels of a row.
    order
        The runs' names, in the legend's order.
    styles
        Each style key's colour and marker.
    frontiers
        The frontier each configuration is measured against (``unprocessed-svm``, say).
    y_label
        The accuracy axis' label.
    """

    panels: list[Panel]
    constraints: list[str]
    order: list[str]
    styles: Mapping[str, Style]
    frontiers: list[str]
    y_label: str = "accuracy"


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> EqualFairnessFrames:
    """Select each configuration's frontier and the other runs of the equal-fairness figure.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown and their names; the frontier is always shown.
    x, y
        Unused: the axes are each constraint's violation and accuracy.

    Returns
    -------
    EqualFairnessFrames
        The panels.

    Raises
    ------
    ValueError
        Where the selection holds no frontier to compare with.
    """
    measures = selection.measures(study.measures, by_algorithm=False)
    points = equal_fairness.frontier_points(measures)
    if points.empty:
        raise ValueError(
            "the equal-fairness figure needs a frontier: runs of an unprocessed-* algorithm "
            "(the benchmark plans them by default)"
        )
    runs = equal_fairness.equal_fairness(measures)
    if selection.algorithms is not None:
        runs = runs[runs["algorithm"].isin(selection.algorithms)]
    settings = zip(runs["algorithm"], runs["setting"], strict=True)
    keys = [tidy.label(a, DEFAULTS if s == DEFAULTS else POOLED) for a, s in settings]
    runs = runs.assign(
        style=keys, name=[selection.label(a) if k == a else k for a, k in
                          zip(runs["algorithm"], keys, strict=True)], filled=True,
    )  # fmt: skip
    order = [n for a in selection.order(runs["algorithm"].unique())
             for n in runs.loc[runs["algorithm"] == a, "name"].unique()]  # fmt: skip
    constraints = [c for c in CONSTRAINT_MEASURES if c in set(points["constraint"])]
    found = [c for c in configurations(points, selection) if c in set(configurations(measures))]
    panels, frontiers = [], []
    for configuration in found:
        at = pd.Series(configuration, index=tidy.WHERE)
        mine = points[(points[tidy.WHERE] == at).all(axis=1)]
        frontier = equal_fairness.best_frontier(mine)
        mine = mine[mine["frontier"] == frontier]
        others = runs[(runs[tidy.WHERE] == at).all(axis=1)]
        limits = equal_fairness.accuracy_limits(mine, others)
        frontiers.append(frontier)
        where = f"{panel_title(selection, configuration)}\n" if len(found) > 1 else ""
        for constraint in constraints:
            measure = CONSTRAINT_MEASURES[constraint]
            shown = others[(others["constraint"] == constraint) & others["violation"].notna()]
            panels.append(Panel(
                where + constraint.replace("_", " "), measure,
                selection.labels.get(measure, constraint.replace("_", " ") + "\nviolation"),
                mine[mine["constraint"] == constraint], shown, limits,
            ))  # fmt: skip
    return EqualFairnessFrames(
        panels, constraints, order, study.styles, frontiers, selection.label("accuracy")
    )


def draw(
    frames: EqualFairnessFrames, layout: Layout | None = None, ax: Axes | None = None
) -> Figure:
    """Draw the equal-fairness figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw one panel (one constraint of one configuration) into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    entries = [*FRONTIER_LINES, *frames.order]
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), entries, aspect=0.9,
                       most_columns=len(frames.constraints), titled=True)  # fmt: skip
        for panel, shown in zip(drawn.axes, frames.panels, strict=True):
            _panel(panel, shown, frames, layout)
        return finish(drawn)


def _panel(ax: Axes, panel: Panel, frames: EqualFairnessFrames, layout: Layout) -> None:
    """Draw one constraint's frontier lines and runs, and say what lies below the floor."""
    floor, top = panel.limits
    below = int((panel.runs["accuracy"] < floor).sum())
    edge = f"\n{below} run{'s' * (below > 1)} below {floor:.2f}, at the edge" if below else ""
    ax.set_title(panel.title + edge)
    ax.set_xlabel(panel.x_label)
    y_labelled(ax, frames.y_label, layout)
    margin = 0.04 * (top - floor) or 0.01
    ax.set_ylim(floor - margin, top + margin)
    points = panel.points.dropna(subset=["violation"])
    if points.empty:
        ax.text(0.5, 0.5, f"{panel.measure}\nis undefined on every split:\na group has no "
                "positives\nor no negatives in the test part", ha="center", va="center",
                transform=ax.transAxes, fontsize=layout.small)  # fmt: skip
        ax.set_xticks([])
        return
    end = float(np.nanmax([points["violation"].max(), panel.runs["violation"].max()])) or 1.0
    grid = np.unique([0.0, end, *points["violation"]])
    curves = [equal_fairness.frontier_accuracy(split, grid)
              for _, split in points.groupby("split_id")]  # fmt: skip
    for i, curve in enumerate(curves):
        ax.plot(grid, curve, color="#BBBBBB", linewidth=0.5, zorder=1,
                label=FRONTIER_LINES[0] if i == 0 else None)  # fmt: skip
    ax.plot(grid, np.mean(curves, axis=0), color="black", linewidth=1.1, zorder=2,
            label=FRONTIER_LINES[1])  # fmt: skip
    clipped = panel.runs.assign(accuracy=panel.runs["accuracy"].clip(lower=floor))
    scatter(ax, clipped, "violation", "accuracy", frames.styles, frames.order)
