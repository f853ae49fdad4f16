"""One figure for a paper: a kind the report draws, alone, at the size and selection asked.

The report draws every figure of a study at the size a screen reads. A paper needs one of
them, 3.5 inches wide for a column or 7 for a page, over the algorithms it discusses, under the
names it gives them. :func:`draw` makes it from a results folder::

    from faircompare.analysis import paper

    figure = paper.draw(
        "tradeoff", "results", datasets=["german"], algorithms=["massaging-lr", "svm"],
        labels={"massaging-lr": "Ours"}, width=3.5,
    )
    figure.savefig("tradeoff.pdf")

and ``faircompare figure tradeoff --results results --out tradeoff.pdf`` the same from the
command line. The figure is drawn in the paper style
(:func:`~faircompare.analysis.style.paper_style`): text of 8 points, thin lines, each algorithm
in the colour and marker it has in every figure of the study
(:func:`~faircompare.analysis.style.algorithm_styles`), markers that stay apart in greyscale.
Its size is computed before drawing: a legend or a set of panels that cannot fit the width
asked raises :class:`FigureFitError`, naming the selection or the width that would fit.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import Rectangle
from matplotlib.textpath import TextPath

from faircompare._validation import check_choice
from faircompare.analysis import compare, equal_fairness, tidy
from faircompare.analysis.equal_fairness import CONSTRAINT_MEASURES
from faircompare.analysis.style import PrintFigure, Style, paper_style, study_styles
from faircompare.measures import MEASURES
from faircompare.names import FIGURE_KINDS
from faircompare.records import DEFAULTS, POOLED, TUNED
from faircompare.results import ResultStore

__all__ = [
    "COLUMN",
    "KINDS",
    "PAGE",
    "FigureFitError",
    "Layout",
    "CORRELATED",
    "Kind",
    "Selection",
    "draw",
]

#: Inches: the width of a column of a two-column paper.
COLUMN = 3.5
#: Inches: the width of the page of a two-column paper.
PAGE = 7.0
LEGENDS = ("below", "right", "inside", "off")
MIN_PANEL = 1.2  # inches a panel needs, each way, for its ticks and points to be read
MAX_PANEL_HEIGHT = 2.8  # inches: a page-wide panel keeps a column panel's height
#: The measures the correlations figure shows unless asked for others.
CORRELATED = ("accuracy", "TPR", "TNR", "BCR", "DIbinary", "CV", "sensitive-TPR",
              "sensitive-calibration-")  # fmt: skip
_MARKER = 0.3  # inches a legend entry takes beside its text (marker and gaps)
_LINE = 1.45  # a text line's height, in font sizes
_BELOW = 0.55  # inches below a panel for its tick labels and axis label


class FigureFitError(ValueError):
    """The figure asked for cannot be drawn readably at the size asked."""


@dataclass(frozen=True)
class Selection:
    """Which runs a figure shows, and the names it gives them.

    Each field left None keeps every value the results hold.

    Attributes
    ----------
    datasets, attributes, variants
        The datasets, sensitive attributes and variants shown.
    algorithms
        The algorithms shown (registry names), in this order: the legend's, and the rows' of
        an intervals panel.
    splits
        The splits shown.
    labels
        Display names: ``{"massaging-lr": "Ours"}`` for algorithms, ``{"DIbinary": "DI"}`` for
        measures. Names without a label keep their own.
    """

    datasets: Sequence[str] | None = None
    attributes: Sequence[str] | None = None
    variants: Sequence[str] | None = None
    algorithms: Sequence[str] | None = None
    splits: Sequence[int] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def measures(self, measures: pd.DataFrame, *, by_algorithm: bool = True) -> pd.DataFrame:
        """Return the measures of the selected runs.

        Parameters
        ----------
        measures
            The store's long measures frame.
        by_algorithm
            Whether to keep the selected algorithms only (False: every algorithm, for a kind
            that compares them with another, such as the equal-fairness frontier).

        Returns
        -------
        pandas.DataFrame
            The selected rows.

        Raises
        ------
        ValueError
            Naming a selected value the results do not hold, and the values they do; or a
            label naming nothing they hold, and the closest name.
        """
        self._check_labels(measures)
        columns = {
            "dataset": self.datasets,
            "sensitive_attribute": self.attributes,
            "variant": self.variants,
            "algorithm": self.algorithms if by_algorithm else None,
            "split_id": self.splits,
        }
        for column, wanted in columns.items():
            if wanted is None:
                continue
            held = sorted(measures[column].unique().tolist())
            missing = [w for w in wanted if w not in held]
            if missing:
                what = {"sensitive_attribute": "attribute", "split_id": "split"}.get(column, column)
                raise ValueError(
                    f"no runs of {what} {', '.join(map(repr, missing))} in these results; "
                    f"they hold: {', '.join(map(str, held))}"
                )
            measures = measures[measures[column].isin(wanted)]
        return measures

    def _check_labels(self, measures: pd.DataFrame) -> None:
        """Refuse a label that names nothing the results hold (a mistyped name, say).

        A label may name what this selection leaves out: one mapping of a paper's names
        serves all its figures.
        """
        if not self.labels:
            return
        algorithms = measures["algorithm"].unique()
        named = {
            *algorithms,
            *(tidy.label(a, s) for a in algorithms for s in (DEFAULTS, TUNED, POOLED)),
            *measures["measure"].unique(),
            *(value for column in tidy.WHERE for value in measures[column].unique()),
        }
        for name in self.labels:
            check_choice(name, sorted(map(str, named)), what="name to label")

    def configuration(self, measures: pd.DataFrame, what: str) -> tuple[str, str, str]:
        """Return the one dataset, attribute and variant of the selected measures.

        Parameters
        ----------
        measures
            The selected measures (:meth:`measures`).
        what
            The figure or table that needs one (``"intervals figure"``), for the message.

        Returns
        -------
        tuple of str
            The dataset, the sensitive attribute and the variant.

        Raises
        ------
        ValueError
            Naming the configurations the selection holds, where it holds other than one.
        """
        found = _configurations(measures)
        if len(found) != 1:
            listed = "; ".join(", ".join(c) for c in found) or "none"
            raise ValueError(
                f"the {what} shows one dataset, attribute and variant; the selection holds "
                f"{len(found)} ({listed}): choose one with datasets, attributes and variants"
            )
        return found[0]

    def order(self, names: Sequence[str]) -> list[str]:
        """Return algorithms in the selection's order (sorted where it names none).

        Parameters
        ----------
        names
            The algorithms a figure or table holds.

        Returns
        -------
        list of str
            Those the selection names, in its order; all of them sorted when it names none.
        """
        if self.algorithms is None:
            return sorted(set(names))
        return [a for a in self.algorithms if a in set(names)]

    def ranked(self, labels: Sequence[str], algorithm_of: Mapping[str, str]) -> list[str]:
        """Return settings' labels in the selection's order of their algorithms.

        Parameters
        ----------
        labels
            Settings' labels (``zafar-accuracy``), in their own order (best first, say).
        algorithm_of
            Each label's algorithm (:func:`algorithm_of`).

        Returns
        -------
        list of str
            ``labels`` as given where the selection names no algorithms, else in its order.
        """
        if self.algorithms is None:
            return list(labels)
        rank = {a: i for i, a in enumerate(self.algorithms)}
        return sorted(labels, key=lambda label: rank[algorithm_of[label]])

    def label(self, name: str, setting: str | None = None) -> str:
        """Return the display name of a measure, or of an algorithm in a setting.

        Parameters
        ----------
        name
            A measure or an algorithm.
        setting
            The algorithm's setting: without a label, the name the report gives it
            (:func:`~faircompare.analysis.tidy.label`).

        Returns
        -------
        str
            The label given, or the name.
        """
        if name in self.labels or setting is None:
            return self.labels.get(name, name)
        return tidy.label(name, setting)


@dataclass(frozen=True)
class Layout:
    """The size and look of a figure.

    Attributes
    ----------
    width
        Inches: :data:`COLUMN` (3.5) for a column, :data:`PAGE` (7) for a page.
    height
        Inches; None follows the kind's aspect, with the room its legend takes.
    font_size
        Points of the text (ticks and legend one point less).
    legend
        ``"below"`` the panels, ``"right"`` of them, ``"inside"`` the first panel, or
        ``"off"``.
    """

    width: float = COLUMN
    height: float | None = None
    font_size: float = 8.0
    legend: str = "below"

    def __post_init__(self) -> None:
        check_choice(self.legend, LEGENDS, what="legend place")
        if self.width <= 0 or (self.height is not None and self.height <= 0):
            raise ValueError(f"a figure's size must be positive, got {self.width} x {self.height}")


def _text_width(text: str, font_size: float) -> float:
    """Return the inches ``text`` takes at ``font_size`` points in the default font."""
    path = TextPath((0, 0), text, size=font_size, prop=FontProperties())
    return float(path.get_extents().width) / 72


@dataclass(frozen=True)
class _Plan:
    """The computed geometry of a figure: its size, panel grid and legend columns."""

    size: tuple[float, float]
    columns: int
    legend_columns: int


def _plan(
    layout: Layout, panels: int, entries: Sequence[str], aspect: float, label_room: float
) -> _Plan:
    """Compute a figure's size and legend columns, or say what does not fit.

    ``aspect`` is a panel's height over its width; ``label_room`` the inches beside the panels
    that their tick and axis labels take (below them, :data:`_BELOW`).
    """
    small = layout.font_size - 1
    line = _LINE * small / 72
    legend = layout.legend if entries else "off"
    entry = max((_text_width(e, small) for e in entries), default=0.0) + _MARKER
    width = layout.width - label_room
    legend_columns, legend_height = 1, 0.0
    if legend == "right":
        width -= entry
    if legend == "below":
        legend_columns = max(1, min(len(entries), int(layout.width // entry)))
        legend_height = math.ceil(len(entries) / legend_columns) * line + 0.1
    if entry > layout.width or width / panels < MIN_PANEL:
        raise FigureFitError(_fit_advice(layout, panels, entries, "wide"))
    panel = width / panels
    if layout.height is None:
        panel_height = min(max(panel * aspect, MIN_PANEL), MAX_PANEL_HEIGHT)
        height = panel_height + _BELOW + legend_height
    else:
        height = layout.height
    if legend == "right" and len(entries) * line > height:
        raise FigureFitError(_fit_advice(layout, panels, entries, "tall"))
    if height - legend_height - _BELOW < MIN_PANEL - 1e-9:
        raise FigureFitError(_fit_advice(layout, panels, entries, "tall"))
    return _Plan((layout.width, height), panels, legend_columns)


def _fit_advice(layout: Layout, panels: int, entries: Sequence[str], short: str) -> str:
    """Say in one line why a figure does not fit, and what would."""
    return (
        f"{panels} panel{'s' * (panels > 1)} and a legend of {len(entries)} entries do not fit "
        f"{'in' if short == 'wide' else 'above'} a {layout.width:g} x "
        f"{layout.height or 'auto'} in figure at {layout.font_size:g} pt: select fewer "
        f"algorithms or configurations, or draw it wider (width {PAGE:g} for a page), or "
        "put the legend elsewhere (legend 'below', 'right' or 'off')"
    )


def _legend(figure: Figure, axes: Sequence[Axes], layout: Layout, columns: int) -> None:
    """Place the legend of the axes' labelled artists (each label once) where asked."""
    labelled: dict[str, Artist] = {}
    for ax in axes:
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=True):
            labelled.setdefault(name, handle)
    if not labelled or layout.legend == "off":
        return
    handles, names = list(labelled.values()), list(labelled)
    options: dict[str, Any] = {"frameon": False, "handletextpad": 0.3, "columnspacing": 0.8}
    if layout.legend == "inside":
        axes[0].legend(handles, names, loc="best", **options)
    elif layout.legend == "right":
        figure.legend(handles, names, loc="outside right center", **options)
    else:
        options["ncols"] = columns
        figure.legend(handles, names, loc="outside lower center", **options)


