"""Baselines never use the sensitive attribute; logistic regression's input gradient; sparse input."""

import numpy as np
import pandas as pd
import pytest

from faircompare.algorithms.base import AlgorithmInputError
from faircompare.algorithms.baselines import (
    SVM,
    DecisionTree,
    GaussianNaiveBayes,
    GradientBoosting,
    LogisticRegressionBaseline,
)
from faircompare.algorithms.kamishima import PrejudiceRemover
from faircompare.algorithms.zafar import ZafarFairness


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


def sparse_frame(X) -> pd.DataFrame:
    """The frame ``prepare`` stores for a wide one-hot encoding: every column sparse."""
    frame = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    return frame.astype(pd.SparseDtype(float, 0.0))


@pytest.mark.parametrize(
    "cls, tolerance",
    [(DecisionTree, 0.0), (GradientBoosting, 0.0), (GaussianNaiveBayes, 1e-9)],
)
def test_a_sparse_frame_gives_the_model_of_its_dense_values(cls, tolerance):
    # Trees bin or split the same values; naive Bayes' block-by-block means and variances are
    # exact updates (to rounding)
    X, y = one_hot_rows(n=12_000, categories=40)  # above 10,000 rows boosting stops early
    sparse_X = sparse_frame(X)
    dense_X = sparse_X.sparse.to_dense()
    dense, sparse = cls().fit(dense_X, y), cls().fit(sparse_X, y)
    np.testing.assert_array_equal(dense.predict(dense_X), sparse.predict(sparse_X))
    np.testing.assert_allclose(
        sparse.predict_proba(sparse_X), dense.predict_proba(dense_X), rtol=0, atol=tolerance
    )


@pytest.mark.parametrize("as_sparse", [False, True])
def test_naive_bayes_on_constant_features_gives_the_class_prior(as_sparse):
    # the paper study's feldman-gaussian-nb at full repair on ProPublica by sex-race: two groups
    # of one training row leave the authors' repair one bucket a column, every feature constant,
    # and scikit-learn scored every row NaN (the run failed); Bayes' rule with uninformative
    # features is the prior, here 3 of 4 training rows negative, by hand
    X = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    y = np.array([0, 0, 0, 1])
    model = GaussianNaiveBayes().fit(
        sparse_frame(X) if as_sparse else sparse_frame(X).sparse.to_dense(), y
    )
    unseen = sparse_frame(np.array([[1.0, 0.0], [1.0, 0.0], [3.0, 0.0]]))
    np.testing.assert_allclose(model.predict_proba(unseen)[:, 1], [0.25, 0.25, 0.25])
    np.testing.assert_array_equal(model.predict(unseen), [0, 0, 0])


def test_logistic_regression_on_a_sparse_frame_is_the_same_model_unscaled_by_centring():
    # Sparse features are scaled, not centred; the unpenalised intercept absorbs the shift, so
    # the problem is the same and the probabilities agree to the solver's tolerance (L-BFGS
    # stops at tol = 1e-4; at tol = 1e-12 the log-odds of both agree to 1e-7)
    X, y = one_hot_rows(n=2_000, categories=40)
    dense = LogisticRegressionBaseline().fit(pd.DataFrame(X), y)
    sparse = LogisticRegressionBaseline().fit(sparse_frame(X), y)
    assert not sparse.model_[0].with_mean
    np.testing.assert_allclose(
        sparse.predict_proba(sparse_frame(X)), dense.predict_proba(pd.DataFrame(X)), atol=5e-3
    )
    coef, intercept = sparse.logit_coefficients()
    np.testing.assert_allclose(sparse.decision_function(sparse_frame(X)), X @ coef + intercept)


@pytest.mark.parametrize("cls", [LogisticRegressionBaseline, DecisionTree])
def test_a_wide_one_hot_frame_is_predicted_without_a_dense_copy(cls, monkeypatch):
    # On the main of issue #38, predicting 16,667 rows of a 50,000-level categorical column
    # densified blocks of 10,000 rows x 50,002 columns (4 GB each; 8.4 GB peak)
    from scipy import sparse as scipy_sparse

    X, y = one_hot_rows(n=2_000, categories=40)
    model = cls().fit(sparse_frame(X), y)
    expected = model.predict_proba(sparse_frame(X))

    def no_dense_copy(self, *args, **kwargs):
        raise AssertionError("a sparse matrix was densified")

    monkeypatch.setattr(scipy_sparse.csr_matrix, "toarray", no_dense_copy)
    np.testing.assert_array_equal(model.predict_proba(sparse_frame(X)), expected)


def test_a_dense_copy_too_large_is_refused_naming_its_size_and_the_limit(monkeypatch):
    from faircompare.exceptions import TooLargeError
    from faircompare.preprocessing import scaling

    X, y = one_hot_rows(n=2_000, categories=40)  # 2,000 x 42 float64: 672,000 bytes
    monkeypatch.setattr(scaling, "DENSE_LIMIT", 2**19)  # 512 KB
    with pytest.raises(TooLargeError) as refused:
        GradientBoosting().fit(sparse_frame(X), y)
    assert str(refused.value).startswith(
        "a dense copy of 2,000 rows x 42 features would take 656.2 KB, more than the 512.0 KB "
        "one copy may take"
    )
    model = LogisticRegressionBaseline().fit(sparse_frame(X), y)  # never densified
    assert model.predict(sparse_frame(X)).shape == (2_000,)


def test_a_model_without_sparse_input_receives_the_dense_values(biased):
    X, y, s = biased
    assert not ZafarFairness.sparse_input
    dense = ZafarFairness().fit(X, y, sensitive_features=s)
    sparse = ZafarFairness().fit(X.astype(pd.SparseDtype(float, 0.0)), y, sensitive_features=s)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, atol=1e-12)


def test_prejudice_remover_on_a_sparse_frame_fits_the_dense_design_as_an_operator(biased):
    # The operator's products are the dense design's, so L-BFGS follows the same path to
    # rounding and stops at the same weights
    X, y, s = biased
    dense = PrejudiceRemover(eta=5.0).fit(X, y, sensitive_features=s)
    sparse = PrejudiceRemover(eta=5.0).fit(
        X.astype(pd.SparseDtype(float, 0.0)), y, sensitive_features=s
    )
    np.testing.assert_allclose(sparse.coef_, dense.coef_, atol=1e-6)
    np.testing.assert_allclose(
        sparse.decision_function(X.astype(pd.SparseDtype(float, 0.0)), sensitive_features=s),
        dense.decision_function(X, sensitive_features=s),
        atol=1e-6,
    )
