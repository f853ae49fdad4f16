"""One counting path: the measures and every test see the same groups, in the same order."""

import numpy as np
import pandas as pd
import pytest

from faircompare.measures import GroupStats, evaluate
from faircompare.stats import bootstrap_test, compare_groups, permutation_test
from faircompare.stats.groups import GroupCounts

# Groups in first-appearance order W, B, H; sorted they are B, H, W.
Y_TRUE = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
Y_PRED = [1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1]
GROUPS = ["W", "B", "H", "W", "B", "H", "W", "B", "H", "W", "B", "H"]


def test_the_counts_are_those_counted_by_hand():
    counted = GroupCounts.from_predictions(Y_TRUE, Y_PRED, GROUPS)
    assert counted.names == ("B", "H", "W")
    # By hand, (TN, FP, FN, TP): B rows 1, 4, 7, 10 are (y, yhat) = (0,0) (0,1) (0,1) (0,0);
    # H rows 2, 5, 8, 11: (1,0) (0,0) (1,1) (1,1); W rows 0, 3, 6, 9: (1,1) (1,1) (1,1) (1,0).
    assert counted.counts.tolist() == [[2, 2, 0, 0], [1, 0, 1, 2], [0, 0, 1, 3]]
    assert [counted.names[c] for c in counted.codes] == GROUPS
    assert counted.position("W") == 2


def test_measures_and_tests_list_the_groups_in_the_same_order():
    stats = GroupStats.from_predictions(Y_TRUE, Y_PRED, GROUPS, privileged="W")
    comparison = compare_groups(Y_TRUE, Y_PRED, GROUPS, privileged="W", permutations=99, rng=0)
    per_group = evaluate(Y_TRUE, Y_PRED, GROUPS, privileged="W", measures=["sensitive-accuracy"])
    assert stats.groups == ("B", "H", "W")
    assert comparison.groups == ("B", "H")  # the unprivileged ones, in the same order
    assert per_group["group"].tolist() == ["B", "H", "W", ""]
    assert np.array_equal(stats.counts, GroupCounts.from_predictions(Y_TRUE, Y_PRED, GROUPS).counts)


def test_a_categorical_keeps_its_categories_order():
    groups = pd.Series(pd.Categorical(GROUPS, categories=["W", "H", "B"]))
    assert GroupCounts.from_predictions(Y_TRUE, Y_PRED, groups).names == ("W", "H", "B")


@pytest.mark.parametrize(
    "call",
    [
        lambda g: GroupStats.from_predictions(Y_TRUE, Y_PRED, g, privileged="W"),
        lambda g: evaluate(Y_TRUE, Y_PRED, g, privileged="W"),
        lambda g: permutation_test(Y_TRUE, Y_PRED, g, group_a="W"),
        lambda g: bootstrap_test(Y_TRUE, Y_PRED, g, metric="TPR", group_a="W"),
        lambda g: compare_groups(Y_TRUE, Y_PRED, g, privileged="W"),
    ],
    ids=["GroupStats", "evaluate", "permutation_test", "bootstrap_test", "compare_groups"],
)
def test_a_length_mismatch_is_one_clear_error_everywhere(call):
    message = "one entry per row; got lengths y_true 12, y_pred 12, sensitive_features 11"
    with pytest.raises(ValueError, match=message):
        call(GROUPS[:11])


def test_a_score_that_is_not_finite_is_refused():
    with pytest.raises(ValueError, match="scores must be finite"):
        GroupCounts.from_predictions(Y_TRUE, Y_PRED, GROUPS, scores=[np.nan] + [0.5] * 11)


def test_a_group_no_row_holds_is_named_with_those_that_some_row_does():
    counted = GroupCounts.from_predictions(Y_TRUE, Y_PRED, GROUPS)
    with pytest.raises(ValueError, match="unknown privileged group 'X'; valid choices: B, H, W"):
        counted.position("X", what="privileged group")
