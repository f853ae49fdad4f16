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
import signal
import sys
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np
from joblib import Parallel, delayed, parallel_config
from threadpoolctl import threadpool_limits

from faircompare._timeout import RunTimeoutError, time_limit
from faircompare._validation import check_choice
from faircompare.audits.suite import (
    FlipTestSetup,
    IndividualSetup,
    fliptest_audit,
    individual_audit,
    permutation_audit,
    split_fair_metric,
    split_transport,
)
from faircompare.benchmark.plan import RunSpec
from faircompare.datasets import load_dataset, read_spec
from faircompare.exceptions import FaircompareError
from faircompare.measures import evaluate
from faircompare.preprocessing import Prepared, Split, make_split, prepare, validation_split
from faircompare.registry import algorithms
from faircompare.results.store import ResultStore, StoredRun

BACKENDS = ("loky", "dask")
_BAR = 30  # characters of the progress bar
_PACKAGES = ("faircompare", "numpy", "pandas", "scipy", "scikit-learn", "fairlearn")


class StaleResultsError(FaircompareError):
    """Stored runs that were computed from other inputs than the planned ones."""


@dataclass(frozen=True)
class Options:
    """How workers run: time limit, plugins, data locations and audits (picklable)."""

    timeout: float = 600.0
    plugins: str | None = None
    cache: str | None = None
    mirror: str | None = None
    audits: bool = True
    permutations: int = 1000


@dataclass
class Summary:
    """What one invocation did."""

    planned: int
    skipped: int
    done: int = 0
    failed: int = 0
    interrupted: bool = False


# loky shuts down a worker whose memory grew 300 MB past its size after the first task, taking
# it for a leak. The per-split caches below (datasets, transport maps, fair metrics; bounded by
# their lru sizes) and torch's import grow it legitimately, and a restart throws them away.
_WORKER_MEMORY_GROWTH = 2 * 2**30


def _allow_worker_caches() -> None:
    """Raise loky's leak bound in this worker (it reads the module constant at every check)."""
    from joblib.externals.loky import process_executor

    bound = getattr(process_executor, "_MAX_MEMORY_LEAK_SIZE", _WORKER_MEMORY_GROWTH)
    process_executor._MAX_MEMORY_LEAK_SIZE = max(bound, _WORKER_MEMORY_GROWTH)


def execute_run(spec: RunSpec, options: Options) -> StoredRun:
    """Fit, predict and score one run; any exception becomes a failed run with its traceback."""
    started = time.time()
    record = {"key": spec.key, "spec": _spec_record(spec), "versions": _versions()}
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
            result = _fit_and_score(spec, options)
    except Exception as error:  # a failing run is recorded, never raised
        return StoredRun(
            **record,
            status="failed",
            error=f"{type(error).__name__}: {error}",
            traceback=traceback.format_exc(),
            started_at=started,
            finished_at=time.time(),
            warnings=_distinct(caught),
        )
    return StoredRun(
        **record,
        status="done",
        started_at=started,
        finished_at=time.time(),
        warnings=_distinct(caught),
        **result,
    )


def _fit_and_score(spec: RunSpec, options: Options) -> dict[str, Any]:
    split = make_split(_prepared(spec, options), spec.split_id, base_seed=spec.base_seed)
    start = time.perf_counter()
    model, fit_seconds = _fit(spec, options, split)
    predict_start = time.perf_counter()
    y_pred, scores = _predict(model, split)
    predict_seconds = time.perf_counter() - predict_start
    measures = _measure_rows("test", split, y_pred, scores)
    audits, audit_errors = (
        _audit(spec, options, split, model, y_pred, scores) if options.audits else ([], {})
    )
    if spec.tune:  # parameters are chosen on data the test set never touched
        tuning = validation_split(split)
        tuned_model, _ = _fit(spec, options, tuning)
        measures += _measure_rows("validation", tuning, *_predict(tuned_model, tuning))
    return {
        "timings": {
            "fit": fit_seconds,
            "predict": predict_seconds,
            "total": time.perf_counter() - start,
        },
        "n_train": len(split.y_train),
        "n_test": len(split.y_test),
        "measures": tuple(measures),
        "audits": tuple(audits),
        "audit_errors": audit_errors,
        "test_index": split.test_index,
        "y_true": split.y_test,
        "y_pred": y_pred,
        "scores": scores,
        "groups": split.s_test,
        "privileged": split.privileged,
    }


