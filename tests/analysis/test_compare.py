"""Comparisons on shared splits: reference values, and validity by simulation.

The simulation follows Nadeau & Bengio (2003) and Bouckaert & Frank (2004): two algorithms
equally good by construction are compared over ten random 2/3 : 1/3 splits of one data set,
for many data sets. Every rejection-rate tolerance is three binomial standard errors.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from faircompare.analysis.compare import (
    FriedmanTest,
    against_datasets,
    combined_test,
    compare_pair,
    corrected_ttest,
    correlated_bayesian_ttest,
    friedman,
    intervals,
    pairwise,
    wins_ties_losses,
)

DIFFERENCES = np.array([0.01, 0.02, -0.005, 0.015, 0.0, 0.03, 0.01, 0.005, 0.02, 0.01])


def test_the_corrected_test_inflates_the_naive_variance_by_the_test_to_train_ratio():
    # Nadeau & Bengio §4.3 by hand: se = sd * sqrt(1/J + n_test/n_train), J = 10, ratio 1/2.
    mean, sd = DIFFERENCES.mean(), DIFFERENCES.std(ddof=1)
    se = sd * math.sqrt(1 / 10 + 1 / 2)
    result = corrected_ttest(DIFFERENCES)
    assert result.statistic == pytest.approx(mean / se, rel=1e-12)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(mean / se, 9), rel=1e-12)
    half = stats.t.ppf(0.975, 9) * se
    assert result.interval == pytest.approx((mean - half, mean + half), rel=1e-12)
    # Without the correction it is scipy's one-sample t-test of the differences.
    naive = corrected_ttest(DIFFERENCES, 0.0)
    assert naive.pvalue == pytest.approx(stats.ttest_1samp(DIFFERENCES, 0).pvalue, rel=1e-12)


def test_the_bayesian_posterior_is_students_t_with_the_corrected_scale():
    # Corani & Benavoli §3; with no correlation and no rope, P(mu > 0) is one minus scipy's
    # one-sided p-value of the same differences.
    flat = correlated_bayesian_ttest(DIFFERENCES, 0.0, rope=0.0)
    greater = stats.ttest_1samp(DIFFERENCES, 0, alternative="greater").pvalue
    assert flat.a_better == pytest.approx(1 - greater, rel=1e-12)
    posterior = correlated_bayesian_ttest(DIFFERENCES, rope=0.01)
    scale = DIFFERENCES.std(ddof=1) * math.sqrt(1 / 10 + 1 / 2)
    t = stats.t(9, loc=DIFFERENCES.mean(), scale=scale)
    assert posterior.a_better == pytest.approx(t.sf(0.01), rel=1e-12)
    assert posterior.b_better == pytest.approx(t.cdf(-0.01), rel=1e-12)
    assert posterior.a_better + posterior.equivalent + posterior.b_better == pytest.approx(1)
    same = correlated_bayesian_ttest(np.zeros(10))
    assert (same.a_better, same.equivalent, same.b_better) == (0.0, 1.0, 0.0)
    assert corrected_ttest(np.zeros(10)).pvalue == 1.0


def test_friedman_agrees_with_scipy_and_the_critical_difference_with_demsar():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.random((5, 4)), columns=list("abcd"))
    result = friedman(table)
    expected = stats.friedmanchisquare(*(table[c] for c in table))
    assert (result.statistic, result.pvalue) == pytest.approx(expected, rel=1e-12)
    # Demšar (2006) Table 5(a): q_0.05 = 2.569 for k = 4, so CD = 2.569 sqrt(4 * 5 / (6 * 5)).
    assert result.critical_difference == pytest.approx(2.569 * math.sqrt(20 / 30), abs=1e-3)
    ranks = table.rank(axis=1, ascending=False).mean()  # 1 = best score
    pd.testing.assert_series_equal(result.ranks, ranks.sort_values())
    with pytest.raises(ValueError, match="at least three algorithms"):
        friedman(table[["a", "b"]])


def test_iman_davenport_holds_its_level_where_friedmans_chi_square_is_conservative():
    # five datasets, the default study's: ten algorithms with exchangeable scores (the null);
    # 4,000 tables, so a rate of 0.05 has a standard error of 0.0034
    rng = np.random.default_rng(81)
    ranks = pd.Series(np.arange(1.0, 11.0))  # k = 10: the F's degrees of freedom read only k
    tests = [
        FriedmanTest(ranks, *stats.friedmanchisquare(*rng.random((10, 5))), np.nan, 5, 0.05)
        for _ in range(4000)
    ]
    iman = np.mean([test.iman_davenport[1] < 0.05 for test in tests])
    chi2 = np.mean([test.pvalue < 0.05 for test in tests])
    assert abs(iman - 0.05) < 4 * math.sqrt(0.05 * 0.95 / 4000)
    assert chi2 < iman  # Demšar §3.2.2: the chi-square approximation is conservative


def simulate(n_sim, advantage=0.0, n=300, splits=10, seed=0):
    """Rejection rates at 5% of the naive and corrected tests, A vs B, over random splits.

    Each data set has two features; A thresholds the first at its training median, B the
    second, and the label follows both equally (plus ``advantage`` times the first), so A and
    B have the same expected accuracy when ``advantage`` is 0.
    """
    rng = np.random.default_rng(seed)
    rejected = {"naive": 0, "corrected": 0}
    n_train = round(n * 2 / 3)
    for _ in range(n_sim):
        X = rng.normal(size=(n, 2))
        y = X[:, 0] * (1 + advantage) + X[:, 1] + rng.normal(0, 1, n) > 0
        differences = []
        for _ in range(splits):
            order = rng.permutation(n)
            train, test = order[:n_train], order[n_train:]
            predicted = X[test] > np.median(X[train], axis=0)
            accuracy = (predicted == y[test, None]).mean(0)
            differences.append(accuracy[0] - accuracy[1])
        rejected["naive"] += corrected_ttest(differences, 0.0).pvalue < 0.05
        rejected["corrected"] += corrected_ttest(differences).pvalue < 0.05
    return {name: count / n_sim for name, count in rejected.items()}


def test_the_naive_test_rejects_equal_algorithms_too_often_and_the_corrected_one_does_not():
    n_sim = 600
    rates = simulate(n_sim)
    tolerance = 3 * math.sqrt(0.05 * 0.95 / n_sim)  # 0.027
    # Measured (seed 0, 600 data sets): naive 0.350, corrected 0.043 (+/- 0.008 standard error).
    assert rates["naive"] > 0.05 + 5 * tolerance
    assert rates["corrected"] <= 0.05 + tolerance


@pytest.mark.slow
def test_the_corrected_test_has_power_against_a_real_difference():
    # A's feature carries 60% more of the label than B's. Measured (seed 1, 400 data sets of
    # 300 rows): power 0.62 (the naive test's 0.95 comes with a size of 0.35, so it is no
    # test); with 30% more, 0.23.
    rates = simulate(400, advantage=0.6, seed=1)
    assert rates["corrected"] > 0.5


def configuration(differences_by_algorithm, splits=10):
    """A measures frame of one configuration: accuracy per split for each algorithm."""
    rows = []
    for algorithm, accuracies in differences_by_algorithm.items():
        for split, value in zip(range(splits), accuracies, strict=True):
            rows.append({"key": f"{algorithm}{split}", "dataset": "d", "sensitive_attribute": "s",
                         "variant": "v", "algorithm": algorithm, "setting": "defaults",
                         "params": "{}", "split_id": split, "measure": "accuracy", "group": "",
                         "value": value})  # fmt: skip
    return pd.DataFrame(rows)


def test_pairwise_comparisons_are_holm_adjusted_and_counted():
    rng = np.random.default_rng(5)
    base = 0.8 + rng.normal(0, 0.01, 10)
    frame = configuration(
        {"good": base + 0.05, "same": base + rng.normal(0, 0.005, 10), "other": base}
    )
    pairs = pairwise(frame, "accuracy")
    assert set(zip(pairs["a"], pairs["b"], strict=True)) == {
        ("good", "other"),
        ("good", "same"),
        ("other", "same"),
    }
    # Holm by hand: the sorted p-values times 3, 2, 1, made monotone, capped at 1.
    ordered = np.sort(pairs["pvalue"].to_numpy())
    expected = np.minimum(np.maximum.accumulate(ordered * [3, 2, 1]), 1)
    np.testing.assert_allclose(np.sort(pairs["holm_pvalue"]), expected)
    good = pairs.query("a == 'good' and b == 'other'").iloc[0]
    assert good["mean_difference"] == pytest.approx(0.05)
    assert good["p_a_better"] > 0.99 and good["holm_pvalue"] < 0.05
    close = compare_pair(frame, "accuracy", "other", "same", rope=0.01)
    assert close.posterior.equivalent > 0.95
    table = wins_ties_losses(pairs)
    assert table.loc["good"].tolist() == [2, 0, 0]
    assert table.loc["other", "ties"] == 1 and table.loc["other", "losses"] == 1


def test_algorithms_sharing_one_split_are_not_compared_and_the_rest_are():
    # The paper run's report (two splits): a tuned variant kept one setting on split 0 and
    # another on split 1, so each setting shares one split with the rest; a t-test over one
    # shared split is undefined, and it stopped the whole configuration's comparisons.
    frame = configuration({"a": [0.80, 0.82, 0.81], "b": [0.70, 0.71, 0.72]}, splits=3)
    tuned = configuration({"t": [0.90, 0.91]}, splits=2).assign(split_id=[1, 2])
    late = configuration({"late": [0.60, 0.61]}, splits=2).assign(split_id=[2, 3])
    frame = pd.concat([frame, tuned, late], ignore_index=True)
    pairs = pairwise(frame, "accuracy")
    # "late" shares one split with a, b and t; every other pair shares two or three
    assert set(zip(pairs["a"], pairs["b"], strict=True)) == {("a", "b"), ("a", "t"), ("b", "t")}
    table = intervals(frame, "accuracy")
    assert table.index[0] == "t" and list(table.index[1:]) == ["a", "b", "late"]
    # "late" has an interval of its own, but no test against the best (one shared split)
    assert not table.loc["late", "worse_than_best"]
    assert table.loc["late", "ci_low"] < 0.6 < table.loc["late", "ci_high"]


def test_the_combined_test_is_scipys_weighted_stouffer_of_the_datasets_one_sided_tests():
    # the peer: scipy.stats.combine_pvalues(method="stouffer", weights=...) on the datasets'
    # one-sided corrected t-tests (A better), weights the square roots of their test rows
    rng = np.random.default_rng(84)
    differences = [0.01 + sd * rng.standard_normal(5) for sd in (0.05, 0.02, 0.004)]
    rows = [40, 330, 10_054]
    one_sided = [
        stats.t.sf(corrected_ttest(d).statistic, len(d) - 1) for d in differences
    ]  # P(T >= t)
    scipys = stats.combine_pvalues(one_sided, method="stouffer", weights=np.sqrt(rows))
    test = combined_test(differences, rows)
    assert test.statistic == pytest.approx(scipys.statistic)
    assert test.pvalue == pytest.approx(2 * min(scipys.pvalue, 1 - scipys.pvalue))
    assert test.weight == pytest.approx(10_054 / sum(rows))
    assert test.mean == pytest.approx(np.average([d.mean() for d in differences], weights=rows))


def test_the_combined_test_holds_its_level_where_no_dataset_differs():
    # five datasets of five splits, their differences correlated by the training sets' overlap
    # (1/3, the 2/3 : 1/3 splits) and as unequal in precision as the default study's; 2,000
    # studies: a rate of 0.05 has a standard error of 0.0049, the tolerance is three
    rng = np.random.default_rng(0)
    sd = np.array([0.05, 0.02, 0.01, 0.01, 0.004])
    rows = 1 / sd**2
    rejected = 0
    for _ in range(2000):
        shared = np.sqrt(1 / 3) * rng.standard_normal((5, 1))
        noise = sd[:, None] * (shared + np.sqrt(2 / 3) * rng.standard_normal((5, 5)))
        rejected += combined_test(list(noise), rows).pvalue < 0.05
    assert abs(rejected / 2000 - 0.05) < 3 * math.sqrt(0.05 * 0.95 / 2000)


def test_every_algorithm_is_compared_with_the_reference_across_the_datasets():
    rng = np.random.default_rng(3)
    frames = []
    for dataset, sd in (("small", 0.05), ("large", 0.004)):
        block = configuration({
            "best": 0.80 + sd * rng.standard_normal(10),
            "worse": 0.78 + sd * rng.standard_normal(10),
            "alike": 0.80 + sd * rng.standard_normal(10),
        })  # fmt: skip
        frames.append(block.assign(dataset=dataset, key=block["key"] + dataset))
    rows = pd.Series({("large", "s"): 10_000, ("small", "s"): 40})
    table = against_datasets(pd.concat(frames), "accuracy", "best", rows).set_index("algorithm")
    assert list(table.index) == ["alike", "worse"]
    assert table.loc["worse", "holm_pvalue"] < 0.05 < table.loc["alike", "pvalue"]
    assert table.loc["worse", "worse"] >= 1 and table.loc["worse", "datasets"] == 2
