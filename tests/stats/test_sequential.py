"""Sequential Monte Carlo tests (Ding, Gandy & Hahn 2020): Robbins' confidence sequence, the
resampling risk, and the sequential permutation tests' level, agreement and cost, by simulation.

Every rate tolerance is three binomial standard errors, sqrt(p (1 - p) / n) for n simulations.
"""

import math

import numpy as np
import pytest
from scipy import stats

from faircompare.stats import compare_groups, holm, permutation_tests
from faircompare.stats.permutation import clopper_pearson
from faircompare.stats.sequential import (
    SequentialPlan,
    confidence_sequence,
    draw_until_decided,
    thresholds,
)


def three_se(rate: float, n: int) -> float:
    return 3 * math.sqrt(rate * (1 - rate) / n)


def test_the_upper_end_without_successes_solves_robbins_equation():
    # by hand: with k = 0 the sequence is {p : (n + 1) (1 - p)^n > eps}, so its upper end is
    # 1 - (eps / (n + 1))^(1 / n); and p = 0 itself lies inside
    n, eps = np.array([10, 1000, 50_000]), 1e-3
    low, high = confidence_sequence(np.zeros(3), n, eps).T
    np.testing.assert_allclose(high, 1 - (eps / (n + 1)) ** (1 / n), rtol=1e-9)
    assert (low == 0).all()


def test_its_ends_are_where_the_mixture_ratio_meets_epsilon():
    k, n, eps = np.array([3, 50, 999]), np.array([100, 100, 1000]), 0.01
    ends = confidence_sequence(k, n, eps)
    for (low, high), k_, n_ in zip(ends, k, n, strict=True):
        # (n + 1) C(n, k) p^k (1 - p)^(n - k) = (n + 1) * binomial pmf, equal to eps at each end
        for end in (low, high):
            assert (n_ + 1) * stats.binom.pmf(k_, n_, end) == pytest.approx(eps, rel=1e-6)


def test_it_holds_the_clopper_pearson_interval():
    # the module's claim: for eps <= 0.025 a tail is at most (n + 1) times the point's
    # probability, so every p outside the sequence is outside the 95% Clopper-Pearson interval
    for n in (1, 7, 64, 1000, 30_000):
        ks = np.unique(np.linspace(0, n, 25).astype(int))
        ends = confidence_sequence(ks, np.full(len(ks), n), 0.025)
        for k, (low, high) in zip(ks, ends, strict=True):
            cp_low, cp_high = clopper_pearson(int(k), n)
            assert low <= cp_low + 1e-12 and cp_high <= high + 1e-12


def test_the_sequence_misses_p_at_most_epsilon_of_the_time_over_every_n():
    # Ville's inequality: the chance that p ever leaves the sequence, looked at after every
    # draw up to 1,000, is at most eps; 2,000 paths at p = 0.05, eps = 0.05
    rng, p, eps, paths = np.random.default_rng(0), 0.05, 0.05, 2000
    k = np.cumsum(rng.random((paths, 1000)) < p, axis=1)
    n = np.broadcast_to(np.arange(1, 1001), k.shape)
    ends = confidence_sequence(k, n, eps)
    missed = ((ends[..., 0] > p) | (ends[..., 1] < p)).any(axis=1).mean()
    assert missed <= eps + three_se(eps, paths)


def test_holm_thresholds():
    np.testing.assert_allclose(thresholds(0.05, 4, "holm"), [0.0125, 0.05 / 3, 0.025, 0.05])
    np.testing.assert_allclose(thresholds(0.05, 4, "none"), [0.05])


