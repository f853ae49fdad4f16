"""One vocabulary: the sensitive attribute is ``sensitive_features=`` everywhere; old names warn."""

import numpy as np
import pytest

from faircompare.measures import GroupStats, evaluate
from faircompare.stats import compare_groups, permutation_test, sensitive_subspace_metric

Y_TRUE = np.array([1, 0, 1, 1, 0, 1, 0, 0])
Y_PRED = np.array([1, 0, 0, 1, 1, 1, 0, 1])
RACE = np.array(["White"] * 4 + ["Black"] * 4)


@pytest.mark.parametrize(
    ("function", "extra"),
    [
        (evaluate, {"privileged": "White", "measures": ["DIbinary"]}),
        (permutation_test, {"group_a": "White", "permutations": 20, "rng": 0}),
        (compare_groups, {"privileged": "White", "permutations": 20, "rng": 0}),
        (GroupStats.from_predictions, {"privileged": "White"}),
    ],
)
def test_the_former_groups_keyword_warns_and_gives_the_same_result(function, extra):
    new = function(Y_TRUE, Y_PRED, sensitive_features=RACE, **extra)
    with pytest.warns(
        DeprecationWarning, match=r"groups=\) is deprecated.*; use .*\(sensitive_features=\)"
    ):
        old = function(Y_TRUE, Y_PRED, groups=RACE, **extra)
    assert repr(old) == repr(new)
    with pytest.raises(TypeError, match="both groups= and sensitive_features="):
        function(Y_TRUE, Y_PRED, groups=RACE, sensitive_features=RACE, **extra)


def test_the_metric_takes_sensitive_features_and_warns_for_sensitive():
    X = np.random.default_rng(0).normal(size=(50, 3))
    s = (X[:, 0] > 0).astype(int)
    with pytest.warns(DeprecationWarning, match=r"sensitive=\) is deprecated"):
        old = sensitive_subspace_metric(X, sensitive=s)
    new = sensitive_subspace_metric(X, sensitive_features=s)
    np.testing.assert_array_equal(old.directions, new.directions)
