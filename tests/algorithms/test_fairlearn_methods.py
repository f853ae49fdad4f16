"""fairlearn's CorrelationRemover and AdversarialFairnessClassifier as faircompare plugins: each
method's defining property, and agreement with fairlearn called directly on the same data."""

import numpy as np
import pytest
from fairlearn.preprocessing import CorrelationRemover
from sklearn.preprocessing import StandardScaler

from faircompare.algorithms.baselines import DecisionTree
from faircompare.algorithms.fairlearn_preprocessing import CorrelationRemoval
from faircompare.registry import get_algorithm


def test_correlation_removal_is_fairlearns_transform_with_a_baseline_on_it(biased):
    X, y, s = biased
    model = CorrelationRemoval(DecisionTree(), alpha=0.5).fit(X, y, sensitive_features=s)
    with_s = np.column_stack([X.to_numpy(float), s])
    direct = CorrelationRemover(sensitive_feature_ids=[X.shape[1]], alpha=0.5).fit(with_s)
    represented = direct.transform(with_s)
    np.testing.assert_array_equal(model.transform(X, sensitive_features=s), represented)
    baseline = DecisionTree().fit(represented, y)
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=s), baseline.predict(represented)
    )


def test_full_correlation_removal_leaves_no_feature_linearly_correlated_with_the_group(biased):
    X, y, s = biased
    correlation = [np.corrcoef(column, s)[0, 1] for column in X.to_numpy(float).T]
    assert np.abs(correlation).max() > 0.3  # the biased data's features follow the group
    removed = CorrelationRemoval(alpha=1.0).fit(X, y, sensitive_features=s)
    represented = removed.transform(X, sensitive_features=s)
    # least-squares residuals are orthogonal to the centred regressor: zero covariance
    covariance = (represented - represented.mean(0)).T @ (s - s.mean()) / len(s)
    np.testing.assert_allclose(covariance, 0.0, atol=1e-12)
    kept = CorrelationRemoval(alpha=0.0).fit(X, y, sensitive_features=s)
    np.testing.assert_allclose(kept.transform(X, sensitive_features=s), X.to_numpy(float))


def positive_gap(predicted, s):
    return abs(predicted[s == 1].mean() - predicted[s == 0].mean())


def test_adversarial_debiasing_predicts_as_fairlearn_does(biased):
    pytest.importorskip("torch", reason="the torch extra is not installed")
    from fairlearn.adversarial import AdversarialFairnessClassifier

    from faircompare.algorithms.adversarial import AdversarialDebiasing

    X, y, s = biased
    model = AdversarialDebiasing(epochs=5).fit(X, y, sensitive_features=s)
    standardised = StandardScaler().fit_transform(X.to_numpy(float))
    direct = AdversarialFairnessClassifier(
        backend="torch",
        predictor_model=[50, "leaky_relu"],
        adversary_model=[3, "leaky_relu"],
        epochs=5,
        batch_size=256,
        shuffle=True,
        random_state=0,
    ).fit(standardised, y, sensitive_features=s)
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=s), direct.predict(standardised)
    )


def test_the_adversary_narrows_the_positive_rate_gap(biased):
    pytest.importorskip("torch", reason="the torch extra is not installed")
    from faircompare.algorithms.adversarial import AdversarialDebiasing

    X, y, s = biased
    gaps = {
        alpha: positive_gap(
            AdversarialDebiasing(alpha=alpha, epochs=50, batch_size=32)
            .fit(X, y, sensitive_features=s)
            .predict(X),
            s,
        )
        for alpha in (0.0, 3.0)
    }
    # Zhang et al. §3: the adversary's weight trades accuracy for demographic parity
    assert gaps[3.0] < 0.5 * gaps[0.0]


def test_the_fairlearn_methods_are_plugins_of_their_family():
    for name, family in (("correlation-remover-svm", "pre-processing"),
                         ("adversarial-debiasing", "in-processing")):  # fmt: skip
        algorithm = get_algorithm(name)
        if algorithm.make is None:
            pytest.skip(f"{name} is unavailable here: {algorithm.unavailable}")
        assert algorithm.describe()["family"] == family
        assert algorithm.describe()["library"] == "fairlearn"


def test_threshold_optimizer_has_fairlearns_thresholds_on_the_regression_it_fits(biased):
    # faircompare fits the regression and hands fairlearn its scores; fairlearn fitting the
    # same regression on the features itself gives the same probabilities of each label, which
    # predict_proba returns (the expected prediction the scores and the individual test read)
    from fairlearn.postprocessing import ThresholdOptimizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    X, y, s = biased
    model = get_algorithm("threshold-optimizer").create().fit(X, y, sensitive_features=s)
    peer = ThresholdOptimizer(
        estimator=make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        constraints="equalized_odds",
        objective="accuracy_score",
        predict_method="predict_proba",
    ).fit(X.to_numpy(), y, sensitive_features=s)
    np.testing.assert_array_equal(
        model.predict_proba(X, sensitive_features=s),
        peer._pmf_predict(X.to_numpy(), sensitive_features=s),
    )


def test_threshold_optimizer_leaves_a_group_with_one_training_label_to_the_regression(biased):
    # Hardt et al. §4 trade a group's TPR against its FPR; a group whose training rows are all
    # negative has no TPR, and fairlearn refuses to fit (bank's young-divorced, one row). That
    # group, and one unseen in training, get the regression's decision; the others get
    # fairlearn's thresholds fitted on their rows alone.
    from fairlearn.postprocessing import ThresholdOptimizer

    from faircompare.algorithms.postprocessing import UnconstrainedGroupWarning, _GivenScores
    from faircompare.algorithms.rowhash import row_uniform

    X, y, s = biased
    X, s = X.to_numpy(), s.copy()
    small = np.flatnonzero(y == 0)[:3]
    s[small] = 2
    with pytest.warns(UnconstrainedGroupWarning, match="group.s. 2 have a single label"):
        model = get_algorithm("threshold-optimizer").create().fit(X, y, sensitive_features=s)
    scores = model._scores(X)
    others = s != 2
    peer = ThresholdOptimizer(
        estimator=_GivenScores().fit(scores, y),
        constraints="equalized_odds",
        objective="accuracy_score",
        predict_method="predict_proba",
        prefit=True,
    ).fit(scores[others], y[others], sensitive_features=s[others])
    rows = np.r_[np.flatnonzero(others)[:200], small, small]
    groups = np.r_[s[rows[:-3]], [3] * 3]
    with pytest.warns(UnconstrainedGroupWarning, match="group.s. 3 have no training rows"):
        predicted = model.predict(X[rows], sensitive_features=groups)
    np.testing.assert_array_equal(predicted[200:], model.scorer_.predict(X[rows[200:]]))
    positive = peer._pmf_predict(scores[rows[:200]], sensitive_features=groups[:200])[:, 1]
    np.testing.assert_array_equal(predicted[:200], row_uniform(X[rows[:200]], 0) < positive)
