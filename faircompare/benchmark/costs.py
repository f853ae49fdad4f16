"""What a run is expected to cost: the dry run's total, the order of the runs, the time left.

The table ``costs.csv`` beside this module holds, for each (dataset, algorithm) cell, the CPU
seconds of one run's parts as ``perf/paper_estimate.py --write-costs`` measured them (one
thread, a fit shared by several runs counted once), with the dataset's rows:

- ``run``: what a run costs without audits: the split, the predictions and the measures, and
  the fit unless the ``fit`` column holds it;
- ``fit``: one fit of the model, which the runs sharing it (:attr:`RunSpec.fit_key`: a
  baseline's attributes and numeric variants, a frontier's points) make once; empty in cells
  measured before the column, whose ``run`` holds the fit's share as their profile shared it;
- ``tuning``: the fit on the training data less its validation part, with its predictions and
  measures, for the runs that tune (a grid's);
- ``refit`` and ``tuning refit``: where runs share a fit through their
  :attr:`~faircompare.records.RunSpec.refit_params` (a sweep over Feldman's repair levels),
  the refit of its last step that every run of the fit but the first makes, on the training
  data and, for the runs that tune, on the tuning data;
- one column per audit (``permutation`` at a fixed :data:`MEASURED_PERMUTATIONS`
  permutations, ``fliptest``, ``individual``): its mean over the cell's runs, those it does not
  apply to counting nothing.

The rows whose algorithm is :data:`SETUP` hold each audit's setup of one split of the dataset
(the FlipTest map, the fair metric), which a worker builds once for every run of the split.
Each row's ``calibration`` holds the seconds the calibration workload took on the machine that
measured it (:mod:`~faircompare.benchmark.calibration`): the model brings every row to one
machine's speed, and :meth:`CostModel.on_machine` scales them all to this one's.

A run is priced by what will run (:class:`Pricing`): its ``run`` part, its share of the fit it
shares with other planned runs, its refits where it shares the fit through its refit parameters
(every run of the fit but one refits), its tuning if it tunes, the audits enabled (none with
``--no-audits``, nor for a run not audited), the permutation audit at :data:`SEQUENTIAL` times
its measured cost (its tests are sequential: what they draw depends on their p-values, hardly on
the cap), and its share of its split's setups. A run that repeats another
(:attr:`~faircompare.records.RunSpec.repeats`) costs :data:`REPEAT_SECONDS`: it measures the
other's predictions. A cell the table lacks is scaled part by part
from the cells it has: the algorithm's seconds per row on the measured datasets (their median)
times the dataset's rows, or, for an algorithm never measured (a plugin), the median over every
algorithm. The dry run, the longest-first order and the progress line's time left all use this
one model.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from statistics import median

import pandas as pd

from faircompare.audits import registered_audits
from faircompare.config.settings import BenchmarkConfig
from faircompare.preprocessing.splits import VALIDATION_FRACTION
from faircompare.records import RunSpec

COSTS = Path(__file__).with_name("costs.csv")
RUN = "run"  # the part of a run without audits and tuning
FIT = "fit"  # one fit, shared by the runs of one fit key
CALIBRATION = "calibration"  # seconds of the calibration workload where the row was measured
TUNING = "tuning"  # the tuning fit, its predictions and measures
REFIT = "refit"  # the refit of a run sharing its fit through its refit parameters
TUNING_REFIT = "tuning refit"  # and of its tuning fit
SETUP = "(setup)"  # the algorithm of the rows that hold each audit's setup of one split
MEASURED_PERMUTATIONS = 1000  # the permutations of the table's ``permutation`` column
# The sequential permutation tests' CPU seconds over those of the table's 1,000 permutations, on
# the default profile's runs at a cap of 300,000 (docs/measured/sequential_audits.py, whose
# figures file holds this line)
SEQUENTIAL = 6.1
# a repeating run: its split and its measures, test and validation (measured: 0.01 s on Adult
# and ProPublica, 0.07 s for the first of a split, which prepares its variant)
REPEAT_SECONDS = 0.02
# Runs side by side take their table's seconds (timed one at a time on an otherwise idle
# machine) times a ratio that depends on the mix of runs: on 2 workers here (2 cores, bare
# install), the `default` profile's 1,425 runs took 0.93 times their priced seconds and one split
# of the `paper` profile's 2,782 runs 1.13 times (perf/cost_model.py); this is their geometric
# mean. It was 1.35, from the `default` profile before the Feldman pipelines' work of #69.
SIDE_BY_SIDE = 1.03


def side_by_side(workers: int) -> float:
    """Return how many times its priced seconds a run takes beside ``workers - 1`` others.

    Parameters
    ----------
    workers
        The workers running at once.

    Returns
    -------
    float
        1 for one worker, :data:`SIDE_BY_SIDE` for more.
    """
    return SIDE_BY_SIDE if workers > 1 else 1.0


@dataclass(frozen=True)
class Pricing:
    """What a planned run will execute, as far as its cost goes.

    Attributes
    ----------
    audits
        The audits enabled (empty with ``--no-audits``); one the table never measured (a
        plugin's) costs nothing.
    permutations
        The permutation tests' cap (shown by the dry run; the cost is :data:`SEQUENTIAL`'s).
    """

    audits: tuple[str, ...] = ("permutation", "fliptest", "individual")
    permutations: int = MEASURED_PERMUTATIONS

    @classmethod
    def of(cls, settings: BenchmarkConfig) -> Pricing:
        """Return the pricing of runs executed with ``settings``.

        Parameters
        ----------
        settings
            The workers' settings: audited or not (``--no-audits``), and the permutations.

        Returns
        -------
        Pricing
            The registered audits (none without audits) and the permutations.
        """
        audits = tuple(registered_audits()) if settings.audits else ()
        return cls(audits, settings.permutations)

    def weight(self, part: str) -> float:
        """Return how many times a part's measured seconds a run spends on it."""
        if part in (RUN, FIT):
            return 1.0
        if part not in self.audits:
            return 0.0
        return SEQUENTIAL if part == "permutation" else 1.0