def _scatter(
    ax: Axes,
    frame: pd.DataFrame,
    styles: Mapping[str, Style],
    order: Sequence[str],
    selection: Selection,
    filled: pd.Series,
) -> None:
    """Draw each algorithm's runs (gap, accuracy) in its style, filled where ``filled``."""
    for algorithm in order:
        mine = frame[frame["algorithm"] == algorithm]
        if mine.empty:
            continue
        style = styles[algorithm]
        solid = filled[mine.index].to_numpy()
        colour = style["color"]
        ax.scatter(mine["gap"], mine["accuracy"], s=14, marker=style["marker"], linewidths=0.7,
                   edgecolors=colour, facecolors=np.where(solid, colour, "none"),
                   label=selection.label(algorithm))  # fmt: skip


def _configurations(measures: pd.DataFrame) -> list[tuple[str, str, str]]:
    where = tidy.WHERE
    return [tuple(c) for c in measures[where].drop_duplicates().sort_values(where).to_numpy()]


def _tradeoff(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Accuracy against a fairness gap, a point per run and the Pareto front; a panel each."""
    x, y = x or "DIbinary", y or "accuracy"
    stored = store.measures()
    measures = selection.measures(stored)
    audits = store.audits()
    frame = tidy.tradeoff(measures, audits[audits["key"].isin(measures["key"])],
                          accuracy=y, fairness=x)  # fmt: skip
    configurations = _configurations(frame)
    order = selection.order(frame["algorithm"].unique())
    styles = _styles(stored)
    entries = [selection.label(a) for a in order]
    canvas = _canvas(layout, ax, len(configurations), entries, aspect=0.8)
    axes = canvas.axes
    where = tidy.WHERE
    for panel, configuration in zip(axes, configurations, strict=True):
        mine = frame[(frame[where] == pd.Series(configuration, index=where)).all(axis=1)]
        front = mine[mine["pareto"]].sort_values("gap")
        panel.step(front["gap"], front["accuracy"], where="post", color="black", linewidth=0.8,
                   label="Pareto front", zorder=0)  # fmt: skip
        _scatter(panel, mine, styles, order, selection, mine["significant"])
        panel.set_xlabel(f"{selection.label(x)} gap")
        if len(configurations) > 1:
            panel.set_title(", ".join(selection.label(part) for part in configuration))
    axes[0].set_ylabel(selection.label(y))
    return _finish(canvas, layout)


def _stability(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Each algorithm's mean over splits and a rectangle of +/- one sd (Fig. 7); one panel."""
    x, y = x or "DIbinary", y or "accuracy"
    stored = store.measures()
    measures = selection.measures(stored)
    selection.configuration(measures, "stability figure")
    summary = tidy.stability(shown_runs(store, measures), [x, y])
    settings = summary.drop_duplicates("algorithm").set_index("algorithm")["setting"]
    table = summary.pivot_table(
        index="algorithm", columns="measure", values=["mean", "sd"], dropna=False
    )
    order = selection.order(table.index)
    styles = _styles(stored)
    entries = [selection.label(a, settings[a]) for a in order]
    canvas = _canvas(layout, ax, 1, entries, aspect=0.8)
    axes = canvas.axes
    panel = axes[0]
    for algorithm in order:
        row, style = table.loc[algorithm], styles[tidy.label(algorithm, settings[algorithm])]
        sd_x, sd_y = np.nan_to_num(row[("sd", x)]), np.nan_to_num(row[("sd", y)])
        corner = (row[("mean", x)] - sd_x, row[("mean", y)] - sd_y)
        panel.add_patch(Rectangle(corner, 2 * sd_x, 2 * sd_y, facecolor=style["color"],
                                  alpha=0.3, edgecolor=style["color"], linewidth=0.6,
                                  hatch=style["hatch"]))  # fmt: skip
        name = selection.label(algorithm, settings[algorithm])
        panel.scatter(row[("mean", x)], row[("mean", y)], s=14, color=style["color"],
                      marker=style["marker"], label=name)  # fmt: skip
    panel.autoscale_view()
    panel.set_xlabel(f"{selection.label(x)} (mean ± sd)")
    panel.set_ylabel(f"{selection.label(y)} (mean ± sd)")
    return _finish(canvas, layout)


def _intervals(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Each algorithm's mean score and corrected 95% interval over splits; one panel."""
    measure = x or "accuracy"
    measures = selection.measures(store.measures())
    selection.configuration(measures, "intervals figure")
    chosen = shown_runs(store, measures)
    table = intervals_of(chosen, measure, "intervals figure")
    named = algorithm_of(chosen["algorithm"])
    order = selection.ranked(table.index, named)
    table = table.reindex(order)
    names = [selection.labels.get(named[label], label) for label in order]
    figure, panel = _rows_panel(layout, ax, names)
    rows = np.arange(len(order))[::-1]
    panel.hlines(rows, table["ci_low"], table["ci_high"], color="#4477AA", linewidth=1.0)
    worse = table["worse_than_best"].fillna(False).astype(bool).to_numpy()
    panel.scatter(table["mean"], rows, s=16, color="#4477AA",
                  facecolors=np.where(worse, "none", "#4477AA"), zorder=2)  # fmt: skip
    score = compare.score_name(measure, selection.label(measure))
    panel.set_xlabel(f"{score} (95% interval)", loc="right")
    panel.grid(axis="x", linewidth=0.3)
    return figure


def _equal_fairness(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Draw the post-processed frontier and every other run, a panel per constraint."""
    stored = store.measures()
    measures = selection.measures(stored, by_algorithm=False)
    selection.configuration(measures, "equal-fairness figure")
    points = equal_fairness.frontier_points(measures)
    if points.empty:
        raise ValueError(
            "the equal-fairness figure needs a frontier: runs of an unprocessed-* algorithm "
            "(the benchmark plans them by default)"
        )
    points = points[points["frontier"] == equal_fairness.best_frontier(points)]
    runs = equal_fairness.equal_fairness(measures)
    if selection.algorithms is not None:
        runs = runs[runs["algorithm"].isin(selection.algorithms)]
    order = selection.order(runs["algorithm"].unique())
    styles = _styles(stored)
    constraints = [c for c in CONSTRAINT_MEASURES if c in set(points["constraint"])]
    frontier_lines = ["frontier, per split", "frontier, mean"]
    entries = frontier_lines + [selection.label(a) for a in order]
    canvas = _canvas(layout, ax, len(constraints), entries, aspect=0.9)
    axes = canvas.axes
    floor, top = equal_fairness.accuracy_limits(points, runs)
    for panel, constraint in zip(axes, constraints, strict=True):
        mine = points[points["constraint"] == constraint].dropna(subset=["violation"])
        shown = runs[(runs["constraint"] == constraint) & runs["violation"].notna()]
        end = max(float(mine["violation"].max()), float(shown["violation"].max() or 0)) or 1.0
        grid = np.unique([0.0, end, *mine["violation"]])
        curves = [equal_fairness.frontier_accuracy(split, grid)
                  for _, split in mine.groupby("split_id")]  # fmt: skip
        for i, curve in enumerate(curves):
            panel.plot(grid, curve, color="#BBBBBB", linewidth=0.5, zorder=1,
                       label=frontier_lines[0] if i == 0 else None)  # fmt: skip
        panel.plot(grid, np.mean(curves, axis=0), color="black", linewidth=1.1, zorder=2,
                   label=frontier_lines[1])  # fmt: skip
        clipped = shown.assign(gap=shown["violation"], accuracy=shown["accuracy"].clip(floor))
        _scatter(panel, clipped, styles, order, selection, pd.Series(True, clipped.index))
        measure = CONSTRAINT_MEASURES[constraint]  # its own name is long for a column
        default = constraint.replace("_", " ") + "\nviolation"
        panel.set_xlabel(selection.labels.get(measure, default))
    margin = 0.04 * (top - floor) or 0.01
    axes[0].set_ylim(floor - margin, top + margin)
    axes[0].set_ylabel(selection.label("accuracy"))
    return _finish(canvas, layout)


def _critical_difference(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Draw average ranks over datasets and attributes with the Nemenyi critical difference.

    A row per algorithm, its average rank with a bar of half the critical difference each way:
    two algorithms differ by the Nemenyi test exactly where their bars do not overlap (Demšar
    2006, §3.2.2), the same reading as the diagram's joined groups, at any width.
    """
    measure = x or "accuracy"
    measures = selection.measures(store.measures())
    variants = measures["variant"].unique()
    if len(variants) != 1:
        raise ValueError(
            f"the critical-difference figure ranks one variant; the selection holds "
            f"{len(variants)} ({', '.join(sorted(variants))}): choose one with variants"
        )
    where = ["dataset", "sensitive_attribute"]
    table = compare.scores(shown_runs(store, measures), measure).pivot_table(
        index=where, columns="algorithm", values="score"
    )
    test = compare.friedman(table.dropna(axis=1))  # raises with fewer than two datasets
    names = [selection.label(n) for n in test.ranks.index]  # one setting per dataset each
    figure, panel = _rows_panel(layout, ax, names, label_lines=3)
    rows = np.arange(len(names))[::-1]
    half = test.critical_difference / 2
    panel.errorbar(test.ranks, rows, xerr=half, fmt="o", markersize=3.5, color="#4477AA",
                   elinewidth=1.0, capsize=2)  # fmt: skip
    reach = (min(0.5, test.ranks.min() - half), max(len(names) + 0.5, test.ranks.max() + half))
    panel.set_xlim(reach[1] + 0.1, reach[0] - 0.1)  # the best rank (1) on the right
    panel.set_xlabel(  # right-aligned: a long line runs under the names, not off the page
        f"average rank of {selection.label(measure)} (1 best)\n"
        f"bars ± CD/2 = {half:.2f}: apart, Nemenyi {test.alpha:g}\n"
        f"Friedman p = {test.pvalue:.2g}, {test.datasets} datasets",
        loc="right",
    )
    panel.grid(axis="x", linewidth=0.3)
    return figure


@contextlib.contextmanager
def opened(results: str | Path | ResultStore) -> Iterator[ResultStore]:
    """Open a results folder's store for reading (a store given is used as it is, left open).

    Parameters
    ----------
    results
        The results folder, or an open store.

    Yields
    ------
    ResultStore
        The store, holding at least one run.

    Raises
    ------
    StoreError
        If the store cannot be read, or holds no run (nothing to draw).
    """
    with contextlib.ExitStack() as stack:
        if not isinstance(results, ResultStore):
            results = stack.enter_context(ResultStore(results, readonly=True))
        results.require_runs()
        yield results


def shown_runs(store: ResultStore, measures: pd.DataFrame) -> pd.DataFrame:
    """Return the runs the report shows of each algorithm in the selected measures.

    :func:`~faircompare.analysis.tidy.representative` with the store's validation measures:
    an algorithm run over its grid only is shown tuned for accuracy where its runs were
    tuned, as in the report's tables and figures.

    Parameters
    ----------
    store
        The study's results.
    measures
        Its selected test measures (:meth:`Selection.measures`).

    Returns
    -------
    pandas.DataFrame
        The chosen runs' measures, a ``setting`` column saying how each was chosen.
    """
    return tidy.representative(measures, store.measures("validation"))


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


def algorithm_of(algorithms: Iterable[str]) -> dict[str, str]:
    """Return the algorithm each name of a representative setting names.

    :func:`~faircompare.analysis.tidy.representative` shows an algorithm with its defaults,
    tuned for accuracy (``zafar-accuracy``) or its grid pooled (``calders (grid)``); each of
    those names maps back to the algorithm, whose label a selection gives.

    Parameters
    ----------
    algorithms
        The algorithms (registry names).

    Returns
    -------
    dict
        ``{name of a setting: algorithm}``.
    """
    settings = (DEFAULTS, TUNED, POOLED)
    return {tidy.label(a, s): a for a in set(algorithms) for s in settings}


def _rows_panel(
    layout: Layout, ax: Axes | None, names: Sequence[str], label_lines: int = 1
) -> tuple[Figure, Axes]:
    """Return a one-panel figure with a row per name (best on top), its height from the rows."""
    room = max((_text_width(n, layout.font_size - 1) for n in names), default=0.0)
    rows_height = max(0.2 * len(names) + 0.3, MIN_PANEL)
    below = _BELOW + (label_lines - 1) * _LINE * layout.font_size / 72
    layout = replace(layout, height=layout.height or rows_height + below + 0.15)
    canvas = _canvas(layout, ax, 1, [], aspect=1.0, label_room=room + 0.4)
    figure, axes = canvas.figure, canvas.axes
    axes[0].set_yticks(np.arange(len(names))[::-1], names)
    return figure, axes[0]


def _correlations(
    store: ResultStore, selection: Selection, layout: Layout, ax: Axes | None,
    x: str | None, y: str | None, names: Sequence[str] | None,
) -> Figure:  # fmt: skip
    """Draw the Pearson correlations of measures across the selected runs (Fig. 3)."""
    names = [check_choice(name, MEASURES, what="measure") for name in names or CORRELATED]
    measures = selection.measures(store.measures())
    correlations = tidy.measure_correlations(measures, by=(), names=names)
    matrix = tidy.correlation_matrix(correlations).reindex(index=names, columns=names)
    matrix = matrix.dropna(how="all").dropna(axis=1, how="all")
    labels = [selection.label(n) for n in matrix.index]
    small = layout.font_size - 1
    room = max(_text_width(n, small) for n in labels) + 0.15
    cell = (layout.width - room - 0.7) / len(labels)  # 0.7: the colour bar and its labels
    if cell < _LINE * small / 72:
        raise FigureFitError(
            f"{len(labels)} measures need {len(labels) * _LINE * small / 72 + room + 0.7:.1f} "
            f"in at {layout.font_size:g} pt; the figure is {layout.width:g} in wide: select "
            "fewer measures or draw it wider"
        )
    layout = replace(layout, height=layout.height or cell * len(labels) + room + 0.1)
    canvas = _canvas(layout, ax, 1, [], aspect=1.0, label_room=room)
    figure, axes = canvas.figure, canvas.axes
    panel = axes[0]
    image = panel.imshow(matrix.to_numpy(float), cmap="RdBu", vmin=-1, vmax=1)
    ticks = np.arange(len(labels))
    panel.set_xticks(ticks, labels, rotation=90)
    panel.set_yticks(ticks, labels)
    bar = figure.colorbar(image, ax=panel, shrink=0.8)
    bar.set_label("Pearson correlation")
    return figure


def _styles(stored: pd.DataFrame) -> dict[str, Style]:
    """Return the styles the study's report gives its algorithms (the same in every figure).

    ``stored`` is every measure of the study, not the selected ones: an algorithm keeps its
    colour whatever else is shown.
    """
    return study_styles(stored["algorithm"].unique())


@dataclass(frozen=True)
class _Canvas:
    """Where a kind draws: a planned figure, or the user's axes (``plan`` None)."""

    figure: Figure
    axes: list[Axes]
    plan: _Plan | None


def _canvas(
    layout: Layout, ax: Axes | None, panels: int, entries: Sequence[str], *, aspect: float,
    label_room: float = 0.55,
) -> _Canvas:  # fmt: skip
    """Return the figure and panels to draw in: the user's axes (one panel), or a new figure."""
    if ax is not None:
        if panels != 1:
            raise ValueError(f"ax= takes one panel; this selection draws {panels}")
        figure = ax.get_figure()
        assert isinstance(figure, Figure)
        return _Canvas(figure, [ax], None)
    plan = _plan(layout, panels, entries, aspect, label_room)
    figure = PrintFigure(figsize=plan.size, layout=ConstrainedLayoutEngine(w_pad=0.02, h_pad=0.02))
    axes = figure.subplots(1, plan.columns, squeeze=False, sharey=True)[0]
    return _Canvas(figure, list(axes), plan)


def _finish(canvas: _Canvas, layout: Layout) -> Figure:
    """Place the legend (inside the user's axes, or where the layout asks) and return it."""
    if canvas.plan is None:
        if layout.legend != "off" and canvas.axes[0].get_legend_handles_labels()[1]:
            canvas.axes[0].legend(frameon=False)
    else:
        _legend(canvas.figure, canvas.axes, layout, canvas.plan.legend_columns)
    return canvas.figure


@dataclass(frozen=True)
class Kind:
    """A figure kind :func:`draw` makes.

    Attributes
    ----------
    name
        Its name (``faircompare figure NAME``).
    shows
        What it shows, in one line.
    axes
        What ``x`` and ``y`` choose, and their defaults.
    draw
        Draws it from a store, a selection and a layout, into ``ax`` or a new figure.
    """

    name: str
    shows: str
    axes: str
    draw: Callable[..., Figure]


_DRAWN = {
    "tradeoff": _tradeoff,
    "stability": _stability,
    "intervals": _intervals,
    "equal-fairness": _equal_fairness,
    "critical-difference": _critical_difference,
    "correlations": _correlations,
}
#: Every figure kind, by name (their texts: :data:`faircompare.names.FIGURE_KINDS`).
KINDS: dict[str, Kind] = {
    name: Kind(name, shows, axes, _DRAWN[name]) for name, (shows, axes) in FIGURE_KINDS.items()
}


def draw(
    kind: str,
    results: str | Path | ResultStore,
    *,
    datasets: Sequence[str] | None = None,
    attributes: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
    algorithms: Sequence[str] | None = None,
    splits: Sequence[int] | None = None,
    labels: Mapping[str, str] | None = None,
    x: str | None = None,
    y: str | None = None,
    measures: Sequence[str] | None = None,
    width: float = COLUMN,
    height: float | None = None,
    font_size: float = 8.0,
    legend: str = "below",
    ax: Axes | None = None,
) -> Figure:
    """Draw one figure kind of a study, at the size and over the runs asked.

    Parameters
    ----------
    kind
        A name of :data:`KINDS`.
    results
        A results folder (holding ``results.sqlite``), or its open store.
    datasets, attributes, variants, algorithms, splits, labels
        The runs shown and their display names (:class:`Selection`).
    x, y
        The measures on the axes, where the kind has a choice (:data:`KINDS` says which).
    measures
        The measures a correlations figure shows (:data:`CORRELATED` by default).
    width, height, font_size, legend
        The figure's size and look (:class:`Layout`).
    ax
        Axes of your own to draw a one-panel kind into (its legend goes inside them); the
        layout's size is then the axes' own.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``ax``'s, when given); ``figure.savefig("name.pdf")`` writes it.

    Raises
    ------
    FigureFitError
        When the selection cannot be drawn readably at the size asked.
    ValueError
        For an unknown kind, or a selected value the results do not hold.
    StoreError
        If the store cannot be read (damaged, foreign) or holds no run.
    """
    chosen = KINDS[check_choice(kind, KINDS, what="figure kind")]
    selection = Selection(datasets, attributes, variants, algorithms, splits, dict(labels or {}))
    layout = Layout(width, height, font_size, legend)
    with opened(results) as store, paper_style(font_size):
        return chosen.draw(store, selection, layout, ax, x, y, measures)
