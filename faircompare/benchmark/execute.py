"""One run, start to end: split, fit, predict, measure and audit, and the record it leaves.

A run that raises (or exits) is recorded with its traceback; a run that exceeds its time limit
is stopped by its own timer where it can be (:func:`faircompare._timeout.time_limit`; the
worker pool enforces the limit from outside, :mod:`faircompare.benchmark.workers`) and recorded
as failed. An audit that fails is recorded with its error beside the run's measures, which are
kept. Each run works in a temporary folder of its own (its working directory and its
temporary directory), removed when it ends with whatever the run left in it. What a run
changes in its process (working directory, environment variables, numpy's error handling,
warning filters, ``sys.path``, signal handlers, resource limits) is put back after it, so no
run depends on the one before.
Each worker loads and prepares a dataset once; the record keeps the fingerprint of the data the
run actually read.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from faircompare._deprecations import former_forms
from faircompare._timeout import time_limit
from faircompare.algorithms.outputs import (
    checked_predictions,
    checked_scores,
    in_row_order,
    row_index,
)
from faircompare.audits import AuditedRun, AuditOptions, AuditOutcome, audit_run
from faircompare.benchmark.trials import Search, search
from faircompare.benchmark.tuned import Journal, chosen_spec, searched_space, tuning_of
from faircompare.config.settings import BenchmarkConfig
from faircompare.datasets import Dataset, load_dataset, read_spec
from faircompare.exceptions import LONGEST_TRACEBACK, DegeneratePredictionsWarning, cut_message
from faircompare.measures import measure_rows
from faircompare.preprocessing import Prepared, Split, make_split, prepare, validation_split
from faircompare.records import MeasureRow, Predictions, RunRecord, RunSpec, Trial
from faircompare.registry import Algorithm, find_algorithm

_PACKAGES = ("faircompare", "numpy", "pandas", "scipy", "scikit-learn", "fairlearn")


# (fit key, holdout, variant of a repeating run) -> model, fit seconds
Fits = dict[tuple[str, str, str], tuple[Any, float]]
Predicted = tuple[np.ndarray, np.ndarray | None]  # predictions and scores
Scored = dict[str, dict[str, Predicted]]  # run key -> holdout -> what the run predicted
Searches = dict[str, list[Trial]]  # search key -> the trials of its search so far


def execute_runs(runs: Sequence[RunSpec], settings: BenchmarkConfig) -> list[RunRecord]:
    """Execute runs that share one fit (:attr:`RunSpec.fit_key`), fitting it once.

    A baseline never reads the sensitive attribute, so on one split its model is the same for
    every attribute and numeric variant: it is fitted (and tuned) once, and each run predicts,
    measures and audits with it. The records are those each run alone would give, but for the
    later runs' fit time (0: they fitted nothing). A run that repeats another is measured from
    that run's work (:class:`GroupWork`).

    Parameters
    ----------
    runs
        Runs with one fit key.
    settings
        The study's settings: the time limit, plugins, data locations and audits are read.

    Returns
    -------
    list of RunRecord
        One per run, in order.
    """
    work = GroupWork()
    return [work.execute(spec, settings) for spec in runs]


@dataclass
class GroupWork:
    """What the runs of one fit key share, kept as they execute one after another.

    A run that repeats another (:attr:`RunSpec.repeats`: the same data but for the groups'
    names, the same fit and seeds) takes that run's predictions and audits, once it is done,
    and measures them with its own groups' names: its record is the one it would compute,
    without the fit, predictions and audits done twice (0 seconds of fit and predictions).
    The audits' details and the twin's warnings name the groups as the twin does.

    Attributes
    ----------
    fits
        The models fitted so far.
    scored
        What each run predicted, by holdout.
    done
        The records of the runs done, by key.
    searches
        The tuned runs' searches so far, by search key: a larger budget resumes a smaller
        one's.
    """

    fits: Fits = field(default_factory=dict)
    scored: Scored = field(default_factory=dict)
    done: dict[str, RunRecord] = field(default_factory=dict)
    searches: Searches = field(default_factory=dict)

    def execute(self, spec: RunSpec, settings: BenchmarkConfig) -> RunRecord:
        """Execute one run of the group, or measure the run it repeats, once done.

        Parameters
        ----------
        spec
            The group's next run (a repeating run comes after its twin, as planned).
        settings
            The study's settings.

        Returns
        -------
        RunRecord
            Its record, done or failed.
        """
        twin = self.done.get(spec.repeated_key) if spec.repeats else None
        if twin is None:
            record = execute_run(spec, settings, self.fits, self.scored, self.searches)
        else:
            predicted = self.scored[twin.spec.key]
            record = _recorded(spec, settings, lambda: _repeated(spec, twin, predicted, settings))
        if record.status == "done":
            self.done[spec.key] = record
        return record


@former_forms
def execute_run(
    spec: RunSpec,
    settings: BenchmarkConfig,
    fits: Fits | None = None,
    scored: Scored | None = None,
    searches: Searches | None = None,
) -> RunRecord:
    """Fit, predict, measure and audit one run; an exception becomes a failed run.

    Parameters
    ----------
    spec
        The run.
    settings
        The study's settings: the time limit, plugins, data locations and audits are read
        (formerly ``options=``, which still works with a :class:`DeprecationWarning`).
    fits
        Models fitted by earlier runs of the same fit key, reused (see :func:`execute_runs`);
        this run's fits are added.
    scored
        Where the run leaves its predictions, by holdout under its key, for a run that repeats
        it; None to keep nothing.
    searches
        The searches of tuned runs done before it (their trials, by search key), which a
        tuned run resumes, and where it leaves its own; None: its journal's only.

    Returns
    -------
    RunRecord
        The run's results, or its error and traceback when it failed.
    """
    fits = {} if fits is None else fits
    kept = {} if scored is None else scored.setdefault(spec.key, {})
    return _recorded(spec, settings, lambda: _fit_and_score(spec, settings, fits, kept, searches))


def _recorded(
    spec: RunSpec, settings: BenchmarkConfig, compute: Callable[[], RunRecord]
) -> RunRecord:
    """Compute a run's record in a kept process state, within its time limit and one thread.

    An exception becomes a failed run, and so does any ``BaseException`` the run's code raises
    (a plugin's ``SystemExit`` or ``KeyboardInterrupt``), under its own name; only a real
    interrupt (Ctrl-C, SIGINT) ends the study. The warnings raised are added to the record.
    """
    started = time.time()
    if "torch" in sys.modules:  # threadpoolctl does not reach torch's own thread pool
        sys.modules["torch"].set_num_threads(1)
    caught: list[warnings.WarningMessage] = []
    interrupted = _Interrupt()
    try:
        with (
            run_surroundings(),
            interrupted.watched(),
            threadpool_limits(limits=1),
            time_limit(settings.timeout),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            run = compute()
    except BaseException as error:  # a failing run is recorded, never raised
        if isinstance(error, KeyboardInterrupt) and interrupted.signalled:
            raise
        run = failed_run(spec, f"{type(error).__name__}: {error}", trace=traceback.format_exc())
    return replace(
        run,
        versions=_versions(),
        started_at=started,
        finished_at=time.time(),
        warnings=tuple(dict.fromkeys((*run.warnings, *_distinct(caught)))),
    )


class _Interrupt:
    """Whether a real SIGINT arrived while a run was computed.

    A ``KeyboardInterrupt`` the run's code raises itself is its failure, not the user's stop.
    """

    def __init__(self) -> None:
        self.signalled = False

    @contextlib.contextmanager
    def watched(self) -> Iterator[None]:
        """Mark a SIGINT before it interrupts the run as Python's own handler does.

        Only in the main thread, where signals are handled (a Dask worker's thread is not; its
        runs are not interrupted by a terminal's Ctrl-C either). The previous handler is put
        back by :func:`_process_state_kept`.
        """
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)

            def marked(number: int, frame: Any) -> None:
                if previous is signal.SIG_IGN:
                    return
                self.signalled = True
                if callable(previous):  # Python's own handler raises KeyboardInterrupt
                    previous(number, frame)
                else:
                    raise KeyboardInterrupt

            signal.signal(signal.SIGINT, marked)
        yield


def failed_run(
    spec: RunSpec, error: str, *, trace: str | None = None, started: float | None = None
) -> RunRecord:
    """Return the record of a run that failed.

    Parameters
    ----------
    spec
        The run.
    error
        What went wrong, as ``"ErrorName: message"``; stored cut to
        :data:`~faircompare.exceptions.LONGEST_MESSAGE` characters.
    trace
        The traceback, when there is one; stored cut to its first and last
        :data:`~faircompare.exceptions.LONGEST_TRACEBACK` characters.
    started
        When the run started (wall clock); it ends now.

    Returns
    -------
    RunRecord
        A failed record, with the package versions.
    """
    return RunRecord(
        spec=spec,
        status="failed",
        error=cut_message(error),
        traceback=None if trace is None else cut_message(trace, LONGEST_TRACEBACK, keep_end=True),
        versions=_versions(),
        started_at=started,
        finished_at=None if started is None else time.time(),
    )


@contextlib.contextmanager
def run_surroundings() -> Iterator[Path]:
    """Surround a run as the benchmark does: a folder of its own, and its process put back after.

    Yields
    ------
    Path
        The run's folder (:func:`_run_folder`), its working and temporary directory while the
        block runs, removed afterwards; the process state the run may change
        (:func:`_process_state_kept`) is put back as it was.
    """
    with _process_state_kept(), _run_folder() as folder:
        yield folder


@contextlib.contextmanager
def _process_state_kept() -> Iterator[None]:
    """Put back what a run may change in its process, so that no run depends on the one before.

    The working directory, environment, :mod:`tempfile`'s directory, numpy's error handling,
    ``sys.path``, the signal handlers and the resource limits (a plugin's
    ``setrlimit(RLIMIT_AS, ...)`` in ``fit`` made later runs of its worker fail with
    ``MemoryError``, blaming other algorithms).
    """
    folder, environment, errors = os.getcwd(), dict(os.environ), np.geterr()
    path, handlers, limits = list(sys.path), _signal_handlers(), _resource_limits()
    temporary = tempfile.tempdir
    try:
        yield
    finally:
        os.chdir(folder)
        tempfile.tempdir = temporary
        if dict(os.environ) != environment:
            os.environ.clear()
            os.environ.update(environment)
        np.seterr(**errors)
        sys.path[:] = path
        for number, handler in handlers.items():
            if signal.getsignal(number) is not handler:
                signal.signal(number, handler)
        for limit, values in limits.items():
            if resource.getrlimit(limit) != values:
                resource.setrlimit(limit, values)  # a lowered hard limit needs root: raises


@contextlib.contextmanager
def _run_folder() -> Iterator[Path]:
    """Work in a new temporary folder, removed at the end with whatever was left in it.

    The folder is the working directory and the temporary directory (``TMPDIR`` and
    :func:`tempfile.gettempdir`) while the block runs: a file a plugin writes by a relative
    path, or through :mod:`tempfile`, lands there, never in the folder the study was started
    from, and is gone when the run ends. It is made in the system's temporary directory (set
    ``TMPDIR`` before the study to choose another). It is entered within
    :func:`_process_state_kept`, which puts back the working directory, ``TMPDIR`` and
    :mod:`tempfile`'s directory.

    Yields
    ------
    Path
        The folder.
    """
    folder = Path(tempfile.mkdtemp(prefix="faircompare-run-"))
    try:
        os.chdir(folder)
        tempfile.tempdir = os.environ["TMPDIR"] = str(folder)
        yield folder
    finally:
        remove_folder(folder)


def remove_folder(folder: Path) -> None:
    """Remove a folder and everything in it, sub-folders a run made unreadable included.

    Parameters
    ----------
    folder
        A run's folder, or a worker's (:class:`~faircompare.benchmark.workers.WorkerPool`);
        links in it are removed, never followed, and so is the folder itself where a run
        replaced it by a link.
    """
    if folder.is_symlink():  # a link's target is not ours: neither changed nor removed
        folder.unlink()
        return
    with contextlib.suppress(OSError):
        folder.chmod(0o700)
    for root, folders, _ in os.walk(folder):  # top down: each is opened after its chmod
        for name in folders:
            if not os.path.islink(path := os.path.join(root, name)):  # a link's target is not ours
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o700)
    shutil.rmtree(folder, ignore_errors=True)


def _signal_handlers() -> dict[int, Any]:
    """Return the handler of every signal this (main) thread can handle; none from another."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # signal.signal works in the main thread only (a Dask worker's threads)
    handlers: dict[int, Any] = {}
    for number in signal.valid_signals():
        handler = signal.getsignal(number)
        if handler is not None and number not in (signal.SIGKILL, signal.SIGSTOP):
            handlers[number] = handler
    return handlers


_RLIMITS = sorted({getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_")})


def _resource_limits() -> dict[int, tuple[int, int]]:
    """Return every resource limit of this process (``RLIMIT_*``), by its number."""
    return {number: resource.getrlimit(number) for number in _RLIMITS}


def _fit_and_score(
    spec: RunSpec,
    settings: BenchmarkConfig,
    fits: Fits,
    kept: dict[str, Predicted],
    searches: Searches | None = None,
) -> RunRecord:
    """One run, straight: split, fit (a tuned run's chosen setting), predict, measure, audit.

    What the run predicts is left in ``kept``, by holdout; a tuned run's search in
    ``searches``, by its search key, for the other budgets and points of the search.
    """
    start = time.perf_counter()
    dataset, split = run_split(spec, settings)
    found = None
    if spec.budget is None:
        model, fit_seconds = fit_model(spec, settings, split, fits)
    else:
        found = _searched(spec, settings, split, {} if searches is None else searches)
        chosen = chosen_spec(spec, found.chosen.params)
        model, fit_seconds = fit_model(chosen, settings, split, fits)
    predict_start = time.perf_counter()
    y_pred, scores = kept[split.holdout] = predict_rows(spec.algorithm, model, split)
    predict_seconds = time.perf_counter() - predict_start
    if (constant := constant_predictions(y_pred, split.sensitive_features_test)) is not None:
        warnings.warn(constant, DegeneratePredictionsWarning, stacklevel=1)
    measures = _measure_rows(split, y_pred, scores)
    audits = AuditOutcome((), {})
    if settings.audits and spec.audited:
        run = AuditedRun(split, model, y_pred, scores, seed=spec.seed, data=dataset.fingerprint)
        audits = audit_run(run, AuditOptions(permutations=settings.permutations))
    if spec.tune:  # parameters are chosen on data the test set never touched
        tuning = validation_split(split)
        tuned_model, _ = fit_model(spec, settings, tuning, fits)
        kept[tuning.holdout] = predict_rows(spec.algorithm, tuned_model, tuning)
        measures += _measure_rows(tuning, *kept[tuning.holdout])
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
        data=dataset.fingerprint,
        predictions=_predictions(split, y_pred, scores),
        trials=() if found is None else found.trials,
        chosen=None if found is None else found.chosen.number,
    )


def _searched(spec: RunSpec, settings: BenchmarkConfig, split: Split, searches: Searches) -> Search:
    """Search a tuned run's space on the validation rows of its split, resuming what is known.

    The trials known are those of its search's smaller budgets done in this process, else
    those its journal holds; each new one is journaled as it ends.
    """
    journal = Journal(spec)
    known = searches.get(spec.search_key) or journal.read()
    validation = validation_split(split)  # the test rows are never read
    estimator = _algorithm(spec.algorithm, settings.plugins).create(**spec.parameters)

    def score(params: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
        trial = chosen_spec(spec, params, searching=True)
        model = _algorithm(spec.algorithm, settings.plugins).create(**trial.parameters)
        model = model.fit_equivalent() or model  # a frontier's search is its baseline's
        if "random_state" in model.get_params() and "random_state" not in params:
            model.set_params(random_state=trial.fit_seed % 2**31)
        X, y, s = _handed(model, validation.X_train, validation.y_train,
                          validation.sensitive_features_train)  # fmt: skip
        model.fit(X, y, sensitive_features=s)
        y_pred, _ = predict_rows(spec.algorithm, model, validation)
        return validation.y_test, y_pred, validation.sensitive_features_test, split.privileged

    tuning = tuning_of(spec, settings)
    found = search(searched_space(spec, estimator), tuning, score,
                   done=known[: tuning.budget], after=journal.add)  # fmt: skip
    if len(found.trials) > len(known):
        searches[spec.search_key] = list(found.trials)
    return found


def constant_predictions(y_pred: np.ndarray, groups: np.ndarray) -> str | None:
    """Say where a run predicts one class for every test row: overall, or in some groups.

    Parameters
    ----------
    y_pred
        The test predictions (0 and 1).
    groups
        Each test row's group.

    Returns
    -------
    str or None
        "one class for every test row: 0 (9,045 rows)", or "one class for every test row of
        group 0: 1 (1,205 rows)" (each such group, with its class); None when every group has
        both classes predicted.
    """
    y_pred, groups = np.asarray(y_pred), np.asarray(groups).astype(str)
    if len(np.unique(y_pred)) == 1:
        return f"one class for every test row: {y_pred[0]} ({len(y_pred):,} rows)"
    constant = [
        f"group {group}: {y_pred[groups == group][0]} ({(groups == group).sum():,} rows)"
        for group in np.unique(groups)
        if len(np.unique(y_pred[groups == group])) == 1
    ]
    return f"one class for every test row of {'; '.join(constant)}" if constant else None


def _predictions(split: Split, y_pred: np.ndarray, scores: np.ndarray | None) -> Predictions:
    return Predictions(
        test_index=split.test_index,
        y_true=split.y_test,
        y_pred=y_pred,
        scores=scores,
        sensitive_features=split.sensitive_features_test,
        privileged=split.privileged,
    )


def _repeated(
    spec: RunSpec, twin: RunRecord, predicted: dict[str, Predicted], settings: BenchmarkConfig
) -> RunRecord:
    """Return the record of a run that repeats ``twin``: its predictions, measured anew."""
    start = time.perf_counter()
    _, split = run_split(spec, settings)
    y_pred, scores = predicted[split.holdout]
    measures = _measure_rows(split, y_pred, scores)
    if spec.tune:
        tuning = validation_split(split)
        measures += _measure_rows(tuning, *predicted[tuning.holdout])
    return replace(
        twin,
        spec=spec,
        timings={"fit": 0.0, "predict": 0.0, "total": time.perf_counter() - start},
        measures=measures,
        predictions=_predictions(split, y_pred, scores),
    )


def run_split(spec: RunSpec, settings: BenchmarkConfig) -> tuple[Dataset, Split]:
    """Return a run's dataset (loaded once per process) and its split, made as the run made it.

    Parameters
    ----------
    spec
        The run.
    settings
        Where the data is (``mirror``, ``cache``).

    Returns
    -------
    tuple
        The :class:`~faircompare.datasets.Dataset` and the run's seeded
        :class:`~faircompare.preprocessing.Split`.
    """
    dataset = _dataset(
        spec.dataset, spec.dataset_file, settings.cache, settings.mirror, _data(spec)
    )
    prepared = _prepared(dataset, spec.variant, spec.sensitive_attribute)
    return dataset, make_split(prepared, spec.split_id, base_seed=spec.base_seed)


def fit_model(
    spec: RunSpec, settings: BenchmarkConfig, split: Split, fits: Fits
) -> tuple[Any, float]:
    """Fit a run's model on ``split``, or take the one an earlier run of its fit key fitted.

    A model taken from an earlier run is refitted with this run's own :attr:`RunSpec.
    refit_params` (only their step of the fit, which is timed; those the run leaves at their
    defaults, at their defaults). A run whose fit is another
    algorithm's (:attr:`RunSpec.fit_as`) fits that algorithm. A run that repeats another fits
    its own model where that run's record is not there to repeat: the repeated run's model
    knows the groups by other names.

    Parameters
    ----------
    spec
        The run.
    settings
        Where its plugins are (``plugins``).
    split
        The split to fit on (:func:`run_split`, or its validation part).
    fits
        The models fitted so far, by fit key; the new one is added.

    Returns
    -------
    tuple
        The fitted model and the seconds its fit (or refit) took.
    """
    key = (spec.fit_key, split.holdout, spec.variant if spec.repeats else "")
    if key in fits:
        model = fits[key][0]
        if not spec.refits:
            return model, 0.0
        start = time.perf_counter()
        own = {name: value for name, value in spec.params if name in spec.refit_params}
        if len(own) < len(spec.refit_params):  # a tuned frontier's end: the others' defaults
            defaults = _algorithm(spec.algorithm, settings.plugins).create().get_params()
            own = {name: own.get(name, defaults[name]) for name in spec.refit_params}
        return model.refitted(**own), time.perf_counter() - start
    name, params = spec.algorithm, spec.parameters
    if spec.fit_as is not None:
        name, params = spec.fit_as.algorithm, dict(spec.fit_as.params)
    model = _algorithm(name, settings.plugins).create(**params)
    if "random_state" in model.get_params() and "random_state" not in params:
        model.set_params(random_state=spec.fit_seed % 2**31)
    X, y, s = _handed(model, split.X_train, split.y_train, split.sensitive_features_train)
    start = time.perf_counter()
    model.fit(X, y, sensitive_features=s)
    fits[key] = model, time.perf_counter() - start
    return fits[key]


def predict_rows(name: str, model: Any, split: Split) -> tuple[np.ndarray, np.ndarray | None]:
    """Predict a split's test rows, refusing predictions or scores that cannot be measured.

    Outputs are put in the order of the test rows (a pandas output by its index) before they
    are checked; a plugin predicts from copies of the rows, which are measured afterwards.

    Parameters
    ----------
    name
        The algorithm's name, for the errors.
    model
        The fitted model (:func:`fit_model`).
    split
        The split whose test rows are predicted.

    Returns
    -------
    tuple
        The predicted labels, and the scores (``predict_proba``'s positive column, else
        ``decision_function``) or None.
    """
    n, rows = len(split.y_test), row_index(split.X_test)

    def asked(method: str) -> Any:
        X, s = _handed(model, split.X_test, split.sensitive_features_test)
        return getattr(model, method)(X, sensitive_features=s)

    y_pred = checked_predictions(name, asked("predict"), n, rows=rows)
    if hasattr(model, "predict_proba"):
        proba = np.asarray(in_row_order(name, asked("predict_proba"), rows, "predict_proba"))
        return y_pred, checked_scores(name, proba[:, 1], n, "predict_proba")
    if hasattr(model, "decision_function"):
        scores = asked("decision_function")
        return y_pred, checked_scores(name, scores, n, "decision_function", rows=rows)
    return y_pred, None


def _handed(model: Any, *inputs: Any) -> tuple[Any, ...]:
    """Return the inputs a model's method receives: copies for a plugin, as they are otherwise.

    A plugin (a model whose class is not faircompare's own) gets copies of the features, labels
    and sensitive attribute, so that nothing it does to them in place (a ``sensitive_features[:]
    = ...`` in ``predict``, say) reaches the measures, the audits or the other runs of the split.

    Parameters
    ----------
    model
        The model whose method is called.
    *inputs
        Its arguments: frames and arrays.

    Returns
    -------
    tuple
        The inputs, copied for a plugin.
    """
    if type(model).__module__.startswith("faircompare."):
        return inputs
    return tuple(value.copy() for value in inputs)


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
    """Return the planned fingerprint of the run's dataset (content and cleaning rules)."""
    return dict(spec.inputs).get("data", "")


@lru_cache(maxsize=4)
def _dataset(
    name: str, spec_path: str | None, cache: str | None, mirror: str | None, fingerprint: str
) -> Dataset:
    """Load a dataset once per worker; the fingerprint keys the cache on the data's content."""
    return load_dataset(read_spec(spec_path) if spec_path else name, cache=cache, mirror=mirror)


@lru_cache(maxsize=12)
def _prepared(dataset: Dataset, variant: str, attribute: str) -> Prepared:
    """Prepare once per worker; keyed on the loaded dataset itself (one per fingerprint)."""
    return prepare(dataset, variant, attribute)


@lru_cache(maxsize=1)
def _versions() -> dict[str, str]:
    found = {}
    for package in _PACKAGES:
        with contextlib.suppress(PackageNotFoundError):
            found[package] = version(package)
    return found


def _distinct(caught: list[warnings.WarningMessage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))