@dataclass(frozen=True)
class CostModel:
    """Expected CPU seconds per run, measured per (dataset, algorithm) cell and part.

    Attributes
    ----------
    seconds
        ``{(dataset, algorithm): {part: CPU seconds of one run}}``, as measured; the parts are
        ``run``, ``tuning`` and one per audit.
    rows
        The measured datasets' rows.
    setups
        ``{dataset: {audit: CPU seconds of its setup of one split}}``.
    reference
        The calibration workload's seconds on the machine whose speed ``seconds`` and
        ``setups`` are given at (None: not known).
    speed
        How many times slower than that machine runs are priced: 1 as measured,
        :meth:`on_machine` for this machine.
    """

    seconds: Mapping[tuple[str, str], Mapping[str, float]]
    rows: Mapping[str, int]
    setups: Mapping[str, Mapping[str, float]] | None = None
    reference: float | None = None
    speed: float = 1.0

    def on_machine(self, calibration: float) -> CostModel:
        """Return the model priced at the speed of a machine with this calibration time.

        Parameters
        ----------
        calibration
            The calibration workload's seconds there
            (:func:`~faircompare.benchmark.calibration.calibration_seconds`).

        Returns
        -------
        CostModel
            Every cell and setup scaled by ``calibration / reference``; the model itself
            when its reference is not known.
        """
        if self.reference is None:
            return self
        return replace(self, speed=calibration / self.reference)

    def run_seconds(
        self,
        dataset: str,
        algorithm: str,
        rows: int | None = None,
        pricing: Pricing = Pricing(),
        *,
        tune: bool = False,
        fit_share: float = 1.0,
        refits: bool = False,
    ) -> float:
        """Return the expected CPU seconds of one run of ``algorithm`` on ``dataset``.

        Parameters
        ----------
        dataset, algorithm
            The cell.
        rows
            The dataset's rows, for a cell the table lacks (the measured rows when known).
        pricing
            What the run executes (the audits enabled, the permutations).
        tune
            Whether the run tunes (:attr:`RunSpec.tune`).
        fit_share
            The share of its fit the run pays: 1 over the number of runs sharing it.
        refits
            Whether the run refits its shared fit's last step (:attr:`RunSpec.refits`), as
            every run of the fit but the first does: it pays the ``refit`` parts that share of
            the time.

        Returns
        -------
        float
            The measured parts that will run, or each part's seconds per row scaled to the
            dataset's rows, times :attr:`speed`; 1 for every run when nothing was measured.
            Its split's setups are not included (:meth:`plan_seconds` shares them among the
            split's runs).
        """
        if not self.seconds:
            return 1.0
        parts = self.seconds.get((dataset, algorithm))
        if parts is None:
            parts = _scaled(self.seconds, self.rows, algorithm, self._size(dataset, rows))
        weights = {
            TUNING: float(tune),
            FIT: fit_share,
            REFIT: float(refits) * (1 - fit_share),
            TUNING_REFIT: float(refits and tune) * (1 - fit_share),
        }
        return self.speed * sum(
            seconds * weights.get(part, pricing.weight(part)) for part, seconds in parts.items()
        )

    def trial_seconds(self, dataset: str, algorithm: str, rows: int | None = None) -> float:
        """Return the expected CPU seconds of one trial of a tuned run's search.

        A trial fits a setting on the training rows less the validation part, predicts the
        validation part and measures it: the fit's seconds for that share of the rows (the
        predictions and a measure on the validation rows are little beside a fit). Not the
        ``tuning`` part: a grid's tuning fits share a pipeline's first steps (Feldman's repair
        before an SVM: 1.1 s against a fit's 10.2 on Adult), a trial shares nothing.

        Parameters
        ----------
        dataset, algorithm
            The cell: the algorithm whose fit the search makes (a frontier's baseline).
        rows
            The dataset's rows, for a cell the table lacks.

        Returns
        -------
        float
            Seconds at :attr:`speed`; 0 when nothing was measured.
        """
        if not self.seconds:
            return 0.0
        parts = self.seconds.get((dataset, algorithm))
        if parts is None:
            parts = _scaled(self.seconds, self.rows, algorithm, self._size(dataset, rows))
        fit = parts.get(FIT) or parts.get(RUN, 0.0)  # a cell without a fit: its run holds it
        return self.speed * fit * (1 - VALIDATION_FRACTION)

    def setup_seconds(
        self, dataset: str, rows: int | None = None, pricing: Pricing = Pricing()
    ) -> float:
        """Return the expected CPU seconds of the enabled audits' setups of one split.

        Parameters
        ----------
        dataset
            The split's dataset.
        rows
            The dataset's rows, for a dataset the table lacks.
        pricing
            What the runs execute.

        Returns
        -------
        float
            The measured setups, or scaled by rows from the measured datasets' (0 without
            audits or measurements).
        """
        setups = self.setups or {}
        if not setups or not pricing.audits:
            return 0.0
        parts = setups.get(dataset)
        if parts is None:
            cells = {(name, SETUP): seconds for name, seconds in setups.items()}
            parts = _scaled(cells, self.rows, SETUP, self._size(dataset, rows))
        return self.speed * sum(seconds * pricing.weight(part) for part, seconds in parts.items())

    def plan_seconds(
        self,
        runs: Iterable[RunSpec],
        rows: Mapping[str, int] | None = None,
        pricing: Pricing = Pricing(),
    ) -> dict[str, float]:
        """Return every run's expected CPU seconds, by key.

        Parameters
        ----------
        runs
            The planned runs.
        rows
            Rows of datasets the table lacks (user datasets), by name.
        pricing
            What the runs execute.

        Returns
        -------
        dict
            Expected seconds by run key: a fit shared by several runs (:attr:`RunSpec.fit_key`)
            is shared among them, and so are the audit setups of each split (dataset, variant,
            attribute, split) among its audited runs (numeric variants only, repeating runs
            left out); a run not audited (:attr:`RunSpec.audited`) costs no audit.
        """
        rows = rows or {}
        runs = list(runs)
        unaudited = replace(pricing, audits=())
        sharing = Counter(run.fit_key for run in runs if not run.repeats)
        searches: dict[str, set[int]] = defaultdict(set)  # a search's budgets
        for run in runs:
            if run.budget is not None and not run.repeats:
                searches[run.search_key].add(run.budget)
        seconds = {}
        for run in runs:
            if run.repeats:
                seconds[run.key] = REPEAT_SECONDS
                continue
            size, share = rows.get(run.dataset), 1 / sharing[run.fit_key]
            searched = 0.0
            if run.budget is not None:  # its share of the search, and of a fit per budget
                budgets = searches[run.search_key]
                fitted = run.seeded_as.algorithm if run.seeded_as else run.algorithm
                trials = max(budgets) * share
                searched = trials * self.trial_seconds(run.dataset, fitted, size)
                share *= len(budgets)
            seconds[run.key] = searched + self.run_seconds(
                run.dataset,
                run.algorithm,
                size,
                pricing if run.audited else unaudited,
                tune=run.tune,
                fit_share=share,
                refits=run.refits,
            )
        by_split: dict[tuple, list[str]] = defaultdict(list)
        for run in runs:
            # the audits that need a setup move numeric features; a repeating run audits nothing
            if run.variant != "original" and not run.repeats and run.audited:
                split = (run.dataset, run.variant, run.sensitive_attribute, run.split_id,
                         run.base_seed)  # fmt: skip
                by_split[split].append(run.key)
        for (dataset, *_), keys in by_split.items():
            share = self.setup_seconds(dataset, rows.get(dataset), pricing) / len(keys)
            for key in keys:
                seconds[key] += share
        return seconds

    def _size(self, dataset: str, rows: int | None) -> float:
        """Return a dataset's rows: given, measured, or the measured datasets' median."""
        return rows or self.rows.get(dataset) or median(list(self.rows.values()) or [1])


