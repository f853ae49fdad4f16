"""The tests of individual fairness on the attack's losses (Maity et al. §3).

The loss-ratio test (§3.1, Eq. 3.10) and the error-ratio test (§3.2, Eq. 3.13), one attack's
(:func:`individual_fairness_test`) or several's with their Monte Carlo error
(:func:`replicated_fairness_test`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from scipy.stats import norm

from faircompare._validation import check_choice
from faircompare.bibliography import Reference
from faircompare.stats.individual.attack import gradient_flow_attack
from faircompare.stats.individual.metric import FairMetric
from faircompare.stats.individual.oracle import LossOracle

# Beyond this probability of its true label a point's loss is below 1e-3, and its loss ratio can
# exceed 10^4 (the largest loss, at the floor, is 13.8): assumption A3 of §3.1 (a loss bounded
# away from zero) no longer holds for it.
NEAR_CERTAIN = 0.999
# Above this share of near-certain audit points the loss ratio is read as the loss's floor, not
# as the model: the error-rate ratio (§3.2) is the statistic defined for such a model.
NEAR_CERTAIN_SHARE = 0.05
MONTE_CARLO_Z = float(norm.ppf(0.975))  # a verdict within this many Monte Carlo errors is open


#: Maity et al.'s test of individual fairness, which this module implements.
MAITY_2021 = Reference(
    key="maity2021statistical",
    authors=("Maity, Subha", "Xue, Songkai", "Yurochkin, Mikhail", "Sun, Yuekai"),
    title="Statistical Inference for Individual Fairness",
    year=2021,
    venue="International Conference on Learning Representations (ICLR 2021)",
    url="https://openreview.net/forum?id=z9k8BWL-_2u",
)


@dataclass(frozen=True, eq=False)
class LossRatioResult:
    """The loss-ratio test of §3.1.

    Attributes
    ----------
    ratios
        l(f(Phi(x_i)), y_i) / l(f(x_i), y_i) for every audit point.
    mean, std
        S_n and V_n (Eq. 3.4).
    lower_bound
        T_n = S_n - c V_n / sqrt(n) (Eq. 3.10, with c = z_{1-alpha} there).
    interval
        The two-sided 1 - alpha confidence interval of the audit value (Eq. 3.6).
    delta, alpha
        Tolerance and level.
    critical
        c: z_{1-alpha} (``calibration="normal"``, the paper's), or the 1 - alpha quantile of
        the bootstrap distribution of the studentized mean (``"bootstrap-t"``).
    calibration
        How ``critical`` and the interval were found (:func:`loss_ratio_test`).
    studentized_draws
        The bootstrap-t's draws of the studentized mean (its p-value's reference); None for
        the normal calibration.
    near_certain
        Share of the audit points whose probability of their true label exceeds
        :data:`NEAR_CERTAIN` before the attack. Their loss is near zero, so one of them can
        move S_n by thousands: where many are, the loss ratio says more about the loss's floor
        than about the model (§3.1 warns that a small loss inflates V_n, and assumption A3
        bounds the loss below), and the error-rate ratio (§3.2) is the statistic to read.
    monte_carlo_error
        The standard error of T_n over the attack's own randomness, where the attack is random
        (a derivative-free gradient) and was run more than once
        (:func:`replicated_fairness_test`); 0 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> loss = individual_fairness_test(oracle, X, y, metric, steps=50).loss
    >>> bool(loss.lower_bound > loss.delta), loss.reject
    (True, True)
    """

    ratios: np.ndarray
    mean: float
    std: float
    lower_bound: float
    interval: tuple[float, float]
    delta: float
    alpha: float
    near_certain: float
    monte_carlo_error: float = 0.0
    critical: float = float(norm.ppf(0.95))
    calibration: str = "normal"
    studentized_draws: np.ndarray | None = field(default=None, repr=False)

    @property
    def reject(self) -> bool:
        """Whether the audit rejects fairness: its p-value is at most alpha.

        The same verdict as T_n > delta, by construction: the critical value is the bootstrap
        draw that the p-value's count of draws puts at alpha (:func:`loss_ratio_test`).
        """
        return bool(self.pvalue <= self.alpha)

    @property
    def undecided(self) -> bool:
        """Whether delta lies within T_n's Monte Carlo interval: a seed may decide otherwise."""
        return _undecided(self.lower_bound, self.delta, self.monte_carlo_error)

    @property
    def pvalue(self) -> float:
        """The p-value of H0: audit value <= delta, by the test's calibration.

        Normal: the studentized mean's upper tail (at most alpha exactly when T_n > delta).
        Bootstrap-t: the share of bootstrap draws at least as large, (k + 1) / (B + 1).
        """
        if self.std == 0:
            return float(self.mean <= self.delta)
        observed = math.sqrt(len(self.ratios)) * (self.mean - self.delta) / self.std
        if self.studentized_draws is None:
            return float(norm.sf(observed))
        draws = self.studentized_draws
        return float((1 + np.sum(draws >= observed)) / (len(draws) + 1))


