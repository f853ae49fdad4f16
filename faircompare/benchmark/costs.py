"""What a run is expected to cost: the runner starts the longest first and weighs the time left.

The table ``costs.csv`` beside this module holds the CPU seconds of one run of each (dataset,
algorithm) cell as ``perf/paper_estimate.py --write-costs`` measured them (fit, tuning fit,
predictions and audits, one thread), with the dataset's rows. A cell it lacks is scaled from the
cells it has: the algorithm's seconds per row on the measured datasets (their median) times the
dataset's rows, or, for an algorithm never measured (a plugin), the median over every algorithm.
Scaling by rows is a rough guide, and is only used to order runs and to weigh the time left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import median

import pandas as pd

from faircompare.records import RunSpec

COSTS = Path(__file__).with_name("costs.csv")


@dataclass(frozen=True)
class CostModel:
    """Expected CPU seconds per run, measured per (dataset, algorithm) cell.

    Attributes
    ----------
    seconds
        ``{(dataset, algorithm): CPU seconds of one run}``, as measured.
    rows
        The measured datasets' rows.
    """

    seconds: Mapping[tuple[str, str], float]
    rows: Mapping[str, int]

    def run_seconds(self, dataset: str, algorithm: str, rows: int | None = None) -> float:
        """Return the expected CPU seconds of one run of ``algorithm`` on ``dataset``.

        Parameters
        ----------
        dataset, algorithm
            The cell.
        rows
            The dataset's rows, for a cell the table lacks (the measured rows when known).

        Returns
        -------
        float
            The measured seconds, or seconds per row scaled to the dataset's rows; 1 for every
            run when nothing was measured.
        """
        if not self.seconds:
            return 1.0
        if (dataset, algorithm) in self.seconds:
            return self.seconds[dataset, algorithm]
        per_row = {cell: s / self.rows[cell[0]] for cell, s in self.seconds.items()}
        own = [rate for (_, name), rate in per_row.items() if name == algorithm]
        rate = median(own or list(per_row.values()) or [0.0])
        size = rows or self.rows.get(dataset) or median(list(self.rows.values()) or [1])
        return rate * size

    def plan_seconds(
        self, runs: Iterable[RunSpec], rows: Mapping[str, int] | None = None
    ) -> dict[str, float]:
        """Return every run's expected CPU seconds, by key.

        Parameters
        ----------
        runs
            The planned runs.
        rows
            Rows of datasets the table lacks (user datasets), by name.

        Returns
        -------
        dict
            Expected seconds by run key.
        """
        rows = rows or {}
        return {
            run.key: self.run_seconds(run.dataset, run.algorithm, rows.get(run.dataset))
            for run in runs
        }


def plan_table(runs: Iterable[RunSpec], seconds: Mapping[str, float]) -> pd.DataFrame:
    """Return a plan's runs and expected CPU-hours per dataset and algorithm.

    Parameters
    ----------
    runs
        The planned runs.
    seconds
        Each run's expected CPU seconds, by key (:meth:`CostModel.plan_seconds`).

    Returns
    -------
    pandas.DataFrame
        Indexed by dataset and algorithm in plan order: ``runs`` and ``CPU-hours``.
    """
    frame = pd.DataFrame(
        [(run.dataset, run.algorithm, seconds[run.key] / 3600) for run in runs],
        columns=["dataset", "algorithm", "CPU-hours"],
    )
    grouped = frame.groupby(["dataset", "algorithm"], sort=False)["CPU-hours"]
    return pd.concat([grouped.size().rename("runs"), grouped.sum()], axis=1)


@cache
def cost_model(path: Path = COSTS) -> CostModel:
    """Return the cost model of the measured table (an empty model when there is none).

    Parameters
    ----------
    path
        The table: ``dataset``, ``algorithm``, ``rows``, ``seconds``.

    Returns
    -------
    CostModel
        Its cells; every run costs the same (one) with an empty table.
    """
    if not path.is_file():
        return CostModel({}, {})
    table = pd.read_csv(path)
    seconds = {(d, a): float(s) for d, a, s in table[["dataset", "algorithm", "seconds"]].values}
    rows = dict(zip(table["dataset"], table["rows"].astype(int), strict=True))
    return CostModel(seconds, rows)


def write_costs(measured: pd.DataFrame, path: Path = COSTS) -> None:
    """Merge newly measured cells into the table (they replace earlier measurements).

    Parameters
    ----------
    measured
        Columns ``dataset``, ``algorithm``, ``rows``, ``seconds``.
    path
        The table to update.
    """
    cells = ["dataset", "algorithm"]
    table = pd.read_csv(path) if path.is_file() else measured.iloc[:0]
    table = pd.concat([table, measured]).drop_duplicates(cells, keep="last")
    table.sort_values(cells).to_csv(path, index=False)
    cost_model.cache_clear()
