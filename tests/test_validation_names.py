"""One vocabulary: the sensitive attribute is ``sensitive_features=`` everywhere.

The former names, ``groups=`` and ``sensitive=``, warned throughout 0.2 and were removed in 0.3.0:
they are now unknown keywords.
"""

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
def test_the_attribute_is_sensitive_features_and_the_former_groups_keyword_is_unknown(
    function, extra
):
    positional = function(Y_TRUE, Y_PRED, RACE, **extra)
    assert repr(function(Y_TRUE, Y_PRED, sensitive_features=RACE, **extra)) == repr(positional)
    with pytest.raises(TypeError, match="'groups'"):
        function(Y_TRUE, Y_PRED, groups=RACE, **extra)


def test_the_metric_takes_sensitive_features_and_not_its_former_name():
    X = np.random.default_rng(0).normal(size=(50, 3))
    s = (X[:, 0] > 0).astype(int)
    metric = sensitive_subspace_metric(X, sensitive_features=s)
    assert metric.directions.shape[1] == 3
    with pytest.raises(TypeError, match="'sensitive'"):
        sensitive_subspace_metric(X, sensitive=s)
