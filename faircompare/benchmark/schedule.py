"""Run a plan: which runs to do, in which order, and each record stored as it arrives.

The runs not yet stored (or every run with ``force``, the failed ones with ``retry_failed``)
are grouped by shared fit, ordered longest first by the cost model, and handed to a backend
(:mod:`faircompare.benchmark.workers`); the coordinating process stores each record as it
arrives. Nothing is lost when the coordinator is interrupted (Ctrl-C or SIGTERM) or killed:
every finished run is already committed. A stored run is reused only when it was computed from
the same inputs (data, rules, algorithm version, audit settings); one results folder has one
writer at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from faircompare import registry
from faircompare._deprecations import deprecated, former_forms
from faircompare._interrupts import sigterm_interrupts
from faircompare.audits.registry import read_audits_input
from faircompare.benchmark.execute import remove_folder
from faircompare.benchmark.summary import Summary
from faircompare.benchmark.tuned import JOURNALS
from faircompare.benchmark.workers import run_groups
from faircompare.config.settings import BenchmarkConfig
from faircompare.exceptions import FaircompareError
from faircompare.records import RunRecord, RunSpec
from faircompare.results.store import ResultStore
from faircompare.safe_write import make_folder

if TYPE_CHECKING:
    from faircompare.benchmark.planned import Study

#: Called after each stored run with its record and the counts so far (a progress bar).
Progress = Callable[[RunRecord, Summary], None]


class StaleResultsError(FaircompareError):
    """Stored runs that were computed from other inputs than the planned ones."""


@former_forms
def run_plan(
    study: Study | Sequence[RunSpec],
    store: ResultStore,
    settings: BenchmarkConfig,
    *,
    progress: Progress | None = None,
    costs: Mapping[str, float] | None = None,
    cleaning: Mapping[str, dict[str, int]] | None = None,
) -> Summary:
    """Execute a study's runs not yet stored (all with ``force``), storing each as it ends.

    Parameters
    ----------
    study
        The planned study (:func:`~faircompare.benchmark.plan_study`): its runs, their costs
        (the longest start first, so the last minutes do not run on one worker while the
        others wait, and the time left is weighed by cost) and the rows each dataset's cleaning
        removed (recorded in the store once the plan is accepted: a refused, stale, plan
        changes nothing in the store). Or the runs alone (:attr:`Plan.runs
        <faircompare.benchmark.plan.Plan.runs>`), in the plan's order.
    store
        Where results go; runs already stored as done (and, unless ``retry_failed``, as failed)
        are skipped, provided they were computed from the same inputs.
    settings
        The study's settings, whole: the workers read how to run each run (time limit, plugins,
        data locations, audits), this process how to run the plan (workers, backend, what to
        redo); formerly ``options=``. ``jobs=``, ``backend=``, ``scheduler=``, ``force=`` and
        ``retry_failed=``, and a :class:`~faircompare.benchmark.settings.RunSettings` in
        fourth place, still work as its fields, with a :class:`DeprecationWarning`.
    progress
        Called after each stored run with its record and the counts so far (a progress bar);
        formerly ``report=``, which still works with a :class:`DeprecationWarning`.
    costs, cleaning
        Deprecated (until 0.4.0): a study's costs and cleaning, given with its runs alone; pass
        the :class:`~faircompare.benchmark.Study`.

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
    if costs is not None or cleaning is not None:
        deprecated("run_plan(runs, ..., costs=, cleaning=)", "run_plan(study, ...)")
    if isinstance(study, Sequence):
        runs, costs, cleaning = tuple(study), costs or {}, cleaning or {}
    else:
        runs, costs, cleaning = study.runs, study.costs, study.cleaning
    with store.claim():
        if not settings.force:
            refuse_stale(runs, store)
        store.record_plan(runs)
        store.record_algorithms(_described({s.algorithm for s in runs}, settings.plugins))
        if cleaning:
            store.record_cleaning(dict(cleaning))
        journals = store.folder.resolve() / JOURNALS
        todo = [
            replace(s, journal=str(journals)) if s.budget is not None else s
            for s in pending(runs, store.statuses(), settings)
        ]
        if any(s.journal for s in todo):
            make_folder(journals, store.folder.resolve())  # never through a planted link
        cost = {s.key: costs.get(s.key, 1.0) for s in todo}
        groups = longest_first(shared_fits(todo), cost)
        summary = Summary(len(runs), len(runs) - len(todo), expected=sum(cost.values()))
        try:
            with sigterm_interrupts():
                for record in run_groups(groups, settings, settings.workers(len(groups))):
                    store.write(record)
                    summary.add(record, cost[record.key])
                    if progress:
                        progress(record, summary)
        except KeyboardInterrupt:
            summary.interrupted = True
        if not summary.interrupted:  # every search ended in a stored run: nothing to resume
            remove_folder(journals)
    return summary


