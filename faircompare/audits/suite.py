"""The audits run on every benchmark run: which apply, their per-split setup, and their rows.

:func:`audit_run` is the one entry point the benchmark calls, with an :class:`AuditedRun` (the
split, the fitted model and its test predictions). Each audit decides whether it applies to the
run, builds what it shares across the split's runs once (a transport map, a fair metric; cached
per split by :class:`SplitCache`) and returns :class:`~faircompare.rows.AuditRow` rows. An
audit that raises is recorded with its error and the others go on.

The three built-in audits are :class:`PermutationAudit` (DiCiccio et al.), :class:`FlipTestAudit`
(Black et al.) and :class:`IndividualAudit` (Maity et al.). A fourth is an object with a
``name``, ``applies(run)`` and ``__call__(run, options)`` (the :class:`Audit` protocol),
registered with :func:`register_audit` or published by a package under the entry-point group
``faircompare.audits``; nothing outside this package changes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.metadata import entry_points
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

import numpy as np

from faircompare._timeout import RunTimeoutError
from faircompare._validation import renamed_arguments
from faircompare.audits.fliptest import TransportMap, fliptest, transport
from faircompare.audits.individual import (
    FairMetric,
    individual_fairness_test,
    model_oracle,
    sensitive_subspace_metric,
)
from faircompare.audits.permutation import holm, permutation_tests
from faircompare.preprocessing import Split
from faircompare.rows import AuditRow

ENTRY_POINTS = "faircompare.audits"
# Part of every run's recorded inputs: change it when the built-in audits compute different
# numbers, so that a rerun reports stored audits of the earlier methods as stale. 2: the AUC
# permutation test draws its permutations as uniform subsets; networks are attacked in double
# precision (#19).
METHODS_VERSION = "2"
RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")
# The benchmark's individual-fairness attack: App. F.4's lam and step (50, 0.01; a larger step
# makes forward Euler diverge on the metric term) for 100 of its 500 steps, on at most 200 test
# rows, with 2 antithetic pairs per derivative-free gradient: 80,000 predictions per run for
# models without gradients, so that an RBF SVM on Adult stays affordable on every run.
INDIVIDUAL_ATTACK: dict[str, Any] = {"lam": 50.0, "steps": 100, "step_size": 0.01}
INDIVIDUAL_POINTS = 200
SMOOTHING_PAIRS = 2
T = TypeVar("T")


@dataclass(frozen=True)
class AuditOptions:
    """Settings every audit of a benchmark shares.

    Attributes
    ----------
    permutations
        Permutations per permutation test.
    """

    permutations: int = 1000


@dataclass(frozen=True, eq=False)
class AuditedRun:
    """What an audit receives: one run's split, fitted model and test predictions.

    Attributes
    ----------
    split
        The run's train/test split.
    model
        The fitted estimator.
    y_pred, scores
        Its test predictions, and its scores (None when the model has none).
    seed
        The run's seed, for the audits' own randomness.
    data
        The dataset's fingerprint: with the split's identity, it keys the per-split setups, so
        a setup is never reused for other data.
    """

    split: Split
    model: Any
    y_pred: np.ndarray
    scores: np.ndarray | None
    seed: int
    data: str = ""

    @property
    def split_key(self) -> Hashable:
        """What identifies the split's test data: dataset, variant, attribute, split seed."""
        split = self.split
        return (
            self.data,
            split.dataset,
            split.variant,
            split.sensitive_attribute,
            split.seed,
            split.holdout,
        )

    @cached_property
    def unprivileged(self) -> np.ndarray:
        """Mask of the test rows outside the privileged group (computed once per run)."""
        return np.asarray(self.split.s_test != self.split.privileged)

    @property
    def both_groups(self) -> bool:
        """Whether the test rows hold both the privileged group and others."""
        return bool(0 < self.unprivileged.sum() < len(self.unprivileged))

    @property
    def numeric(self) -> bool:
        """Whether the features are numeric (every variant but ``original``)."""
        return self.split.variant != "original"


