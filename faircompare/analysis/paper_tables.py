"""One table for a paper: a kind the report writes, alone, over the runs and names asked.

:func:`table` makes it from a results folder, as :func:`~faircompare.analysis.paper.draw` makes
a figure, and ``faircompare table KIND --out table.tex`` the same from the command line::

    from faircompare.analysis.paper_tables import table

    intervals = table("intervals", "results", datasets=["german"], labels={"massaging-lr": "Ours"})
    Path("intervals.tex").write_text(intervals.latex())

A kind with a best value per column (the highest accuracy, the fairness measure nearest its
ideal) sets it in bold in the LaTeX table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from faircompare._validation import check_choice
from faircompare.analysis import compare, equal_fairness, flags, tables, tidy
from faircompare.analysis.kinds.intervals import intervals_of
from faircompare.analysis.paper import opened, shown_runs
from faircompare.analysis.selection import Selection, algorithm_of
from faircompare.choices import TABLE_KINDS
from faircompare.measures import MEASURES
from faircompare.results import ResultStore

__all__ = ["PaperTable", "table"]


@dataclass(frozen=True)
class PaperTable:
    """A table for a paper: its formatted cells, the numbers behind them, and its best cells.

    Attributes
    ----------
    shown
        The cells as the paper prints them ("0.741 ± 0.012").
    numbers
        The numbers behind them, one column each (the CSV).
    best
        Each column of ``shown`` with a best value, and the row holding it.
    caption
        What the table shows.
    """

    shown: pd.DataFrame
    numbers: pd.DataFrame
    best: Mapping[str, object]
    caption: str

    def latex(self) -> str:
        """Return the table as a LaTeX ``booktabs`` table, each column's best cell in bold.

        Returns
        -------
        str
            The LaTeX source (it needs the ``booktabs`` package).
        """
        return tables.to_latex(self.shown, caption=self.caption, bold=self.best)

    def csv(self) -> str:
        """Return the numbers behind the table as CSV.

        Returns
        -------
        str
            The CSV text, a row per number's algorithm (and measure or constraint).
        """
        return self.numbers.to_csv(index=False)


def _rows(frame: pd.DataFrame, selection: Selection) -> pd.DataFrame:
    """Order an algorithm per row as the selection orders them, under their display names."""
    names = _names(frame, selection)
    frame = frame.set_index("algorithm").loc[selection.order(frame["algorithm"].unique())]
    return frame.drop(columns="setting").rename(index=names).rename_axis(None)


def _names(frame: pd.DataFrame, selection: Selection) -> dict[str, str]:
    """Return each algorithm's display name in its setting, as the report names it."""
    settings = frame.drop_duplicates("algorithm").set_index("algorithm")["setting"]
    return {a: selection.label(a, setting) for a, setting in settings.items()}


def _measures(store: ResultStore, selection: Selection, names: Sequence[str] | None) -> PaperTable:
    """Each algorithm's mean ± sd over splits of key measures (Friedler et al. §7.1)."""
    names = list(names or tables.KEY_MEASURES)
    measures = selection.compared(store.measures())
    where = selection.configuration(measures, "measures table")
    chosen = shown_runs(store, measures)
    cells = flags.stored_cell_flags(store, chosen, names)
    cells_flags = cells.set_index(["algorithm", "measure"])["flag"]
    summary = tidy.stability(chosen, names)
    flagged = summary.set_index(["algorithm", "measure"]).index.map(cells_flags).fillna("")
    summary = summary.assign(flag=list(flagged))
    mean = summary.pivot_table(index="algorithm", columns="measure", values="mean")
    shown_names = [n for n in names if n in mean.columns]
    order = selection.order(mean.index)
    names_of = _names(summary, selection)
    best = {}
    for name in shown_names:
        winner = _best(chosen, name, summary, order) if MEASURES[name].has_best else None
        if winner is not None:
            best[selection.label(name)] = names_of[winner]
    labelled = dict(zip(tidy.labelled(summary)["algorithm"], summary["algorithm"], strict=True))
    cells = tables.measure_table(summary[summary["measure"].isin(shown_names)])
    cells = cells.rename(index=labelled)  # by algorithm, as the selection orders them
    shown = cells.loc[order, shown_names].rename(index=names_of, columns=selection.label)
    numbers = summary[summary["algorithm"].isin(order)]
    caption = (
        f"Mean ± sd over splits, {_where(selection, where)}; bold: the best of each column, "
        "the highest mean score (a fairness measure's score is its gap from its ideal, negated, "
        "as the intervals table reads it; a group-conditioned measure, the mean of each "
        "group's rate, has none); a flagged cell, which is never the best, says why it is no "
        "result: one class predicted, a rate from few events, fewer splits"
    )
    return PaperTable(shown.rename_axis(index=None, columns=None), numbers, best, caption)