#: Bootstrap resamples of the loss-ratio test's bootstrap-t calibration.
BOOTSTRAP_RESAMPLES = 2000


def loss_ratio_test(
    loss_before: Any,
    loss_after: Any,
    *,
    delta: float = 1.25,
    alpha: float = 0.05,
    calibration: Literal["bootstrap-t", "normal"] = "bootstrap-t",
) -> LossRatioResult:
    """Test H0: E[l(f(Phi(x)), y) / l(f(x), y)] <= delta (Maity et al. §3.1, Corollary 3.3).

    The paper's test compares the studentized mean of the loss ratios with the normal quantile
    (``calibration="normal"``), which holds as n grows. The ratios are strongly skewed (a
    point's loss can only fall so far, but rise a lot), and at n = 200 audit points, on the
    paper's 2-D example at the boundary of the null (the audit value equal to delta), that test
    rejects about 7 % of the time at the 5 % level. The default calibration is the
    bootstrap-t (Efron & Tibshirani 1993, §12.5; Hall 1992, §3.5): the critical value is the
    1 - alpha quantile of sqrt(n) (S*_n - S_n) / V*_n over :data:`BOOTSTRAP_RESAMPLES`
    resamples of the ratios (drawn from a fixed seed, so a test is deterministic), which
    corrects the skewness to second order; there it rejects about 4 % at n = 200 and 5 % at
    n = 400 (``tests/stats/test_individual.py``). The quantiles are the draws themselves,
    never interpolated between them: the critical value is the k-th largest draw,
    k = floor(alpha (B + 1)), so that T_n > delta exactly when the p-value,
    (1 + #{draws >= the studentized mean}) / (B + 1), is at most alpha (with interpolated
    quantiles the two disagreed in 9 of 12,822 audits).

    Parameters
    ----------
    loss_before, loss_after
        Each audit point's loss before and after the attack.
    delta, alpha
        Tolerance and level.
    calibration
        ``"bootstrap-t"`` or ``"normal"`` (Eq. 3.10 as written).

    Returns
    -------
    LossRatioResult
        S_n, V_n, T_n and the interval, with the critical value used.
    """
    check_choice(calibration, ("bootstrap-t", "normal"), what="calibration")
    before = np.asarray(loss_before, dtype=float)
    ratios = np.asarray(loss_after, dtype=float) / before
    n = len(ratios)
    mean, std = float(ratios.mean()), float(ratios.std(ddof=1))
    margin = std / math.sqrt(n)
    draws = _studentized_draws(ratios) if calibration == "bootstrap-t" and std > 0 else None
    if draws is None:
        low, high, critical = (norm.ppf(q) for q in (alpha / 2, 1 - alpha / 2, 1 - alpha))
    else:
        critical, high = _largest_draw(draws, alpha), _largest_draw(draws, alpha / 2)
        low = -_largest_draw(-draws, alpha / 2)
    return LossRatioResult(
        ratios=ratios,
        mean=mean,
        std=std,
        lower_bound=mean - critical * margin,
        interval=(mean - high * margin, mean - low * margin),
        delta=delta,
        alpha=alpha,
        near_certain=float(np.mean(before < -math.log(NEAR_CERTAIN))),
        critical=float(critical),
        calibration="normal" if draws is None else "bootstrap-t",
        studentized_draws=draws,
    )


def _largest_draw(draws: np.ndarray, level: float) -> float:
    """Return the k-th largest draw, k = floor(level (B + 1)); infinite when k is 0.

    A statistic lies above it exactly when fewer than k draws are at least as large, that is
    when (1 + #{draws >= statistic}) / (B + 1) <= level: the bootstrap p-value's verdict.
    """
    k = math.floor(level * (len(draws) + 1))
    return float(np.sort(draws)[len(draws) - k]) if k > 0 else math.inf


