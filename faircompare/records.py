"""The typed records a run produces, from its specification down to the results store.

- :class:`RunSpec`: what identifies one run (its key and seeds) and the inputs it depends on;
- :class:`MeasureRow` and :class:`AuditRow`: one measure's value, one audit's result;
- :class:`Predictions`: a run's test predictions, with what any measure needs again;
- :class:`RunRecord`: everything a worker sends back for one run; the store writes and reads it.

Vocabulary, the same everywhere: ``sensitive_attribute`` names the column, ``sensitive_features``
are its per-row values, a *group* is one of those values, and an audit row's *scope* says whom a
result concerns (``"rest"``: everyone outside the privileged group; ``"unprivileged"``;
``"all"``). A run's *setting* is its parameters; the store's frames name the default ones
:data:`DEFAULTS`, and the analyses name the runs they choose :data:`TUNED` or :data:`POOLED`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from faircompare.preprocessing import split_seed

#: The setting of a run with its algorithm's default parameters.
DEFAULTS = "defaults"
#: The setting of the runs chosen per split by their validation accuracy.
TUNED = "tuned for accuracy"
#: The setting of an algorithm's grid runs taken together.
POOLED = "all grid values"
#: The key of a tuned run's setting that holds its budget: ``{"trials": 10}``
#: (:func:`~faircompare.results.store.setting`).
TRIALS = "trials"

__all__ = [
    "DEFAULTS",
    "POOLED",
    "TUNED",
    "AuditRow",
    "MeasureRow",
    "Predictions",
    "RunRecord",
    "RunSpec",
    "SharedFit",
    "TRIALS",
    "Trial",
]


class MeasureRow(NamedTuple):
    """One measure's value for one group of one run.

    Attributes
    ----------
    part
        ``"test"``, or ``"validation"`` for the tuning fit's scores.
    measure
        The measure's name (see :data:`faircompare.measures.MEASURES`).
    group
        The group's value as text; ``""`` for the aggregate.
    value
        The value; NaN where the measure is undefined.
    """

    part: str
    measure: str
    group: str
    value: float


class AuditRow(NamedTuple):
    """One result of one audit of one run.

    Attributes
    ----------
    audit
        The audit's name (``"permutation"``, ``"fliptest"``, ``"individual"``, or a plugin's).
    metric
        What it tested or measured (``"TPR"``, ``"F+"``, ``"loss-ratio"``, ...).
    scope
        Whom it concerns: ``"rest"`` (compared with the privileged group), ``"unprivileged"``,
        ``"all"``, or one group's value.
    statistic
        The test statistic or the measured value; NaN when the test could not be run.
    pvalue
        The p-value; None for a measurement that is not a test.
    adjusted_pvalue
        The p-value adjusted for the run's family of tests (Holm's, for the permutation tests);
        None where there is no family.
    details
        What is particular to the audit (JSON-serialisable; read back as a typed frame by
        :func:`faircompare.results.audit_details`).
    """

    audit: str
    metric: str
    scope: str
    statistic: float
    pvalue: float | None
    adjusted_pvalue: float | None
    details: dict[str, Any]


@dataclass(frozen=True)
class SharedFit:
    """The fit of another algorithm that a run's fit is (a repair at level 0: its classifier).

    Attributes
    ----------
    algorithm, params
        The algorithm whose fit it is, and its parameter settings.
    uses_attribute
        Whether that algorithm's fit reads the sensitive attribute.
    """

    algorithm: str
    params: tuple[tuple[str, Any], ...] = ()
    uses_attribute: bool = False


@dataclass(frozen=True)
class RunSpec:
    """Everything that identifies one run.

    Attributes
    ----------
    dataset
        Dataset name.
    sensitive_attribute, variant, algorithm
        What the run uses.
    params
        Parameter settings, as sorted ``(name, value)`` pairs.
    split_id, base_seed
        Which split, and the benchmark's base seed.
    dataset_file
        Path of a user dataset's TOML specification; None for built-in datasets.
    tune
        Whether to also score the run on a validation part of the training data (recorded
        output, not identity: it is not part of the key).
    fit_uses_attribute
        Whether the algorithm's fit reads the sensitive attribute; when it does not, the fit
        is the same for every attribute and numeric variant (:attr:`fit_key`).
    refit_params
        The algorithm's parameters that only the last step of its fit reads
        (:attr:`~faircompare.algorithms.base.FairEstimator.refit_params`): runs that differ
        only in them share one fit (:attr:`fit_key`).
    fit_as
        Another algorithm's fit that this run's fit is, at its parameters
        (:meth:`~faircompare.algorithms.base.FairEstimator.fit_equivalent`): the run takes
        that fit, shared with that algorithm's runs (:attr:`fit_key`); None for its own.
    seeded_as
        Another algorithm whose runs' seed this run's fit takes
        (:meth:`~faircompare.algorithms.base.FairEstimator.seeded_like`: a frontier's baseline
        is the baseline's own fit); None for a seed of its own (:attr:`fit_seed`).
    repeats
        The variant whose run this run repeats, where the two variants give the same data but
        for the groups' names (:func:`~faircompare.preprocessing.variants_agree`): the run
        takes that run's fit and seeds (:attr:`fit_key`, :attr:`seed`), and the benchmark
        computes the two once (:func:`~faircompare.benchmark.execute.execute_runs`). None for
        a run of its own.
    budget
        The trials of the seeded search that chooses a tuned run's parameters
        (:mod:`faircompare.benchmark.trials`), or None for a run at its parameters. A tuned
        run's :attr:`params` are those it is not searched over (a frontier's point); its
        budget is part of its key.
    journal
        The folder where a tuned run's search journals its trials, to resume from them
        (:class:`~faircompare.benchmark.tuned.Journal`; set by the coordinator, not part of
        the run's identity); None: kept in memory only.
    inputs
        What else the results depend on, as sorted ``(name, value)`` pairs: ``data`` (the
        dataset's fingerprint), ``algorithm`` (its version), ``audits`` (their settings and
        each audit's version), ``validation`` and ``faircompare`` (the package version). Not
        part of the key: a stored run whose inputs differ is stale, and is reported rather
        than reused.
    """

    dataset: str
    sensitive_attribute: str
    variant: str
    algorithm: str
    params: tuple[tuple[str, Any], ...]
    split_id: int
    base_seed: int
    dataset_file: str | None = None
    tune: bool = False
    inputs: tuple[tuple[str, str], ...] = ()
    fit_uses_attribute: bool = True
    refit_params: tuple[str, ...] = ()
    fit_as: SharedFit | None = None
    seeded_as: SharedFit | None = None
    repeats: str | None = None
    budget: int | None = None
    journal: str | None = None

    @cached_property
    def key(self) -> str:
        """Stable identifier: a hash of the run's identifying fields."""
        return self._key(self.variant)

    @cached_property
    def repeated_key(self) -> str:
        """The key of the run this one repeats (:attr:`repeats`); its own key when none."""
        return self._key(self.repeats or self.variant)

    def _key(self, variant: str) -> str:
        identity = [
            self.dataset,
            self.sensitive_attribute,
            variant,
            self.algorithm,
            [list(pair) for pair in self.params],
            self.split_id,
            self.base_seed,
        ]
        if self.budget is not None:  # a run at its parameters keeps the key it always had
            identity.append(["trials", self.budget])
        return hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:20]

    @cached_property
    def search_key(self) -> str:
        """What identifies a tuned run's search, shared by its budgets and a frontier's points.

        The run key without the budget and the parameters only the last step of the fit reads
        (:attr:`refit_params`): the search of the largest budget holds every smaller one's
        trials (trial ``n`` is drawn from the trials before it alone), and a frontier's points
        post-process one tuned baseline.
        """
        own = [list(pair) for pair in self.params if pair[0] not in self.refit_params]
        where = [self.dataset, self.sensitive_attribute, self.repeats or self.variant]
        identity = [*where, self.algorithm, own, "search", self.split_id, self.base_seed]
        return hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:20]

    @property
    def split_seed(self) -> int:
        """Seed of the train/test split, shared by every run on this dataset and split."""
        return split_seed(self.dataset, self.split_id, self.base_seed)

    @property
    def seed(self) -> int:
        """Seed of the run's own randomness (its audits), derived from :attr:`repeated_key`."""
        return int(self.repeated_key[:8], 16)

    @cached_property
    def fit_key(self) -> str:
        """What identifies the fitted model, so that runs sharing it share one fit.

        The run key; without the parameters in :attr:`refit_params`; and for a fit that never
        reads the sensitive attribute, without the attribute and with both numeric variants as
        one (their features are the same). A run with :attr:`fit_as` has the fit key of that
        algorithm's runs; a run that :attr:`repeats` another has that run's. A tuned run's is
        its :attr:`search_key`: its budgets and a frontier's points are done together, sharing
        one search.
        """
        if self.budget is not None:
            return self.search_key
        shared = self.fit_as
        if shared is None and self.fit_uses_attribute and not self.refit_params:
            return self.repeated_key
        algorithm, params, uses_attribute = (
            (self.algorithm, self.params, self.fit_uses_attribute)
            if shared is None
            else (shared.algorithm, shared.params, shared.uses_attribute)
        )
        own = [list(pair) for pair in params if shared or pair[0] not in self.refit_params]
        if uses_attribute:  # as the run key's identity, for the runs of that algorithm
            where = [self.dataset, self.sensitive_attribute, self.repeats or self.variant]
        else:
            where = [self.dataset, "original" if self.variant == "original" else "numeric"]
        identity = [*where, algorithm, own, self.split_id, self.base_seed]
        return hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:20]

    @property
    def refits(self) -> bool:
        """Whether the run refits the last step of a fit it shares (:attr:`refit_params`).

        Every run of such a fit refits but the first, which fits; a run whose fit is another
        algorithm's (:attr:`fit_as`) takes that fit as it is.
        """
        return bool(self.refit_params) and self.fit_as is None

    @property
    def fit_seed(self) -> int:
        """Seed of the algorithm's randomness, derived from :attr:`fit_key`.

        A run :attr:`seeded_as` another algorithm takes the fit key that algorithm's runs have.
        """
        seeded = self if self.seeded_as is None else replace(self, fit_as=self.seeded_as)
        return int(seeded.fit_key[:8], 16)

    @property
    def audited(self) -> bool:
        """Whether the run is audited when the benchmark audits: its inputs do not say ``off``."""
        return dict(self.inputs).get("audits") != "off"

    @property
    def parameters(self) -> dict[str, Any]:
        """The parameter settings as a dict."""
        return dict(self.params)


