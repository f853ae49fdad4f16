"""The intervals figure: each algorithm's mean score over splits and its corrected 95 % interval.

A row per algorithm as the report shows it, best on top; a filled marker is an algorithm the
corrected resampled t-test (Nadeau & Bengio), Holm-adjusted over the algorithms, cannot tell
from the best, a hollow one is significantly worse (:func:`~faircompare.analysis.compare.
intervals`). A fairness measure is scored by its gap, negated (higher is better; a ratio's gap
1 - min(r, 1/r) keeps the axis within [-1, 0]). Each axis spans the intervals, within the
scores the measure can take and at most twice the means' spread beyond them: an interval
reaching past it, as with few splits (a t with one degree of freedom is 12.7), is cut at the
edge and marked there with an arrow. A panel per dataset, attribute and variant and per
measure, the rows shared. The frontiers of the equal-fairness section (``unprocessed-*``) are
a yardstick, not an intervention: left out unless selected by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import compare, tidy
from faircompare.analysis.canvas import (
    COLUMN,
    MIN_PANEL,
    ROW_LINES,
    Layout,
    canvas,
    finish,
    row_names,
)
from faircompare.analysis.kinds._panels import panel_title
from faircompare.analysis.selection import Selection, StudyFrames, algorithm_of, configurations
from faircompare.analysis.style import PALETTE, paper_style
from faircompare.measures import MEASURES

__all__ = ["IntervalsFrames", "draw", "frames", "intervals_of"]

COLOUR = PALETTE[0]
ROW = 0.2  # inches a row takes


@dataclass(frozen=True)
class IntervalsFrames:
    """What the intervals figure shows.

    Attributes
    ----------
    tables
        ``{(panel title, axis label): table}``: each table indexed by the rows' names, with
        ``mean``, ``ci_low``, ``ci_high`` and ``worse_than_best``
        (:func:`~faircompare.analysis.compare.intervals`).
    rows
        The rows' names, top to bottom.
    bounds
        ``{axis label: (lowest, highest)}``: the scores its measure can take.
    """

    tables: dict[tuple[str, str], pd.DataFrame]
    rows: list[str]
    bounds: dict[str, tuple[float, float]]


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
    *,
    measures: tuple[str, ...] | None = None,
) -> IntervalsFrames:
    """Compute each selected algorithm's interval, per configuration and measure.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown and their names.
    x
        The measure (accuracy).
    y
        Unused: the rows are the algorithms.
    measures
        Several measures, a panel each (the report's accuracy and DIbinary); ``x`` alone by
        default.

    Returns
    -------
    IntervalsFrames
        The tables, rows and bounds.

    Raises
    ------
    ValueError
        Where no algorithm of a configuration has two splits (an interval needs two).
    """
    names = measures or (x or "accuracy",)
    selected = selection.compared(study.measures)
    chosen = study.comparable(study.shown(selected), names)  # a flagged cell: no interval
    named = algorithm_of(chosen["algorithm"].unique(), tidy.budgets_run(chosen))
    found = configurations(chosen, selection)
    tables: dict[tuple[str, str], pd.DataFrame] = {}
    for configuration in found:
        mine = chosen[(chosen[tidy.WHERE] == pd.Series(configuration, tidy.WHERE)).all(axis=1)]
        title = panel_title(selection, configuration) if len(found) > 1 else ""
        for measure in names:
            table = intervals_of(mine, measure, "intervals figure")
            rows = selection.ranked(table.index, named)
            shown = [selection.labels.get(named[r], r) for r in rows]
            axis = compare.score_name(measure, selection.label(measure))
            tables[(title, axis)] = table.reindex(rows).set_axis(shown)
    first = next(iter(tables.values()))
    rows = list(dict.fromkeys([*first.index, *(r for t in tables.values() for r in t.index)]))
    bounds = {compare.score_name(m, selection.label(m)): _bounds(m) for m in names}
    return IntervalsFrames(tables, rows, bounds)


def intervals_of(chosen: pd.DataFrame, measure: str, what: str) -> pd.DataFrame:
    """Return :func:`~faircompare.analysis.compare.intervals`, or say why there are none.

    Parameters
    ----------
    chosen
        The representative runs of one configuration.
    measure
        The measure.
    what
        The figure or table asking, for the message.

    Returns
    -------
    pandas.DataFrame
        Indexed by the settings' labels, best first.

    Raises
    ------
    ValueError
        Where no algorithm has two splits: an interval over splits needs two.
    """
    table = compare.intervals(chosen, measure)
    if table.empty:
        splits = chosen["split_id"].nunique()
        raise ValueError(
            f"the {what} needs two splits or more of an algorithm; the selection has {splits}: "
            "run the study with --splits 2 or more"
        )
    return table


def _bounds(measure: str) -> tuple[float, float]:
    """Return the scores a measure can take: a rate in [0, 1], a gap negated <= 0."""
    if MEASURES[measure].kind == "accuracy":
        return 0.0, 1.0
    return (-1.0, 0.0) if MEASURES[measure].ratio else (-np.inf, 0.0)


def draw(frames: IntervalsFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the intervals figure.

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
    rows = frames.rows
    names, room = row_names(rows, layout.small)
    room += 0.4
    height = max(ROW * len(rows) + 0.3, MIN_PANEL)
    keys = _keys(frames)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.tables), list(keys), aspect=1.0, label_room=room,
                       panel_height=height, shared_rows=True)  # fmt: skip
        positions = np.arange(len(rows))[::-1]
        for panel, ((title, axis), table) in zip(drawn.axes, frames.tables.items(), strict=True):
            _panel(panel, table.reindex(rows), positions, frames.bounds.get(axis))
            panel.set_xlabel(f"{axis}\n(95% interval)")
            panel.set_title(title)
            panel.set_yticks(positions, names, linespacing=ROW_LINES)
        for key, face in keys.items():  # what filled and hollow mean
            drawn.axes[0].scatter([], [], s=16, color=COLOUR, facecolors=face, label=key)
        return finish(drawn)


NOT_WORSE = "filled: not worse than the best (Holm)"
WORSE = "hollow: worse than the best"


def _keys(frames: IntervalsFrames) -> dict[str, str]:
    """Return the legend's entries for the markers drawn: filled, hollow, or both."""
    worse = pd.concat([t["worse_than_best"] for t in frames.tables.values()])
    worse = worse.astype("boolean").fillna(False).to_numpy(bool)
    shown = {NOT_WORSE: (COLOUR, (~worse).any()), WORSE: ("none", worse.any())}
    return {key: face for key, (face, drawn) in shown.items() if drawn}


def _panel(
    ax: Axes, table: pd.DataFrame, positions: np.ndarray, bounds: tuple[float, float] | None
) -> None:
    """Draw one panel's means and intervals, each cut interval marked at the edge."""
    low, high = _span(*(table[c].to_numpy(dtype=float) for c in ("mean", "ci_low", "ci_high")))
    lowest, highest = bounds or (-np.inf, np.inf)
    low, high = max(low, lowest), min(high, highest)
    ax.hlines(positions, table["ci_low"].clip(lower=low), table["ci_high"].clip(upper=high),
              color=COLOUR, linewidth=1.0)  # fmt: skip
    for edge, cut, marker in ((low, table["ci_low"] < low, "<"),
                              (high, table["ci_high"] > high, ">")):  # fmt: skip
        ax.scatter(np.full(int(cut.sum()), edge), positions[cut.to_numpy()], marker=marker,
                   s=10, color=COLOUR, clip_on=False)  # fmt: skip
    worse = table["worse_than_best"].astype("boolean").fillna(False).to_numpy(bool)
    ax.scatter(table["mean"], positions, s=16, color=COLOUR,
               facecolors=np.where(worse, "none", COLOUR), zorder=2)  # fmt: skip
    ax.set_xlim(low, high)
    ax.grid(axis="x", linewidth=0.3)


def _span(means: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> tuple[float, float]:
    """Return an axis range: the intervals' span, a twentieth wider on each side.

    An interval reaching more than twice the means' span beyond them (a t with one degree of
    freedom is 12.7) is cut there, so that the means stay readable.
    """
    finite = means[np.isfinite(means)]
    if not finite.size:
        return 0.0, 1.0
    first, last = float(finite.min()), float(finite.max())
    reach = 2 * max(last - first, 0.01 * max(abs(first), abs(last), 1.0))
    low = max(np.nanmin(lows, initial=first), first - reach)
    high = min(np.nanmax(highs, initial=last), last + reach)
    margin = (high - low) / 20
    return low - margin, high + margin