def _studentized_draws(ratios: np.ndarray) -> np.ndarray:
    """Return sqrt(n) (S*_n - S_n) / V*_n over bootstrap resamples of the ratios (fixed seed)."""
    n = len(ratios)
    rng = np.random.default_rng(0)
    resampled = ratios[rng.integers(0, n, (BOOTSTRAP_RESAMPLES, n))]
    means, spreads = resampled.mean(axis=1), resampled.std(axis=1, ddof=1)
    shift = means - ratios.mean()
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample of one value: no spread
        return math.sqrt(n) * np.where(spreads > 0, shift / spreads, 0.0)


@dataclass(frozen=True)
class ErrorRatioResult:
    """The error-rate-ratio test of §3.2 and App. C.

    Attributes
    ----------
    error_before, error_after
        B_n and A_n: the 0-1 error rates on the audit points and on their attacked versions.
    ratio
        S~_n = A_n / B_n (NaN when the model makes no error on the audit points).
    lower_bound
        T~_n of Eq. 3.13.
    delta, alpha
        Tolerance and level.
    monte_carlo_error
        The standard error of T~_n over the attack's own randomness (as the loss ratio's).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> error = individual_fairness_test(oracle, X, y, metric, steps=50).error
    >>> error.error_after >= error.error_before
    True
    """

    error_before: float
    error_after: float
    ratio: float
    lower_bound: float
    delta: float
    alpha: float
    monte_carlo_error: float = 0.0

    @property
    def reject(self) -> bool:
        """Whether the audit rejects fairness: T~_n > delta."""
        return bool(self.lower_bound > self.delta)

    @property
    def undecided(self) -> bool:
        """Whether delta lies within T~_n's Monte Carlo interval."""
        return _undecided(self.lower_bound, self.delta, self.monte_carlo_error)


def _undecided(statistic: float, delta: float, error: float) -> bool:
    """Whether ``delta`` lies within ``statistic`` +- z_{0.975} ``error`` (a positive error)."""
    return bool(error > 0 and abs(statistic - delta) <= MONTE_CARLO_Z * error)


def error_ratio_test(
    wrong_before: Any, wrong_after: Any, *, delta: float = 1.25, alpha: float = 0.05
) -> ErrorRatioResult:
    """Test H0: E[l01(f(Phi(x)), y)] / E[l01(f(x), y)] <= delta (Eq. 3.11, 3.13).

    The standard error is the delta method's for a ratio of means (Theorem C.1), with the
    sample covariance of the (after, before) error indicators. Eq. C.1 writes their uncentred
    second moment, but the proof needs a consistent estimate of the covariance Sigma (Eq. C.3),
    which the uncentred moment is not; we use the covariance.
    """
    after, before = np.asarray(wrong_after, dtype=float), np.asarray(wrong_before, dtype=float)
    n = len(after)
    a, b = after.mean(), before.mean()
    if b == 0:
        return ErrorRatioResult(b, a, math.nan, math.nan, delta, alpha)
    covariance = np.cov(after, before, ddof=0)
    spread = a**2 * covariance[1, 1] + b**2 * covariance[0, 0] - 2 * a * b * covariance[0, 1]
    bound = a / b - norm.ppf(1 - alpha) / b**2 * math.sqrt(max(spread, 0.0) / n)
    return ErrorRatioResult(float(b), float(a), float(a / b), float(bound), delta, alpha)


@dataclass(frozen=True, eq=False)
class IndividualFairnessResult:
    """One individual-fairness audit: both tests, the attacked points and how they were found.

    Attributes
    ----------
    loss
        The loss-ratio test (T_n).
    error
        The error-rate-ratio test (T~_n).
    attacked
        The audit points after the attack, Phi(x_i).
    gradient
        How the model's gradient was obtained: analytic, autograd or derivative-free.
    settings
        The attack's lam, steps, step_size and decay.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> result = individual_fairness_test(oracle, X, y, metric, steps=50)
    >>> result.gradient, result.attacked.shape
    ('analytic', (100, 2))
    """

    loss: LossRatioResult
    error: ErrorRatioResult
    attacked: np.ndarray
    gradient: str
    settings: dict[str, float] = field(default_factory=dict)