def _scaled(
    cells: Mapping[tuple[str, str], Mapping[str, float]],
    rows: Mapping[str, int],
    algorithm: str,
    size: float,
) -> dict[str, float]:
    """Each part's seconds per row (the algorithm's median, else every cell's) times ``size``."""
    own = [(cell, parts) for cell, parts in cells.items() if cell[1] == algorithm]
    chosen = own or list(cells.items())
    names = {part for _, parts in chosen for part in parts}
    return {
        part: median(parts.get(part, 0.0) / rows[dataset] for (dataset, _), parts in chosen) * size
        for part in names
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


def duration(seconds: float, *, cpu: bool = False) -> str:
    """Return a duration in the unit that fits it: hours, minutes or seconds.

    Parameters
    ----------
    seconds
        The duration.
    cpu
        Whether it is CPU time (``CPU-hours``, ``CPU-minutes``, ``CPU-seconds``).

    Returns
    -------
    str
        ``"1.3 hours"``, ``"14 minutes"`` or ``"90 seconds"`` (one decimal for hours; seconds
        below two minutes, where whole minutes would read ``"1 minutes"``).
    """
    prefix = "CPU-" if cpu else ""
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} {prefix}hours"
    if seconds >= 120:
        return f"{seconds / 60:.0f} {prefix}minutes"
    return f"{seconds:.0f} {prefix}seconds"