def _best(
    chosen: pd.DataFrame, measure: str, summary: pd.DataFrame, order: Sequence[str]
) -> str | None:
    """Return the algorithm whose mean score on ``measure`` is highest, its cell unflagged."""
    flagged = summary.loc[(summary["measure"] == measure) & (summary["flag"] != ""), "algorithm"]
    runs = chosen[chosen["algorithm"].isin(order) & ~chosen["algorithm"].isin(flagged)]
    if not (runs["measure"] == measure).any():  # every cell flagged
        return None
    score = compare.scores(runs, measure).groupby("algorithm")["score"].mean().dropna()
    return str(score.idxmax()) if len(score) else None


def _where(selection: Selection, where: Sequence[str]) -> str:
    """Return a configuration in the selection's labels: ``German credit, Sex, numerical``."""
    return ", ".join(selection.label(part) for part in where)


def _intervals(store: ResultStore, selection: Selection, names: Sequence[str] | None) -> PaperTable:
    """Each algorithm's mean score with its corrected 95% interval over splits."""
    names = list(names or ("accuracy",))
    measures = selection.compared(store.measures())
    where = selection.configuration(measures, "intervals table")
    chosen = shown_runs(store, measures)
    cells = flags.stored_cell_flags(store, chosen, names)
    flagged = cells[cells["flag"] != ""].assign(algorithm=lambda c: tidy.labelled(c)["algorithm"])
    comparable = chosen[~flags.flagged_rows(chosen, cells)]  # a flagged cell: no interval
    columns, numbers, best = {}, [], {}
    ranked: list[str] = []
    for name in names:
        found = intervals_of(comparable, name, "intervals table")
        label = compare.score_name(name, selection.label(name))
        columns[label] = found.apply(
            lambda r: f"{r['mean']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]", axis=1
        )
        mine = flagged[flagged["measure"] == name].set_index("algorithm")["flag"]
        columns[label] = pd.concat([columns[label], "flag: " + mine])  # no interval: its flag
        best[label] = found["mean"].idxmax()  # scores: higher is better; never a flagged cell
        ranked = ranked or list(found.index)  # the first measure's order: best first
        numbers.append(found.reset_index(names="algorithm").assign(measure=name))
    shown = pd.DataFrame(columns)  # rows: the settings' labels, best first
    ranked += [row for row in shown.index if row not in ranked]  # flagged in the first measure
    named = algorithm_of(chosen["algorithm"], tidy.budgets_run(chosen))
    order = selection.ranked(ranked, named)
    names_of = {label: selection.labels.get(named[label], label) for label in order}
    best = {column: names_of[row] for column, row in best.items()}
    caption = (
        f"Mean score with its corrected 95% interval over splits (Nadeau & Bengio), "
        f"{_where(selection, where)}; bold: the highest mean; a flagged cell (one class "
        "predicted, a rate from few events) is no result and has no interval"
    )
    shown = shown.loc[order].rename(index=names_of)
    return PaperTable(shown, pd.concat(numbers, ignore_index=True), best, caption)


