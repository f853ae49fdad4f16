"""Kamishima et al.'s prejudice remover."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from sklearn.linear_model import LogisticRegression

from faircompare.algorithms.kamishima import PrejudiceRemover, _objective
from tests.algorithms.conftest import positive_rate_gap


@pytest.mark.parametrize("eta", [0.0, 3.0, 100.0])
def test_analytic_gradient_matches_finite_differences(eta):
    rng = np.random.default_rng(0)
    X = np.hstack([rng.normal(size=(200, 3)), np.ones((200, 1))])
    y, s = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    w = rng.normal(size=8) * 0.5
    error = check_grad(
        lambda v: _objective(v, X, y, s, eta, 1.0)[0],
        lambda v: _objective(v, X, y, s, eta, 1.0)[1],
        w,
    )
    assert error < 1e-4 * max(1.0, np.linalg.norm(_objective(w, X, y, s, eta, 1.0)[1]))


def test_eta_zero_is_logistic_regression_per_group(biased):
    """Peer: scikit-learn's L2 logistic regression on the same standardised design, per group.

    Kamishima minimises sum log-loss + (C/2)|w|^2 with the intercept penalised as a weight;
    scikit-learn minimises C' sum log-loss + |w|^2 / 2, so C' = 1 / C, with no separate intercept.
    """
    X, y, s = biased
    model = PrejudiceRemover(eta=0.0, C=2.0).fit(X, y, sensitive_features=s)
    design = model.design_(X.to_numpy())
    for g in (0, 1):
        peer = LogisticRegression(C=1 / 2.0, fit_intercept=False, tol=1e-10, max_iter=10_000)
        peer.fit(design[s == g], y[s == g])
        np.testing.assert_allclose(model.coef_[g], peer.coef_[0], atol=1e-4)


def test_larger_eta_reduces_the_gap_in_positive_rates(biased):
    X, y, s = biased
    gaps = [
        positive_rate_gap(
            PrejudiceRemover(eta=eta)
            .fit(X, y, sensitive_features=s)
            .predict(X, sensitive_features=s),
            s,
        )
        for eta in (0.0, 30.0)
    ]
    assert gaps[0] > 0.2 and abs(gaps[1]) < gaps[0] / 2


def test_input_gradient_is_the_log_loss_gradient(biased):
    X, y, s = biased
    model = PrejudiceRemover(eta=5.0).fit(X, y, sensitive_features=s)
    rows = X.iloc[:5].to_numpy()

    def loss(row, i):
        p = model.predict_proba(row[None], sensitive_features=s[i : i + 1])[0, 1]
        return -np.log(p) if y[i] else -np.log(1 - p)

    gradient = model.input_gradient(rows, y[:5], sensitive_features=s[:5])
    for i, row in enumerate(rows):
        numeric = [(loss(row + h, i) - loss(row - h, i)) / 2e-6 for h in np.eye(len(row)) * 1e-6]
        np.testing.assert_allclose(gradient[i], numeric, rtol=1e-4, atol=1e-6)


def test_the_design_of_sparse_features_has_the_dense_designs_products():
    from scipy import sparse

    from faircompare.algorithms.linear import Design

    rng = np.random.default_rng(2)
    X = np.column_stack([rng.normal(size=50), np.eye(8)[rng.integers(8, size=50)]])
    dense, operator = Design(X)(X), Design(sparse.csr_matrix(X))(sparse.csr_matrix(X))
    W, V = rng.normal(size=(10, 2)), rng.normal(size=(50, 2))
    np.testing.assert_allclose(operator @ W, dense @ W, atol=1e-12)
    np.testing.assert_allclose(operator.T @ V, dense.T @ V, atol=1e-12)
    np.testing.assert_allclose(operator @ W[:, 0], dense @ W[:, 0], atol=1e-12)


def test_the_authors_start_is_one_liblinear_logistic_regression_per_group(biased):
    # solver="start", what the authors' train_pr.py returned (its conjugate gradients never
    # left their start): per group, scikit-learn's liblinear logistic regression (C = 1) on the
    # raw features and a ones column, no intercept of its own; eta then changes nothing.
    from faircompare.algorithms.linear import Design

    X, y, s = biased
    model = PrejudiceRemover(eta=30.0, scale=False, solver="start").fit(X, y, sensitive_features=s)
    design = Design(X, standardise=False)(X.to_numpy(float))
    for g in (0, 1):
        rows = np.asarray(s) == g
        own = LogisticRegression(C=1.0, fit_intercept=False, solver="liblinear")
        np.testing.assert_allclose(model.coef_[g], own.fit(design[rows], y[rows]).coef_[0])
    fitted = PrejudiceRemover(eta=30.0, scale=False).fit(X, y, sensitive_features=s)
    assert positive_rate_gap(model.predict(X, sensitive_features=s), s) > positive_rate_gap(
        fitted.predict(X, sensitive_features=s), s
    )
    with pytest.raises(ValueError, match="unknown solver 'newton'"):
        PrejudiceRemover(solver="newton").fit(X, y, sensitive_features=s)