def _audit(
    spec: RunSpec,
    options: Options,
    split: Split,
    model: Any,
    y_pred: np.ndarray,
    scores: np.ndarray | None,
) -> tuple[list[tuple], dict[str, str]]:
    """Run each audit that applies; one that raises is recorded and the others go on."""
    unprivileged = np.asarray(split.s_test != split.privileged)
    both_groups = 0 < unprivileged.sum() < len(unprivileged)
    numeric = spec.variant != "original"  # transport and attack move numeric features
    audits: dict[str, Callable[[], list[tuple]]] = {
        "permutation": lambda: permutation_audit(
            split.y_test,
            y_pred,
            split.s_test,
            privileged=split.privileged,
            scores=scores,
            permutations=options.permutations,
            rng=spec.seed,
        ),
    }
    if numeric and both_groups:
        audits["fliptest"] = lambda: fliptest_audit(
            _transport(spec, options),
            y_pred,
            split.s_test,
            privileged=split.privileged,
            features=list(split.X_test.columns),
        )
    if numeric:
        audits["individual"] = lambda: individual_audit(
            _fair_metric(spec, options), model, split.y_test, split.s_test, rng=spec.seed
        )
    rows: list[tuple] = []
    errors: dict[str, str] = {}
    for name, audit in audits.items():
        try:
            rows += audit()
        except RunTimeoutError:
            raise
        except Exception as error:  # the model fitted: keep its measures, record the audit's error
            errors[name] = f"{type(error).__name__}: {error}"
    return rows, errors


def _fit(spec: RunSpec, options: Options, split: Split) -> tuple[Any, float]:
    algorithm = _registry(options.plugins)[spec.algorithm]
    model = algorithm.create(**spec.parameters)
    if "random_state" in model.get_params() and "random_state" not in spec.parameters:
        model.set_params(random_state=spec.seed % 2**31)
    start = time.perf_counter()
    model.fit(split.X_train, split.y_train, sensitive_features=split.s_train)
    return model, time.perf_counter() - start


def _predict(model: Any, split: Split) -> tuple[np.ndarray, np.ndarray | None]:
    s = split.s_test
    y_pred = np.asarray(model.predict(split.X_test, sensitive_features=s)).astype(np.int8)
    if hasattr(model, "predict_proba"):
        scores = model.predict_proba(split.X_test, sensitive_features=s)[:, 1]
    elif hasattr(model, "decision_function"):
        scores = model.decision_function(split.X_test, sensitive_features=s)
    else:
        scores = None
    return y_pred, scores


def _measure_rows(part: str, split: Split, y_pred: np.ndarray, scores) -> list[tuple]:
    frame = evaluate(split.y_test, y_pred, split.s_test, privileged=split.privileged, scores=scores)
    return [(part, m, g, float(v)) for m, g, v in frame.itertuples(index=False)]


@lru_cache(maxsize=4)
def _registry(plugins: str | None) -> dict:
    return dict(algorithms(plugins))


@lru_cache(maxsize=4)
def _dataset(
    name: str, spec_path: str | None, cache: str | None, mirror: str | None, fingerprint: str
):
    """Load a dataset once per worker; the fingerprint keys the cache on the data's content."""
    return load_dataset(read_spec(spec_path) if spec_path else name, cache=cache, mirror=mirror)


@dataclass(frozen=True)
class _DataKey:
    """What identifies a prepared dataset in a worker's caches."""

    name: str
    spec_path: str | None
    cache: str | None
    mirror: str | None
    fingerprint: str
    variant: str
    attribute: str


def _data_key(spec: RunSpec, options: Options) -> _DataKey:
    return _DataKey(
        spec.dataset,
        spec.dataset_spec,
        options.cache,
        options.mirror,
        dict(spec.inputs).get("data", ""),
        spec.variant,
        spec.sensitive_attribute,
    )


@lru_cache(maxsize=12)
def _prepared_cached(key: _DataKey) -> Prepared:
    dataset = _dataset(key.name, key.spec_path, key.cache, key.mirror, key.fingerprint)
    return prepare(dataset, key.variant, key.attribute)


def _prepared(spec: RunSpec, options: Options) -> Prepared:
    return _prepared_cached(_data_key(spec, options))


@lru_cache(maxsize=4)
def _transport_cached(key: _DataKey, split_id: int, base_seed: int) -> FlipTestSetup:
    split = make_split(_prepared_cached(key), split_id, base_seed=base_seed)
    return split_transport(
        split.X_test.to_numpy(float), split.s_test, split.privileged, rng=split.seed
    )


def _transport(spec: RunSpec, options: Options) -> FlipTestSetup:
    """Return the split's FlipTest map, computed once per worker for every algorithm."""
    return _transport_cached(_data_key(spec, options), spec.split_id, spec.base_seed)


@lru_cache(maxsize=4)
def _fair_metric_cached(key: _DataKey, split_id: int, base_seed: int) -> IndividualSetup:
    split = make_split(_prepared_cached(key), split_id, base_seed=base_seed)
    return split_fair_metric(split.X_test.to_numpy(float), split.s_test, rng=split.seed)


