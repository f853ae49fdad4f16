"""The sweep figure: an algorithm over its grid, each run coloured by its value (Fig. 8).

Friedler et al. (§7.2, Fig. 8) show how a fairness parameter moves an algorithm between
accuracy and fairness: every run of its grid (each value, each split) is a point at two measures
(DIbinary across, accuracy up, as in the paper), coloured by the parameter's value. A grid over
more than two orders of magnitude (Kamishima's eta, Zafar's c) is coloured on a symmetric log
scale, so that its small values are not one colour. A panel per algorithm swept over one
numeric parameter and per dataset, attribute and variant, each with its colour bar; a frontier's
tolerances are the equal-fairness figure's.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import SymLogNorm
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLOUR_BAR, COLUMN, LABEL_ROOM, Layout, canvas, finish
from faircompare.analysis.equal_fairness import without_frontiers
from faircompare.analysis.kinds._panels import panel_title, y_labelled
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import paper_style

__all__ = ["AXES", "SweepFrames", "draw", "frames"]

#: Fig. 8's axes: DIbinary across, accuracy up.
AXES = ("DIbinary", "accuracy")
LOG_SPAN = 100  # a grid whose largest positive value is this many times its smallest: log colours


@dataclass(frozen=True)
class SweepFrames:
    """What the sweep figure shows.

    Attributes
    ----------
    runs
        One row per run of a grid: ``panel``, ``parameter``, ``value`` (numeric), ``x``, ``y``.
    panels
        The panels' titles (the algorithm, after its dataset, attribute and variant where the
        figure shows several), in order.
    x_label, y_label
        The axes' labels.
    """

    runs: pd.DataFrame
    panels: list[str]
    x_label: str
    y_label: str


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> SweepFrames:
    """Select every run of each selected algorithm's grid.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown and their names.
    x, y
        The measures across (``DIbinary``) and up (``accuracy``).

    Returns
    -------
    SweepFrames
        The runs and panels.

    Raises
    ------
    ValueError
        Where no selected algorithm ran over two values or more of one numeric parameter.
    """
    x, y = x or AXES[0], y or AXES[1]
    chosen = without_frontiers(selection.measures(study.measures))
    sweep = tidy.parameter_sweep(chosen, names=(x, y)).dropna(subset=[x, y])
    sweep["value"] = pd.to_numeric(sweep["value"], errors="coerce")
    keys = [*tidy.WHERE, "algorithm"]
    swept = sweep.dropna(subset=["value"]).groupby(keys)["value"].transform("nunique") > 1
    runs = sweep[swept.reindex(sweep.index, fill_value=False)]
    if runs.empty:
        raise ValueError(
            "no selected algorithm ran over two values or more of one numeric parameter: "
            "run a grid (grid = true in the settings, --grid on the command line)"
        )
    where = [(str(d), str(a), str(v)) for d, a, v in runs[tidy.WHERE].to_numpy()]
    swept_as = list(zip(where, runs["algorithm"], strict=True))  # each run's panel
    places = {w: i for i, w in enumerate(selection.arranged(where))}
    order = {a: i for i, a in enumerate(selection.order(runs["algorithm"].unique()))}
    panels = sorted(set(swept_as), key=lambda panel: (places[panel[0]], order[panel[1]]))
    several = len(places) > 1  # configurations: each panel's title names its own
    titles = {
        (w, a): ", ".join([panel_title(selection, w)] * several + [selection.label(a)])
        for w, a in panels
    }
    runs = runs.assign(panel=[titles[panel] for panel in swept_as], x=runs[x], y=runs[y])
    shown = runs[["panel", "parameter", "value", "x", "y"]].reset_index(drop=True)
    return SweepFrames(shown, [titles[panel] for panel in panels], selection.label(x),
                       selection.label(y))  # fmt: skip


def draw(frames: SweepFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the sweep figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default. It has no legend: each panel's colour bar
        names its parameter.
    ax
        Axes of your own to draw one panel into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), [], aspect=0.8, titled=True,
                       label_room=LABEL_ROOM + COLOUR_BAR)  # fmt: skip
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            mine = frames.runs[frames.runs["panel"] == title]
            points = panel.scatter(mine["x"], mine["y"], c=mine["value"], cmap="viridis", s=12,
                                   norm=colours(mine["value"]))  # fmt: skip
            bar = drawn.figure.colorbar(points, ax=panel)
            bar.set_label(mine["parameter"].iloc[0])
            panel.set_title(title + _coinciding(mine))
            panel.set_xlabel(frames.x_label)
            y_labelled(panel, frames.y_label, layout)
        return finish(drawn)


def _coinciding(runs: pd.DataFrame) -> str:
    """Say that a panel's runs lie on few points, where grid values give the same model.

    Zafar's accuracy-constrained method gives one model per split for every gamma where the
    loss budget holds its most accurate covariance-0 model: its panel is a dot per split.
    """
    points = len(runs[["x", "y"]].round(9).drop_duplicates())
    return f"\n{len(runs)} runs at {points} points" if 2 * points <= len(runs) else ""


def colours(values: pd.Series) -> SymLogNorm | None:
    """Return a symmetric log colour scale for a grid over orders of magnitude, else None.

    Parameters
    ----------
    values
        A grid's values.

    Returns
    -------
    matplotlib.colors.SymLogNorm or None
        Linear up to the smallest positive value, where the largest is :data:`LOG_SPAN` times
        it or more; None (a linear scale) otherwise.
    """
    positive = values[values > 0]
    if positive.empty or positive.max() / positive.min() < LOG_SPAN:
        return None
    return SymLogNorm(linthresh=float(positive.min()), vmin=values.min(), vmax=values.max())
