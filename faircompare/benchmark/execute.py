"""Run a plan: workers fit and score, the coordinating process stores each result as it arrives.

Parallelism goes through joblib: ``loky`` processes on this machine, or a Dask cluster.
Each worker runs with BLAS pinned to one thread, and loads and prepares each dataset once. A run
that raises is recorded with its traceback; a run that exceeds the time limit is stopped (by
SIGALRM, in the worker's main thread: loky and sequential runs; Dask runs tasks in
threads, where the limit cannot interrupt) and recorded as failed. An audit that fails is
recorded with its error beside the run's measures, which are kept. Nothing is lost when the
coordinator is interrupted (Ctrl-C or SIGTERM) or killed: every finished run is already
committed. A stored run is reused only when it was computed from the same inputs (data, rules,
algorithm version, audit settings); one results folder has one writer at a time.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import joblib
import numpy as np
from joblib import Parallel, delayed, parallel_config
from threadpoolctl import threadpool_limits

from faircompare._timeout import time_limit
from faircompare._validation import check_choice
from faircompare.algorithms.outputs import checked_predictions, checked_scores
from faircompare.audits import AuditedRun, AuditOptions, AuditOutcome, audit_run
from faircompare.config import BenchmarkConfig
from faircompare.datasets import Dataset, load_dataset, read_spec
from faircompare.exceptions import FaircompareError
from faircompare.measures import measure_rows
from faircompare.preprocessing import Prepared, Split, make_split, prepare, validation_split
from faircompare.records import MeasureRow, Predictions, RunRecord, RunSpec
from faircompare.registry import Algorithm, find_algorithm
from faircompare.results.store import ResultStore

BACKENDS = ("loky", "dask")
_BAR = 30  # characters of the progress bar
_LOG_STEPS = 20  # progress lines a log gets: one per 5 % of the expected work
# The time left is printed from this share of the expected work on: before it, one run's
# misestimated cost (the first records of ACSIncome's modern profile) swings it a hundredfold.
_ETA_FROM = 0.05
_PACKAGES = ("faircompare", "numpy", "pandas", "scipy", "scikit-learn", "fairlearn")


class StaleResultsError(FaircompareError):
    """Stored runs that were computed from other inputs than the planned ones."""


@dataclass(frozen=True)
class Options:
    """How workers run: time limit, plugins, data locations and audits (picklable).

    Attributes
    ----------
    timeout
        Seconds after which a run is stopped and recorded as failed.
    plugins
        A folder of plugin files, or None.
    cache, mirror
        The data cache and the local mirror of raw files (None: the defaults).
    audits
        Whether to audit each run.
    permutations
        Permutations per permutation test.
    """

    timeout: float = 600.0
    plugins: str | None = None
    cache: str | None = None
    mirror: str | None = None
    audits: bool = True
    permutations: int = 1000

    @classmethod
    def from_config(
        cls,
        config: BenchmarkConfig,
        *,
        cache: str | Path | None = None,
        mirror: str | Path | None = None,
    ) -> Options:
        """Return the options of a configuration's runs, with the data locations.

        Parameters
        ----------
        config
            The benchmark's configuration (time limit, plugins, audits).
        cache, mirror
            The data cache and the local mirror of raw files; None for the defaults.

        Returns
        -------
        Options
            The workers' options.
        """
        return cls(
            timeout=config.timeout,
            plugins=config.plugins,
            cache=None if cache is None else str(cache),
            mirror=None if mirror is None else str(mirror),
            audits=config.audits,
            permutations=config.permutations,
        )


@dataclass
class Summary:
    """What one invocation did.

    Attributes
    ----------
    planned
        Runs in the plan.
    skipped
        Runs already stored, not run again.
    done, failed
        Runs that finished, and runs that failed, in this invocation.
    interrupted
        Whether Ctrl-C or SIGTERM stopped the invocation.
    expected, expected_finished
        The expected CPU seconds of the runs to do, and of those finished so far (each run
        counts one when no cost is known).
    """

    planned: int
    skipped: int
    done: int = 0
    failed: int = 0
    interrupted: bool = False
    expected: float = 0.0
    expected_finished: float = 0.0

    def seconds_left(self, elapsed: float) -> float:
        """Return the time the rest should take, at the pace of the expected cost so far.

        Parameters
        ----------
        elapsed
            Seconds since the invocation started.

        Returns
        -------
        float
            ``elapsed`` times the expected cost left over the expected cost finished: weighed
            by cost, not by runs, so cheap runs early (or late) do not mislead it.
        """
        if self.expected_finished <= 0:
            return float("nan")
        return elapsed * max(self.expected - self.expected_finished, 0.0) / self.expected_finished


# loky shuts down a worker whose memory grew 300 MB past its size after the first task, taking
# it for a leak. The worker's caches (datasets below; transport maps and fair metrics in the
# audit suite; all bounded) and torch's import grow it legitimately, and a restart throws them
# away.
_WORKER_MEMORY_GROWTH = 2 * 2**30


def _allow_worker_caches() -> None:
    """Raise loky's leak bound in this worker (it reads the module constant at every check)."""
    from joblib.externals.loky import process_executor

    bound = getattr(process_executor, "_MAX_MEMORY_LEAK_SIZE", _WORKER_MEMORY_GROWTH)
    process_executor._MAX_MEMORY_LEAK_SIZE = max(bound, _WORKER_MEMORY_GROWTH)


