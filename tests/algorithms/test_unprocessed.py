"""The unprocessed frontier's algorithm: a baseline, a validation third, relaxed thresholds."""

import numpy as np
import pytest

from faircompare.algorithms.postprocessing import UnconstrainedGroupWarning
from faircompare.algorithms.thresholds import fit_group_thresholds
from faircompare.algorithms.unprocessed import TOLERANCES, UnprocessedClassifier
from faircompare.registry import get_algorithm


def test_both_frontiers_are_registered_and_plan_every_tolerance_of_both_constraints():
    for name, base in (("unprocessed-gradient-boosting", "GradientBoosting"),
                       ("unprocessed-logistic-regression", "LogisticRegressionBaseline")):  # fmt: skip
        model = get_algorithm(name).create()
        assert type(model.estimator).__name__ == base
        assert model.constraint is None  # the defaults: the frontier's unconstrained end
        planned = {(p["constraint"], p["tolerance"]) for p in model.always_planned}
        assert planned == {(c, t) for c in ("demographic_parity", "equalized_odds")
                           for t in TOLERANCES}  # fmt: skip


def test_the_thresholds_are_those_of_the_validation_thirds_scores(biased):
    X, y, s = biased
    model = UnprocessedClassifier(constraint="equalized_odds", tolerance=0.05).fit(
        X, y, sensitive_features=s
    )
    scores, labels, groups = model.validation_
    assert len(labels) == pytest.approx(len(y) / 3, abs=2)
    for group in (0, 1):  # stratified: each group's share of positives kept
        assert labels[groups == group].mean() == pytest.approx(y[s == group].mean(), abs=0.02)
    expected = fit_group_thresholds(scores, labels, groups, "equalized_odds", 0.05)
    assert model.thresholds_.accuracy == expected.accuracy
    assert model.thresholds_.violation() <= 0.05 + 1e-9


def test_a_refitted_model_predicts_what_fitting_it_alone_predicts(biased):
    X, y, s = biased
    shared = UnprocessedClassifier(constraint="demographic_parity", tolerance=0.0, random_state=3)
    shared.fit(X, y, sensitive_features=s)
    for constraint, tolerance in (
        (None, 0.0),
        ("equalized_odds", 0.02),
        ("demographic_parity", 0.1),
    ):
        refit = shared.refitted(constraint=constraint, tolerance=tolerance)
        alone = UnprocessedClassifier(constraint=constraint, tolerance=tolerance, random_state=3)
        alone.fit(X, y, sensitive_features=s)
        assert refit.estimator_ is shared.estimator_  # the baseline was fitted once
        np.testing.assert_array_equal(
            refit.predict(X, sensitive_features=s), alone.predict(X, sensitive_features=s)
        )
    assert (shared.constraint, shared.tolerance) == ("demographic_parity", 0.0)  # unchanged


def test_a_persons_prediction_does_not_depend_on_the_rows_predicted_with_them(biased):
    X, y, s = biased
    model = UnprocessedClassifier(constraint="equalized_odds", tolerance=0.0).fit(
        X, y, sensitive_features=s
    )
    together = model.predict(X, sensitive_features=s)
    reversed_order = model.predict(X.iloc[::-1], sensitive_features=s[::-1])[::-1]
    alone = [model.predict(X.iloc[[i]], sensitive_features=s[[i]])[0] for i in range(0, 600, 37)]
    np.testing.assert_array_equal(together, reversed_order)
    np.testing.assert_array_equal(together[::37], alone)


def test_a_group_with_one_validation_label_keeps_the_baselines_decision(biased):
    # Hardt et al. §4 trade a group's TPR against its FPR: three negatives alone have no TPR.
    X, y, s = biased
    s = s.copy()
    s[np.flatnonzero(y == 0)[:3]] = 2
    with pytest.warns(UnconstrainedGroupWarning, match=r"group\(s\) 2 have a single label"):
        model = UnprocessedClassifier(constraint="demographic_parity").fit(
            X, y, sensitive_features=s
        )
    rows = s == 2
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=s)[rows], model.estimator_.predict(X.to_numpy()[rows])
    )
    assert set(model.thresholds_.groups) == {0, 1}
