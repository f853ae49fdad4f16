"""The critical-difference diagram (Demšar 2006, §3.2.2 and Fig. 1): average ranks over datasets.

The algorithms are ranked on each dataset and attribute by their mean score over splits in the
setting the report shows them in, and their average ranks set on one axis, rank 1 (best) on the
left. A thick bar joins each maximal group of algorithms whose average ranks differ by less than
the Nemenyi critical difference (not significantly different), and a scale bar above the axis
shows the difference itself; where it exceeds every gap of ranks (few datasets, many
algorithms), the bar stops at the axis's end and says that no pair differs. The text beside it
gives Friedman's p-value and Iman and Davenport's, which Demšar recommends (§3.2.2). The
diagram is what readers of comparisons over datasets know; it is the report's and the paper's.
Its names hang on both sides of the axis where they fit the width, else all on its left, each
joined to its rank by an elbow line that crosses no other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import compare
from faircompare.analysis.canvas import (
    COLUMN,
    FigureFitError,
    Layout,
    canvas,
    finish,
    text_width,
    widest,
)
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import paper_style
from faircompare.measures import MEASURES

__all__ = ["CriticalDifferenceFrames", "draw", "frames", "ranked"]

MIN_AXIS = 1.2  # inches the rank axis needs to be read
GAP = 0.1  # inches between a name and its line's end
BAR = 0.07  # inches between the group bars below the axis
TITLE_LINES = 3  # what is ranked; the tests' p-values; the datasets and the critical difference


@dataclass(frozen=True)
class CriticalDifferenceFrames:
    """What the diagram shows.

    Attributes
    ----------
    test
        The Friedman test of the algorithms over datasets, its ranks indexed by the names
        shown (:func:`~faircompare.analysis.compare.friedman`).
    title
        What is ranked, in words.
    """

    test: compare.FriedmanTest
    title: str


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> CriticalDifferenceFrames:
    """Rank the selected algorithms over the selected datasets and attributes.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs ranked and their names; one variant. The frontiers (``unprocessed-*``) are a
        yardstick, not interventions: ranked only where selected by name.
    x
        The measure ranked (accuracy); a fairness measure by its gap, negated.
    y
        Unused.

    Returns
    -------
    CriticalDifferenceFrames
        The test.

    Raises
    ------
    ValueError
        Where the selection holds several variants, or too few algorithms or datasets.
    """
    measure = x or "accuracy"
    measures = selection.compared(study.measures)
    variants = sorted(measures["variant"].unique())
    if len(variants) != 1:
        raise ValueError(
            f"the critical-difference figure ranks one variant; the selection holds "
            f"{len(variants)} ({', '.join(variants)}): choose one with variants"
        )
    comparable = study.comparable(study.shown(measures), [measure])  # a flagged cell: no rank
    table = compare.scores(comparable, measure).pivot_table(
        index=["dataset", "sensitive_attribute"], columns="algorithm", values="score"
    )
    test = compare.friedman(table.dropna(axis=1))  # raises with fewer than two datasets
    ranks = test.ranks.rename(index=selection.label)
    title = ranked(measure, variants[0], selection.label(measure))
    return CriticalDifferenceFrames(
        compare.FriedmanTest(ranks, test.statistic, test.pvalue, test.critical_difference,
                             test.datasets, test.alpha), title,
    )  # fmt: skip


def ranked(measure: str, variant: str, shown: str | None = None) -> str:
    """Return what a diagram ranks, in words: ``average rank of the DIbinary gap, numerical``.

    Parameters
    ----------
    measure
        The measure ranked: an accuracy measure by its value, a fairness one by its gap.
    variant
        The variant ranked.
    shown
        The measure's label; its name by default.

    Returns
    -------
    str
        The diagram's title.
    """
    shown = shown or measure
    ranked = shown if MEASURES[measure].kind == "accuracy" else f"the {shown} gap"
    return f"average rank of {ranked}, {variant}"


def draw(
    frames: CriticalDifferenceFrames, layout: Layout | None = None, ax: Axes | None = None
) -> Figure:
    """Draw the critical-difference diagram.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default. Its height follows from the names.
    ax
        Axes of your own to draw it into (their size is then the diagram's).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    FigureFitError
        Where the names leave the rank axis less than 1.2 inches at the width asked.
    """
    layout = layout or Layout(COLUMN)
    test, line = frames.test, layout.line
    names = list(test.ranks.index)
    width = _width(layout, ax)
    left = _left_count(names, width, layout)
    rows = max(left, len(names) - left)
    top = (TITLE_LINES + 1) * line + 2.2 * line  # the title's lines, the CD bar, the rank labels
    first = top + BAR * (len(test.groups()) + 1) + line
    height = layout.height or first + rows * line + 0.1
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [], aspect=1.0, panel_height=height, whole=True)
        panel = drawn.axes[0]
        panel.set_xlim(0, width)
        panel.set_ylim(height, 0)  # inches, downwards
        panel.set_axis_off()
        _diagram(panel, frames, layout, width, left, top, first)
        return finish(drawn)


def _width(layout: Layout, ax: Axes | None) -> float:
    """Return the inches the diagram spans: the layout's, or the user's axes'."""
    if ax is None:
        return layout.width
    figure = ax.get_figure(root=True)
    assert isinstance(figure, Figure)
    return float(ax.get_position().width * figure.get_size_inches()[0])


def _left_count(names: list[str], width: float, layout: Layout) -> int:
    """Return how many names (the best) hang on the axis' left: half, or all where half won't fit.

    Raises
    ------
    FigureFitError
        Where even names all on the left leave the axis too short.
    """
    size = layout.small
    half = math.ceil(len(names) / 2)
    sides = (_room(names[:half], size), _room(names[half:], size))
    if width - sum(sides) >= MIN_AXIS:
        return half
    if width - _room(names, size) - GAP >= MIN_AXIS:
        return len(names)
    raise FigureFitError(
        f"the critical-difference diagram of {len(names)} algorithms needs "
        f"{_room(names, size) + MIN_AXIS + GAP:.1f} in at {layout.font_size:g} pt; the figure "
        f"is {width:.1f} in wide: draw it wider, or give the algorithms shorter labels"
    )


def _room(names: list[str], size: float) -> float:
    """Return the inches the longest of ``names`` takes, with the gap to its line."""
    return widest(names, size) + 2 * GAP


def _diagram(
    ax: Axes,
    frames: CriticalDifferenceFrames,
    layout: Layout,
    width: float,
    left: int,
    top: float,
    first: float,
) -> None:
    """Draw the axis, the CD bar, the groups and the names, in inches from the top left."""
    test, line, size = frames.test, layout.line, layout.small
    names, ranks = list(test.ranks.index), test.ranks.to_numpy(dtype=float)
    k = len(names)
    start = _room(names[:left], size)
    end = width - (_room(names[left:], size) if left < k else GAP)

    def at(rank: float) -> float:
        return start + (rank - 1) / max(k - 1, 1) * (end - start)

    _, iman = test.iman_davenport
    # a CD beyond the ranks' span (two datasets, many algorithms) tells no pair apart: the bar
    # stops at the axis's end and says so
    reach = min(test.critical_difference, k - 1)
    label = "CD" if reach == test.critical_difference else "CD > every rank gap: no pair differs"
    ax.text(0.02, 0.02, f"{frames.title} (1 best)\nFriedman p = {test.pvalue:.2g}, "
            f"Iman-Davenport p = {iman:.2g}\nover {test.datasets} datasets; Nemenyi CD = "
            f"{test.critical_difference:.2f}",
            va="top", ha="left", fontsize=size, linespacing=1.2)  # fmt: skip
    bar = (TITLE_LINES + 1) * line
    ax.plot([at(1), at(1 + reach)], [bar, bar], color="black", linewidth=1.2)
    ax.text(at(1 + reach / 2), bar - 0.04, label, ha="center", va="bottom",
            fontsize=size)  # fmt: skip
    axis = top
    ax.plot([start, end], [axis, axis], color="black", linewidth=0.8)
    step = math.ceil((text_width(str(k), size) + 0.06) / ((end - start) / max(k - 1, 1)))
    for rank in range(1, k + 1):
        ax.plot([at(rank)] * 2, [axis, axis - 0.05], color="black", linewidth=0.8)
        if (rank - 1) % step == 0:  # every rank labelled where their labels fit
            ax.text(at(rank), axis - 0.07, str(rank), ha="center", va="bottom", fontsize=size)
    for j, (low, high) in enumerate(test.groups()):
        y = axis + BAR * (j + 1)
        ax.plot([at(low) - 0.03, at(high) + 0.03], [y, y], color="black", linewidth=2.5)
    for i, (name, rank) in enumerate(zip(names, ranks, strict=True)):
        on_left = i < left
        level = first + (i if on_left else k - 1 - i) * line
        edge = start - GAP if on_left else end + GAP
        ax.plot([at(rank), at(rank), edge], [axis, level, level], color="#444444",
                linewidth=0.6)  # fmt: skip
        ax.text(edge - 0.03 if on_left else edge + 0.03, level, name, va="center",
                ha="right" if on_left else "left", fontsize=size)  # fmt: skip
