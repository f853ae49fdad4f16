"""Studentized permutation tests of a group-fairness metric (DiCiccio et al., 2020).

A permutation test of "metric in group A = metric in group B" is only valid when its statistic
is asymptotically pivotal (§2.3): the difference of false-negative rates, say, is not (§3.3),
and its permutation test rejects too often when the groups' base rates differ; divided by a
consistent standard error it is, and the test is asymptotically exact.

- Proportion metrics (positive rate, TPR, FNR, FPR, TNR, accuracy, precision) depend only on
  each group's confusion counts, and permuting group labels draws group A's counts from a
  multivariate hypergeometric distribution with the pooled counts as colours. The test draws
  those counts directly (B draws, whatever the number of rows), and studentizes the difference
  with a closed-form standard error (§3.3). By default the error is the pooled one,
  sqrt(p(1 - p)(1/d_A + 1/d_B)) with p the pooled proportion: like the paper's unpooled
  sqrt(p_A(1 - p_A)/d_A + p_B(1 - p_B)/d_B) (``variance="unpooled"``) it estimates the
  difference's standard deviation consistently under the null, so the test is asymptotically
  exact, but it is far better behaved with few events. In the paper's §4.2 simulation (about 40
  positives and 4 false negatives in group B) the unpooled statistic has sampling mean 0.16 and
  standard deviation 1.15 and its test rejects about 0.08 at the 5% level; the pooled one
  rejects about 0.05 (as the paper reports, 0.0486).
- AUC (§3.2): each permutation's group AUCs and their DeLong variances come from one sort of
  the scores and one pass over the rows, for many permutations at once
  (:mod:`faircompare.stats.auc_null`).
- Any other metric: Algorithm 1, with bootstrap variances (eq. 1).

``within_outcome=True`` permutes labels only among positives and among negatives (§3.1).
P-values are (k + 1) / (B + 1), k of B permuted statistics at least as extreme as the observed
one. With a fixed B their Monte Carlo error is given by a Clopper-Pearson interval; drawn
sequentially (:mod:`faircompare.stats.sequential`, ``sequential=`` of
:func:`permutation_tests` and :func:`compare_groups`), a test draws until its verdict at alpha
is decided with a bounded resampling risk, and its interval is the confidence sequence's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np
from scipy.special import betaincinv

from faircompare._deprecations import former_forms
from faircompare._validation import check_choice
from faircompare.bibliography import Reference
from faircompare.stats.auc_null import GroupAUC
from faircompare.stats.groups import GroupCounts
from faircompare.stats.rates import ALIASES, FN, FP, RATES, TN, TP
from faircompare.stats.sequential import SequentialPlan, draw_until_decided

Alternative = Literal["two-sided", "greater", "less"]
ALTERNATIVES = ("two-sided", "greater", "less")

# metric -> (numerator cells, denominator cells), from the one table of rates
PROPORTIONS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    metric: RATES[ALIASES.get(metric, metric)][:2]
    for metric in ("positive_rate", "TPR", "FNR", "FPR", "TNR", "accuracy", "precision")
}
#: The metrics the permutation tests compare by name: the proportions, and ``AUC``.
METRICS = (*PROPORTIONS, "AUC")
#: Permutations per test where no sequential plan says how many to draw (a fixed B).
PERMUTATIONS = 1000
_TOLERANCE = 1e-9  # relative: permuted statistics this close to the observed one count as ties


#: DiCiccio et al.'s studentized permutation tests of group fairness.
DICICCIO_2020 = Reference(
    key="diciccio2020evaluating",
    authors=(
        "DiCiccio, Cyrus",
        "Vasudevan, Sriram",
        "Basu, Kinjal",
        "Kenthapadi, Krishnaram",
        "Agarwal, Deepak",
    ),
    title="Evaluating Fairness Using Permutation Tests",
    year=2020,
    venue="Proceedings of the 26th ACM SIGKDD International Conference on Knowledge Discovery "
    "& Data Mining (KDD '20)",
    pages="1467-1477",
    doi="10.1145/3394486.3403199",
)


@dataclass(frozen=True, eq=False)
class PermutationTestResult:
    """Outcome of a permutation test of "metric(A) = metric(B)".

    Attributes
    ----------
    metric
        The metric compared.
    groups
        Names of groups A and B.
    observed
        metric(A) - metric(B).
    statistic
        The test statistic: the studentized difference, or the difference itself.
    pvalue
        (k + 1) / (B + 1), k permuted statistics at least as extreme as the observed one.
    pvalue_interval
        The p-value's Monte Carlo interval: the 95% Clopper-Pearson interval of k / B with a
        fixed B, the confidence sequence's interval of a sequential test.
    null_distribution
        The B permuted statistics.
    group_sizes
        Rows in A and in B.
    studentized, alternative, within_outcome
        How the test was run.
    decided
        For a sequential test, whether its verdict at each of its plan's levels is decided
        (False: it reached its cap undecided); None for a test of a fixed number of
        permutations.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import permutation_test
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b"], 200)
    >>> y_true = rng.integers(0, 2, 400)
    >>> y_pred = (rng.random(400) < np.where(groups == "a", 0.6, 0.4)).astype(int)
    >>> result = permutation_test(y_true, y_pred, groups, group_a="a", permutations=500, rng=0)
    >>> result.metric, result.groups, result.group_sizes
    ('positive_rate', ('a', 'rest'), (200, 200))
    >>> low, high = result.pvalue_interval
    >>> bool(low <= result.pvalue <= high)
    True
    """

    metric: str
    groups: tuple[str, str]
    observed: float
    statistic: float
    pvalue: float
    pvalue_interval: tuple[float, float]
    null_distribution: np.ndarray = field(repr=False)
    group_sizes: tuple[int, int]
    studentized: bool
    alternative: str
    within_outcome: bool
    decided: bool | None = None


@former_forms
def permutation_test(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    metric: str | Callable[..., float] = "positive_rate",
    group_a: Any,
    group_b: Any = None,
    scores: Any = None,
    studentize: bool = True,
    within_outcome: bool = False,
    alternative: Alternative = "two-sided",
    permutations: int = PERMUTATIONS,
    resamples: int = 100,
    variance: Literal["pooled", "unpooled"] = "pooled",
    rng: np.random.Generator | int | None = None,
) -> PermutationTestResult:
    """Test whether a metric differs between two groups.

    Parameters
    ----------
    y_true, y_pred
        Labels and predictions, 1 for the positive outcome and 0 otherwise.
    sensitive_features
        Each row's group.
    metric
        One of :data:`METRICS`, or a function ``f(y_true, y_pred, scores) -> float`` (tested by
        Algorithm 1 with bootstrap variances).
    group_a
        Group A (usually the privileged group).
    group_b
        Group B; None compares A with everyone else. Rows of other groups are left out.
    scores
        Scores of the positive outcome; needed for AUC.
    studentize
        Divide by the standard error (the valid test); False gives the classical test, which is
        kept to show its failure.
    within_outcome
        Permute group labels only within positives and within negatives (§3.1).
    alternative
        ``"two-sided"``, ``"greater"`` (metric(A) > metric(B)) or ``"less"``.
    permutations
        Number of permutations B.
    resamples
        Bootstrap resamples per variance estimate (user metrics only; formerly
        ``n_bootstrap=``, which still works with a :class:`DeprecationWarning`).
    variance
        Standard error of proportion metrics: ``"pooled"`` or ``"unpooled"`` (see the module
        notes).
    rng
        Random generator or seed.

    Returns
    -------
    PermutationTestResult

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import permutation_test
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b"], 200)
    >>> y_true = rng.integers(0, 2, 400)
    >>> y_pred = (rng.random(400) < np.where(groups == "a", 0.6, 0.4)).astype(int)
    >>> result = permutation_test(
    ...     y_true, y_pred, groups, metric="positive_rate", group_a="a", permutations=500, rng=0
    ... )
    >>> round(result.observed, 3), result.pvalue < 0.05
    (0.205, True)
    """
    settings = _Settings(studentize, within_outcome, alternative, permutations, resamples, variance)
    groups = _two_groups(y_true, y_pred, sensitive_features, group_a, group_b, scores)
    return _test(groups, metric, settings, np.random.default_rng(rng))


def permutation_tests(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    metrics: Sequence[str],
    group_a: Any,
    scores: Any = None,
    permutations: int = PERMUTATIONS,
    sequential: SequentialPlan | None = None,
    rng: np.random.Generator | int | None = None,
) -> dict[str, PermutationTestResult | ValueError]:
    """Run several studentized two-sided tests of group A against the rest on the same predictions.

    The predictions are validated, split into the two groups and counted once for all the
    tests; each test then runs as :func:`permutation_test` would, drawing from ``rng`` in turn
    (so the results are those of calling it once per metric with the same generator).

    Parameters
    ----------
    y_true, y_pred
        Labels and predictions, 1 for the positive outcome and 0 otherwise.
    sensitive_features
        Each row's group.
    metrics
        Names of the metrics to test (of :data:`METRICS`).
    group_a
        Group A, tested against everyone else.
    scores
        Scores of the positive outcome; needed for AUC.
    permutations
        Number of permutations B per test (without ``sequential``).
    sequential
        Draw the tests sequentially instead: in batches, each until the verdict of its
        Holm-adjusted p-value (over the tests that have one) at each of the plan's levels is
        decided, with the plan's resampling risk for the family, or until the plan's cap
        (:func:`~faircompare.stats.sequential.draw_until_decided`).
    rng
        Random generator or seed.

    Returns
    -------
    dict
        For each metric its result, or the ``ValueError`` saying why it cannot be tested (a
        metric undefined in a group, one group empty).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import permutation_tests
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b"], 200)
    >>> y_true = rng.integers(0, 2, 400)
    >>> y_pred = (rng.random(400) < np.where(groups == "a", 0.6, 0.4)).astype(int)
    >>> metrics = ["positive_rate", "accuracy"]
    >>> results = permutation_tests(
    ...     y_true, y_pred, groups, metrics=metrics, group_a="a", permutations=500, rng=0
    ... )
    >>> sorted(results)
    ['accuracy', 'positive_rate']
    >>> results["positive_rate"].pvalue < 0.05
    True
    """
    settings = _Settings(True, False, "two-sided", permutations, 0, "pooled")
    rng = np.random.default_rng(rng)
    try:
        groups = _two_groups(y_true, y_pred, sensitive_features, group_a, None, scores)
    except ValueError as error:
        return dict.fromkeys(metrics, error)
    results: dict[str, PermutationTestResult | ValueError] = {}
    prepared: dict[str, _Prepared] = {}
    for metric in metrics:
        try:
            if sequential is None:
                results[metric] = _test(groups, metric, settings, rng)
            else:
                prepared[metric] = _prepare(groups, metric, settings, rng)
        except ValueError as error:
            results[metric] = error
    if sequential is not None:
        results |= _sequential_tests(groups, prepared, settings, sequential)
    return {metric: results[metric] for metric in metrics}


def _sequential_tests(
    groups: _Groups, tests: dict[str, _Prepared], settings: _Settings, plan: SequentialPlan
) -> dict[str, PermutationTestResult]:
    """Draw a Holm family of prepared tests until their verdicts are decided (or capped)."""
    prepared = list(tests.values())
    nulls: list[list[np.ndarray]] = [[] for _ in prepared]

    def draw(active: np.ndarray, b: int) -> np.ndarray:
        counts = []
        for i in active:
            null = prepared[i].draw(b)
            nulls[i].append(null)
            counts.append(_exceeding(prepared[i].statistic, null, settings.alternative))
        return np.array(counts)

    counts = draw_until_decided(draw, len(prepared), plan)
    return {
        name: _result(
            groups,
            test,
            np.concatenate(nulls[i]),
            settings,
            counts.intervals[i],
            bool(counts.decided[i]),
        )
        for i, (name, test) in enumerate(tests.items())
    }


@dataclass(frozen=True)
class _Settings:
    """How a test runs (see :func:`permutation_test` for each)."""

    studentize: bool
    within_outcome: bool
    alternative: str
    permutations: int
    resamples: int
    variance: str

    def __post_init__(self) -> None:
        check_choice(self.alternative, ALTERNATIVES, what="alternative")
        check_choice(self.variance, ("pooled", "unpooled"), what="variance")
        if self.permutations < 1:
            raise ValueError(f"permutations must be at least 1, got {self.permutations}")


@dataclass(frozen=True, eq=False)
class _Groups:
    """Validated predictions of the two groups compared, with their confusion counts."""

    y: np.ndarray
    yhat: np.ndarray
    in_a: np.ndarray
    names: tuple[str, str]
    scores: np.ndarray | None

    @cached_property
    def cells(self) -> np.ndarray:
        """Confusion counts of every row (TN, FP, FN, TP)."""
        return np.bincount(2 * self.y + self.yhat, minlength=4)

    @cached_property
    def cells_a(self) -> np.ndarray:
        """Confusion counts of group A."""
        return np.bincount(2 * self.y[self.in_a] + self.yhat[self.in_a], minlength=4)


def _test(
    groups: _Groups,
    metric: str | Callable[..., float],
    settings: _Settings,
    rng: np.random.Generator,
) -> PermutationTestResult:
    """Run one test of a fixed number of permutations (the body of :func:`permutation_test`)."""
    test = _prepare(groups, metric, settings, rng)
    null = test.draw(settings.permutations)
    _, interval = monte_carlo_pvalue(test.statistic, null, settings.alternative)
    return _result(groups, test, null, settings, interval)


@dataclass(frozen=True, eq=False)
class _Prepared:
    """One test ready to draw: its observed difference and statistic, and its null's sampler.

    ``draw(b)`` returns b more permuted statistics, from the generator the test was given.
    """

    name: str
    observed: float
    statistic: float
    draw: Callable[[int], np.ndarray]


def _prepare(
    groups: _Groups,
    metric: str | Callable[..., float],
    settings: _Settings,
    rng: np.random.Generator,
) -> _Prepared:
    """Compute a test's observed statistic, and the sampler of its permutation null."""
    y, yhat, in_a, s = groups.y, groups.yhat, groups.in_a, groups.scores
    within_outcome = settings.within_outcome
    if callable(metric):
        observed, statistic, sampler = _algorithm_1(
            metric, y, yhat, s, in_a, settings.studentize, within_outcome, settings.resamples,
            rng,
        )  # fmt: skip
        return _Prepared(getattr(metric, "__name__", "metric"), observed, statistic, sampler)
    if check_choice(metric, METRICS, what="metric") == "AUC":
        if s is None:
            raise ValueError("the AUC test needs scores")
        return _Prepared(metric, *_auc_test(y, s, in_a, settings.studentize, within_outcome, rng))
    cells, mine = groups.cells, groups.cells_a
    studentized = settings.variance if settings.studentize else None
    observed, statistic = _proportion_statistic(mine, cells - mine, metric, studentized)
    if not np.isfinite(statistic):
        raise ValueError(f"{metric} is undefined in a group (an empty denominator)")

    def draw(b: int) -> np.ndarray:
        drawn = _draw_group_cells(cells, mine, within_outcome, b, rng)
        return _proportion_statistic(drawn, cells - drawn, metric, studentized)[1]

    return _Prepared(metric, float(observed), float(statistic), draw)