def individual_fairness_test(
    oracle: LossOracle,
    X: Any,
    y: Any,
    metric: FairMetric,
    *,
    lam: float = 50.0,
    steps: int = 500,
    step_size: float = 0.01,
    decay: float = 0.0,
    gradient_every: int = 1,
    delta: float = 1.25,
    alpha: float = 0.05,
) -> IndividualFairnessResult:
    """Audit a classifier for individual fairness under a fair metric (Maity et al. App. D).

    Parameters
    ----------
    oracle
        The classifier's log-loss and its gradient in the coordinates of ``X`` (a model's:
        :func:`faircompare.algorithms.loss_oracle.model_oracle`).
    X, y
        Audit points and labels, independent of the model's training data (Theorem 3.1).
    metric
        The fair metric, in the coordinates of ``X``.
    lam, steps, step_size, decay, gradient_every
        The attack's settings (:func:`gradient_flow_attack`).
    delta, alpha
        Tolerance of H0 (1.25, the four-fifths rule, §3.2) and level.

    Returns
    -------
    IndividualFairnessResult
        The loss-ratio test (T_n) and the error-ratio test (T~_n), with the attack's settings.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> fair = individual_fairness_test(logistic_oracle([0.0, 3.0], 0.0), X, y, metric, steps=50)
    >>> unfair = individual_fairness_test(logistic_oracle([3.0, 3.0], 0.0), X, y, metric, steps=50)
    >>> fair.loss.reject, unfair.loss.reject
    (False, True)
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    settings: dict[str, Any] = {"lam": lam, "steps": steps, "step_size": step_size, "decay": decay}
    if gradient_every > 1:
        settings["gradient_every"] = gradient_every
    attacked = gradient_flow_attack(oracle, X, y, metric, **settings)
    before, after = oracle.loss(X, y), oracle.loss(attacked, y)
    loss, error = _tests(before, after[np.newaxis], delta=delta, alpha=alpha)
    return IndividualFairnessResult(loss, error, attacked, oracle.kind, settings)


def replicated_fairness_test(
    oracle: LossOracle,
    X: Any,
    y: Any,
    metric: FairMetric,
    *,
    replicates: int = 2,
    most_replicates: int | None = None,
    lam: float = 50.0,
    steps: int = 500,
    step_size: float = 0.01,
    decay: float = 0.0,
    delta: float = 1.25,
    alpha: float = 0.05,
) -> IndividualFairnessResult:
    """Audit with independent runs of a random attack, and the Monte Carlo error of the result.

    A derivative-free gradient is random, so one attack's T_n depends on its seed. Every point
    is attacked ``replicates`` times, all in one batch: the attack moves R stacked copies of
    the points, whose random directions are drawn row by row, so each copy's attack is
    independent of the others' (and costs what one attack of R times the points costs, not R
    attacks' overheads). A point's loss after the attack, and whether it is misclassified, are
    averaged over its R attacks before the tests of :func:`individual_fairness_test` read
    them. Given the points, the R attacks of a point are independent draws, so the variance of
    S_n over the attacks' randomness is estimated by sum_i s_i^2 / (R n^2), s_i^2 the sample
    variance of point i's ratio over its attacks; its square root is T_n's
    ``monte_carlo_error`` (T~_n's: the same for the error rate after the attack, divided by the
    rate before). A verdict within z_{0.975} Monte Carlo errors of delta is ``undecided``:
    another seed could reverse it. With ``most_replicates``, an undecided verdict is not the
    end: the points are attacked as many times again as they have been (the attacks double:
    R, 2R, 4R, ...), until both verdicts (T~_n's, and T_n's where its assumption A3 holds:
    no more than :data:`NEAR_CERTAIN_SHARE` of near-certain points) are decided or the next
    doubling would pass ``most_replicates``; the error shrinks as one over the square root of
    the attacks, so only verdicts close to delta cost more, and doubling reaches a small error
    in few looks. (A near-certain model's loss ratio reads the loss's floor: its Monte Carlo
    error was in the thousands on all 12 loss ratios of the ``default`` study left open at 32
    attacks, each of a near-certain model whose error ratio was decided.) The interval is the
    normal one at each look, not a confidence sequence: with at most a few looks its
    resampling risk stays a small multiple of 5%.

    Parameters
    ----------
    oracle
        The model's loss and a random gradient, for R stacked copies of the points (a model
        that reads the sensitive attribute gets it R times over, in the same order).
    X, y, metric
        As for :func:`individual_fairness_test`: the points once.
    replicates
        The attacks per point in one batch, R; at least two (no Monte Carlo error comes from
        one).
    most_replicates
        Attack again, doubling the attacks, while a verdict is undecided, up to this many
        attacks per point; None for one batch.
    lam, steps, step_size, decay
        The attack's settings (:func:`gradient_flow_attack`).
    delta, alpha
        Tolerance of H0 and level.

    Returns
    -------
    IndividualFairnessResult
        Both tests on the averaged attacks, with their Monte Carlo errors; ``attacked`` holds
        the first attack's points and ``settings`` the number of ``replicates`` made.

    Raises
    ------
    ValueError
        With fewer than two replicates.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import LossOracle, explicit_metric, replicated_fairness_test
    >>> from faircompare.stats.individual import clipped_log_loss, smoothed_gradient
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> def loss(Z, y, s=None):  # a step function of both coordinates: no gradient
    ...     return clipped_log_loss(0.1 + 0.8 * (Z.sum(axis=1) > 0), y)
    >>> gradient = smoothed_gradient(loss, None, 0.1, 1, np.random.default_rng(1))
    >>> oracle = LossOracle(loss, gradient, "derivative-free")
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> result = replicated_fairness_test(oracle, X, y, metric, steps=50)
    >>> result.settings["replicates"], result.loss.monte_carlo_error > 0
    (2, True)
    """
    if replicates < 2:
        raise ValueError(f"a Monte Carlo error needs at least two attacks, got {replicates}")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    n = len(X)
    settings: dict[str, Any] = {"lam": lam, "steps": steps, "step_size": step_size, "decay": decay}
    copies, labels = np.tile(X, (replicates, 1)), np.tile(y, replicates)
    before = oracle.loss(copies, labels)[:n]  # every copy's: the same points

    def attack() -> tuple[np.ndarray, np.ndarray]:
        """One batch of R attacks: the attacked points, and their losses (one row per attack)."""
        attacked = gradient_flow_attack(oracle, copies, labels, metric, **settings)
        return attacked, oracle.loss(attacked, labels).reshape(replicates, n)

    attacked, after = attack()
    afters = [after]
    while True:
        loss, error = _tests(before, np.vstack(afters), delta=delta, alpha=alpha)
        decided = not error.undecided and not (loss.undecided and _assumed(loss))
        doubled = 2 * len(afters) * replicates
        if decided or most_replicates is None or doubled > most_replicates:
            break
        afters += [attack()[1] for _ in range(len(afters))]  # as many again: doubled
    settings |= {"replicates": len(afters) * replicates}
    return IndividualFairnessResult(loss, error, attacked[:n], oracle.kind, settings)


def _assumed(loss: LossRatioResult) -> bool:
    """Whether the loss-ratio test's assumption A3 holds: few near-certain audit points.

    Where it fails the loss ratio reads the loss's floor (a point's ratio reaches 10^7), the
    error ratio is the statistic of the model, and more attacks cannot decide the loss ratio.
    """
    return loss.near_certain <= NEAR_CERTAIN_SHARE


def _tests(
    before: np.ndarray, after: np.ndarray, *, delta: float, alpha: float
) -> tuple[LossRatioResult, ErrorRatioResult]:
    """Run both tests on the losses before the attack and after each attack (one row each).

    Each point's loss after, and whether it is misclassified, are its means over the attacks;
    with more than one attack the tests carry their Monte Carlo errors.
    """
    # A point is misclassified exactly when its log-loss exceeds log 2 (p(true label) < 1/2).
    wrong_before, wrong_after = before > math.log(2), (after > math.log(2)).astype(float)
    loss = loss_ratio_test(before, after.mean(axis=0), delta=delta, alpha=alpha)
    error = error_ratio_test(wrong_before, wrong_after.mean(axis=0), delta=delta, alpha=alpha)
    if len(after) == 1:  # one attack: no Monte Carlo error to estimate
        return loss, error
    rate = _replicate_error(wrong_after)
    error_mc = rate / error.error_before if error.error_before > 0 else math.nan
    return (
        replace(loss, monte_carlo_error=_replicate_error(after / before)),
        replace(error, monte_carlo_error=error_mc),
    )


def _replicate_error(values: np.ndarray) -> float:
    """Return the Monte Carlo standard error of the mean over points of each point's replicates.

    ``values`` has one row per replicate and one column per point.
    """
    replicates, points = values.shape
    variance = values.var(axis=0, ddof=1) / replicates  # of each point's replicate mean
    return float(math.sqrt(variance.sum()) / points)