@cache
def _end_with_coordinator() -> None:
    """In a worker process, exit as soon as the process that started it is gone.

    Killed with ``kill -9``, a coordinator cannot stop its loky workers, which would live on
    (re-parented to init) with their caches; each worker watches its parent instead (once a
    second, in a daemon thread). Sequential runs in the coordinator itself start no watch.
    """
    if multiprocessing.parent_process() is None:
        return
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="faircompare-coordinator-watch", daemon=True).start()


Fits = dict[tuple[str, str], tuple[Any, float]]  # (fit key, holdout) -> model, fit seconds


def execute_runs(runs: Sequence[RunSpec], options: Options) -> list[RunRecord]:
    """Execute runs that share one fit (:attr:`RunSpec.fit_key`), fitting it once.

    A baseline never reads the sensitive attribute, so on one split its model is the same for
    every attribute and numeric variant: it is fitted (and tuned) once, and each run predicts,
    measures and audits with it. The records are those each run alone would give, but for the
    later runs' fit time (0: they fitted nothing).

    Parameters
    ----------
    runs
        Runs with one fit key.
    options
        How to run them.

    Returns
    -------
    list of RunRecord
        One per run, in order.
    """
    fits: Fits = {}
    return [execute_run(spec, options, fits) for spec in runs]


