"""scikit-learn's own estimator checks on every registered algorithm.

Each algorithm is wrapped by :class:`~faircompare.algorithms.sklearn_compat.SensitiveFromRows`,
which derives the sensitive attribute from the rows of ``X`` and declares the algorithms binary
classifiers (scikit-learn then skips its multiclass checks, and checks that a multiclass target
is refused). A check an algorithm fails for a documented reason of its method is expected to
fail (``EXPECTED_FAILURES``, one line of reason each); every other check must pass. Before issue
#14, 24 of 55 checks passed for the logistic-regression baseline and 12-13 for Kamishima, Zafar,
Feldman and Calders.
"""

import numpy as np
import pytest
import sklearn
from sklearn.metrics import accuracy_score
from sklearn.model_selection import cross_validate
from sklearn.utils.estimator_checks import parametrize_with_checks

from faircompare.algorithms.contract import synthetic_data
from faircompare.algorithms.representation import BASELINES
from faircompare.algorithms.sklearn_compat import EXPECTED_FAILURES, SensitiveFromRows
from faircompare.registry import algorithms

# The networks train for thousands of steps, exponentiated gradient plays 50 rounds, LFR
# evaluates its objective 5,000 times, reject option searches 5,000 settings and MetaFair 50
# constraint bounds by default; the contract does not need them (MetaFair at tau = 0 is its
# unconstrained classifier: the Gaussian model's, with the dual's parameters at zero).
LFR_SHORT = {"max_evaluations": 200}
SHORT = {
    **{f"lfr-{baseline}": LFR_SHORT for baseline in BASELINES},
    "aif360-reject-option": {"thresholds": 10, "margins": 5},
    "adversarial-debiasing": {"epochs": 20, "batch_size": 32},
    "metafair": {"tau": 0.0},
    "neural-network": {"steps": 200, "learning_rate": 1e-2},
    "project-network": {"steps": 200, "learning_rate": 1e-2},
    "sensr": {"steps": 20, "learning_rate": 1e-2},
    "reductions-eg-dp": {"max_iter": 10},
    "reductions-eg-eo": {"max_iter": 10},
}
AVAILABLE = {name: a for name, a in algorithms().items() if a.make is not None}


def wrapped(name: str) -> SensitiveFromRows:
    return SensitiveFromRows(AVAILABLE[name].create(**SHORT.get(name, {})))


ESTIMATORS = [wrapped(name) for name in AVAILABLE]
NAMES = {id(estimator): name for name, estimator in zip(AVAILABLE, ESTIMATORS, strict=True)}


def expected_failures(estimator: SensitiveFromRows) -> dict[str, str]:
    return EXPECTED_FAILURES.get(NAMES[id(estimator)], {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_every_registered_algorithm_is_checked():
    unavailable = {name for name, a in algorithms().items() if a.make is None}
    assert set(AVAILABLE) | unavailable == set(algorithms())
    assert set(EXPECTED_FAILURES) <= set(algorithms())


@pytest.mark.parametrize("name", sorted(AVAILABLE))
def test_cross_validate_routes_the_sensitive_attribute_to_fit_and_score(name):
    data = synthetic_data("numerical+binary")
    X, y, s = data.X_train, data.y_train, data.sensitive_features_train
    estimator = AVAILABLE[name].create(**SHORT.get(name, {}))
    with sklearn.config_context(enable_metadata_routing=True):
        result = cross_validate(
            estimator, X, y, params={"sensitive_features": s}, cv=3,
            return_estimator=True, return_indices=True,
        )  # fmt: skip
    folds = zip(result["estimator"], result["indices"]["test"], result["test_score"], strict=True)
    for fitted, test, score in folds:
        # the score is the fold's accuracy with the fold's own groups, computed by hand
        predicted = fitted.predict(X.iloc[test], sensitive_features=s[test])
        assert score == accuracy_score(y[test], predicted)
        assert np.isin(predicted, (0, 1)).all()
