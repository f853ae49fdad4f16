"""Sequential Monte Carlo tests: draw until the verdict is decided, with a bounded risk.

A Monte Carlo p-value estimates p, the probability that a statistic drawn under the null (a
permutation's, say) is at least as extreme as the observed one; each draw exceeds or not, a
Bernoulli(p) variable. With a fixed number of draws B a p near the level is read on the wrong
side of it with a probability that can reach one half, and a p far from it costs as much as a
close one. The sequential implementation of Ding, Gandy & Hahn (2020, "A simple method for
implementing Monte Carlo tests", Computational Statistics 35, §2-3) draws in batches and stops
as soon as a confidence sequence for p, an interval valid at every number of draws at once,
lies on one side of each threshold the verdict depends on. The sequence is Robbins' (1970,
Ann. Math. Statist. 41, §3): after n draws with k exceedances, every p with

    (n + 1) * C(n, k) * p^k * (1 - p)^(n - k) > epsilon

(the inverse of the likelihood ratio of a uniform mixture against p, a martingale under p, so
that Ville's inequality bounds by epsilon the chance that the true p ever leaves it). A verdict
given while the true p lies in every interval is the one that every permutation would give: the
*resampling risk* (Gandy 2009, JASA 104, §1), the chance that the verdict differs from it, is at
most epsilon per test, whatever p and whenever the test stops. A p exactly at a threshold is
never decided (Gandy, Hahn & Ding 2020, Scand. J. Statist. 47, Theorem 1): a test that reaches
its cap undecided says so.

A family of tests adjusted by Holm's method is decided together: Holm's adjusted p-values are
non-decreasing in every p-value, so adjusting the intervals' lower ends and upper ends as the
p-values are adjusted bounds the adjusted p-value of every test; a verdict is decided when both
bounds lie on the same side of alpha. The tests still drawing are those whose interval holds
one of the thresholds alpha / m, ..., alpha / 1 that Holm's steps compare p-values with; the
family's risk is split evenly between its tests (a union bound), so it stays at most
``risk`` for the family.

A family that will also be read together with others (a run's F families of tests adjusted
together by Bonferroni: each family read at alpha / F) is decided at both levels, alpha and
alpha / F: its thresholds are those of both, and a test draws on until its verdict at each
is decided. The confidence sequence holds at every number of draws at once, so one sequence
serves both readings at the same risk.

The interval holds the 95% Clopper-Pearson interval whenever epsilon <= 0.025 (a binomial tail
beyond k is a sum of at most n + 1 terms each at most the probability of k), so a test decided
here is decided by that interval too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.special import gammaln

from faircompare.bibliography import Reference
from faircompare.choices import AUDIT_ALPHA, DEFAULT_PERMUTATIONS, RESAMPLING_RISK
from faircompare.stats.multitest import holm

Adjustment = Literal["holm", "none"]
_BISECTIONS = 60  # halvings of each end's bracket: far below any p-value's resolution


#: Gandy's resampling risk, the error a sequential test bounds.
GANDY_2009 = Reference(
    key="gandy2009sequential",
    authors=("Gandy, Axel",),
    title="Sequential Implementation of Monte Carlo Tests With Uniformly Bounded Resampling Risk",
    year=2009,
    venue="Journal of the American Statistical Association",
    kind="article",
    volume="104(488)",
    pages="1504-1511",
    doi="10.1198/jasa.2009.tm08368",
)

#: Ding, Gandy and Hahn's sequential Monte Carlo tests (§2-3), which this module implements.
DING_GANDY_HAHN_2020 = Reference(
    key="ding2020simple",
    authors=("Ding, Dong", "Gandy, Axel", "Hahn, Georg"),
    title="A simple method for implementing Monte Carlo tests",
    year=2020,
    venue="Computational Statistics",
    kind="article",
    volume="35",
    pages="1373-1392",
    doi="10.1007/s00180-019-00927-6",
)
#: Robbins' confidence sequences for a Bernoulli mean, the intervals a sequential test reads.
ROBBINS_1970 = Reference(
    key="robbins1970statistical",
    authors=("Robbins, Herbert",),
    title="Statistical Methods Related to the Law of the Iterated Logarithm",
    year=1970,
    venue="The Annals of Mathematical Statistics",
    kind="article",
    volume="41(5)",
    pages="1397-1409",
    doi="10.1214/aoms/1177696786",
)
#: Gandy, Hahn and Ding's p-value buckets: a p-value at a threshold is never decided.
GANDY_HAHN_DING_2020 = Reference(
    key="gandy2020implementing",
    authors=("Gandy, Axel", "Hahn, Georg", "Ding, Dong"),
    title="Implementing Monte Carlo Tests with P-value Buckets",
    year=2020,
    venue="Scandinavian Journal of Statistics",
    kind="article",
    url="https://arxiv.org/abs/1703.09305",
)


@dataclass(frozen=True)
class SequentialPlan:
    """How a family of sequential Monte Carlo tests draws.

    Attributes
    ----------
    alpha
        The level whose verdicts the tests decide.
    risk
        Bound on the resampling risk of the family: the chance that any of its verdicts
        differs from the one of infinitely many draws.
    cap
        Most draws per test; a test still undecided there stops undecided.
    first
        Draws of the first batch; each later batch draws as many as the test has drawn
        (the draws double), so a test costs at most twice the draws it needs.
    families
        The families the tests are also read together with, F (this one among them), by
        Bonferroni: their verdicts are decided at ``alpha`` and at ``alpha / families``
        (:attr:`levels`), so either reading of a stored test is decided.

    Examples
    --------
    >>> from faircompare.stats import SequentialPlan
    >>> SequentialPlan(cap=10_000).cap
    10000
    >>> SequentialPlan(families=5).levels
    (0.05, 0.01)
    """

    alpha: float = AUDIT_ALPHA
    risk: float = RESAMPLING_RISK
    cap: int = DEFAULT_PERMUTATIONS
    first: int = 64
    families: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie strictly between 0 and 1, got {self.alpha}")
        if not 0 < self.risk <= 0.025:
            raise ValueError(f"risk must lie in (0, 0.025], got {self.risk}")
        if min(self.cap, self.first, self.families) < 1:
            raise ValueError(
                f"cap, first and families must be at least 1, got {self.cap}, {self.first}, "
                f"{self.families}"
            )

    @property
    def levels(self) -> tuple[float, ...]:
        """The levels whose verdicts the tests decide: alpha, and alpha / families."""
        if self.families == 1:
            return (self.alpha,)
        return (self.alpha, self.alpha / self.families)


@dataclass(frozen=True, eq=False)
class SequentialCounts:
    """What a family of sequential tests drew, and whether each verdict is decided.

    Attributes
    ----------
    exceeding
        Per test, the draws at least as extreme as the observed statistic (k).
    drawn
        Per test, the draws made (n).
    intervals
        Per test, the confidence sequence's interval of p after its last draw, at the test's
        share of the risk (shape (tests, 2)).
    decided
        Per test, whether its verdict at every level of the plan (adjusted as asked) is
        decided.
    """

    exceeding: np.ndarray
    drawn: np.ndarray
    intervals: np.ndarray
    decided: np.ndarray


def confidence_sequence(k: np.ndarray, n: np.ndarray, epsilon: float) -> np.ndarray:
    """Return Robbins' confidence sequence for a Bernoulli mean after n draws with k successes.

    The interval {p : (n + 1) C(n, k) p^k (1 - p)^(n - k) > epsilon} (Robbins 1970, §3): the
    chance that it ever misses the true p, over all n, is at most ``epsilon``. Its ends are
    found by bisection on the concave log of the left-hand side, either side of k / n.

    Parameters
    ----------
    k, n
        Successes and draws, arrays of one shape (n >= 1).
    epsilon
        The chance of ever missing p.

    Returns
    -------
    numpy.ndarray
        The lower and upper ends, shape ``k.shape + (2,)``.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats.sequential import confidence_sequence
    >>> low, high = confidence_sequence(np.array(0), np.array(1000), 1e-3)
    >>> float(low), round(float(high), 4)  # 1 - (0.001 / 1001) ** (1 / 1000)
    (0.0, 0.0137)
    """
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    level = np.log(epsilon) - np.log(n + 1) - gammaln(n + 1) + gammaln(k + 1) + gammaln(n - k + 1)
    centre = k / n

    def inside(p: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            log_p = np.where(k > 0, k * np.log(p), 0.0)
            log_q = np.where(n > k, (n - k) * np.log1p(-p), 0.0)
        return log_p + log_q > level

    ends = []
    for edge in (np.zeros_like(centre), np.ones_like(centre)):
        at_edge = inside(edge)  # k = 0 holds p = 0 itself, and k = n holds 1
        out, within = edge, centre.copy()  # the end lies between a p outside and one inside
        for _ in range(_BISECTIONS):
            middle = (out + within) / 2
            holds = inside(middle)
            within, out = np.where(holds, middle, within), np.where(holds, out, middle)
        ends.append(np.where(at_edge, edge, within))
    return np.stack(ends, axis=-1)


def thresholds(alpha: float, tests: int, adjustment: Adjustment) -> np.ndarray:
    """Return the values a p-value is compared with for a verdict at ``alpha``.

    Parameters
    ----------
    alpha
        The level.
    tests
        The family's tests, m.
    adjustment
        ``"holm"``: alpha / m, ..., alpha / 1 (Holm's steps); ``"none"``: alpha alone.

    Returns
    -------
    numpy.ndarray
        The thresholds, ascending.
    """
    return alpha / np.arange(tests, 0, -1) if adjustment == "holm" else np.array([alpha])


def draw_until_decided(
    draw: Callable[[np.ndarray, int], np.ndarray],
    tests: int,
    plan: SequentialPlan,
    *,
    adjustment: Adjustment = "holm",
) -> SequentialCounts:
    """Draw for a family of Monte Carlo tests until every verdict at each level is decided.

    Parameters
    ----------
    draw
        ``draw(active, b)`` draws ``b`` more null statistics for each test in ``active`` (an
        array of test positions) and returns, per active test, how many are at least as
        extreme as its observed statistic.
    tests
        The family's tests.
    plan
        Levels, risk, cap and first batch.
    adjustment
        How the family's p-values are adjusted before they meet alpha: ``"holm"``, or
        ``"none"`` where each p-value is compared with alpha as it is (max-T adjusted
        p-values, already family-wise).

    Returns
    -------
    SequentialCounts
        The draws and exceedances of each test, its interval and whether it is decided.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats.sequential import SequentialPlan, draw_until_decided
    >>> rng = np.random.default_rng(0)
    >>> p = np.array([0.0001, 0.5])  # one clear rejection, one clear acceptance
    >>> counts = draw_until_decided(
    ...     lambda active, b: rng.binomial(b, p[active]), 2, SequentialPlan()
    ... )
    >>> counts.decided.tolist(), bool(counts.drawn[1] < counts.drawn[0])
    ([True, True], True)
    """
    epsilon = plan.risk / max(tests, 1)
    cuts = np.concatenate([thresholds(level, tests, adjustment) for level in plan.levels])
    exceeding, drawn = np.zeros(tests, dtype=np.int64), np.zeros(tests, dtype=np.int64)
    intervals = np.tile([0.0, 1.0], (tests, 1))
    while True:
        decided = np.logical_and.reduce(
            [_decided(intervals, level, adjustment) for level in plan.levels]
        )
        holds_cut = ((intervals[:, :1] < cuts) & (cuts < intervals[:, 1:])).any(axis=1)
        active = np.flatnonzero(holds_cut & (drawn < plan.cap))
        if decided.all() or not len(active):
            return SequentialCounts(exceeding, drawn, intervals, decided)
        batch = int(min(max(plan.first, drawn[active].max()), plan.cap - drawn[active].max()))
        exceeding[active] += np.asarray(draw(active, batch), dtype=np.int64)
        drawn[active] += batch
        intervals[active] = confidence_sequence(exceeding[active], drawn[active], epsilon)


def _decided(intervals: np.ndarray, alpha: float, adjustment: Adjustment) -> np.ndarray:
    """Whether the adjusted lower and upper ends of each interval lie on one side of alpha."""
    if adjustment == "holm":
        low, high = holm(intervals[:, 0]), holm(intervals[:, 1])
    else:
        low, high = intervals[:, 0], intervals[:, 1]
    return (low < alpha) == (high < alpha)
