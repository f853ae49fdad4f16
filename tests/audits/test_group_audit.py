"""Many groups in the permutation audit: each group against the privileged one, none dropped."""

from dataclasses import replace

import numpy as np
import pytest

from faircompare.audits import registered_audits
from faircompare.audits.contract import synthetic_run
from faircompare.audits.fliptest import FlipTestAudit, split_transport
from faircompare.audits.permutation import RUN_METRICS, group_audit
from faircompare.audits.protocol import MIN_GROUP_ROWS, AuditOptions
from faircompare.stats import compare_groups


def many_groups(sizes: dict[str, int], rates: dict[str, float], seed: int = 0):
    rng = np.random.default_rng(seed)
    groups = np.repeat(list(sizes), list(sizes.values()))
    y = rng.integers(0, 2, len(groups))
    yhat = (rng.random(len(groups)) < np.array([rates[g] for g in groups])).astype(int)
    return y, yhat, groups


def test_each_group_is_compared_and_a_small_one_is_recorded_not_dropped():
    sizes = {"White": 300, "Black": 120, "Asian": 80, "Alaska Native": 4}
    rates = {"White": 0.5, "Black": 0.2, "Asian": 0.5, "Alaska Native": 0.5}
    y, yhat, groups = many_groups(sizes, rates)
    rows = group_audit(y, yhat, groups, privileged="White", permutations=300, rng=1)
    by = {(row.metric, row.scope): row for row in rows}
    assert set(by) == {(m, g) for m in RUN_METRICS for g in ("Black", "Asian", "Alaska Native")}
    small = by["positive_rate", "Alaska Native"]
    assert np.isnan(small.statistic) and small.details["error"] == (
        f"too few rows (n = 4, needs {MIN_GROUP_ROWS})"
    )
    # the compared groups are the stats library's max-T comparison of the groups kept
    kept = groups != "Alaska Native"
    reference = compare_groups(
        y[kept], yhat[kept], groups[kept], privileged="White", permutations=300, rng=1
    )
    black = by["positive_rate", "Black"]
    index = reference.groups.index("Black")
    assert black.statistic == pytest.approx(reference.statistics[index])
    assert black.adjusted_pvalue == pytest.approx(reference.adjusted_pvalues[index])
    assert black.details["size"] == 120 and black.adjusted_pvalue < 0.01  # 0.5 against 0.2
    assert by["positive_rate", "Asian"].adjusted_pvalue > 0.05


def test_a_privileged_group_too_small_leaves_every_group_with_the_reason():
    sizes = {"a": 10, "b": 100, "c": 100}
    y, yhat, groups = many_groups(sizes, dict.fromkeys(sizes, 0.5))
    rows = group_audit(y, yhat, groups, privileged="a", permutations=50, rng=0)
    assert {(row.metric, row.scope) for row in rows} == {
        (m, g) for m in RUN_METRICS for g in ("b", "c")
    }
    assert {row.details["error"] for row in rows} == {"too few rows in group a (n = 10, needs 30)"}


def test_fliptest_maps_each_group_large_enough_and_records_the_others():
    rng = np.random.default_rng(0)
    groups = np.repeat(["p", "q", "r", "s"], [100, 80, 60, 5])
    X = rng.normal(size=(len(groups), 3))
    setup = split_transport(X, groups, "p", rng=0)
    assert list(setup.maps) == ["unprivileged", "q", "r"] and setup.small == {"s": 5}
    pooled = setup.maps["unprivileged"].pairs
    # every unprivileged row is mapped, its shares summing to one
    np.testing.assert_array_equal(np.unique(pooled.source_rows), np.flatnonzero(groups != "p"))
    np.testing.assert_allclose(np.bincount(pooled.source_rows, pooled.shares)[groups != "p"], 1)
    assert (groups[pooled.counterpart_rows] == "p").all()
    q = setup.maps["q"].pairs
    np.testing.assert_array_equal(np.unique(q.source_rows), np.flatnonzero(groups == "q"))
    # two groups: the pooled map alone, as Black et al. map one group onto the other
    assert list(split_transport(X, groups == "p", True, rng=0).maps) == ["unprivileged"]


def test_fliptest_rows_cover_every_group_of_a_many_group_run():
    run = synthetic_run("numerical")  # groups p (privileged), q and r, 120 test rows
    rows = FlipTestAudit()(run, AuditOptions())
    assert {(row.metric, row.scope) for row in rows} == {
        (m, g) for m in ("F+", "F-") for g in ("unprivileged", "q", "r")
    }
    q = {row.metric: row for row in rows if row.scope == "q"}
    assert q["F+"].details["source_size"] == (run.split.sensitive_features_test == "q").sum()


@pytest.mark.parametrize("short", ["privileged", "rest"])
def test_no_audit_tests_a_side_below_the_minimum_and_each_says_so(short):
    # two groups of which one has 3 test rows: no test, map or attack reads them (#64)
    run = synthetic_run("numerical+binary")
    split = run.split
    groups = np.asarray(split.sensitive_features_test).copy()
    small = 1 if short == "privileged" else 0
    groups[:] = 1 - small
    groups[:3] = small
    run = replace(run, split=replace(split, sensitive_features_test=groups))
    where = "in the privileged group 1" if short == "privileged" else "outside the privileged group"
    reason = f"too few rows {where} (n = 3, needs {MIN_GROUP_ROWS})"
    expected = {
        "permutation": ("rest", {*RUN_METRICS, "AUC"}),
        "fliptest": ("unprivileged", {"F+", "F-"}),
        "individual": ("all", {"loss-ratio", "error-ratio"}),
    }
    for name, audit in registered_audits().items():
        rows = audit(run, AuditOptions())
        scope, metrics = expected[name]
        assert {row.metric for row in rows} == metrics and {row.scope for row in rows} == {scope}
        assert all(np.isnan(row.statistic) and row.pvalue != row.pvalue for row in rows)
        assert {row.details["error"] for row in rows} == {reason}