def holm_verdicts(p: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    return holm(p) < alpha


def test_decided_verdicts_are_those_of_the_true_p_values_but_for_the_risk():
    # The resampling risk: families of 4 tests whose true p-values lie near Holm's thresholds;
    # with risk 0.025 the share of families with a decided verdict that differs from the true
    # p-values' Holm verdict is at most 0.025 (the bound is loose: it is rarely reached).
    rng, families, plan = np.random.default_rng(1), 400, SequentialPlan(risk=0.025, cap=20_000)
    wrong = undecided = 0
    for _ in range(families):
        p = rng.choice([0.003, 0.01, 0.02, 0.04, 0.08, 0.5], size=4)
        counts = draw_until_decided(lambda active, b, p=p: rng.binomial(b, p[active]), 4, plan)
        truth = holm_verdicts(p)
        mine = holm_verdicts(counts.intervals[:, 1])
        wrong += bool((mine != truth)[counts.decided].any())
        undecided += bool((~counts.decided).any())
    assert wrong / families <= 0.025 + three_se(0.025, families)
    assert undecided < families  # most families decide well below the cap


def test_clear_tests_stop_early_and_close_ones_draw_on():
    rng, plan = np.random.default_rng(2), SequentialPlan(cap=50_000)
    p = np.array([0.5, 0.0])  # accept quickly; reject after about 1,000 draws without one

    def draw(active, b):
        return rng.binomial(b, p[active])

    counts = draw_until_decided(draw, 2, plan)
    assert counts.drawn[0] <= 128  # 64 draws place 0.5 far from both thresholds
    # k = 0 excludes alpha / 2 = 0.025 at eps = 1e-3 / 2 from n = 550 draws on (the least n
    # with (n + 1) 0.975^n <= eps), reached in the batch that doubles 512 to 1,024
    assert counts.drawn[1] == 1024 and counts.decided.all()
    close = draw_until_decided(lambda active, b: rng.binomial(b, 0.049), 1, plan)
    assert close.drawn[0] == 50_000 and not close.decided[0]  # 0.049 is too close to 0.05


def test_a_family_read_with_others_is_decided_at_alpha_over_their_number_too():
    # p = 0.02 lies below 0.05 and above 0.05 / 5 = 0.01: read alone it is decided once its
    # interval leaves 0.05 behind; read among 5 families it must also leave 0.01 behind, and
    # draws on (4,096 to 8,192 draws over seeds 0-4 at risk 1e-3, against 512 to 2,048 for
    # 0.05 alone). Either way the interval it stops with decides its readings: below 0.05,
    # and above 0.01 where it is read among the five.
    alone, among = SequentialPlan(), SequentialPlan(families=5)
    assert among.levels == (0.05, 0.01)
    drawn = {}
    for name, plan in (("alone", alone), ("among", among)):
        rng = np.random.default_rng(7)
        counts = draw_until_decided(lambda active, b, rng=rng: rng.binomial(b, 0.02), 1, plan)
        assert counts.decided[0]
        drawn[name] = counts.drawn[0]
        low, high = counts.intervals[0]
        assert high < 0.05 and (name == "alone" or low > 0.01)
    assert drawn["among"] >= 2 * drawn["alone"]
    with pytest.raises(ValueError, match="families must be at least 1"):
        SequentialPlan(families=0)


def test_a_plan_refuses_a_risk_its_intervals_cannot_keep():
    with pytest.raises(ValueError, match="risk must lie in"):
        SequentialPlan(risk=0.05)


def null_data(rng: np.random.Generator, n: int = 300):
    """Two groups of one distribution: base rate 0.4, predictions right 80% of the time."""
    groups = np.repeat(["a", "b"], [n, 2 * n])
    y = (rng.random(3 * n) < 0.4).astype(int)
    return y, np.where(rng.random(3 * n) < 0.8, y, 1 - y), groups


@pytest.mark.slow
def test_the_sequential_test_keeps_its_level_under_the_null():
    # One metric (no Holm adjustment) on 2,000 null data sets of 15,000 rows (few ties): the
    # decided rejections keep the level 0.05 (the permutation test's, plus a risk of 1e-3),
    # and the test loses to the cap no more than the verdicts it leaves undecided, those of
    # p-values within about 0.008 of 0.05, where a fixed test's verdict is a coin toss:
    # rejected + undecided reaches the level.
    rng, simulations, plan = np.random.default_rng(3), 2000, SequentialPlan(cap=20_000)
    rejected = undecided = 0
    for _ in range(simulations):
        y, y_pred, groups = null_data(rng, n=5000)
        result = permutation_tests(
            y, y_pred, groups, metrics=["positive_rate"], group_a="a", sequential=plan, rng=rng
        )["positive_rate"]
        rejected += result.decided and result.pvalue_interval[1] < 0.05
        undecided += not result.decided
    tolerance = three_se(0.05, simulations)
    assert rejected / simulations <= 0.05 + tolerance
    assert (rejected + undecided) / simulations >= 0.05 - tolerance
    assert undecided / simulations < 0.03  # uniform p: about 2 x 0.008 of them


def test_it_agrees_with_the_fixed_test_where_that_one_decides_and_draws_fewer():
    # 150 data sets, half null and half with a gap in positive rates of 0.1 (p-values across
    # the range): the fixed test of 2,000 permutations decides by its Clopper-Pearson
    # interval; where both decide, the verdicts agree, and the sequential test draws fewer
    # permutations on average.
    rng, plan = np.random.default_rng(4), SequentialPlan(cap=20_000)
    agree = both = drawn = 0
    metrics = ["positive_rate", "TPR", "FPR", "accuracy"]
    for i in range(150):
        y, y_pred, groups = null_data(rng)
        if i % 2:
            flip = (groups == "a") & (rng.random(len(y)) < 0.1)
            y_pred = np.where(flip, 1, y_pred)
        seq = permutation_tests(y, y_pred, groups, metrics=metrics, group_a="a",
                                sequential=plan, rng=rng)  # fmt: skip
        fixed = permutation_tests(y, y_pred, groups, metrics=metrics, group_a="a",
                                  permutations=2000, rng=rng)  # fmt: skip
        low = holm([fixed[m].pvalue_interval[0] for m in metrics])
        high = holm([fixed[m].pvalue_interval[1] for m in metrics])
        mine = holm([seq[m].pvalue_interval[1] for m in metrics]) < 0.05
        for j, metric in enumerate(metrics):
            if seq[metric].decided and (low[j] < 0.05) == (high[j] < 0.05):
                both += 1
                agree += mine[j] == (high[j] < 0.05)
            drawn += len(seq[metric].null_distribution)
    assert both > 500 and agree == both
    assert drawn / (150 * len(metrics)) < 2000


def test_the_mean_number_of_permutations_under_the_null_is_small():
    # Under the null a p-value is uniform: most of a run's four tests lie far above every Holm
    # threshold, and are decided by the first batch or two (64 and 128 permutations), not
    # the fixed test's 1,000.
    rng, plan = np.random.default_rng(5), SequentialPlan(cap=20_000)
    drawn, tests = 0, 0
    for _ in range(200):
        y, y_pred, groups = null_data(rng)
        results = permutation_tests(
            y, y_pred, groups, metrics=["positive_rate", "TPR", "FPR", "accuracy"],
            group_a="a", sequential=plan, rng=rng,
        )  # fmt: skip
        drawn += sum(len(r.null_distribution) for r in results.values())
        tests += len(results)
    assert drawn / tests < 400


def test_group_comparisons_are_drawn_until_each_max_t_verdict_is_decided():
    rng = np.random.default_rng(6)
    groups = np.repeat(["a", "b", "c", "d"], 300)
    y = rng.integers(0, 2, 1200)
    y_pred = (rng.random(1200) < np.where(groups == "d", 0.3, 0.5)).astype(int)
    fixed = compare_groups(y, y_pred, groups, privileged="a", permutations=20_000, rng=0)
    seq = compare_groups(
        y, y_pred, groups, privileged="a", sequential=SequentialPlan(cap=20_000), rng=0
    )
    # the same verdicts as 20,000 joint permutations, d (positive rate 0.3, not 0.5) rejected
    np.testing.assert_array_equal(seq.adjusted_pvalues < 0.05, fixed.adjusted_pvalues < 0.05)
    assert seq.groups[-1] == "d" and seq.adjusted_pvalues[-1] < 0.05