def _equal_fairness(
    store: ResultStore, selection: Selection, names: Sequence[str] | None
) -> PaperTable:
    """Each algorithm's accuracy minus the frontier's at its own violation (Cruz & Hardt)."""
    measures = selection.measures(store.measures(), by_algorithm=False)
    where = selection.configuration(measures, "equal-fairness table")
    found = equal_fairness.equal_fairness_table(measures, store.measures("validation"))
    if found.empty:
        raise ValueError("no algorithm to compare with a frontier (unprocessed-*) in the selection")
    algorithms = found["algorithm"].map(
        algorithm_of(measures["algorithm"], tidy.budgets_run(measures))
    )
    if selection.algorithms is not None:
        kept = algorithms.isin(selection.algorithms)
        found, algorithms = found[kept], algorithms[kept]
    display = [
        selection.labels.get(a, name)
        for a, name in zip(algorithms, found["algorithm"], strict=True)
    ]
    cells = found.assign(
        algorithm=display,
        difference=[
            f"{d:+.3f}" + ("" if np.isnan(low) else f" [{low:+.3f}, {high:+.3f}]")
            for d, low, high in zip(
                found["difference"], found["ci_low"], found["ci_high"], strict=True
            )
        ],
        constraint=found["constraint"].str.replace("_", " "),
    ).set_index(["constraint", "algorithm"])[["difference", "above", "verdict"]]
    caption = equal_fairness.caption(found["frontier"].iloc[0], _where(selection, where))
    return PaperTable(cells.rename_axis(index=[None, None]), found, {}, caption)


def _audits(store: ResultStore, selection: Selection, names: Sequence[str] | None) -> PaperTable:
    """Share of splits whose audits reject, and FlipTest's rates, per algorithm."""
    measures = selection.measures(store.measures())
    where = selection.configuration(measures, "audits table")
    chosen = shown_runs(store, measures)
    settings = chosen.drop_duplicates("key").set_index("key")["setting"]
    audits = store.audits()
    audits = audits[audits["key"].isin(settings.index)]
    audits = audits.assign(setting=audits["key"].map(settings))
    outcomes = tidy.audit_outcomes(audits)
    columns = [c for c in tables.AUDIT_NAMES if c in outcomes.columns]  # the report's order
    named = outcomes[["algorithm", "setting", *columns, "splits"]]
    shown = _rows(named.rename(columns=tables.AUDIT_NAMES), selection).round(3)
    caption = (
        f"Audits: share of splits rejecting, among the verdicts their Monte Carlo error leaves "
        f"decided; FlipTest: mean rates: {_where(selection, where)}"
    )
    return PaperTable(shown, outcomes, {}, caption)


_MADE: dict[str, Callable[[ResultStore, Selection, Sequence[str] | None], PaperTable]] = {
    "measures": _measures,
    "intervals": _intervals,
    "equal-fairness": _equal_fairness,
    "audits": _audits,
}


def table(
    kind: str,
    results: str | Path | ResultStore,
    *,
    datasets: Sequence[str] | None = None,
    attributes: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
    algorithms: Sequence[str] | None = None,
    splits: Sequence[int] | None = None,
    labels: Mapping[str, str] | None = None,
    measures: Sequence[str] | None = None,
) -> PaperTable:
    """Make one table kind of a study, over the runs and under the names asked.

    Parameters
    ----------
    kind
        A name of :data:`faircompare.choices.TABLE_KINDS`.
    results
        A results folder, or its open store.
    datasets, attributes, variants, algorithms, splits, labels
        The runs shown and their display names
        (:class:`~faircompare.analysis.paper.Selection`); every kind shows one dataset,
        attribute and variant.
    measures
        The measures: columns of ``measures`` (default: the report's key measures) and of
        ``intervals`` (default: accuracy).

    Returns
    -------
    PaperTable
        The table; ``.latex()`` and ``.csv()`` give its text.

    Raises
    ------
    StoreError
        If the store cannot be read (damaged, foreign) or holds no run.
    """
    made = _MADE[check_choice(kind, TABLE_KINDS, what="table kind")]
    selection = Selection(datasets, attributes, variants, algorithms, splits, dict(labels or {}))
    with opened(results) as store:
        return made(store, selection, measures)