def _fair_metric(spec: RunSpec, options: Options) -> IndividualSetup:
    """Return the split's fair metric and audit rows, computed once per worker."""
    return _fair_metric_cached(_data_key(spec, options), spec.split_id, spec.base_seed)


@lru_cache(maxsize=1)
def _versions() -> dict[str, str]:
    found = {}
    for package in _PACKAGES:
        with contextlib.suppress(PackageNotFoundError):
            found[package] = version(package)
    return found


def _spec_record(spec: RunSpec) -> dict[str, Any]:
    record = {k: v for k, v in asdict(spec).items() if k not in ("params", "tune", "inputs")}
    return record | {"params": spec.parameters, "seed": spec.seed, "inputs": dict(spec.inputs)}


def _distinct(caught: list[warnings.WarningMessage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))


def run_plan(
    specs: tuple[RunSpec, ...],
    store: ResultStore,
    options: Options,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    retry_failed: bool = False,
    report: Callable[[StoredRun, Summary], None] | None = None,
) -> Summary:
    """Run the specs not yet stored (all with ``force``) and store each result as it arrives.

    Parameters
    ----------
    specs
        The planned runs.
    store
        Where results go; runs already stored as done (and, unless ``retry_failed``, as failed)
        are skipped, provided they were computed from the same inputs.
    options
        Worker options.
    jobs
        Parallel workers (loky processes, or Dask workers of a local cluster).
    backend
        ``"loky"`` or ``"dask"``.
    scheduler
        Address of a running Dask scheduler; a local cluster is started when None.
    force, retry_failed
        Redo every run, or the failed ones.
    report
        Called after each stored run (progress display).

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
            _refuse_stale(specs, store)
        store.record_plan(specs)
        stored = store.statuses()
        redo = {"done", "failed"} if force else ({"failed"} if retry_failed else set())
        todo = [s for s in specs if s.key not in stored or stored[s.key] in redo]
        summary = Summary(planned=len(specs), skipped=len(specs) - len(todo))
        try:
            with _backend(backend, jobs, scheduler), _sigterm_interrupts():
                results = Parallel(return_as="generator_unordered")(
                    delayed(execute_run)(spec, options) for spec in todo
                )
                for result in results:
                    store.write(result)
                    if result.status == "done":
                        summary.done += 1
                    else:
                        summary.failed += 1
                    if report:
                        report(result, summary)
        except KeyboardInterrupt:
            summary.interrupted = True
    return summary


def _refuse_stale(specs: tuple[RunSpec, ...], store: ResultStore) -> None:
    """Raise :class:`StaleResultsError` naming what changed if a stored run's inputs differ."""
    stored = store.inputs()
    changes: Counter[tuple[str, str, str]] = Counter()
    stale = 0
    for spec in specs:
        before = stored.get(spec.key)
        if before is None:
            continue
        now = dict(spec.inputs)
        changed = [
            name for name in sorted(now.keys() | before.keys()) if before.get(name) != now.get(name)
        ]
        stale += bool(changed)
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
        f"{lines}\nNothing was run. Rerun with --force to recompute the planned runs, or pass "
        "another --results folder to keep both."
    )


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


@contextlib.contextmanager
def _backend(name: str, jobs: int, scheduler: str | None) -> Iterator[None]:
    """Joblib's backend: loky with one BLAS thread per worker, or a Dask cluster."""
    if name == "loky":
        with parallel_config(backend="loky", n_jobs=jobs, inner_max_num_threads=1):
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


def progress_printer(stream=sys.stderr) -> Callable[[StoredRun, Summary], None]:
    """Build a progress display: a bar, runs done, failures and time left.

    On a terminal the line is redrawn after every run; elsewhere (a log file, CI) a line is
    written at every tenth of the work.
    """
    start = time.monotonic()
    live = stream.isatty()

    def show(result: StoredRun, summary: Summary) -> None:
        total = summary.planned - summary.skipped
        finished = summary.done + summary.failed
        if (
            not live
            and finished != total
            and finished * 10 // total == (finished - 1) * 10 // total
        ):
            return
        elapsed = time.monotonic() - start
        left = elapsed / finished * (total - finished)
        filled = round(_BAR * finished / total)
        line = (
            f"[{'#' * filled}{'-' * (_BAR - filled)}] {finished}/{total} runs, "
            f"{summary.failed} failed, {elapsed:.0f} s elapsed, ETA {left:.0f} s"
        )
        stream.write(f"\r{line} " if live else f"{line}\n")
        if live and finished == total:
            stream.write("\n")
        stream.flush()

    return show
