"""Calders & Verwer's two naive Bayes."""

import numpy as np
import pytest

from faircompare.algorithms.base import AlgorithmInputError
from faircompare.algorithms.calders import TwoNaiveBayes
from tests.algorithms.conftest import positive_rate_gap


@pytest.mark.parametrize("target", [0.0, 0.05, 0.1])
def test_reaches_its_cv_target_on_training_data(biased, target):
    X, y, s = biased
    plain = TwoNaiveBayes(max_iter=0).fit(X, y, sensitive_features=s)
    model = TwoNaiveBayes(max_discrimination=target).fit(X, y, sensitive_features=s)
    assert plain.discrimination_ > 0.2  # the unadjusted models discriminate
    gap = positive_rate_gap(model.predict(X, sensitive_features=s), s)
    assert gap == pytest.approx(model.discrimination_)
    assert gap <= target  # CV = 1 - gap >= 1 - target
    assert model.n_iter_ > 0


def test_adjustment_keeps_each_groups_total(biased):
    X, y, s = biased
    model = TwoNaiveBayes().fit(X, y, sensitive_features=s)
    np.testing.assert_allclose(model.class_counts_.sum(0), [np.sum(s == 0), np.sum(s == 1)])


def test_priors_are_the_originals_by_hand():
    # Kamishima's fadm CaldersVerwerTwoNaiveBayes: beta / n_values per value of a discrete
    # feature, alpha / n_classes per class. Group 0, class 1 has flag values (1, 1, 0): with
    # beta = 1, P(flag = 1) = (2 + 1/2) / (3 + 1); class 0 of group 0 has (0): (0 + 1/2) / (1 + 1).
    # Group 0 holds 3 rows of class 1 and 1 of class 0: prior log-odds log((3 + 1/2) / (1 + 1/2)).
    X = np.array([[1.0], [1.0], [0.0], [0.0], [1.0], [0.0], [1.0], [0.0]])
    y = np.array([1, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    model = TwoNaiveBayes(max_iter=0).fit(X, y, sensitive_features=s)
    assert model.p_one_[1, 0, 0] == pytest.approx(2.5 / 4)
    assert model.p_one_[0, 0, 0] == pytest.approx(0.5 / 2)
    log_odds = model._prior_log_odds(model.class_counts_)
    assert log_odds[0] == pytest.approx(np.log(3.5 / 1.5))
    sharper = TwoNaiveBayes(max_iter=0, alpha=4.0).fit(X, y, sensitive_features=s)
    assert sharper._prior_log_odds(sharper.class_counts_)[0] == pytest.approx(np.log(5 / 3))


def test_needs_a_binary_sensitive_attribute(biased):
    X, y, _ = biased
    with pytest.raises(
        AlgorithmInputError,
        match="needs a binary sensitive attribute .* use the 'numerical\\+binary' preprocessing variant",
    ):
        TwoNaiveBayes().fit(X, y, sensitive_features=np.where(y == 1, "a", "b"))
