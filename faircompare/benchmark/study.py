"""The benchmark in one call: plan, fetch and measure the data, price, run, store and report.

:func:`run_benchmark` is what ``faircompare run`` does, for a notebook, a SLURM script or the
documentation's gallery; the command line only parses its options and prints. The steps:

1. plan the runs of a configuration (:func:`~faircompare.benchmark.make_plan`), leaving out the
   algorithms that cannot be loaded here;
2. fetch and clean every planned dataset once, for its rows and what cleaning removed;
3. leave out the runs of algorithms on datasets above their training-row limits, mark the
   ``numerical+binary`` runs that repeat their ``numerical`` twin (the same data but for the
   groups' names, :meth:`~faircompare.benchmark.plan.Plan.with_repeats`), and price each run
   with the cost model;
4. run the rest (:func:`~faircompare.benchmark.run_plan`), storing each record as it arrives;
5. write the report of the results folder.

>>> from faircompare.benchmark import run_benchmark
>>> from faircompare.config import PROFILES
>>> summary = run_benchmark(PROFILES["quick"].overridden(jobs=2), "results")  # doctest: +SKIP
>>> summary.report  # doctest: +SKIP
PosixPath('results/report/report.html')
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from faircompare._deprecations import former_forms
from faircompare.benchmark.calibration import calibration_seconds
from faircompare.benchmark.costs import Pricing, cost_model
from faircompare.benchmark.plan import make_plan
from faircompare.benchmark.planned import Study
from faircompare.benchmark.schedule import (
    Progress,
    StaleResultsError,
    pending,
    refuse_stale,
    run_plan,
)
from faircompare.benchmark.summary import Summary
from faircompare.config.settings import BenchmarkConfig
from faircompare.datasets import (
    DatasetSpec,
    cache_dir,
    get_spec,
    load_dataset,
    read_spec,
    removed_text,
)
from faircompare.records import RunSpec
from faircompare.registry import Algorithm
from faircompare.results.store import DATABASE, ResultStore

Say = Callable[[str], None]


@former_forms
def plan_study(
    config: BenchmarkConfig,
    *,
    fetch: bool = True,
    say: Say | None = None,
    settings: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> Study:
    """Plan a study's runs, fetch and clean their data, and price them.

    Parameters
    ----------
    config
        The study's settings: what to run, and where its data is (``mirror``, ``cache``;
        ``mirror=`` and ``cache=``, and their former names ``data_dir=`` and ``cache_dir=``,
        still work as these fields, with a :class:`DeprecationWarning`).
    fetch
        Fetch every planned dataset; with False, as a dry run does, read only those at hand
        (cached, or local files), which tell the runs that repeat another
        (:meth:`~faircompare.benchmark.plan.Plan.with_repeats`), and fetch only those the cost
        table lacks (for their rows).
    say
        Called with a line for each algorithm left out, each dataset's cleaning and each file
        downloaded.
    settings
        The parameter settings to run of some algorithms, in place of their grids
        (:func:`~faircompare.benchmark.make_plan`).

    Returns
    -------
    Study
        The runs, their costs at this machine's speed (:meth:`CostModel.on_machine`), the
        cleaning record and the settings.
    """
    say = say or _silent
    plan = make_plan(config, settings)
    for line in skipped(plan.unavailable):
        say(line)
    model = cost_model().on_machine(calibration_seconds(cache_dir(config.cache), say=say))
    specs = {
        (name, path): read_spec(path) if path else get_spec(name)
        for name, path in {(s.dataset, s.dataset_file) for s in plan.runs}
    }
    if not fetch:  # the data at hand, and what the cost table lacks: nothing else is fetched
        specs = {
            where: spec
            for where, spec in specs.items()
            if spec.name not in model.rows or _at_hand(spec, config.cache)
        }
    cleaning, rows, loaded = {}, {}, {}
    for _, spec in sorted(specs.items(), key=lambda item: str(item[0])):
        dataset = load_dataset(spec, cache=config.cache, mirror=config.mirror, say=say)
        cleaning[dataset.name], rows[dataset.name] = dict(dataset.removed), len(dataset.frame)
        loaded[dataset.name] = dataset
        if dataset.removed:
            say(f"{dataset.name}: cleaning removed {removed_text(dataset.removed)}")
    plan = plan.within_row_limits({**model.rows, **rows}).with_repeats(loaded)
    for reason in plan.too_large:
        say(f"skipping {reason}")
    costs = model.plan_seconds(plan.runs, rows, Pricing.of(config))
    return Study(plan.runs, costs, cleaning, config, model.speed)


#: The optional extras (``pip install "faircompare[...]"``) by the module each installs.
EXTRAS = {"torch": "torch", "aif360": "aif360"}


def skipped(unavailable: Sequence[Algorithm]) -> list[str]:
    """Say which algorithms a plan leaves out, and why: one line for those an extra installs.

    Parameters
    ----------
    unavailable
        The algorithms that cannot be loaded here (:attr:`~.plan.Plan.unavailable`).

    Returns
    -------
    list of str
        One line for every algorithm whose missing package (:attr:`~faircompare.registry.
        Algorithm.missing`) one of the :data:`EXTRAS` installs (their counts per extra, and
        the command), then one per other algorithm with its reason.
    """
    needing: dict[str, int] = {}
    lines = []
    for algorithm in unavailable:
        extra = EXTRAS.get(algorithm.missing or "")
        if extra is None:
            lines.append(
                f"skipping unavailable algorithm {algorithm.name}: {algorithm.unavailable}"
            )
        else:
            needing[extra] = needing.get(extra, 0) + 1
    if needing:
        extras, total = ",".join(sorted(needing)), sum(needing.values())
        counts = ", ".join(
            f"{n} need{'s' if n == 1 else ''} {extra}" for extra, n in sorted(needing.items())
        )
        lines.insert(
            0,
            f"skipping {total} algorithm{'s' if total > 1 else ''} that need"
            f"{'s' if total == 1 else ''} an optional package ({counts}; "
            f"`faircompare list algorithms` names them): python -m pip install "
            f'"faircompare[{extras}]" installs them (from a clone: -e ".[{extras}]")',
        )
    return lines


@former_forms
def run_benchmark(
    config: BenchmarkConfig,
    results: str | Path,
    *,
    progress: Progress | None = None,
    report: bool = True,
    say: Say | None = None,
) -> Summary:
    """Run a study into a results folder, as ``faircompare run`` does, and report it.

    A rerun skips the runs already stored, so an interrupted benchmark resumes where it
    stopped; stored runs computed from other inputs are refused, not reused.

    Parameters
    ----------
    config
        The study's settings, whole: what to run, how, with how many workers, and where the
        data is (a profile of :data:`faircompare.config.PROFILES`, a file read by
        :func:`faircompare.config.load_config`, or one built by hand). ``jobs=``,
        ``backend=``, ``scheduler=``, ``force=``, ``retry_failed=``, ``mirror=`` and
        ``cache=`` (and their former names), and a
        :class:`~faircompare.benchmark.settings.RunSettings` in third place, still work as
        its fields, with a :class:`DeprecationWarning`.
    results
        The results folder (created when missing).
    progress
        Called after each stored run with its record and the counts so far (a progress bar).
    report
        Write the report of the results folder at the end (not when interrupted).
    say
        Called with a line for each note on the way: algorithms and runs left out, cleaning,
        downloads, the runs planned and pending, the report's sections.

    Returns
    -------
    Summary
        What this invocation did, the planned runs stored as failed (``failures``) and the
        report's path (``report``).

    Raises
    ------
    StaleResultsError
        If planned runs are stored but were computed from other inputs (unless ``force``).
    StoreError
        If the results folder is held by another run, or cannot be written.
    """
    say = say or _silent
    with contextlib.ExitStack() as stack:
        # a store already there is checked before any work; a new one is made once the plan holds
        there = os.path.exists(Path(results) / DATABASE)  # False for a name too long, too
        opened = stack.enter_context(ResultStore(results)) if there else None
        study = plan_study(config, say=say)
        store = opened or stack.enter_context(ResultStore(results))
        say(f"{_to_run(study.runs, store.statuses(), config)}; results in {store.path}")
        if note := config.capped():
            say(note)
        summary = run_plan(study, store, config, progress=progress)
        summary = replace(summary, failures=_failures(store, study.runs))
    if report and not summary.interrupted:
        # imported here: the report's stack (matplotlib, the analysis) is the last step's
        from faircompare.analysis.report import write_report

        jobs = config.local_workers()
        summary = replace(summary, report=write_report(results, say=say, jobs=jobs))
    return summary


def dry_run(config: BenchmarkConfig, results: str | Path, *, say: Say | None = None) -> str:
    """Say what ``faircompare run`` would run into a results folder, and its price; run nothing.

    The runs already stored there are counted and not priced, as the run skips them. Where
    stored runs were computed from other inputs, the run would refuse to start: every planned
    run is priced (as ``force`` would run them) and the refusal said after. Nothing is fetched
    and nothing is written (a store there is opened read-only).

    Parameters
    ----------
    config
        The study's settings.
    results
        The results folder the run would write into (it need not exist).
    say
        Called with each line of progress (what cleaning removed).

    Returns
    -------
    str
        The resolved settings, the runs stored there (where any is), what the runs still to
        do execute, their CPU time per dataset and algorithm, and in all
        (:meth:`Study.describe`); where the run would refuse, why.
    """
    study = plan_study(config, fetch=False, say=say)
    if not os.path.exists(Path(results) / DATABASE):
        return study.describe(config.workers(len(study.runs)))
    with ResultStore(results, readonly=True) as store:
        try:
            if not config.force:
                refuse_stale(study.runs, store)
        except StaleResultsError as refused:  # priced as --force would run it: every run
            every = study.describe(config.workers(len(study.runs)))
            return f"{every}\nwarning: the run would stop here, running nothing: {refused}"
        stored = store.statuses()
        todo = pending(study.runs, stored, config)
        said = f"{_to_run(study.runs, stored, config)} in {store.path}"
    return study.describe(config.workers(len(todo)), todo=todo, stored=said)


def _at_hand(spec: DatasetSpec, cache: str | None) -> bool:
    """Whether a dataset's raw file is read without fetching it: a local file, or cached."""
    return spec.url is None or (cache_dir(cache) / spec.file).is_file()


def _to_run(runs: Sequence[RunSpec], stored: dict[str, str], settings: BenchmarkConfig) -> str:
    """Say how many planned runs will run: those not yet stored, and those redone."""
    pending = sum(run.key not in stored for run in runs)
    text = f"{len(runs):,} runs planned, {pending:,} not yet stored"
    if settings.force:
        return f"{text}, {len(runs) - pending:,} stored ones redone (--force)"
    if settings.retry_failed:
        failed = sum(stored.get(run.key) == "failed" for run in runs)
        return f"{text}, {failed:,} failed ones redone (--retry-failed)"
    return text


def _failures(store: ResultStore, runs: Sequence[RunSpec]) -> tuple[tuple[str, str], ...]:
    """Return (where, error) of each planned run stored as failed, in this session or before."""
    failed = store.runs().query("status == 'failed'")
    failed = failed[failed["key"].isin({s.key for s in runs})]
    return tuple(
        (
            f"{row.dataset}/{row.sensitive_attribute}/{row.variant}/{row.algorithm} "
            f"{row.params} split {row.split_id}",
            str(row.error),
        )
        for row in failed.itertuples()
    )


def _silent(line: str) -> None:
    """Say nothing."""