def execute_run(spec: RunSpec, options: Options, fits: Fits | None = None) -> RunRecord:
    """Fit, predict, measure and audit one run; an exception becomes a failed run.

    Parameters
    ----------
    spec
        The run.
    options
        How to run it.
    fits
        Models fitted by earlier runs of the same fit key, reused (see :func:`execute_runs`);
        this run's fits are added.

    Returns
    -------
    RunRecord
        The run's results, or its error and traceback when it failed.
    """
    started = time.time()
    _end_with_coordinator()
    _allow_worker_caches()
    if "torch" in sys.modules:  # threadpoolctl does not reach torch's own thread pool
        sys.modules["torch"].set_num_threads(1)
    caught: list[warnings.WarningMessage] = []
    try:
        with (
            threadpool_limits(limits=1),
            time_limit(options.timeout),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            run = _fit_and_score(spec, options, {} if fits is None else fits)
    except Exception as error:  # a failing run is recorded, never raised
        run = RunRecord(
            spec=spec,
            status="failed",
            error=f"{type(error).__name__}: {error}",
            traceback=traceback.format_exc(),
        )
    return replace(
        run,
        versions=_versions(),
        started_at=started,
        finished_at=time.time(),
        warnings=_distinct(caught),
    )


def _fit_and_score(spec: RunSpec, options: Options, fits: Fits) -> RunRecord:
    """One run, straight: split, fit, predict, measure, audit (and score a tuning fit)."""
    start = time.perf_counter()
    split = make_split(_prepared(spec, options), spec.split_id, base_seed=spec.base_seed)
    model, fit_seconds = _fit(spec, options, split, fits)
    predict_start = time.perf_counter()
    y_pred, scores = _predict(spec.algorithm, model, split)
    predict_seconds = time.perf_counter() - predict_start
    measures = _measure_rows(split, y_pred, scores)
    audits = AuditOutcome((), {})
    if options.audits:
        run = AuditedRun(split, model, y_pred, scores, seed=spec.seed, data=_data(spec))
        audits = audit_run(run, AuditOptions(permutations=options.permutations))
    if spec.tune:  # parameters are chosen on data the test set never touched
        tuning = validation_split(split)
        tuned_model, _ = _fit(spec, options, tuning, fits)
        measures += _measure_rows(tuning, *_predict(spec.algorithm, tuned_model, tuning))
    return RunRecord(
        spec=spec,
        status="done",
        timings={
            "fit": fit_seconds,
            "predict": predict_seconds,
            "total": time.perf_counter() - start,
        },
        n_train=len(split.y_train),
        n_test=len(split.y_test),
        measures=measures,
        audits=audits.rows,
        audit_errors=audits.errors,
        predictions=Predictions(
            test_index=split.test_index,
            y_true=split.y_test,
            y_pred=y_pred,
            scores=scores,
            sensitive_features=split.sensitive_features_test,
            privileged=split.privileged,
        ),
    )


def _fit(spec: RunSpec, options: Options, split: Split, fits: Fits) -> tuple[Any, float]:
    """Fit the run's model on ``split``, or take the one an earlier run of its fit key fitted."""
    key = (spec.fit_key, split.holdout)
    if key in fits:
        return fits[key][0], 0.0
    model = _algorithm(spec.algorithm, options.plugins).create(**spec.parameters)
    if "random_state" in model.get_params() and "random_state" not in spec.parameters:
        model.set_params(random_state=spec.fit_seed % 2**31)
    start = time.perf_counter()
    model.fit(split.X_train, split.y_train, sensitive_features=split.sensitive_features_train)
    fits[key] = model, time.perf_counter() - start
    return fits[key]


def _predict(name: str, model: Any, split: Split) -> tuple[np.ndarray, np.ndarray | None]:
    """Predict the test rows, refusing predictions or scores that cannot be measured."""
    X, s, n = split.X_test, split.sensitive_features_test, len(split.y_test)
    y_pred = checked_predictions(name, model.predict(X, sensitive_features=s), n)
    if hasattr(model, "predict_proba"):
        proba = np.asarray(model.predict_proba(X, sensitive_features=s))
        return y_pred, checked_scores(name, proba[:, 1], n, "predict_proba")
    if hasattr(model, "decision_function"):
        scores = model.decision_function(X, sensitive_features=s)
        return y_pred, checked_scores(name, scores, n, "decision_function")
    return y_pred, None


def _measure_rows(
    split: Split, y_pred: np.ndarray, scores: np.ndarray | None
) -> tuple[MeasureRow, ...]:
    return measure_rows(
        split.y_test,
        y_pred,
        split.sensitive_features_test,
        privileged=split.privileged,
        scores=scores,
        part=split.holdout,
    )


@lru_cache(maxsize=64)
def _algorithm(name: str, plugins: str | None) -> Algorithm:
    return find_algorithm(name, plugins)


def _data(spec: RunSpec) -> str:
    """Return the fingerprint of the run's dataset (content and cleaning rules)."""
    return dict(spec.inputs).get("data", "")


@lru_cache(maxsize=4)
def _dataset(
    name: str, spec_path: str | None, cache: str | None, mirror: str | None, fingerprint: str
) -> Dataset:
    """Load a dataset once per worker; the fingerprint keys the cache on the data's content."""
    return load_dataset(read_spec(spec_path) if spec_path else name, cache=cache, mirror=mirror)


@lru_cache(maxsize=12)
def _prepared_cached(dataset: Dataset, variant: str, attribute: str) -> Prepared:
    """Prepare once per worker; keyed on the loaded dataset itself (one per fingerprint)."""
    return prepare(dataset, variant, attribute)


def _prepared(spec: RunSpec, options: Options) -> Prepared:
    """Return the run's dataset in its variant, loaded and prepared once per worker."""
    dataset = _dataset(spec.dataset, spec.dataset_file, options.cache, options.mirror, _data(spec))
    return _prepared_cached(dataset, spec.variant, spec.sensitive_attribute)


@lru_cache(maxsize=1)
def _versions() -> dict[str, str]:
    found = {}
    for package in _PACKAGES:
        with contextlib.suppress(PackageNotFoundError):
            found[package] = version(package)
    return found


def _distinct(caught: list[warnings.WarningMessage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))


def run_plan(
    runs: tuple[RunSpec, ...],
    store: ResultStore,
    options: Options,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    retry_failed: bool = False,
    report: Callable[[RunRecord, Summary], None] | None = None,
    costs: Mapping[str, float] | None = None,
) -> Summary:
    """Execute the planned runs not yet stored (all with ``force``), storing each as it ends.

    Parameters
    ----------
    runs
        The planned runs.
    store
        Where results go; runs already stored as done (and, unless ``retry_failed``, as failed)
        are skipped, provided they were computed from the same inputs.
    options
        Worker options.
    jobs
        Parallel workers (loky processes, or Dask workers of a local cluster), at most one per
        run and per core (:func:`worker_count`).
    backend
        ``"loky"`` or ``"dask"``.
    scheduler
        Address of a running Dask scheduler; a local cluster is started when None.
    force, retry_failed
        Redo every run, or the failed ones.
    report
        Called after each stored run (progress display).
    costs
        Each run's expected CPU seconds by key (:func:`faircompare.benchmark.costs.cost_model`):
        the longest runs start first, so the last minutes do not run on one worker while the
        others wait, and the time left is weighed by cost. None: the plan's order, one each.

    Returns
    -------
    Summary
        Counts, and whether the run was interrupted (Ctrl-C or SIGTERM); failures are in the
        store.

    Raises
    ------
    StaleResultsError
        Unless ``force``, if a planned run is stored but was computed from other inputs (its
        dataset's content or rules, the algorithm's version, the audit or validation settings,
        faircompare's version); the message names each change and the number of runs.
    StoreError
        If another process is writing to the same results folder.
    """
    check_choice(backend, BACKENDS, what="backend")
    with store.claim():
        if not force:
            _refuse_stale(runs, store)
        store.record_plan(runs)
        stored = store.statuses()
        redo = {"done", "failed"} if force else ({"failed"} if retry_failed else set())
        todo = [s for s in runs if s.key not in stored or stored[s.key] in redo]
        cost = {s.key: (costs or {}).get(s.key, 1.0) for s in todo}
        groups = longest_first(shared_fits(todo), cost)
        summary = Summary(len(runs), len(runs) - len(todo), expected=sum(cost.values()))
        try:
            workers = worker_count(jobs, len(groups), backend, scheduler)
            with _backend(backend, workers, scheduler), _sigterm_interrupts():
                results = Parallel(return_as="generator_unordered")(
                    delayed(execute_runs)(group, options) for group in groups
                )
                for result in itertools.chain.from_iterable(results):
                    store.write(result)
                    summary.expected_finished += cost[result.key]
                    if result.status == "done":
                        summary.done += 1
                    else:
                        summary.failed += 1
                    if report:
                        report(result, summary)
        except KeyboardInterrupt:
            summary.interrupted = True
    return summary


def shared_fits(runs: Sequence[RunSpec]) -> list[list[RunSpec]]:
    """Group runs by the model they fit (:attr:`RunSpec.fit_key`), in the plan's order.

    Parameters
    ----------
    runs
        The runs to do.

    Returns
    -------
    list of list of RunSpec
        Each group fits one model (a baseline's group holds every attribute and numeric
        variant of one split); most groups are one run.
    """
    groups: dict[str, list[RunSpec]] = {}
    for run in runs:
        groups.setdefault(run.fit_key, []).append(run)
    return list(groups.values())


def longest_first(groups: list[list[RunSpec]], cost: Mapping[str, float]) -> list[list[RunSpec]]:
    """Order groups of runs by expected cost, the longest first (ties keep the plan's order).

    Parameters
    ----------
    groups
        The runs to do, grouped by shared fit (:func:`shared_fits`).
    cost
        Each run's expected seconds, by key; a group costs the sum of its runs.

    Returns
    -------
    list of list of RunSpec
        The groups, longest first.
    """
    return sorted(groups, key=lambda group: -sum(cost[run.key] for run in group))


def worker_count(jobs: int, runs: int, backend: str = "loky", scheduler: str | None = None) -> int:
    """Return how many workers to start: never more than runs, nor than this machine's cores.

    Parameters
    ----------
    jobs
        The workers asked for (``--jobs``).
    runs
        The runs to execute.
    backend, scheduler
        A Dask cluster given by its scheduler is sized by the cluster, so only the run count
        bounds it; loky processes and a local Dask cluster run on this machine.

    Returns
    -------
    int
        At least 1.
    """
    cores = joblib.cpu_count() if backend == "loky" or scheduler is None else jobs
    return max(1, min(jobs, runs, cores))


def _refuse_stale(runs: tuple[RunSpec, ...], store: ResultStore) -> None:
    """Raise :class:`StaleResultsError` naming what changed if a stored run's inputs differ."""
    stored = store.inputs()
    changes: Counter[tuple[str, str, str]] = Counter()
    stale = 0
    stale_algorithms: set[str] = set()
    versions_only = True  # whether every stale run's algorithm version alone changed
    for spec in runs:
        before = stored.get(spec.key)
        if before is None:
            continue
        now = dict(spec.inputs)
        changed = [
            name for name in sorted(now.keys() | before.keys()) if before.get(name) != now.get(name)
        ]
        stale += bool(changed)
        if changed:
            stale_algorithms.add(spec.algorithm)
            versions_only &= changed == ["algorithm"]
        for name in changed:
            what = {
                "data": f"data of dataset {spec.dataset!r}",
                "algorithm": f"version of {spec.algorithm}",
            }.get(name, name)
            changes[what, before.get(name, "none"), now.get(name, "none")] += 1
    if not stale:
        return
    lines = "\n".join(
        f"  - {what}: {old} -> {new} ({count} runs)"
        for (what, old, new), count in sorted(changes.items())
    )
    raise StaleResultsError(
        f"{stale} planned runs are stored in {store.path} but were computed from other inputs:\n"
        f"{lines}\nNothing was run. Rerun with --force to recompute the planned runs"
        f"{_only_these(stale_algorithms) if versions_only else ''}, or pass another --results "
        "folder to keep both."
    )


def _only_these(algorithms: set[str]) -> str:
    """Name the ``--algorithm`` options that limit ``--force`` to these algorithms' runs."""
    options = " ".join(f"--algorithm {name}" for name in sorted(algorithms))
    return f" (with {options} to recompute only the runs of the changed algorithms)"


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C while runs execute, so workers are stopped and nothing is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# POT imports every array library it finds, to offer it as a backend; FlipTest calls POT on
# numpy arrays only, so the workers this machine starts skip them: torch alone is 0.25 GB per
# worker (the algorithms that need torch import it themselves).
_POT_BACKENDS_OFF = ("PYTORCH", "JAX", "TENSORFLOW", "CUPY")


@contextlib.contextmanager
def _lean_workers() -> Iterator[None]:
    """Start worker processes with POT's optional backends off (restored afterwards)."""
    keys = [f"POT_BACKEND_DISABLE_{name}" for name in _POT_BACKENDS_OFF]
    unset = [key for key in keys if key not in os.environ]
    os.environ.update(dict.fromkeys(unset, "1"))
    try:
        yield
    finally:
        for key in unset:
            os.environ.pop(key, None)


@contextlib.contextmanager
def _backend(name: str, jobs: int, scheduler: str | None) -> Iterator[None]:
    """Joblib's backend: loky with one BLAS thread per worker, or a Dask cluster."""
    if name == "loky":
        with (
            _lean_workers(),
            parallel_config(backend="loky", n_jobs=jobs, inner_max_num_threads=1),
        ):
            yield
        return
    from dask.distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True)
            scheduler = stack.enter_context(cluster)
        stack.enter_context(Client(scheduler))
        with parallel_config(backend="dask", n_jobs=-1):
            yield