def describe_plan(
    runs: Sequence[RunSpec],
    seconds: Mapping[str, float],
    pricing: Pricing,
    workers: int,
    *,
    speed: float = 1.0,
    todo: Sequence[RunSpec] | None = None,
) -> str:
    """Describe a plan as a dry run prints it: what it runs, its cost per cell and in all.

    Parameters
    ----------
    runs
        The planned runs.
    seconds
        Each run's expected CPU seconds, by key (:meth:`CostModel.plan_seconds`).
    pricing
        What the runs execute: the audits and their permutations.
    workers
        The workers that will share the runs.
    speed
        How many times the table's seconds the costs are (:attr:`CostModel.speed`).
    todo
        The runs still to do, where some are stored: the table and the total price them
        alone. None: every planned run.

    Returns
    -------
    str
        A header (splits, settings swept, runs tuned, audits), the table of
        :func:`plan_table` in the unit that fits the total, and the total CPU time and wall
        time on ``workers`` workers, each run at its price times :func:`side_by_side`.
    """
    priced = runs if todo is None else todo
    slowdown = side_by_side(workers)
    seconds = {run.key: seconds[run.key] * slowdown for run in priced}
    total = sum(seconds.values())
    unit = duration(total, cpu=True).split()[1]  # the table in the total's unit
    table = plan_table(priced, seconds)
    table[unit] = table.pop("CPU-hours") * 3600 / _SECONDS_PER[unit]
    settings = {(run.algorithm, run.params) for run in runs}
    algorithms = {run.algorithm for run in runs}
    audits = (
        ", ".join(
            f"{name} (sequential, at most {pricing.permutations:,} permutations)"
            if name == "permutation"
            else name
            for name in pricing.audits
        )
        or "none"
    )
    header = (
        f"plan: {len({run.split_id for run in runs})} splits; {len(settings):,} settings of "
        f"{len(algorithms)} algorithms; {sum(run.tune for run in runs):,} runs also tuned on a "
        f"validation part; audits: {audits}"
    )
    beside = f", {slowdown:.2f} times again side by side" if slowdown != 1 else ""
    if not priced:
        return f"{header}\nnothing to run: every planned run is stored"
    counted = f"{len(runs):,} runs" if todo is None else f"{len(todo):,} runs to do"
    footer = (
        f"{counted}, about {duration(total, cpu=True)}: about "
        f"{duration(total / workers)} on {workers} worker{'s' if workers > 1 else ''} (nothing "
        f"was run; costs measured by perf/paper_estimate.py, {speed:.2f} times their seconds "
        f"at this machine's speed{beside}, scaled by rows where a dataset was not measured)"
    )
    return f"{header}\n{table.to_string(float_format='{:.2f}'.format)}\n{footer}"


