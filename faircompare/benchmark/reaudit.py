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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare._timeout import time_limit
from faircompare._validation import check_choice
from faircompare.audits import AuditedRun, AuditOptions, AuditOutcome, audit_run
from faircompare.audits.registry import (
    audits_input,
    current_versions,
    read_attacks,
    read_audits_input,
    registered_audits,
)
from faircompare.benchmark.execute import (
    Fits,
    fit_model,
    predict_rows,
    run_split,
    run_surroundings,
)
from faircompare.benchmark.plan import stored_spec
from faircompare.benchmark.tuned import chosen_spec
from faircompare.config.rules import MAX_PERMUTATIONS
from faircompare.config.settings import BenchmarkConfig
from faircompare.datasets import read_spec
from faircompare.exceptions import FaircompareError, cut_message
from faircompare.records import Predictions, RunSpec
from faircompare.results import ResultStore

Say = Callable[[str], None]
_LOG_STEPS = 20  # progress lines: one per 5 % of the runs
#: ``--undecided`` draws undecided permutation tests (without ``--permutations``) to this many
#: times their cap, and attacks undecided individual tests up to this many times their attacks.
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
    undecided
        Per audit number that gives verdicts (the rows of
        :func:`~faircompare.analysis.tidy.monte_carlo_errors`): its undecided verdicts before
        and after, and the verdicts stored after.
    """

    audited: int
    current: int
    not_audited: int
    failed: tuple[tuple[str, str], ...]
    refitted: int
    undecided: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Work:
    """One run to audit again: its stored row, the audits to run and the caps to run them at."""

    run: dict[str, Any]
    audits: frozenset[str]
    permutations: int
    attacks: int
    inputs: dict[str, str]


@dataclass(frozen=True)
class _Caps:
    """The caps a run's audits are to be drawn to; None keeps the run's own."""

    permutations: int | None = None
    attacks: int | None = None


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
    that holds the level after its adjustment, per family or run-wide), whose tests are drawn
    further: to ``permutations``, or to :data:`UNDECIDED_GROWTH` times their own cap; and the
    runs with an undecided individual verdict are fitted again and attacked further, the
    attacks doubling up to :data:`UNDECIDED_GROWTH` times their cap of attacks. Only the
    audits that are stale, or drawn further, run again.

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
        Draw the undecided permutation tests further (and only those runs' to a new cap), and
        attack the undecided individual tests further.
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
    given = {"timeout": timeout, "plugins": plugins, "cache": cache, "mirror": mirror}
    settings = BenchmarkConfig().overridden(**{k: v for k, v in given.items() if v is not None})
    with ResultStore(results, readonly=True) as probe:  # a folder without a study: not made
        probe.require_runs()
    with ResultStore(results) as store, store.claim():
        runs = store.runs().query("status == 'done'")
        audited = runs["inputs"].map(lambda text: _audits_of(text) is not None).astype(bool)
        runs, not_audited = runs[audited], int((~audited).sum())
        stored_audits = store.audits()
        drawn_on = {
            name: undecided_runs(stored_audits, name) if undecided and name in chosen else set()
            for name in ("permutation", "individual")
        }
        current = current_versions()  # once: a plugin audit's version hashes its code
        work = [
            item
            for run in runs.to_dict("records")
            if (item := _work(run, chosen, current, _caps(run, permutations, undecided, drawn_on)))
        ]
        say(f"{len(work):,} of {len(runs):,} audited runs to audit again; results in {store.path}")
        before = undecided_verdicts(stored_audits)
        summary = _audit_all(store, work, settings, files, say)
        after = undecided_verdicts(store.audits())
        counts = {
            name: (before.get(name, (0, 0))[0], *after[name]) for name in after
        }  # an audit first stored now had none undecided before
        return replace(
            summary, current=len(runs) - len(work), not_audited=not_audited, undecided=counts
        )


def undecided_verdicts(audits: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """Return, per audit number that gives verdicts, its undecided verdicts and all of them.

    Parameters
    ----------
    audits
        The store's audits (:meth:`~faircompare.results.ResultStore.audits`).

    Returns
    -------
    dict
        ``{"permutation p-value (Holm-adjusted)": (undecided, stored), "individual T_n":
        ...}``, as the report's Monte Carlo table counts them
        (:func:`~faircompare.analysis.tidy.monte_carlo_errors`).
    """
    from faircompare.analysis.tidy import monte_carlo_errors  # see undecided_runs

    if audits.empty:
        return {}
    errors = monte_carlo_errors(audits).dropna(subset=["undecided"])
    return {
        str(name): (int(row.undecided), int(row.stored))
        for name, row in zip(errors.index, errors.itertuples(), strict=True)
    }


def undecided_runs(audits: pd.DataFrame, audit: str = "permutation") -> set[str]:
    """Return the runs with an undecided verdict of one audit.

    Parameters
    ----------
    audits
        The store's audits (:meth:`~faircompare.results.ResultStore.audits`).
    audit
        ``"permutation"``: a test whose Monte Carlo interval holds the level after its
        adjustment, read per family or run-wide
        (:func:`~faircompare.analysis.tidy.permutation_verdicts`); ``"individual"``: a loss or
        error ratio within 1.96 Monte Carlo errors of delta after its last attack.

    Returns
    -------
    set of str
        The keys of the runs with an undecided verdict.
    """
    # imported here: the analysis layer's tidying of audits is a re-audit's only use of it
    from faircompare.analysis.tidy import audit_details, permutation_verdicts, pooled_audits

    pooled = pooled_audits(audits)
    if audit == "individual":
        tested = audit_details(pooled, "individual")
        undecided = tested.get("undecided", pd.Series(False, index=tested.index))
        return set(tested.loc[undecided.fillna(False).astype(bool), "key"])
    pooled = pooled[pooled["audit"] == "permutation"]
    keys = set()
    for adjustment in ("family", "run"):
        verdicts = permutation_verdicts(pooled, adjustment=adjustment)
        keys |= set(pooled.loc[verdicts.index[verdicts == "undecided"], "key"])
    return keys


def _caps(
    run: dict[str, Any],
    permutations: int | None,
    undecided: bool,
    drawn_on: Mapping[str, set[str]],
) -> _Caps:
    """Return the caps a run's audits are to be drawn to.

    Without ``undecided``, ``permutations`` applies to every run. With it, to the runs with an
    undecided permutation verdict alone, which are drawn further: to ``permutations``, or to
    :data:`UNDECIDED_GROWTH` times their cap (drawn to the same cap again, a test gives the
    same verdict); and a run with an undecided individual verdict is attacked again, up to
    :data:`UNDECIDED_GROWTH` times its cap of attacks.
    """
    if not undecided:
        return _Caps(permutations=permutations)
    stored = _audits_of(run["inputs"])
    cap = stored[0] if stored else 0
    drawn = run["key"] in drawn_on["permutation"]
    attacked = run["key"] in drawn_on["individual"]
    return _Caps(
        permutations=(permutations or min(UNDECIDED_GROWTH * cap, MAX_PERMUTATIONS))
        if drawn
        else None,
        attacks=UNDECIDED_GROWTH * read_attacks(_audits_text(run["inputs"])) if attacked else None,
    )


def _work(
    run: dict[str, Any], chosen: frozenset[str], current: Mapping[str, str], caps: _Caps
) -> _Work | None:
    """Return what to do for one stored run, or None where its audits are current.

    ``current``: every registered audit's version now; ``caps``: the caps its audits are to
    be drawn to.
    """
    inputs = json.loads(run["inputs"] or "{}")
    text = inputs.get("audits", "off")
    stored = read_audits_input(text)
    if stored is None:  # a run the study did not audit
        return None
    (cap, versions), attacks = stored, read_attacks(text)
    todo = {name for name in chosen if versions.get(name) != current[name]}
    new_cap = cap if caps.permutations is None else caps.permutations
    new_attacks = attacks if caps.attacks is None else caps.attacks
    for name, changed in (("permutation", new_cap != cap), ("individual", new_attacks != attacks)):
        if changed and name in chosen:
            todo.add(name)
    if not todo:
        return None
    # the audits not run again keep their stored versions (an audit never run says so)
    listed = {name: current[name] if name in todo else versions.get(name, f"{name} none")
              for name in current}  # fmt: skip
    inputs["audits"] = audits_input(
        new_cap if "permutation" in todo else cap,
        listed,
        attacks=new_attacks if "individual" in todo else attacks,
    )
    return _Work(run, frozenset(todo), new_cap, new_attacks, inputs)


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
    trials = store.trials()
    picked = trials[trials["chosen"]]  # a tuned run is fitted at its chosen trial's setting
    chosen = dict(zip(picked["key"], picked["params"].map(json.loads), strict=True))
    for done, item in enumerate(work, start=1):
        run = item.run
        if split != (split := (run["dataset"], run["split_id"])):
            fits.clear()
        try:
            spec = stored_spec(run, settings.plugins, files.get(run["dataset"]))
            stored = store.predictions(spec.key)
            fitted_as = spec if spec.budget is None else chosen_spec(spec, chosen[spec.key])
            outcome, fitted = _audit_one(spec, fitted_as, stored, item, settings, fits)
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
    spec: RunSpec,
    fitted_as: RunSpec,
    stored: Predictions,
    work: _Work,
    settings: BenchmarkConfig,
    fits: Fits,
) -> tuple[AuditOutcome, bool]:
    """Audit one run again; return its outcome and whether its model was fitted again.

    The model is fitted as ``fitted_as``: the run itself, or a tuned run's chosen setting.
    """
    registered = registered_audits()
    with (
        run_surroundings(),
        threadpool_limits(limits=1),
        time_limit(settings.timeout),
        warnings.catch_warnings(),  # a fit's warnings were the run's, stored with it
    ):
        warnings.simplefilter("ignore")
        dataset, split = run_split(spec, settings)
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
            model, _ = fit_model(fitted_as, settings, split, fits)
            y_pred, _ = predict_rows(spec.algorithm, model, split)
            if (differ := int((y_pred != stored.y_pred).sum())) > 0:
                raise ReauditError(
                    f"fitted again, the model predicts {differ:,} of {len(y_pred):,} test rows "
                    f"otherwise than the stored run (its fit is not deterministic), so "
                    f"{', '.join(needs_model)} cannot be audited again without running it again"
                )
        run = AuditedRun(split, model, stored.y_pred, stored.scores, seed=spec.seed,
                         data=dataset.fingerprint)  # fmt: skip
        options = AuditOptions(permutations=work.permutations, attacks=work.attacks)
        outcome = audit_run(run, options, only=work.audits)
        return outcome, bool(needs_model)


def _audits_of(inputs: str | None) -> tuple[int, dict[str, str]] | None:
    """Return a stored run's audit cap and versions from its inputs; None if not audited."""
    return read_audits_input(_audits_text(inputs))


def _audits_text(inputs: str | None) -> str:
    """Return what a stored run's inputs record of its audits (``"off"``: not audited)."""
    return str(json.loads(inputs or "{}").get("audits", "off"))


def _where(run: Mapping[str, Any]) -> str:
    return (
        f"{run['dataset']}/{run['sensitive_attribute']}/{run['variant']}/{run['algorithm']} "
        f"{run['params']} split {run['split_id']}"
    )


def _silent(line: str) -> None:
    """Say nothing."""