def _result(
    groups: _Groups,
    test: _Prepared,
    null: np.ndarray,
    settings: _Settings,
    interval: tuple[float, float],
    decided: bool | None = None,
) -> PermutationTestResult:
    """Return a test's result from its permuted statistics and its p-value's interval."""
    k = _exceeding(test.statistic, null, settings.alternative)
    return PermutationTestResult(
        metric=test.name,
        groups=groups.names,
        observed=float(test.observed),
        statistic=float(test.statistic),
        pvalue=(k + 1) / (len(null) + 1),
        pvalue_interval=(float(interval[0]), float(interval[1])),
        null_distribution=null,
        group_sizes=(int(groups.in_a.sum()), int((~groups.in_a).sum())),
        studentized=settings.studentize,
        alternative=settings.alternative,
        within_outcome=settings.within_outcome,
        decided=decided,
    )


def _two_groups(
    y_true: Any, y_pred: Any, sensitive_features: Any, group_a: Any, group_b: Any, scores: Any
) -> _Groups:
    counted = GroupCounts.from_predictions(y_true, y_pred, sensitive_features, scores=scores)
    code_a = counted.position(group_a)
    in_a = counted.codes == code_a
    y, yhat, s = counted.y_true, counted.y_pred, counted.scores
    name_b = "rest"
    if group_b is not None:
        keep = in_a | (counted.codes == counted.position(group_b))
        y, yhat, in_a = y[keep], yhat[keep], in_a[keep]
        s = None if s is None else s[keep]
        name_b = str(group_b)
    if in_a.all() or not in_a.any():
        raise ValueError("both groups need at least one row")
    return _Groups(y, yhat, in_a, (str(group_a), name_b), s)