@runtime_checkable
class Audit(Protocol):
    """An audit of a fitted model: a name, when it applies, and the rows it yields."""

    name: str

    def applies(self, run: AuditedRun) -> bool:
        """Return whether the audit can run on ``run``.

        Parameters
        ----------
        run
            The run to audit.

        Returns
        -------
        bool
            False to skip the run (no row, no error).
        """
        ...

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Audit ``run`` and return its rows.

        Parameters
        ----------
        run
            The run to audit.
        options
            The audits' settings.

        Returns
        -------
        list of AuditRow
            The audit's rows for the store.
        """
        ...


class AuditOutcome(NamedTuple):
    """The rows of every audit that ran, and the error of each that failed.

    Attributes
    ----------
    rows
        The rows of the audits that ran.
    errors
        ``{audit: error}`` for each audit that raised.
    """

    rows: tuple[AuditRow, ...]
    errors: dict[str, str]


class SplitCache(Generic[T]):
    """What one split's audits share, built once from the split and kept for its other runs.

    Entries are keyed on :attr:`AuditedRun.split_key`, the least recently used dropped past
    ``maxsize``. ``hits`` and ``misses`` count lookups, so tests can see the reuse.

    Parameters
    ----------
    build
        Builds the entry from a run (from its split only: the entry serves every model).
    maxsize
        Entries kept; a worker runs a dataset's splits one after another, so a few suffice.
    """

    def __init__(self, build: Callable[[AuditedRun], T], maxsize: int = 4) -> None:
        self._build = build
        self._maxsize = maxsize
        self._entries: OrderedDict[Hashable, T] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __call__(self, run: AuditedRun) -> T:
        """Return the entry of ``run``'s split, building it on the first request."""
        key = run.split_key
        if key in self._entries:
            self.hits += 1
            self._entries.move_to_end(key)
            return self._entries[key]
        self.misses += 1
        entry = self._entries[key] = self._build(run)
        if len(self._entries) > self._maxsize:
            self._entries.popitem(last=False)
        return entry

    def clear(self) -> None:
        """Forget every entry and reset the counts."""
        self._entries.clear()
        self.hits = self.misses = 0


def audit_run(run: AuditedRun, options: AuditOptions | None = None) -> AuditOutcome:
    """Run every registered audit that applies to ``run``.

    Parameters
    ----------
    run
        The run's split, model and predictions.
    options
        The audits' settings; the defaults when None.

    Returns
    -------
    AuditOutcome
        The rows of the audits that ran, and ``{audit: error}`` for those that raised (the
        others still run). A run's time limit is never swallowed.
    """
    options = options or AuditOptions()
    rows: list[AuditRow] = []
    errors: dict[str, str] = {}
    for audit in registered_audits().values():
        if not audit.applies(run):
            continue
        try:
            rows += audit(run, options)
        except RunTimeoutError:
            raise
        except Exception as error:  # the model fitted: keep its measures, record the audit's error
            errors[audit.name] = f"{type(error).__name__}: {error}"
    return AuditOutcome(tuple(rows), errors)


_REGISTERED: dict[str, Audit] = {}


def register_audit(audit: Audit) -> None:
    """Add an audit to every benchmark run in this process (see :class:`Audit`).

    Parameters
    ----------
    audit
        The audit; one of the same name is replaced. Worker processes register their own
        (publish the audit as a ``faircompare.audits`` entry point to reach them all).

    Raises
    ------
    TypeError
        If ``audit`` lacks the protocol's ``name``, ``applies`` or ``__call__``.
    """
    if not isinstance(audit, Audit):
        raise TypeError(f"{audit!r} is not an audit: it needs name, applies() and __call__()")
    _REGISTERED[audit.name] = audit


def registered_audits() -> dict[str, Audit]:
    """Return the audits every run gets: the built-ins, entry points, then registered ones.

    Returns
    -------
    dict
        Audits by name, in the order they run.
    """
    return {**_builtin_and_published(), **_REGISTERED}


