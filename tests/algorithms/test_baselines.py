"""Baselines never use the sensitive attribute; logistic regression's input gradient."""

import numpy as np
import pytest

from faircompare.algorithms.base import AlgorithmInputError
from faircompare.algorithms.baselines import (
    SVM,
    DecisionTree,
    GaussianNaiveBayes,
    LogisticRegressionBaseline,
)


@pytest.mark.parametrize("cls", [SVM, DecisionTree, GaussianNaiveBayes, LogisticRegressionBaseline])
def test_the_sensitive_attribute_changes_nothing(biased, cls):
    X, y, s = biased
    with_s = cls().fit(X, y, sensitive_features=s).predict(X)
    other_s = cls().fit(X, y, sensitive_features=1 - s).predict(X, sensitive_features=1 - s)
    np.testing.assert_array_equal(with_s, other_s)


def test_logistic_regression_input_gradient_is_the_log_loss_gradient(biased):
    X, y, _ = biased
    model = LogisticRegressionBaseline().fit(X, y)
    rows = X.iloc[:4].to_numpy()

    def loss(row, label):
        p = model.predict_proba(row[None])[0, 1]
        return -np.log(p if label else 1 - p)

    gradient = model.input_gradient(rows, y[:4])
    for i, row in enumerate(rows):
        numeric = [
            (loss(row + h, y[i]) - loss(row - h, y[i])) / 2e-6 for h in np.eye(len(row)) * 1e-6
        ]
        np.testing.assert_allclose(gradient[i], numeric, rtol=1e-4, atol=1e-7)


def test_text_features_ask_for_a_numerical_variant(biased):
    X, y, s = biased
    with pytest.raises(
        AlgorithmInputError,
        match="\\['colour'\\] are not numeric: use the 'numerical' or 'numerical\\+binary'",
    ):
        SVM().fit(X.assign(colour="red"), y, sensitive_features=s)


def test_a_model_refuses_features_of_another_width(biased):
    X, y, s = biased
    # scikit-learn's own errors: by name for a frame, by count for an array
    model = DecisionTree().fit(X, y)
    with pytest.raises(ValueError, match="Feature names seen at fit time, yet now missing"):
        model.predict(X.iloc[:, :4])
    with pytest.raises(ValueError, match="X has 4 features, but DecisionTree is expecting 5"):
        model.predict(X.iloc[:, :4].to_numpy())


def one_hot_rows(n: int = 300, categories: int = 20, seed: int = 0):
    """Two numeric columns and a one-hot category: 3 of 22 entries per row are nonzero."""
    rng = np.random.default_rng(seed)
    numeric = rng.normal(2.0, 3.0, size=(n, 2))
    category = rng.integers(categories, size=n)
    X = np.column_stack([numeric, np.eye(categories)[category]])
    y = (numeric[:, 0] - numeric[:, 1] + category % 3 + rng.normal(size=n) > 1).astype(int)
    return X, y


def test_svm_on_one_hot_features_is_libsvm_on_standardised_ones():
    # The RBF SVM on mostly-zero features is fitted on a sparse matrix of features scaled
    # without centring; the problem is the one scikit-learn's standardised pipeline solves
    # (gamma "scale"), so the support vectors and decision values are the peer's.
    from scipy import sparse
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X, y = one_hot_rows()
    model = SVM().fit(X, y)
    peer = make_pipeline(StandardScaler(), SVC()).fit(X, y)
    assert sparse.issparse(model.model_[-1].support_vectors_)
    np.testing.assert_array_equal(model.model_[-1].support_, peer[-1].support_)
    np.testing.assert_allclose(model.model_.decision_function(X), peer.decision_function(X),
                               rtol=1e-9, atol=1e-9)  # fmt: skip
    np.testing.assert_allclose(model.decision_function(X), peer.decision_function(X),
                               rtol=1e-9, atol=1e-9)  # fmt: skip
    assert model.gamma_ == pytest.approx(peer[-1]._gamma, rel=1e-12)


def shifted_normal_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(2.0, 3.0, size=(150, 3))
    return X, (X[:, 0] - X[:, 1] + rng.normal(size=150) > 0).astype(int)


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("rows", [shifted_normal_rows, one_hot_rows], ids=["dense", "one-hot"])
def test_svm_input_gradient_equals_finite_differences(kernel, rows):
    # The audit's loss for an SVM is the log-loss of sigmoid(decision function); its analytic
    # gradient must match central differences of that loss (support vectors stored sparse or
    # dense).
    from scipy.special import expit

    X, y = rows()
    model = SVM(kernel=kernel).fit(X, y)
    assert model.gradient_kind == "analytic"

    def loss(points):
        p = expit(model.decision_function(points))
        return -np.where(y[:20] == 1, np.log(p), np.log1p(-p))

    h, points = 1e-5, X[:20]
    finite = np.column_stack(
        [(loss(points + h * e) - loss(points - h * e)) / (2 * h) for e in np.eye(X.shape[1])]
    )
    np.testing.assert_allclose(model.input_gradient(points, y[:20]), finite, rtol=1e-4, atol=1e-7)


def test_svm_with_another_kernel_has_no_analytic_gradient():
    assert SVM(kernel="poly").gradient_kind is None


def interaction_rows():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    return X, (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=300) > 0).astype(int)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("rows", [interaction_rows, one_hot_rows], ids=["dense", "one-hot"])
def test_svm_decision_values_equal_libsvm(kernel, rows):
    # Our BLAS evaluation of the decision function against scikit-learn's (libsvm) on the same
    # fitted model, in several row blocks.
    from faircompare.algorithms import baselines

    X, y = rows()
    model = SVM(kernel=kernel).fit(X, y)
    Z = model.model_[0].transform(X)
    expected = model.model_[-1].decision_function(Z)
    saved, baselines._KERNEL_BLOCK = baselines._KERNEL_BLOCK, 10_000  # blocks of a few dozen rows
    try:
        np.testing.assert_allclose(model.decision_function(X), expected, rtol=1e-9, atol=1e-9)
    finally:
        baselines._KERNEL_BLOCK = saved
    np.testing.assert_array_equal(model.predict(X), model.model_.predict(X))