def progress_printer(stream=sys.stderr) -> Callable[[RunRecord, Summary], None]:
    """Build a progress display: a bar of the expected work, runs, failures and time left.

    The bar and the time left are weighed by the runs' expected costs (see :class:`Summary`).
    On a terminal the line is redrawn after every run; elsewhere (a log file, CI) a line is
    written at every twentieth (5 %) of the expected work. The time left is given from 5 % of
    the expected work on, when a run whose cost was misjudged no longer dominates it.
    """
    start = time.monotonic()
    live = stream.isatty()
    steps = [-1]  # the last twentieth of the work written (a log gets one line per step)

    def show(result: RunRecord, summary: Summary) -> None:
        total = summary.planned - summary.skipped
        finished = summary.done + summary.failed
        share = summary.expected_finished / summary.expected if summary.expected else 1.0
        step = _LOG_STEPS if finished == total else int(_LOG_STEPS * share)
        if not live and step == steps[0]:
            return
        steps[0] = step
        elapsed = time.monotonic() - start
        left = summary.seconds_left(elapsed)
        eta = f"ETA {left:.0f} s" if share >= _ETA_FROM else f"ETA from {_ETA_FROM:.0%} done"
        filled = round(_BAR * share)
        line = (
            f"[{'#' * filled}{'-' * (_BAR - filled)}] {share:.0%} of the expected work, "
            f"{finished}/{total} runs, {summary.failed} failed, {elapsed:.0f} s elapsed, {eta}"
        )
        stream.write(f"\r{line} " if live else f"{line}\n")
        if live and finished == total:
            stream.write("\n")
        stream.flush()

    return show