@cache
def _builtin_and_published() -> dict[str, Audit]:
    audits: list[Audit] = [PermutationAudit(), FlipTestAudit(), IndividualAudit()]
    audits += [point.load()() for point in entry_points(group=ENTRY_POINTS)]
    return {audit.name: audit for audit in audits}


# --- studentized permutation tests --------------------------------------------------------------


class PermutationAudit:
    """Studentized permutation tests of the run metrics, privileged group against the rest."""

    name = "permutation"

    def applies(self, run: AuditedRun) -> bool:
        """Every run: the tests need predictions and groups only."""
        return True

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Return one row per run metric (see :func:`permutation_audit`)."""
        split = run.split
        return permutation_audit(
            split.y_test,
            run.y_pred,
            split.s_test,
            privileged=split.privileged,
            scores=run.scores,
            permutations=options.permutations,
            rng=run.seed,
        )


@renamed_arguments(groups="sensitive_features")
def permutation_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sensitive_features: np.ndarray,
    *,
    privileged: Any,
    scores: np.ndarray | None = None,
    permutations: int = 1000,
    rng: np.random.Generator | int | None = None,
) -> list[AuditRow]:
    """Run studentized permutation tests, privileged group against the rest, per run metric.

    Demographic parity (positive rate), TPR, FPR and accuracy, and AUC when scores exist, the
    predictions validated and counted once for all of them. The details hold the observed
    difference, the p-value's Monte Carlo interval and the Holm-adjusted p-value across the
    run's metrics. A metric that is undefined for a group (no negatives, say) gets a row with
    NaN and the reason.

    Parameters
    ----------
    y_true, y_pred
        Test labels and predictions.
    sensitive_features
        Each test row's group (formerly ``groups=``).
    privileged
        The privileged group, tested against everyone else.
    scores
        The model's scores; the AUC is tested only with them.
    permutations
        Permutations per test.
    rng
        Random generator or seed, shared by the tests in turn.

    Returns
    -------
    list of AuditRow
        One row per metric, for the audits table.
    """
    metrics = RUN_METRICS + (("AUC",) if scores is not None else ())
    results = permutation_tests(
        y_true,
        y_pred,
        sensitive_features,
        metrics=metrics,
        group_a=privileged,
        scores=scores,
        permutations=permutations,
        rng=rng,
    )
    nan = float("nan")
    rows = [
        AuditRow("permutation", metric, "rest", nan, nan, {"error": str(result)})
        if isinstance(result, ValueError)
        else result.to_row()
        for metric, result in results.items()
    ]
    tested = [i for i, row in enumerate(rows) if "error" not in row.details]
    for i, adjusted in zip(tested, holm([rows[i].pvalue for i in tested]), strict=True):
        rows[i].details["holm_pvalue"] = float(adjusted)
    return rows


# --- FlipTest ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FlipTestSetup:
    """What one split's FlipTest audits share: the standardised groups and their map."""

    source: np.ndarray
    target: np.ndarray
    transport_map: TransportMap


def split_transport(
    X_test: np.ndarray,
    sensitive_features: np.ndarray,
    privileged: Any,
    rng: np.random.Generator | int,
) -> FlipTestSetup:
    """Fit the FlipTest map of one split: unprivileged test rows to privileged ones.

    Features are standardised over the test rows first, so no feature's scale dominates the
    cost. The map depends on the data only, so one setup serves every algorithm's audit.

    Parameters
    ----------
    X_test
        The split's numeric test features.
    sensitive_features
        Each test row's group.
    privileged
        The privileged group (the map's target).
    rng
        Random generator or seed (batches of a large problem).

    Returns
    -------
    FlipTestSetup
        The standardised groups and the map between them.
    """
    features = _standardised(X_test)
    unprivileged = sensitive_features != privileged
    source, target = features[unprivileged], features[~unprivileged]
    return FlipTestSetup(source, target, transport(source, target, rng=rng))


