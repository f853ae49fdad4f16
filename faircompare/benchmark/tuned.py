"""What a tuned run searches, with what, and the journal from which its search resumes.

A tuned run (:attr:`~faircompare.records.RunSpec.budget`) searches its algorithm's space
(:func:`~faircompare.algorithms.search.space_of`) but the parameters it keeps (a frontier's
point), with the study's sampler and objective (:func:`tuning_of`), then fits the chosen
setting (:func:`chosen_spec`) on every training row and tests it once. The budgets of one
algorithm, configuration and split, and a frontier's points, share one search
(:attr:`~faircompare.records.RunSpec.search_key`): the search of the largest budget holds every
smaller one's trials. Each trial is appended to the search's journal in the results folder as
it ends (:class:`Journal`), so that a search interrupted by a crash or a stop resumes at its
next trial; :func:`~faircompare.benchmark.schedule.run_plan` removes the journals once a plan
has run to its end.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from faircompare.algorithms.base import FairEstimator
from faircompare.algorithms.search import Dimension, space_of
from faircompare.benchmark.trials import Tuning
from faircompare.config.settings import BenchmarkConfig
from faircompare.records import RunSpec, Trial

__all__ = ["JOURNALS", "Journal", "chosen_spec", "searched_space", "tuning_of"]

#: The folder of the search journals inside a results folder.
JOURNALS = "searches"


def tuning_of(spec: RunSpec, settings: BenchmarkConfig) -> Tuning:
    """Return a tuned run's tuning: its budget, the study's sampler and objective, its seed.

    Parameters
    ----------
    spec
        A tuned run.
    settings
        The study's settings (``tuning_*``).

    Returns
    -------
    Tuning
        Seeded by the run's search (:attr:`~faircompare.records.RunSpec.search_key`): every
        budget of one search draws the same trials, and two searches draw their own.
    """
    if spec.budget is None:
        raise ValueError(f"run {spec.key} is not tuned: it has no budget")
    return Tuning(
        budget=spec.budget,
        sampler=settings.tuning_sampler,
        objective=settings.tuning_objective,
        measure=settings.tuning_measure,
        bound=settings.tuning_bound,
        seed=int(spec.search_key[:8], 16),
    )


def searched_space(spec: RunSpec, estimator: FairEstimator) -> dict[str, Dimension]:
    """Return what a tuned run searches: its algorithm's space but the parameters it keeps.

    Parameters
    ----------
    spec
        A tuned run; its :attr:`~faircompare.records.RunSpec.params` are kept (a frontier's
        constraint and tolerance).
    estimator
        The algorithm's estimator.

    Returns
    -------
    dict
        Each searched parameter's dimension, by the name ``set_params`` takes.
    """
    kept = set(spec.parameters)
    return {name: d for name, d in space_of(estimator).items() if name not in kept}


def chosen_spec(spec: RunSpec, params: dict[str, Any], *, searching: bool = False) -> RunSpec:
    """Return the run at a setting of its search: fitted and seeded as a run at its parameters.

    Parameters
    ----------
    spec
        A tuned run.
    params
        A setting of its search space.
    searching
        Whether the setting is a trial of the search: the parameters only the last step of the
        fit reads (a frontier's point) are then left at their defaults, the search being shared
        by the points.

    Returns
    -------
    RunSpec
        The run with the kept parameters and the setting, and no budget: its fit key and seed
        are those of a run planned at that setting, so the budgets and points that choose one
        setting share its fit.
    """
    kept = {n: v for n, v in spec.params if not (searching and n in spec.refit_params)}
    setting = tuple(sorted({**kept, **params}.items()))
    return replace(spec, params=setting, budget=None, fit_as=None, journal=None)


class Journal:
    """The trials of one search, appended to a file as each ends, read back to resume.

    The file is named by the search and by what its trials depend on (the run's inputs but
    its audits), so that a search is never resumed from trials of other data, another version
    of the algorithm, or another sampler or objective.

    Parameters
    ----------
    spec
        A tuned run; its :attr:`~faircompare.records.RunSpec.journal` is the folder (None: no
        journal, the search is kept in memory only).
    """

    def __init__(self, spec: RunSpec) -> None:
        inputs = {name: value for name, value in spec.inputs if name != "audits"}
        digest = hashlib.sha256(json.dumps(sorted(inputs.items())).encode()).hexdigest()[:12]
        folder = spec.journal
        self.path = None if folder is None else Path(folder) / f"{spec.search_key}-{digest}.jsonl"

    def read(self) -> list[Trial]:
        """Return the trials journaled so far, in order, cutting off a line a crash cut short.

        Returns
        -------
        list of Trial
            Empty when there is no journal. The file keeps these trials' lines only, so that
            the next trial is appended after them.
        """
        if self.path is None or not self.path.is_file():
            return []
        trials: list[Trial] = []
        kept = 0
        text = self.path.read_bytes()
        for line in text.splitlines(keepends=True):
            try:
                fields = json.loads(line)
                scores = _nan(fields["accuracy"]), _nan(fields["gap"])
                trial = Trial(int(fields["number"]), dict(fields["params"]), *scores,
                              fields["error"])  # fmt: skip
            except (ValueError, TypeError, KeyError):  # a line cut short: its trial is redone
                break
            if trial.number != len(trials) or not line.endswith(b"\n"):
                break
            trials.append(trial)
            kept += len(line)
        if kept < len(text):
            with contextlib.suppress(OSError):
                descriptor = os.open(self.path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                try:
                    os.ftruncate(descriptor, kept)
                finally:
                    os.close(descriptor)
        return trials

    def add(self, trial: Trial) -> None:
        """Append one trial (a journal that cannot be written keeps the search in memory only).

        The coordinator made the folder, refusing links on its way; the file is never written
        through a link.

        Parameters
        ----------
        trial
            The trial that ended.
        """
        if self.path is not None:
            _append(self.path, trial)


def _append(path: Path, trial: Trial) -> None:
    """Append a trial's line to a journal, never through a link; a journal not written is none."""
    fields = {
        "number": trial.number,
        "params": trial.params,
        "accuracy": _number(trial.accuracy),
        "gap": _number(trial.gap),
        "error": trial.error,
    }
    line = (json.dumps(fields, default=_plain) + "\n").encode()
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    with contextlib.suppress(OSError):  # no folder (a remote worker), or a planted link
        descriptor = os.open(path, flags, 0o644)
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)


def _nan(value: float | None) -> float:
    """Return a journaled score: null as NaN."""
    return math.nan if value is None else float(value)


def _number(value: float) -> float | None:
    """Return a score as JSON holds it: NaN as null."""
    return None if math.isnan(value) else value


def _plain(value: Any) -> Any:
    """Return a numpy scalar as the Python value JSON holds."""
    return value.item() if hasattr(value, "item") else str(value)
