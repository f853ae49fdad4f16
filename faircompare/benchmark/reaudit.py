"""Audit a stored study again, from its stored predictions, refitting only what an audit needs.

A run's permutation tests read its predictions and groups, and FlipTest its split's test rows
and predictions: both are audited again from the store and the seeded split, without the
model. An audit that reads the model (the individual-fairness test's attack) needs it fitted
again: the run's fit is repeated with its seeds, and its predictions must equal the stored ones
(a fit that is not deterministic is reported, and its run left as it was). Each run's new
audits are stored as soon as they are computed, with its inputs' new audit versions and
settings: an interrupted re-audit resumes where it stopped, and ``faircompare run`` then
reuses the runs as current.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare._timeout import time_limit
from faircompare._validation import MAX_PERMUTATIONS, check_choice
from faircompare.audits import AuditedRun, AuditOptions, AuditOutcome, audit_run
from faircompare.audits.registry import (
    audits_input,
    current_versions,
    read_audits_input,
    registered_audits,
)
from faircompare.benchmark.execute import (
    Fits,
    _fit,
    _predict,
    _process_state_kept,
    _run_folder,
    _split,
)
from faircompare.benchmark.plan import stored_spec
from faircompare.benchmark.settings import BenchmarkConfig
from faircompare.datasets import read_spec
from faircompare.exceptions import FaircompareError, cut_message
from faircompare.records import Predictions, RunSpec
from faircompare.results import ResultStore

Say = Callable[[str], None]
_LOG_STEPS = 20  # progress lines: one per 5 % of the runs
#: ``--undecided`` without ``--permutations`` draws undecided tests to this many times their cap.
UNDECIDED_GROWTH = 10
# the order runs are audited in: a split's runs together (its data, setups and shared fits)
_ORDER = ("dataset", "split_id", "algorithm", "sensitive_attribute", "variant", "params")


class ReauditError(FaircompareError):
    """A stored run that cannot be audited again as it was run (its data or fit changed)."""


@dataclass(frozen=True)
class AuditSummary:
    """What a re-audit did.

    Attributes
    ----------
    audited
        Runs audited again and stored.
    current
        Audited runs whose audits were current already (with ``undecided``: and decided).
    not_audited
        Done runs their study did not audit (``--no-audits``, a frontier's runs).
    failed
        ``(run, reason)`` of each run left as it was.
    refitted
        Runs whose model was fitted again (for an audit that reads it).
    """

    audited: int
    current: int
    not_audited: int
    failed: tuple[tuple[str, str], ...]
    refitted: int


@dataclass(frozen=True)
class _Work:
    """One run to audit again: its stored row, the audits to run and the cap to run them at."""

    run: dict[str, Any]
    audits: frozenset[str]
    permutations: int
    inputs: dict[str, str]


def audit_study(
    results: str | Path,
    *,
    audits: Collection[str] | None = None,
    permutations: int | None = None,
    undecided: bool = False,
    mirror: str | Path | None = None,
    cache: str | Path | None = None,
    plugins: str | Path | None = None,
    specs: Sequence[str | Path] = (),
    timeout: float | None = None,
    say: Say | None = None,
) -> AuditSummary:
    """Audit the runs of a results folder again: those with stale audits, or undecided verdicts.

    A run is audited again when its stored audits are of other versions than this
    faircompare's, or were drawn to another cap than ``permutations``. With ``undecided``, the
    cap applies to the runs with an undecided permutation verdict alone (a Monte Carlo interval
    that holds the level after Holm's adjustment), whose tests are drawn further: to
    ``permutations``, or to :data:`UNDECIDED_GROWTH` times their own cap. Only the audits
    that are stale, or drawn further, run again. (An individual test's undecided verdict is
    attacked again within the run, up to its cap of attacks.)

    Parameters
    ----------
    results
        The results folder.
    audits
        The audits to run again (names of :func:`~faircompare.audits.registered_audits`);
        None for all of them.
    permutations
        The permutation tests' cap; None keeps each run's. A cap other than a run's stored one
        audits its permutation tests again.
    undecided
        Draw the undecided permutation tests further (and only those runs' to a new cap).
    mirror, cache
        The local mirror of raw data files and the cache of verified ones (None: the
        defaults), for the splits.
    plugins
        The folder of plugin files the study ran with (for a plugin's runs).
    specs
        The TOML specifications of the study's own datasets, found by their names.
    timeout
        Seconds per run (a run past it is reported and left as it was); None for a study's
        default (:attr:`BenchmarkConfig.timeout <faircompare.config.BenchmarkConfig.timeout>`).
    say
        Called with a line for each note: the runs to audit, progress every 5 %.

    Returns
    -------
    AuditSummary
        How many runs were audited, current or left as they were, and why.

    Raises
    ------
    StoreError
        If the folder holds no runs, or cannot be written.
    """
    say = say or _silent
    registered = registered_audits()
    chosen = frozenset(
        check_choice(name, registered, what="audit") for name in (audits or registered)
    )
    files = {read_spec(path).name: str(Path(path).resolve()) for path in specs}
    # what a run's audit reads of a study's settings (the plan's fields are the store's)
    settings = BenchmarkConfig().overridden(
        timeout=timeout, plugins=plugins, cache=cache, mirror=mirror
    )
    with ResultStore(results, readonly=True) as probe:  # a folder without a study: not made
        probe.require_runs()
    with ResultStore(results) as store, store.claim():
        runs = store.runs().query("status == 'done'")
        audited = runs["inputs"].map(lambda text: _audits_of(text) is not None)
        runs, not_audited = runs[audited], int((~audited).sum())
        drawn_on = (
            undecided_runs(store.audits()) if undecided and "permutation" in chosen else set()
        )
        current = current_versions()  # once: a plugin audit's version hashes its code
        work = [
            item
            for run in runs.to_dict("records")
            if (item := _work(run, chosen, current, _cap(run, permutations, undecided, drawn_on)))
        ]
        say(f"{len(work):,} of {len(runs):,} audited runs to audit again; results in {store.path}")
        summary = _audit_all(store, work, settings, files, say)
        return replace(summary, current=len(runs) - len(work), not_audited=not_audited)


def undecided_runs(audits: pd.DataFrame) -> set[str]:
    """Return the runs with a permutation test whose verdict at 0.05 is undecided.

    Parameters
    ----------
    audits
        The store's audits (:meth:`~faircompare.results.ResultStore.audits`).

    Returns
    -------
    set of str
        The keys of the runs with an undecided verdict (a Monte Carlo interval that holds the
        level after Holm's adjustment, :func:`~faircompare.analysis.tidy.permutation_verdicts`).
    """
    # imported here: the analysis layer's tidying of audits is a re-audit's only use of it
    from faircompare.analysis.tidy import permutation_verdicts, pooled_audits

    pooled = pooled_audits(audits)
    pooled = pooled[pooled["audit"] == "permutation"]
    verdicts = permutation_verdicts(pooled)
    return set(pooled.loc[verdicts.index[verdicts == "undecided"], "key"])


def _cap(
    run: dict[str, Any], permutations: int | None, undecided: bool, drawn_on: set[str]
) -> int | None:
    """Return the cap a run's permutation tests are to be drawn to; None to keep its own.

    Without ``undecided``, ``permutations`` applies to every run. With it, to the runs with an
    undecided verdict alone, which are drawn further: to ``permutations``, or to
    :data:`UNDECIDED_GROWTH` times their cap (drawn to the same cap again, a test gives the
    same verdict).
    """
    if not undecided:
        return permutations
    if run["key"] not in drawn_on:
        return None
    stored = _audits_of(run["inputs"])
    cap = stored[0] if stored else 0
    return permutations or min(UNDECIDED_GROWTH * cap, MAX_PERMUTATIONS)


def _work(
    run: dict[str, Any],
    chosen: frozenset[str],
    current: Mapping[str, str],
    permutations: int | None,
) -> _Work | None:
    """Return what to do for one stored run, or None where its audits are current.

    ``current``: every registered audit's version now; ``permutations``: the cap its
    permutation tests are to be drawn to (None: its own).
    """
    inputs = json.loads(run["inputs"] or "{}")
    stored = read_audits_input(inputs.get("audits", "off"))
    if stored is None:  # a run the study did not audit
        return None
    cap, versions = stored
    todo = {name for name in chosen if versions.get(name) != current[name]}
    new_cap = cap if permutations is None else permutations
    if new_cap != cap and "permutation" in chosen:
        todo.add("permutation")
    if not todo:
        return None
    # the audits not run again keep their stored versions (an audit never run says so)
    listed = {name: current[name] if name in todo else versions.get(name, f"{name} none")
              for name in current}  # fmt: skip
    inputs["audits"] = audits_input(new_cap if "permutation" in todo else cap, listed)
    return _Work(run, frozenset(todo), new_cap, inputs)


def _audit_all(
    store: ResultStore,
    work: list[_Work],
    settings: BenchmarkConfig,
    files: Mapping[str, str],
    say: Say,
) -> AuditSummary:
    """Audit each run of ``work`` in turn (grouped by split), storing each as it is done."""
    work.sort(key=lambda w: [w.run[column] for column in _ORDER])  # a split's runs together
    failed: list[tuple[str, str]] = []
    refitted, step, start = 0, -1, time.monotonic()
    fits: Fits = {}  # the models fitted again on the split at hand, shared as a study shares them
    split: tuple[str, int] | None = None
    for done, item in enumerate(work, start=1):
        run = item.run
        if split != (split := (run["dataset"], run["split_id"])):
            fits.clear()
        try:
            spec = stored_spec(run, settings.plugins, files.get(run["dataset"]))
            outcome, fitted = _audit_one(spec, store.predictions(spec.key), item, settings, fits)
        except Exception as error:  # a run that cannot be audited again is left as it was
            failed.append((_where(run), cut_message(f"{type(error).__name__}: {error}")))
        else:
            refitted += fitted
            store.replace_audits(
                spec.key, sorted(item.audits), outcome.rows, outcome.errors, item.inputs
            )
        if (now := _LOG_STEPS * done // len(work)) != step:
            step = now
            say(
                f"audited {done:,}/{len(work):,} runs, {len(failed)} left as they were, "
                f"{time.monotonic() - start:.0f} s elapsed"
            )
    return AuditSummary(len(work) - len(failed), 0, 0, tuple(failed), refitted)


def _audit_one(
    spec: RunSpec, stored: Predictions, work: _Work, settings: BenchmarkConfig, fits: Fits
) -> tuple[AuditOutcome, bool]:
    """Audit one run again; return its outcome and whether its model was fitted again."""
    registered = registered_audits()
    with (
        _process_state_kept(),
        _run_folder(),
        threadpool_limits(limits=1),
        time_limit(settings.timeout),
        warnings.catch_warnings(),  # a fit's warnings were the run's, stored with it
    ):
        warnings.simplefilter("ignore")
        dataset, split = _split(spec, settings)
        if dataset.fingerprint != dict(spec.inputs).get("data"):
            raise ReauditError(
                f"the {spec.dataset} data changed since the run (fingerprint "
                f"{dataset.fingerprint}, stored {dict(spec.inputs).get('data')}): run it again"
            )
        if not np.array_equal(split.test_index, stored.test_index):
            raise ReauditError("the split made again holds other test rows than the stored run")
        model = None
        needs_model = [a for a in sorted(work.audits) if getattr(registered[a], "uses_model", True)]
        if needs_model:
            model, _ = _fit(spec, settings, split, fits)
            y_pred, _ = _predict(spec.algorithm, model, split)
            if (differ := int((y_pred != stored.y_pred).sum())) > 0:
                raise ReauditError(
                    f"fitted again, the model predicts {differ:,} of {len(y_pred):,} test rows "
                    f"otherwise than the stored run (its fit is not deterministic), so "
                    f"{', '.join(needs_model)} cannot be audited again without running it again"
                )
        run = AuditedRun(split, model, stored.y_pred, stored.scores, seed=spec.seed,
                         data=dataset.fingerprint)  # fmt: skip
        outcome = audit_run(run, AuditOptions(permutations=work.permutations), only=work.audits)
        return outcome, bool(needs_model)


def _audits_of(inputs: str | None) -> tuple[int, dict[str, str]] | None:
    """Return a stored run's audit cap and versions from its inputs; None if not audited."""
    return read_audits_input(json.loads(inputs or "{}").get("audits", "off"))


def _where(run: Mapping[str, Any]) -> str:
    return (
        f"{run['dataset']}/{run['sensitive_attribute']}/{run['variant']}/{run['algorithm']} "
        f"{run['params']} split {run['split_id']}"
    )


def _silent(line: str) -> None:
    """Say nothing."""