@dataclass(frozen=True, eq=False)
class Predictions:
    """One run's test predictions, with what is needed to compute any measure again.

    Attributes
    ----------
    test_index
        Positions of the test rows in the prepared dataset.
    y_true, y_pred, scores
        Labels, predictions and scores (None when the model has none).
    sensitive_features, privileged
        Each test row's group, and the privileged group.
    """

    test_index: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    scores: np.ndarray | None
    sensitive_features: np.ndarray
    privileged: Any


@dataclass(frozen=True)
class Trial:
    """One trial of a tuned run's search: a setting, fitted and scored on the validation rows.

    Attributes
    ----------
    number
        Its place in the search, from 0.
    params
        The setting (parameter names as ``set_params`` takes them).
    accuracy
        Its accuracy on the validation rows (NaN where it failed).
    gap
        Its fairness measure's gap on the validation rows (NaN where undefined or failed).
    error
        Why it failed (its fit or prediction raised), or None.
    """

    number: int
    params: dict[str, Any]
    accuracy: float
    gap: float
    error: str | None = None

    @property
    def failed(self) -> bool:
        """Whether its fit or prediction failed."""
        return self.error is not None


@dataclass(frozen=True, eq=False)
class RunRecord:
    """Everything one run produced, done or failed: what a worker sends and the store keeps.

    Attributes
    ----------
    spec
        The run.
    status, error, traceback
        ``"done"`` or ``"failed"``, and a failure's error and traceback.
    timings, started_at, finished_at
        Seconds to fit, predict and in all; wall-clock start and end.
    n_train, n_test
        Rows in the training and test parts.
    versions, warnings
        Package versions, and the distinct warnings the run raised.
    measures, audits, audit_errors
        The run's rows, and ``{audit: error}`` for audits that failed (the measures are kept).
    predictions
        The test predictions; None for a failed run.
    data
        The fingerprint of the data the run read (:attr:`faircompare.datasets.Dataset.
        fingerprint`), stored among its inputs in place of the planned one; None when the run
        read none.
    trials, chosen
        A tuned run's search (:attr:`RunSpec.budget` trials, fewer where its space is searched
        whole) and the number of the trial it tested; empty and None for a run at its
        parameters.
    """

    spec: RunSpec
    status: str
    error: str | None = None
    traceback: str | None = None
    timings: dict[str, float] | None = None
    started_at: float | None = None
    finished_at: float | None = None
    n_train: int | None = None
    n_test: int | None = None
    versions: dict[str, str] | None = None
    warnings: tuple[str, ...] = ()
    measures: tuple[MeasureRow, ...] = ()
    audits: tuple[AuditRow, ...] = ()
    audit_errors: dict[str, str] | None = None
    predictions: Predictions | None = None
    data: str | None = None
    trials: tuple[Trial, ...] = ()
    chosen: int | None = None

    @property
    def key(self) -> str:
        """The run's key."""
        return self.spec.key

    @property
    def inputs(self) -> dict[str, str]:
        """What the run was computed from: its spec's inputs, with the data it actually read."""
        inputs = dict(self.spec.inputs)
        if self.data is not None:
            inputs["data"] = self.data
        return inputs