class FlipTestAudit:
    """FlipTest flipsets of the run's predictions under its split's optimal transport map."""

    name = "fliptest"
    top = 5  # leading features kept per flipset

    def __init__(self) -> None:
        self.setups: SplitCache[FlipTestSetup] = SplitCache(
            lambda run: split_transport(
                run.split.X_test.to_numpy(float),
                run.split.s_test,
                run.split.privileged,
                rng=run.split.seed,
            )
        )

    def applies(self, run: AuditedRun) -> bool:
        """Numeric features (the map moves them) and both groups among the test rows."""
        return run.numeric and run.both_groups

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Return the F+ and F- rows: each flipset's rate, size and leading features."""
        setup, unprivileged = self.setups(run), run.unprivileged
        result = fliptest(
            setup.source,
            setup.target,
            run.y_pred[unprivileged],
            run.y_pred[~unprivileged],
            setup.transport_map,
            features=list(run.split.X_test.columns),
        )
        rows = []
        for name, size, rate in zip(("F+", "F-"), result.sizes, result.rates, strict=True):
            report = result.report[result.report["flipset"] == name]
            leading = report.nsmallest(self.top, "rank_difference")
            details = {
                "size": size,
                "source_size": len(setup.source),
                "mean_cost": setup.transport_map.mean_cost,
                "leading_features": dict(
                    zip(leading["feature"], leading["mean_difference"], strict=True)
                ),
            }
            rows.append(AuditRow("fliptest", name, "unprivileged", rate, None, details))
        return rows


# --- individual fairness -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class IndividualSetup:
    """What one split's individual-fairness audits share: audit rows and the fair metric.

    The attack runs in coordinates standardised over the test rows (features = mean + scale *
    z); the metric is learned there from the whole test split (Maity et al. App. F.4).
    """

    rows: np.ndarray
    Z: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    metric: FairMetric


def split_fair_metric(
    X_test: np.ndarray,
    sensitive_features: np.ndarray,
    rng: np.random.Generator | int,
    *,
    points: int = INDIVIDUAL_POINTS,
) -> IndividualSetup:
    """Learn a split's sensitive-subspace metric and draw its audit rows (once per split).

    Parameters
    ----------
    X_test
        The split's numeric test features.
    sensitive_features
        Each test row's group.
    rng
        Random generator or seed (the audit rows).
    points
        Audit rows drawn, at most.

    Returns
    -------
    IndividualSetup
        The audit rows, standardised, and the fair metric.
    """
    X = np.asarray(X_test, dtype=float)
    mean, scale = _standardisation(X)
    Z = (X - mean) / scale
    metric = sensitive_subspace_metric(Z, sensitive_features)
    rng = np.random.default_rng(rng)
    rows = np.sort(rng.choice(len(X), min(points, len(X)), replace=False))
    return IndividualSetup(rows, Z[rows], mean, scale, metric)


class IndividualAudit:
    """The individual-fairness test of Maity et al.: T_n and T~_n of the model's attack."""

    name = "individual"

    def __init__(self) -> None:
        self.setups: SplitCache[IndividualSetup] = SplitCache(
            lambda run: split_fair_metric(
                run.split.X_test.to_numpy(float), run.split.s_test, rng=run.split.seed
            )
        )

    def applies(self, run: AuditedRun) -> bool:
        """Numeric features: the attack moves them."""
        return run.numeric

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Return the loss-ratio and error-ratio rows with their details."""
        setup = self.setups(run)
        oracle = model_oracle(
            run.model,
            sensitive_features=run.split.s_test[setup.rows],
            mean=setup.mean,
            scale=setup.scale,
            directions=SMOOTHING_PAIRS,
            rng=run.seed,
        )
        result = individual_fairness_test(
            oracle, setup.Z, run.split.y_test[setup.rows], setup.metric, **INDIVIDUAL_ATTACK
        )
        return [
            AuditRow("individual", r["metric"], "all", r["statistic"], r["pvalue"], r["details"])
            for r in result.to_records()
        ]


def _standardisation(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and standard deviations (1 for constant columns)."""
    spread = X.std(0)
    return X.mean(0), np.where(spread > 0, spread, 1.0)


def _standardised(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    mean, scale = _standardisation(X)
    return (X - mean) / scale
