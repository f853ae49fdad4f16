"""Zafar et al.'s constrained logistic regression: the constraints hold."""

import numpy as np
import pytest

from faircompare.algorithms.zafar import ZafarAccuracy, ZafarFairness
from tests.algorithms.conftest import positive_rate_gap


@pytest.mark.parametrize("c", [0.0, 0.001, 0.01, 0.05])
def test_covariance_bound_holds(biased, c):
    X, y, s = biased
    model = ZafarFairness(c=c).fit(X, y, sensitive_features=s)
    assert abs(model.covariance_) <= c + 1e-9


def test_covariance_is_the_decision_boundary_covariance_by_definition(biased):
    """Zafar et al. eq. 2: (1/N) sum (z_i - mean z) theta'x_i, recomputed from the scores."""
    X, y, s = biased
    model = ZafarFairness(c=0.01).fit(X, y, sensitive_features=s)
    distance = model.decision_function(X)
    assert np.mean((s - s.mean()) * distance) == pytest.approx(model.covariance_, abs=1e-10)


def test_c_to_zero_drives_covariance_to_zero_and_di_toward_one(biased):
    X, y, s = biased
    loose = ZafarFairness(c=10.0).fit(X, y, sensitive_features=s)
    tight = ZafarFairness(c=0.0).fit(X, y, sensitive_features=s)
    assert abs(loose.covariance_) > 0.05 and abs(tight.covariance_) < 1e-9

    def di(model):
        p = model.predict(X)
        return p[s == 0].mean() / p[s == 1].mean()

    assert di(loose) < 0.7 and abs(1 - di(tight)) < abs(1 - di(loose)) / 2


def test_a_bound_the_unconstrained_model_meets_changes_nothing(biased):
    X, y, s = biased
    free = ZafarFairness(c=10.0).fit(X, y, sensitive_features=s)
    bound = ZafarFairness(c=abs(free.covariance_) * 1.01).fit(X, y, sensitive_features=s)
    np.testing.assert_allclose(bound.coef_, free.coef_)


@pytest.mark.parametrize("gamma", [0.0005, 0.002, 0.5])
def test_accuracy_variant_keeps_the_loss_budget_and_minimises_covariance(biased, gamma):
    X, y, s = biased
    free = ZafarFairness(c=10.0).fit(X, y, sensitive_features=s)
    model = ZafarAccuracy(gamma=gamma).fit(X, y, sensitive_features=s)
    budget = (1 + gamma) * free.loss_
    assert model.loss_ <= budget + 1e-8
    uncorrelated = ZafarFairness(c=0.0).fit(X, y, sensitive_features=s)
    if uncorrelated.loss_ <= budget:  # covariance 0 is affordable: the most accurate such model
        assert abs(model.covariance_) < 1e-9
        np.testing.assert_allclose(model.coef_, uncorrelated.coef_, atol=1e-6)
    else:  # on the loss budget, and no model of covariance closer to 0 meets it
        assert model.loss_ == pytest.approx(budget, rel=1e-6)
        closer = ZafarFairness(c=abs(model.covariance_) * 0.95).fit(X, y, sensitive_features=s)
        assert closer.loss_ > budget


def test_smaller_gamma_allows_less_unfairness_reduction(biased):
    X, y, s = biased
    covariances = [
        abs(ZafarAccuracy(gamma=g).fit(X, y, sensitive_features=s).covariance_)
        for g in (0.0005, 0.002)
    ]
    assert covariances[0] > covariances[1]


def test_predictions_reduce_the_positive_rate_gap(biased):
    X, y, s = biased
    free, fair = ZafarFairness(c=10.0), ZafarFairness(c=0.0)
    gaps = [
        abs(positive_rate_gap(m.fit(X, y, sensitive_features=s).predict(X), s))
        for m in (free, fair)
    ]
    assert gaps[1] < gaps[0] / 2


@pytest.mark.parametrize("model", [ZafarFairness(c=0.01), ZafarAccuracy(gamma=0.5)])
def test_c_bounds_a_covariance_with_the_log_odds_whatever_the_features_units(biased, model):
    # The docstring's claim (issue #14 corrected "c is on the scale of standardised features"):
    # the covariance is taken with the decision values theta'x, so the same c gives the same
    # model on features in other units (here every feature times 1000, shifted by 5).
    X, y, s = biased
    raw = model.fit(X, y, sensitive_features=s)
    covariance, decisions = raw.covariance_, raw.decision_function(X)
    rescaled = X * 1000.0 + 5.0
    other = type(model)(**model.get_params()).fit(rescaled, y, sensitive_features=s)
    assert other.covariance_ == pytest.approx(covariance, abs=1e-8)
    np.testing.assert_allclose(other.decision_function(rescaled), decisions, atol=1e-6)


def test_the_authors_slsqp_solves_the_same_problems_to_its_own_tolerance(biased):
    # solver="slsqp", as the authors' train_model: the summed log-loss of the raw features and
    # the sensitive attribute (their x held every column but the label), SLSQP from a seeded
    # uniform start. Where SLSQP converges, its fairness solution meets the bound (to SLSQP's
    # tolerance) and predicts as the exact solution on the same columns does on nearly every
    # row (the exact one carries a 1e-4 penalty); its accuracy solution keeps the loss budget.
    # The start is seeded: a refit is the same model. Its log-odds read s: no gradient in x.
    X, y, s = biased
    with_s = np.column_stack([X, s])
    exact = ZafarFairness(c=0.01).fit(with_s, y, sensitive_features=s)
    authors = ZafarFairness(c=0.01, solver="slsqp").fit(X, y, sensitive_features=s)
    assert abs(authors.covariance_) <= 0.01 + 1e-6
    agree = authors.predict(X, sensitive_features=s) == exact.predict(with_s)
    assert agree.mean() > 0.97
    with pytest.raises(NotImplementedError, match="reads the sensitive attribute"):
        authors.input_gradient(X, y, sensitive_features=s)
    again = ZafarFairness(c=0.01, solver="slsqp").fit(X, y, sensitive_features=s)
    np.testing.assert_array_equal(again.coef_, authors.coef_)
    plain = ZafarFairness(c=1e9, solver="slsqp").fit(X, y, sensitive_features=s)
    accuracy = ZafarAccuracy(gamma=0.2, solver="slsqp").fit(X, y, sensitive_features=s)
    assert accuracy.loss_ <= 1.2 * plain.loss_ + 1e-6
    assert abs(accuracy.covariance_) < abs(plain.covariance_)
    with pytest.raises(ValueError, match="unknown solver 'lbfgs'"):
        ZafarAccuracy(solver="lbfgs").fit(X, y, sensitive_features=s)