def pending(
    runs: Sequence[RunSpec], stored: Mapping[str, str], settings: BenchmarkConfig
) -> list[RunSpec]:
    """Return the runs a benchmark executes: those not stored, and those whose status it redoes.

    Parameters
    ----------
    runs
        The planned runs.
    stored
        Each stored run's status, by key (:meth:`ResultStore.statuses`).
    settings
        What is run again: every stored run with ``force``, the failed ones with
        ``retry_failed`` (:meth:`~faircompare.config.BenchmarkConfig.redone`).

    Returns
    -------
    list of RunSpec
        Those runs, in the plan's order.
    """
    redo = settings.redone()
    return [run for run in runs if run.key not in stored or stored[run.key] in redo]


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


def refuse_stale(runs: tuple[RunSpec, ...], store: ResultStore) -> None:
    """Raise :class:`StaleResultsError` naming what changed if a stored run's inputs differ."""
    stored = store.inputs()
    changes: Counter[tuple[str, str, str]] = Counter()
    stale = 0
    stale_algorithms: set[str] = set()
    versions_only = True  # whether every stale run's algorithm version alone changed
    audits_only: set[str] = set()  # the audits inputs they should have, where they alone changed
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
            audited = [read_audits_input(i.get("audits", "off")) for i in (before, now)]
            reaudited = changed == ["audits"] and None not in audited
            audits_only.add(now["audits"] if reaudited else "")
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
    header = f"{stale} planned runs are stored in {store.path} but were computed from other inputs"
    if "" not in audits_only:  # their audits alone changed: audit them again, fit nothing
        raise StaleResultsError(
            f"{header}:\n{lines}\nNothing was run. Only their audits changed: `faircompare audit "
            f"--results {store.folder}{_cap(audits_only)}` audits them again from their stored "
            "predictions (refitting only the runs whose individual test is stale), and this "
            "command then reuses them; or rerun with --force to recompute the planned runs."
        )
    raise StaleResultsError(
        f"{header}:\n{lines}\nNothing was run. Rerun with --force to recompute the planned runs"
        f"{_only_these(stale_algorithms) if versions_only else ''}, or pass another --results "
        "folder to keep both."
    )


def _cap(audits: set[str]) -> str:
    """Return the ``--permutations`` option that gives the runs their planned cap."""
    caps = {parsed[0] for text in audits if (parsed := read_audits_input(text))}
    return f" --permutations {caps.pop()}" if len(caps) == 1 else ""


def _only_these(algorithms: set[str]) -> str:
    """Name the ``--algorithm`` options that limit ``--force`` to these algorithms' runs."""
    options = " ".join(f"--algorithm {name}" for name in sorted(algorithms))
    return f" (with {options} to recompute only the runs of the changed algorithms)"


# what the store keeps of each (the references: `faircompare cite` without the plugin at hand)
_DESCRIBED = ("family", "library", "version", "description", "references")


def _described(names: set[str], plugins: str | None) -> dict[str, dict[str, Any]]:
    """Return what the store keeps of each algorithm found (:meth:`ResultStore.algorithms`).

    A name no algorithm here answers to (a plan's runs made by hand) is left out: the report
    then reads its family from the registry, as for a store written before 0.3.0.
    """
    found = {}
    for name in sorted(names):
        try:
            described = registry.find_algorithm(name, plugins).describe()
        except (ValueError, ImportError):
            continue
        found[name] = {key: described[key] for key in _DESCRIBED}
    return found