def draw_hypergeometric(
    colours: np.ndarray, draws: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Multivariate hypergeometric draws, vectorized over rows of ``colours`` and ``draws``.

    Row i draws ``draws[i]`` balls without replacement from an urn with ``colours[i, c]`` balls
    of colour c, one colour at a time (the marginal method): colour c's count is hypergeometric
    given the balls still to draw and the balls of the later colours.
    """
    colours = np.asarray(colours, dtype=np.int64)
    left = np.asarray(draws, dtype=np.int64).copy()
    remaining = colours.sum(-1)
    out = np.zeros_like(colours)
    for c in range(colours.shape[-1] - 1):
        good = colours[..., c]
        remaining = remaining - good
        out[..., c] = rng.hypergeometric(good, remaining, left)
        left = left - out[..., c]
    out[..., -1] = left
    return out


def _draw_group_cells(
    cells: np.ndarray, mine: np.ndarray, within_outcome: bool, b: int, rng: np.random.Generator
) -> np.ndarray:
    """Group A's confusion counts under B permutations of the group labels."""
    drawn = np.zeros((b, 4), dtype=np.int64)
    if within_outcome:  # A keeps its numbers of negatives (TN, FP) and positives (FN, TP)
        for pair in ((TN, FP), (FN, TP)):
            colours = np.broadcast_to(cells[list(pair)], (b, 2))
            drawn[:, list(pair)] = draw_hypergeometric(
                colours, np.full(b, mine[list(pair)].sum()), rng
            )
    else:
        drawn[:] = draw_hypergeometric(np.broadcast_to(cells, (b, 4)), np.full(b, mine.sum()), rng)
    return drawn


def _proportion(counts: np.ndarray, metric: str) -> tuple[np.ndarray, np.ndarray]:
    numerator, denominator = PROPORTIONS[metric]
    top = counts[..., list(numerator)].sum(-1)
    bottom = counts[..., list(denominator)].sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return top / bottom, bottom


def _proportion_statistic(a: np.ndarray, b: np.ndarray, metric: str, variance: str | None):
    """Return metric(A) - metric(B) and the test statistic.

    The statistic is the difference over its standard error (§3.3), pooled or unpooled, or the
    difference itself when ``variance`` is None.
    """
    p_a, d_a = _proportion(a, metric)
    p_b, d_b = _proportion(b, metric)
    difference = p_a - p_b
    if variance is None:
        return difference, difference
    with np.errstate(divide="ignore", invalid="ignore"):
        if variance == "pooled":
            p = (p_a * d_a + p_b * d_b) / (d_a + d_b)
            se = np.sqrt(p * (1 - p) * (1 / d_a + 1 / d_b))
        else:
            se = np.sqrt(p_a * (1 - p_a) / d_a + p_b * (1 - p_b) / d_b)
    return difference, _ratio(difference, se)


def _ratio(difference: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Difference / se, with 0/0 = 0 (both groups constant and equal) and x/0 = +-inf."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(
            se > 0, difference / se, np.where(difference == 0, 0.0, np.sign(difference) * np.inf)
        )


def monte_carlo_pvalue(
    statistic: float, null: np.ndarray, alternative: str
) -> tuple[float, tuple[float, float]]:
    """Return the p-value of a fixed number of permuted statistics, with its interval.

    The p-value counts the permuted statistics at least as extreme as ``statistic`` (within a
    relative tolerance of 1e-9, so ties count), plus one, over the permutations plus one; the
    interval is the Clopper-Pearson 95% interval of that share.
    """
    k = _exceeding(statistic, null, alternative)
    return (k + 1) / (len(null) + 1), clopper_pearson(k, len(null))


def _exceeding(statistic: float, null: np.ndarray, alternative: str) -> int:
    """Count the permuted statistics at least as extreme as the observed one."""
    tolerance = _TOLERANCE * max(1.0, abs(statistic)) if np.isfinite(statistic) else 0.0
    finite = np.nan_to_num(null, nan=0.0)
    if alternative == "two-sided":
        extreme = np.abs(finite) >= abs(statistic) - tolerance
    elif alternative == "greater":
        extreme = finite >= statistic - tolerance
    else:
        extreme = finite <= statistic + tolerance
    return int(extreme.sum())


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval of a binomial proportion, k successes in n trials.

    The closed form by beta quantiles (Clopper & Pearson, Biometrika 1934): the bounds are
    the alpha/2 quantile of Beta(k, n - k + 1) and the 1 - alpha/2 quantile of Beta(k + 1, n - k),
    0 and 1 at the ends. scipy's ``binomtest(k, n).proportion_ci(method="exact")`` gives the same
    interval by root finding, about 500 times slower (the tests compare them).

    Parameters
    ----------
    k, n
        Successes and trials.
    confidence
        Coverage of the interval.

    Returns
    -------
    tuple of float
        The lower and upper bounds.
    """
    tail = (1 - confidence) / 2
    low = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, tail))
    high = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - tail))
    return low, high


# --- AUC -------------------------------------------------------------------------------------


def _auc_test(y, scores, in_a, studentize, within_outcome, rng):
    """Return the AUC test's observed difference and statistic, and its null's sampler."""
    auc = GroupAUC(y, scores)

    def statistic(auc_a, var_a, auc_b, var_b) -> tuple[np.ndarray, np.ndarray]:
        difference = auc_a - auc_b
        if not studentize:
            return difference, difference
        with np.errstate(invalid="ignore"):  # NaN variances: permuted groups without a class
            return difference, _ratio(difference, np.sqrt(var_a + var_b))

    observed, observed_statistic = statistic(*auc.of(in_a[:, None]))
    if np.isnan(observed_statistic[0]):  # +-inf is a real difference with zero variance
        raise ValueError("AUC is undefined in a group (it has no positives or no negatives)")

    def draw(b: int) -> np.ndarray:
        return statistic(*auc.permuted(in_a, b, within_outcome, rng))[1]

    return float(observed[0]), float(observed_statistic[0]), draw


def shuffled_membership(
    member: np.ndarray, positive: np.ndarray, within_outcome: bool, rng: np.random.Generator
) -> np.ndarray:
    """Shuffle group membership along the last axis (rows), within each outcome if asked.

    ``member`` marks group A's rows (one row of marks per permutation when 2-D); ``positive``
    marks the rows with outcome 1. The input is left unchanged.
    """
    if not within_outcome:
        return rng.permuted(member, axis=-1)
    member = member.copy()
    for rows in (positive, ~positive):
        member[..., rows] = rng.permuted(member[..., rows], axis=-1)
    return member


# --- Algorithm 1: any metric, bootstrap variances -------------------------------------------


def _value(metric: Callable[..., float], y, yhat, s, rows: np.ndarray) -> float:
    return metric(y[rows], yhat[rows], None if s is None else s[rows])


def _algorithm_1(metric, y, yhat, s, in_a, studentize, within_outcome, resamples, rng):
    """DiCiccio et al. Algorithm 1: permute, and studentize each statistic by eq. (1).

    Returns the observed difference and statistic, and the sampler of permuted statistics.
    """

    def difference(member: np.ndarray, rows_a=None, rows_b=None) -> float:
        index_a, index_b = np.flatnonzero(member), np.flatnonzero(~member)
        if rows_a is not None:
            index_a, index_b = index_a[rows_a], index_b[rows_b]
        return _value(metric, y, yhat, s, index_a) - _value(metric, y, yhat, s, index_b)

    def studentized(member: np.ndarray) -> tuple[float, float]:
        value = difference(member)
        if not studentize:
            return value, value
        n_a, n_b = member.sum(), (~member).sum()
        boot = [
            difference(member, rng.integers(0, n_a, n_a), rng.integers(0, n_b, n_b))
            for _ in range(resamples)
        ]
        variance = np.mean((np.asarray(boot) - value) ** 2)
        return value, float(_ratio(np.asarray(value), np.sqrt(np.asarray(variance))))

    def draw(b: int) -> np.ndarray:
        permuted = (shuffled_membership(in_a, y == 1, within_outcome, rng) for _ in range(b))
        return np.array([studentized(member)[1] for member in permuted], dtype=float)

    observed, statistic = studentized(in_a)
    return observed, statistic, draw


# --- comparisons: the basic bootstrap, several groups ---------------------------------------


@dataclass(frozen=True, eq=False)
class BootstrapTestResult:
    """Outcome of the basic bootstrap test of "metric(A) = metric(B)".

    Attributes
    ----------
    metric
        The metric compared.
    groups
        Names of groups A and B (``"rest"``: everyone but A).
    observed
        metric(A) - metric(B).
    pvalue
        Two-sided p-value of the equal-tailed basic interval.
    resamples
        Bootstrap resamples per group.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import bootstrap_test
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b"], 200)
    >>> y_true = rng.integers(0, 2, 400)
    >>> y_pred = (rng.random(400) < np.where(groups == "a", 0.6, 0.4)).astype(int)
    >>> result = bootstrap_test(
    ...     y_true, y_pred, groups, metric="accuracy", group_a="a", resamples=200, rng=0
    ... )
    >>> result.metric, result.groups, result.resamples
    ('accuracy', ('a', 'rest'), 200)
    """

    metric: str
    groups: tuple[str, str]
    observed: float
    pvalue: float
    resamples: int


def bootstrap_test(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    metric: str,
    group_a: Any,
    resamples: int = 1000,
    rng: np.random.Generator | int | None = None,
) -> BootstrapTestResult:
    """Run the "basic" bootstrap test of DiCiccio et al. §4.2, to compare with permutations.

    Each group is resampled with replacement (its confusion counts drawn from a multinomial),
    and the distribution of D = T* - T stands in for that of T under the null. The two-sided
    p-value inverts the equal-tailed basic interval: 2 min(P(D >= T), P(D <= T)), each tail
    counted as (k + 1) / (B + 1).

    Parameters
    ----------
    y_true, y_pred
        Labels and predictions, 1 for the positive outcome and 0 otherwise.
    sensitive_features
        Each row's group.
    metric
        A proportion metric (one of :data:`PROPORTIONS`).
    group_a
        Group A, compared with everyone else.
    resamples
        Bootstrap resamples B.
    rng
        Random generator or seed.

    Returns
    -------
    BootstrapTestResult
        The observed difference and the p-value.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import bootstrap_test
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b"], 200)
    >>> y_true = rng.integers(0, 2, 400)
    >>> y_pred = (rng.random(400) < np.where(groups == "a", 0.6, 0.4)).astype(int)
    >>> result = bootstrap_test(
    ...     y_true, y_pred, groups, metric="positive_rate", group_a="a", resamples=500, rng=0
    ... )
    >>> round(result.observed, 3), result.pvalue < 0.05
    (0.205, True)
    """
    rng = np.random.default_rng(rng)
    groups = _two_groups(y_true, y_pred, sensitive_features, group_a, None, None)
    a = groups.cells_a
    b = groups.cells - a
    check_choice(metric, PROPORTIONS, what="metric")
    observed, _ = _proportion_statistic(a, b, metric, None)
    boot_a = rng.multinomial(a.sum(), a / a.sum(), size=resamples)
    boot_b = rng.multinomial(b.sum(), b / b.sum(), size=resamples)
    shift = np.nan_to_num(_proportion_statistic(boot_a, boot_b, metric, None)[0] - observed)
    upper = (1 + np.sum(shift >= observed - _TOLERANCE)) / (resamples + 1)
    lower = (1 + np.sum(shift <= observed + _TOLERANCE)) / (resamples + 1)
    pvalue = float(min(1.0, 2 * min(upper, lower)))
    return BootstrapTestResult(metric, groups.names, float(observed), pvalue, resamples)


@dataclass(frozen=True, eq=False)
class GroupComparison:
    """Each unprivileged group against the privileged one, with max-T adjusted p-values.

    Attributes
    ----------
    metric
        The metric compared.
    privileged
        The privileged group.
    groups
        The unprivileged groups, in the order of the arrays.
    observed
        metric(privileged) - metric(group), per group.
    statistics
        The studentized differences.
    pvalues
        Each comparison's own permutation p-value.
    adjusted_pvalues
        The max-T adjusted p-values (family-wise error over the comparisons).
    adjusted_intervals
        Each adjusted p-value's Monte Carlo interval, shape (groups, 2): the Clopper-Pearson
        interval with a fixed number of permutations, the confidence sequence's when drawn
        sequentially; NaN for a group where the metric is undefined.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import compare_groups
    >>> rng = np.random.default_rng(1)
    >>> groups = np.repeat(["a", "b", "c"], 100)
    >>> y_true = rng.integers(0, 2, 300)
    >>> y_pred = rng.integers(0, 2, 300)
    >>> comparison = compare_groups(
    ...     y_true, y_pred, groups, privileged="a", permutations=200, rng=0
    ... )
    >>> comparison.privileged, comparison.groups, len(comparison.pvalues)
    ('a', ('b', 'c'), 2)
    """

    metric: str
    privileged: str
    groups: tuple[str, ...]
    observed: np.ndarray
    statistics: np.ndarray
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    adjusted_intervals: np.ndarray | None = None


def compare_groups(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    metric: str = "positive_rate",
    privileged: Any,
    permutations: int = PERMUTATIONS,
    within_outcome: bool = False,
    variance: Literal["pooled", "unpooled"] = "pooled",
    sequential: SequentialPlan | None = None,
    rng: np.random.Generator | int | None = None,
) -> GroupComparison:
    """Test each unprivileged group against the privileged one, controlling family-wise error.

    One set of permutations of all group labels serves every comparison: the labels are
    reassigned jointly (a multivariate hypergeometric draw per group, one after another), each
    comparison's studentized statistic is computed, and the adjusted p-value of group g counts
    the permutations whose largest absolute statistic reaches g's (the max-T method, two-sided).

    Parameters
    ----------
    y_true, y_pred
        Labels and predictions, 1 for the positive outcome and 0 otherwise.
    sensitive_features
        Each row's group.
    metric
        A proportion metric (one of :data:`PROPORTIONS`).
    privileged
        The group every other group is compared with.
    permutations
        Number of joint permutations B.
    within_outcome
        Permute group labels only within positives and within negatives (§3.1).
    variance
        Standard error of the difference: ``"pooled"`` or ``"unpooled"``.
    sequential
        Draw the joint permutations in batches instead of ``permutations`` at once, until
        every defined group's max-T adjusted verdict at each of the plan's levels is decided
        (with the plan's resampling risk over the groups) or the plan's cap is reached
        (:func:`~faircompare.stats.sequential.draw_until_decided`).
    rng
        Random generator or seed.

    Returns
    -------
    GroupComparison
        Each unprivileged group's difference, statistic, raw and max-T adjusted p-value; NaN
        for a group where the metric is undefined (TPR in a group without positives).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import compare_groups
    >>> rng = np.random.default_rng(0)
    >>> groups = np.repeat(["a", "b", "c"], 200)
    >>> y_true = rng.integers(0, 2, 600)
    >>> y_pred = (rng.random(600) < np.where(groups == "c", 0.3, 0.5)).astype(int)
    >>> comparison = compare_groups(
    ...     y_true, y_pred, groups, privileged="a", permutations=500, rng=0
    ... )
    >>> comparison.groups
    ('b', 'c')
    >>> comparison.adjusted_pvalues < 0.05
    array([False,  True])
    """
    rng = np.random.default_rng(rng)
    counted = GroupCounts.from_predictions(y_true, y_pred, sensitive_features)
    first = counted.position(privileged, what="privileged group")
    check_choice(metric, PROPORTIONS, what="metric")
    order = [first] + [g for g in range(len(counted.names)) if g != first]
    counts = counted.counts[order]
    observed, statistics = _proportion_statistic(counts[0], counts[1:], metric, variance)
    size = np.abs(statistics) - _TOLERANCE * np.maximum(1, np.abs(statistics))
    undefined = np.isnan(statistics)  # the metric's denominator is empty in the group
    raw_k, drawn = np.zeros(len(size), dtype=np.int64), 0

    def draw(active: np.ndarray, b: int) -> np.ndarray:
        """Count, per group, the joint permutations whose own and whose largest |T| reach it."""
        nonlocal raw_k, drawn
        joint = _draw_all_groups(counts, within_outcome, b, rng)  # (b, groups, 4)
        null = _proportion_statistic(joint[:, :1], joint[:, 1:], metric, variance)[1]
        null = np.abs(np.nan_to_num(null))
        raw_k, drawn = raw_k + (null >= size).sum(0), drawn + b
        return (null.max(1)[:, None] >= size[~undefined]).sum(0)[active]

    intervals = np.full((len(size), 2), np.nan)
    if sequential is None:
        tested = np.arange((~undefined).sum())
        adjusted_k, adjusted_n = draw(tested, permutations), np.full(len(tested), permutations)
        intervals[~undefined] = [clopper_pearson(int(k), permutations) for k in adjusted_k]
    else:
        family = draw_until_decided(draw, int((~undefined).sum()), sequential, adjustment="none")
        adjusted_k, adjusted_n = family.exceeding, family.drawn
        intervals[~undefined] = family.intervals
    raw = np.full(len(size), np.nan)
    adjusted = raw.copy()
    raw[~undefined] = (1 + raw_k[~undefined]) / (drawn + 1)
    adjusted[~undefined] = (1 + adjusted_k) / (adjusted_n + 1)
    others = tuple(str(counted.names[g]) for g in order[1:])
    return GroupComparison(
        metric, str(privileged), others, observed, statistics, raw, adjusted, intervals
    )


def _draw_all_groups(counts: np.ndarray, within_outcome: bool, b: int, rng) -> np.ndarray:
    """Every group's confusion counts under B joint permutations of the group labels."""
    drawn = np.zeros((b,) + counts.shape, dtype=np.int64)
    pairs = ((TN, FP), (FN, TP)) if within_outcome else ((TN, FP, FN, TP),)
    for cells in map(list, pairs):
        left = np.broadcast_to(counts[:, cells].sum(0), (b, len(cells))).copy()
        for g in range(len(counts) - 1):
            drawn[:, g, cells] = draw_hypergeometric(left, np.full(b, counts[g, cells].sum()), rng)
            left -= drawn[:, g, cells]
        drawn[:, -1, cells] = left
    return drawn
