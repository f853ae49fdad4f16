"""Friedler et al.'s published results reproduced: read, run what is missing, compare, write.

>>> from faircompare.config import BenchmarkConfig
>>> from faircompare.reproduction import reproduce
>>> done = reproduce("fairness-comparison-results", "reproduction",
...                  BenchmarkConfig(splits=10, audits=False))  # doctest: +SKIP
>>> done.table.query("verdict == 'differs'")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from faircompare.analysis.figures import save
from faircompare.benchmark.schedule import Progress
from faircompare.benchmark.summary import Summary
from faircompare.config.settings import BenchmarkConfig
from faircompare.reproduction.figure import sweep_figure
from faircompare.reproduction.published import read_published
from faircompare.reproduction.study import planned_settings, run_reproduction
from faircompare.reproduction.table import reproduction_table
from faircompare.results.store import ResultStore
from faircompare.safe_write import write_text

__all__ = ["TABLE", "Reproduction", "reproduce"]

TABLE = "reproduction.csv"  # the table's file in the results folder
SWEEPS = "reproduction-sweeps"  # the sweeps' figure, beside it


@dataclass(frozen=True)
class Reproduction:
    """What :func:`reproduce` did.

    Attributes
    ----------
    table
        :func:`~faircompare.reproduction.reproduction_table`'s rows.
    published
        The published rows read, with the ``note`` of those not reproduced.
    summary
        The runs this call ran and the planned runs that failed.
    path
        Where the table was written.
    sweeps
        The files of the sweeps' figure (:func:`~.figure.sweep_figure`); empty without sweeps.
    """

    table: pd.DataFrame
    published: pd.DataFrame
    summary: Summary
    path: Path
    sweeps: tuple[Path, ...] = ()


def reproduce(
    published: str | Path,
    results: str | Path,
    config: BenchmarkConfig,
    *,
    as_published: bool = False,
    sweeps: bool = True,
    datasets: Iterable[str] = (),
    attributes: Iterable[str] = (),
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> Reproduction:
    """Reproduce the original benchmark's published results and compare, cell by cell.

    Parameters
    ----------
    published
        A folder of the original's result files (:func:`~.published.read_published`).
    results
        The results folder the runs are stored in, and the table written to
        (``reproduction.csv``).
    config
        What every run shares: splits (the original ran 10), seed, time limit, workers, data
        locations; audits are not needed for the comparison.
    as_published
        Also run every setting with each departure's switch, alone and together
        (:mod:`~faircompare.reproduction.departures`), so that the table names each
        difference's cause.
    sweeps
        Also reproduce the parameter sweeps (the files in ``sweeps/``).
    datasets, attributes
        Reproduce only these datasets and sensitive attributes (all when empty).
    progress
        Called after each stored run (a progress bar).
    say
        Called with a line for each note on the way.

    Returns
    -------
    Reproduction
        The table, the published rows read, what ran, and where the table and the sweeps'
        figure are.
    """
    rows = read_published(published, datasets=datasets, attributes=attributes)
    if not sweeps:
        rows = rows[~rows["sweep"]]
    planned = planned_settings(rows, as_published=as_published)
    summary = run_reproduction(planned, results, config, progress=progress, say=say)
    with ResultStore(results, readonly=True) as store:
        table = reproduction_table(rows, store.measures())
    path = write_text(Path(results) / TABLE, table.to_csv(index=False), Path(results))
    figure = sweep_figure(table)
    drawn = () if figure is None else tuple(save(figure, results, SWEEPS, formats=("png", "pdf")))
    return Reproduction(table, rows, summary, path, drawn)
