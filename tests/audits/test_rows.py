"""Results of faircompare.stats become the store's rows in one place, with typed columns."""

import math

import numpy as np
import pytest

from faircompare.audits.rows import fliptest_rows, individual_rows, permutation_rows
from faircompare.stats import fliptest, permutation_test, transport
from faircompare.stats.individual import ErrorRatioResult, IndividualFairnessResult, LossRatioResult
from faircompare.stats.permutation import PermutationTestResult


def result(metric: str, pvalue: float) -> PermutationTestResult:
    return PermutationTestResult(
        metric, ("1", "rest"), 0.1, 2.0, pvalue, (pvalue / 2, pvalue * 2), np.zeros(99),
        (50, 60), True, "two-sided", False,
    )  # fmt: skip


def test_permutation_rows_carry_holms_adjustment_across_the_tests_that_ran():
    # Holm by hand: p sorted 0.01, 0.03, 0.04 -> 3 * 0.01 = 0.03, 2 * 0.03 = 0.06,
    # max(0.06, 1 * 0.04) = 0.06 (step-down keeps the running maximum).
    results = {
        "positive_rate": result("positive_rate", 0.01),
        "TPR": ValueError("TPR is undefined for group '0' (no positives)"),
        "FPR": result("FPR", 0.04),
        "accuracy": result("accuracy", 0.03),
    }
    rows = permutation_rows(results)
    assert [row.metric for row in rows] == ["positive_rate", "TPR", "FPR", "accuracy"]
    assert [row.adjusted_pvalue for row in rows] == pytest.approx([0.03, None, 0.06, 0.06])
    undefined = rows[1]
    assert math.isnan(undefined.statistic) and undefined.adjusted_pvalue is None
    assert undefined.details == {"error": "TPR is undefined for group '0' (no positives)"}
    first = rows[0]
    assert (first.audit, first.scope, first.statistic, first.pvalue) == (
        "permutation", "rest", 2.0, 0.01,
    )  # fmt: skip
    assert first.details["pvalue_interval"] == [0.005, 0.02]
    assert first.details["permutations"] == 99


def test_a_real_permutation_test_keeps_its_numbers_in_the_row():
    rng = np.random.default_rng(0)
    y, y_pred, s = rng.integers(0, 2, 200), rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    test = permutation_test(y, y_pred, s, group_a=1, permutations=199, rng=1)
    (row,) = permutation_rows({"positive_rate": test})
    assert (row.statistic, row.pvalue, row.adjusted_pvalue) == (test.statistic,) + (
        test.pvalue,
    ) * 2
    assert row.details["observed_difference"] == test.observed


def test_fliptest_rows_keep_each_flipsets_rate_size_and_leading_features():
    rng = np.random.default_rng(1)
    source, target = rng.normal(size=(30, 3)), rng.normal(size=(30, 3)) + [1.0, 0.0, 0.0]
    source_pred, target_pred = (source[:, 0] > 0).astype(int), (target[:, 0] > 0).astype(int)
    mapping = transport(source, target, rng=0)
    test = fliptest(source, target, source_pred, target_pred, mapping, features=["a", "b", "c"])
    plus, minus = fliptest_rows(test, scope="women", mean_cost=mapping.mean_cost, top=2)
    assert (plus.metric, minus.metric) == ("F+", "F-") and plus.scope == "women"
    assert (plus.statistic, minus.statistic) == tuple(test.rates)
    assert plus.details["size"] == test.sizes[0] and plus.details["source_size"] == 30
    assert plus.pvalue is None and plus.adjusted_pvalue is None
    assert len(plus.details["leading_features"]) <= 2


def test_individual_rows_report_both_statistics_and_their_verdicts():
    # S_n = 2, V_n = 0.1 over n = 2: T_n = 2 - z_0.95 0.1 / sqrt(2) = 1.884 > delta = 1.25
    lower_bound = 2.0 - 1.6448536 * 0.1 / np.sqrt(2)
    loss = LossRatioResult(np.array([1.0, 3.0]), 2.0, 0.1, lower_bound, (0.6, 3.4), 1.25, 0.05,
                           0.5)  # fmt: skip
    error = ErrorRatioResult(0.1, 0.3, 3.0, 2.0, 1.25, 0.05)
    test = IndividualFairnessResult(loss, error, np.zeros((2, 1)), "analytic", {"lam": 50.0})
    loss_row, error_row = individual_rows(test)
    assert (loss_row.metric, loss_row.statistic, loss_row.pvalue) == (
        "loss-ratio", lower_bound, loss.pvalue,
    )  # fmt: skip
    assert loss_row.details["reject"] is True and loss_row.details["interval"] == [0.6, 3.4]
    assert loss_row.details["near_certain"] == 0.5
    assert (error_row.metric, error_row.statistic, error_row.pvalue) == ("error-ratio", 2.0, None)
    assert error_row.details["ratio"] == 3.0 and error_row.details["lam"] == 50.0
    assert loss_row.details["n"] == error_row.details["n"] == 2
