"""fairlearn's reductions keep their constraint on the training data."""

import numpy as np

from faircompare.algorithms.reductions import ExponentiatedGradientReduction, GridSearchReduction


def test_exponentiated_gradient_keeps_demographic_parity_within_eps(biased):
    X, y, s = biased
    model = ExponentiatedGradientReduction(eps=0.02).fit(X, y, sensitive_features=s)
    expected = model.predict_proba(X)[:, 1]  # the randomised classifier's mean prediction
    violation = max(abs(expected[s == g].mean() - expected.mean()) for g in (0, 1))
    assert violation <= 0.02 + 1e-3  # fairlearn's DP moment: gap to the overall mean


def test_exponentiated_gradient_keeps_equalized_odds_within_eps(biased):
    X, y, s = biased
    model = ExponentiatedGradientReduction("equalized_odds", eps=0.02).fit(
        X, y, sensitive_features=s
    )
    expected = model.predict_proba(X)[:, 1]
    violation = max(
        abs(expected[(s == g) & (y == label)].mean() - expected[y == label].mean())
        for g in (0, 1)
        for label in (0, 1)
    )
    assert violation <= 0.02 + 1e-3


def test_predictions_are_seeded(biased):
    X, y, s = biased
    model = ExponentiatedGradientReduction(random_state=5).fit(X, y, sensitive_features=s)
    np.testing.assert_array_equal(model.predict(X), model.predict(X))


def test_grid_search_trades_error_for_parity(biased):
    X, y, s = biased
    gaps = []
    for weight in (0.0, 1.0):
        predicted = (
            GridSearchReduction(constraint_weight=weight).fit(X, y, sensitive_features=s).predict(X)
        )
        gaps.append(abs(predicted[s == 1].mean() - predicted[s == 0].mean()))
    assert gaps[1] < gaps[0]