_SECONDS_PER = {"CPU-hours": 3600, "CPU-minutes": 60, "CPU-seconds": 1}


@cache
def cost_model(path: Path = COSTS) -> CostModel:
    """Return the cost model of the measured table (an empty model when there is none).

    Parameters
    ----------
    path
        The table: ``dataset``, ``algorithm``, ``rows``, then ``run``, ``fit``, ``tuning``, one
        column per audit and ``calibration`` (rows of algorithm :data:`SETUP` hold a split's
        audit setups).

    Returns
    -------
    CostModel
        Its cells, each brought to the speed of the machine of the median row's calibration
        (:attr:`CostModel.reference`); every run costs the same (one) with an empty table.
    """
    if not path.is_file():
        return CostModel({}, {})
    table = pd.read_csv(path)
    parts = [c for c in table.columns if c not in ("dataset", "algorithm", "rows", CALIBRATION)]
    calibrations = table.get(CALIBRATION, pd.Series(dtype=float)).dropna()
    # every row at the speed of the machine that measured most of them (its median row)
    reference = float(calibrations.median()) if len(calibrations) else None
    seconds, setups = {}, {}
    for record in table.to_dict("records"):
        own = record.get(CALIBRATION)
        scale = reference / own if reference is not None and pd.notna(own) else 1.0
        measured = {part: float(record[part]) * scale for part in parts if pd.notna(record[part])}
        if record["algorithm"] == SETUP:
            setups[record["dataset"]] = measured
        else:
            seconds[record["dataset"], record["algorithm"]] = measured
    rows = dict(zip(table["dataset"], table["rows"].astype(int), strict=True))
    return CostModel(seconds, rows, setups, reference)


def write_costs(measured: pd.DataFrame, path: Path = COSTS) -> None:
    """Merge newly measured cells into the table (they replace earlier measurements).

    Parameters
    ----------
    measured
        Columns ``dataset``, ``algorithm``, ``rows``, the parts measured (``run``, ``fit``,
        ``tuning`` and one per audit) and ``calibration``; rows of algorithm :data:`SETUP`
        hold a split's audit setups.
    path
        The table to update.
    """
    cells = ["dataset", "algorithm"]
    table = pd.read_csv(path) if path.is_file() else measured.iloc[:0]
    table = pd.concat([table, measured]).drop_duplicates(cells, keep="last")
    first = [RUN, FIT, TUNING, REFIT, TUNING_REFIT]
    parts = sorted(set(table.columns) - {*cells, "rows", *first, CALIBRATION})
    columns = [*cells, "rows", *first, *parts, CALIBRATION]
    table.reindex(columns=columns).sort_values(cells).to_csv(path, index=False)
    cost_model.cache_clear()
