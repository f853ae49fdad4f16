"""The unprocessed frontier's algorithm: the baseline, cross-fitted, with relaxed thresholds."""

import numpy as np
import pytest

from faircompare.algorithms.baselines import (
    DecisionTree,
    GradientBoosting,
    LogisticRegressionBaseline,
)
from faircompare.algorithms.postprocessing import UnconstrainedGroupWarning
from faircompare.algorithms.thresholds import fit_group_thresholds
from faircompare.algorithms.unprocessed import FOLDS, TOLERANCES, UnprocessedClassifier
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


def test_the_thresholds_are_fitted_on_every_training_rows_out_of_fold_score(biased):
    X, y, s = biased
    # a fully grown tree scores its own training rows 0 or 1: an in-fold score would be exact
    model = UnprocessedClassifier(DecisionTree(), "equalized_odds", 0.05, random_state=1).fit(
        X, y, sensitive_features=s
    )
    scores, labels, groups = model.out_of_fold_
    np.testing.assert_array_equal(labels, y)  # every training row, none given up
    assert np.mean((scores > 0.5) == y) < 0.9
    in_fold = model.estimator_.predict_proba(X.to_numpy())[:, 1]
    assert np.mean((in_fold > 0.5) == y) == 1.0
    # each row scored by exactly one fold model, which never saw it; the folds share out each
    # group's positives and negatives within one row of each other
    scored_by = np.array([[m.predict_proba(X.to_numpy()[[i]])[0, 1] == scores[i]
                           for m in model.fold_estimators_] for i in range(0, 600, 7)])  # fmt: skip
    assert len(model.fold_estimators_) == FOLDS and scored_by.any(axis=1).all()
    expected = fit_group_thresholds(scores, labels, groups, "equalized_odds", 0.05)
    assert model.thresholds_.accuracy == expected.accuracy
    assert model.thresholds_.violation() <= 0.05 + 1e-9


def test_without_a_constraint_the_frontier_predicts_what_its_baseline_predicts(biased):
    X, y, s = biased
    model = UnprocessedClassifier(GradientBoosting(max_iter=10), None, random_state=4)
    model.fit(X, y, sensitive_features=s)
    baseline = GradientBoosting(max_iter=10, random_state=4).fit(X, y)
    np.testing.assert_array_equal(model.predict(X, sensitive_features=s), baseline.predict(X))
    assert model.thresholds_ is None
    assert type(model.fit_equivalent()) is GradientBoosting  # the benchmark shares that fit
    assert UnprocessedClassifier(constraint="demographic_parity").fit_equivalent() is None


def test_the_folds_deal_out_each_groups_positives_and_negatives_evenly(biased):
    from faircompare.algorithms.unprocessed import _folds

    _, y, s = biased
    strata = 2 * s + y
    folds = _folds(strata, FOLDS, np.random.default_rng(0))
    for stratum in np.unique(strata):
        counts = np.bincount(folds[strata == stratum], minlength=FOLDS)
        assert counts.max() - counts.min() <= 1


def test_a_refitted_model_predicts_what_fitting_it_alone_predicts(biased):
    X, y, s = biased
    quick = LogisticRegressionBaseline()
    shared = UnprocessedClassifier(quick, "demographic_parity", tolerance=0.0, random_state=3)
    shared.fit(X, y, sensitive_features=s)
    for constraint, tolerance in (
        (None, 0.0),
        ("equalized_odds", 0.02),
        ("demographic_parity", 0.1),
    ):
        refit = shared.refitted(constraint=constraint, tolerance=tolerance)
        alone = UnprocessedClassifier(quick, constraint, tolerance, random_state=3)
        alone.fit(X, y, sensitive_features=s)
        assert refit.estimator_ is shared.estimator_  # the baseline was fitted once
        assert refit.fold_estimators_ is shared.fold_estimators_  # and so were its folds
        np.testing.assert_array_equal(
            refit.predict(X, sensitive_features=s), alone.predict(X, sensitive_features=s)
        )
    assert (shared.constraint, shared.tolerance) == ("demographic_parity", 0.0)  # unchanged


def test_a_persons_prediction_does_not_depend_on_the_rows_predicted_with_them(biased):
    X, y, s = biased
    model = UnprocessedClassifier(LogisticRegressionBaseline(), "equalized_odds").fit(
        X, y, sensitive_features=s
    )
    together = model.predict(X, sensitive_features=s)
    reversed_order = model.predict(X.iloc[::-1], sensitive_features=s[::-1])[::-1]
    alone = [model.predict(X.iloc[[i]], sensitive_features=s[[i]])[0] for i in range(0, 600, 37)]
    np.testing.assert_array_equal(together, reversed_order)
    np.testing.assert_array_equal(together[::37], alone)


def test_a_group_with_one_training_label_keeps_the_baselines_decision(biased):
    # Hardt et al. §4 trade a group's TPR against its FPR: three negatives alone have no TPR.
    X, y, s = biased
    s = s.copy()
    s[np.flatnonzero(y == 0)[:3]] = 2
    with pytest.warns(UnconstrainedGroupWarning, match=r"group\(s\) 2 have a single label in"):
        model = UnprocessedClassifier(LogisticRegressionBaseline(), "demographic_parity").fit(
            X, y, sensitive_features=s
        )
    rows = s == 2
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=s)[rows], model.estimator_.predict(X.to_numpy()[rows])
    )
    assert set(model.thresholds_.groups) == {0, 1}
