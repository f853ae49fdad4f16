"""One figure for a paper: a kind of the report, at the size, selection and labels asked.

The report draws every figure of a study at its own layout. A paper needs one of them, 3.5
inches wide for a column or 7 for a page, over the algorithms and datasets it discusses, under
the names it gives them. :func:`draw` makes it from a results folder with the same code as the
report (:mod:`faircompare.analysis.kinds`)::

    from faircompare.analysis import paper

    figure = paper.draw(
        "tradeoff", "results", datasets=["german", "adult"], algorithms=["massaging-lr", "svm"],
        labels={"massaging-lr": "Ours", "german": "German credit"}, width=3.5,
    )
    figure.savefig("tradeoff.pdf")

and ``faircompare figure tradeoff --results results --out tradeoff.pdf`` the same from the
command line. The figure is drawn in the paper style
(:func:`~faircompare.analysis.style.paper_style`): text of 8 points, thin lines, each algorithm
in the colour and marker its name gives it in every study
(:func:`~faircompare.analysis.style.algorithm_styles`), a panel per dataset, attribute and
variant with its own range, and fonts embedded as TrueType however it is saved. Its size is
computed before drawing: a legend or a set of panels that cannot fit the width asked raises
:class:`FigureFitError`, naming the selection or the width that would fit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._validation import check_choice
from faircompare.analysis import tidy
from faircompare.analysis.canvas import FigureFitError, Layout
from faircompare.analysis.kinds import KINDS, Kind
from faircompare.analysis.kinds.correlations import CORRELATED
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.choices import COLUMN, FONT_SIZE, LEGENDS, PAGE
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
        The store, holding at least one done run.

    Raises
    ------
    StoreError
        If the store cannot be read, or holds no done run (nothing to draw).
    """
    with contextlib.ExitStack() as stack:
        if not isinstance(results, ResultStore):
            results = stack.enter_context(ResultStore(results, readonly=True))
        results.require_runs(done=True)
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
    font_size: float = FONT_SIZE,
    legend: str = LEGENDS[0],
    sharey: bool = False,
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
        The measures on the axes, where the kind has a choice (:data:`KINDS` says which); the
        test of a p-values, threshold or flipset figure (a metric, or the flipset).
    measures
        The measures a correlations figure shows (:data:`CORRELATED` by default), or an
        intervals figure, a panel each (``x`` alone by default), or a pairs figure up, a panel
        each (Fig. 4's by default).
    width, height, font_size, legend, sharey
        The figure's size and look (:class:`Layout`): by default each panel has its own y range.
    ax
        Axes of your own to draw one panel into (its legend goes inside them, its text at
        ``font_size``); the layout's size is then the axes' own.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (``ax``'s, when given); ``figure.savefig("name.pdf")`` writes it.

    Raises
    ------
    FigureFitError
        When the selection cannot be drawn readably at the size asked.
    ValueError
        For an unknown kind, or a selected value or measure the results do not hold.
    StoreError
        If the store cannot be read (damaged, foreign) or holds no run.
    """
    chosen = KINDS[check_choice(kind, KINDS, what="figure kind")]
    selection = Selection(datasets, attributes, variants, algorithms, splits, dict(labels or {}))
    layout = Layout(width, height, font_size, legend, sharey)
    options = {"measures": tuple(measures)} if measures and "measures" in chosen.options else {}
    with opened(results) as store:
        study = StudyFrames.read(store)
        stored = sorted(study.measures["measure"].unique())
        for name in (x, y, *(measures or ())):
            if name is not None and chosen.names_measures:
                check_choice(name, stored, what="measure")
        if ax is not None:  # the user's axes hold one panel: no panel per family
            study = replace(study, families={})
        frames = chosen.frames(study, selection, x, y, **options)
    return chosen.draw(frames, layout, ax)
