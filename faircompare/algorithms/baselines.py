"""Baseline classifiers of Friedler et al. (2019), §7.

scikit-learn models that never see the sensitive attribute. SVM and logistic regression
standardise their inputs (fitted on training data): the paper's benchmark ran an unscaled RBF
SVM, which on German predicts almost only the positive class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from scipy import sparse
from scipy.special import expit
from sklearn.base import ClassifierMixin
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.sparsefuncs import mean_variance_axis

from faircompare.algorithms.base import (
    FairEstimator,
    binary_labels,
)
from faircompare.algorithms.libraries import SCIKIT_LEARN
from faircompare.algorithms.search import Dimension, Integer, Real
from faircompare.bibliography import Reference
from faircompare.preprocessing import check_dense_size


class _SklearnBaseline(FairEstimator):
    """A scikit-learn classifier on the features alone; the sensitive attribute is ignored."""

    family: ClassVar[str] = "baseline"
    library: ClassVar[str] = "scikit-learn"
    references: ClassVar[tuple[Reference, ...]] = (SCIKIT_LEARN,)
    uses_sensitive_at_fit: ClassVar[bool] = False
    groups_by_order: ClassVar[bool] = True  # never reads them
    # Whether the fitted scikit-learn model predicts from sparse rows as they are (a wide
    # one-hot encoding is then never densified); else blocks of rows are densified.
    predicts_sparse: ClassVar[bool] = False

    def _model(self) -> ClassifierMixin | Pipeline:
        raise NotImplementedError

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> _SklearnBaseline:
        """Fit the model on ``X`` and ``y``; ``sensitive_features`` is not used."""
        features, labels = self.validate_fit(X, y)
        self.model_ = self._model().fit(features, labels)
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict labels from the features alone (in blocks of rows)."""
        features = self.fitted_features(X)
        return self.to_labels(_in_blocks(self.model_.predict, features, self.predicts_sparse))


class _ProbabilisticBaseline(_SklearnBaseline):
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, columns for labels 0 and 1 (in blocks of rows)."""
        features = self.fitted_features(X)
        return _in_blocks(self.model_.predict_proba, features, self.predicts_sparse)


class SVM(_SklearnBaseline):
    """Support vector machine with an RBF kernel on standardised features.

    Fitted by scikit-learn's SVC (libsvm). The RBF kernel depends on differences of rows only,
    so its SVM is fitted on features divided by their standard deviations without centring:
    the same problem as on standardised features, where one-hot columns keep their zeros. A
    mostly-zero matrix is then passed to libsvm as a sparse one, whose kernel evaluations cost
    the nonzero entries only (the same support vectors and decision values to rounding, several
    times faster on ProPublica and Adult; ``perf/svm_fit.py``). Decision values for the RBF and
    linear kernels are computed from the support vectors in blocks of rows, the same values as
    libsvm's (the tests compare them) many times faster, which the audits need (the
    individual-fairness attack evaluates the model at every step).

    Parameters
    ----------
    C
        Inverse regularisation strength.
    kernel
        Kernel, as in :class:`sklearn.svm.SVC`.
    scale
        Standardise the features (the default); False fits the SVM on the features as they are,
        with gamma = 1 / d, as the paper's benchmark ran it (scikit-learn 0.19's ``SVC()``,
        whose gamma ``"auto"`` was 1 / d).
    """

    search_space: ClassVar[dict[str, Dimension]] = {"C": Real(0.01, 100.0, log=True)}

    def __init__(self, C: float = 1.0, kernel: str = "rbf", scale: bool = True) -> None:
        self.C = C
        self.kernel = kernel
        self.scale = scale

    def training_row_limit(self) -> int:
        """Return 50,000: libsvm's fit grows with the square of the rows or faster.

        Measured on ACSIncome (``perf/scaling.py``): 13 s at 20,000 training rows, so minutes
        at 50,000 and hours at the two-state sample's 164,000.
        """
        return SVM_ROW_LIMIT

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> SVM:
        """Fit on scaled features; gamma ``"scale"`` of the standardised ones, 1 / (d var(z))."""
        features, labels = self.validate_fit(X, y)
        shift_invariant = self.kernel == "rbf"
        scaler = StandardScaler(with_mean=not shift_invariant, with_std=self.scale).fit(features)
        if self.scale:
            # var(z) over all entries of standardised z: the mean of its columns' variances
            variance = np.mean(scaler.var_ / scaler.scale_**2)
            self.gamma_ = 1.0 / (features.shape[1] * variance) if variance > 0 else 1.0
        else:
            self.gamma_ = 1.0 / features.shape[1]
        scaled = scaler.transform(features)
        if shift_invariant and np.count_nonzero(scaled) <= _SPARSE_SHARE * scaled.size:
            scaled = sparse.csr_matrix(scaled)
        svc = SVC(C=self.C, kernel=self.kernel, gamma=self.gamma_, cache_size=500)
        self.model_ = Pipeline([("standardscaler", scaler), ("svc", svc.fit(scaled, labels))])
        if shift_invariant:
            self._kernel_terms = _rbf_terms(svc, self.gamma_)  # once, for every prediction
        return self

    @property
    def gradient_kind(self) -> str | None:
        """``"analytic"`` for the RBF and linear kernels, else None."""
        return "analytic" if self.kernel in ("rbf", "linear") else None

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Label 1 (``classes_[1]``) where the decision value is positive."""
        return self.to_labels(self.decision_function(X) > 0)

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Signed distance to the separating surface; positive means label 1."""
        features = self.fitted_features(X)
        Z = self.model_[0].transform(features)
        if self.gradient_kind is None:
            return self.model_[-1].decision_function(Z)
        return self._decision(Z, slope=False)[0]

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of the log-loss of sigmoid(f(x)) in x, f the decision function.

        For the RBF kernel, f(x) = sum_i c_i exp(-gamma ||z - s_i||^2) + b on standardised z,
        so grad_z f = -2 gamma sum_i c_i K(z, s_i) (z - s_i); the linear kernel's is w. Other
        kernels have none (``gradient_kind`` is None; the audit then estimates it).
        """
        if self.gradient_kind is None:
            raise NotImplementedError(f"no analytic gradient for the {self.kernel!r} kernel")
        scaler = self.model_[0]
        features = self.fitted_features(X)
        Z = scaler.transform(features)
        decision, slope = self._decision(Z, slope=True)
        residual = expit(decision) - binary_labels(y, len(Z))
        return residual[:, None] * slope / (1.0 if scaler.scale_ is None else scaler.scale_)

    def _decision(self, Z: np.ndarray, *, slope: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """Decision values and, if asked, their gradients in z, in blocks of rows."""
        svc = self.model_[-1]
        if self.kernel == "linear":
            weights = svc.coef_[0]
            gradient = np.broadcast_to(weights, Z.shape) if slope else None
            return Z @ weights + svc.intercept_[0], gradient
        gamma = self.gamma_
        targets, coefficients, pulls = self._kernel_terms
        decision = np.empty(len(Z))
        gradient = np.empty_like(Z) if slope else None
        rows = max(1, _KERNEL_BLOCK // max(1, len(coefficients)))
        for start in range(0, len(Z), rows):
            block = slice(start, start + rows)
            z = Z[block]
            kernel = np.asarray(_augmented(z, -gamma * _squared_norms(z), 1.0) @ targets)
            np.minimum(kernel, 0.0, out=kernel)  # a squared distance is never negative
            np.exp(kernel, out=kernel)
            total = kernel @ coefficients
            decision[block] = total + svc.intercept_[0]
            if gradient is not None:
                gradient[block] = -2 * gamma * (total[:, None] * z - kernel @ pulls)
        return decision, gradient


_KERNEL_BLOCK = 4_000_000  # kernel entries per block: 32 MB of float64
# libsvm gets a sparse matrix when at most this share of its entries are nonzero: ProPublica's
# (1 %) and Adult's (10 %) fits are 5 and 2.5 times faster so, German's (32 %) twice slower
_SPARSE_SHARE = 0.2
SVM_ROW_LIMIT = 50_000  # training rows; libsvm's fit grows with their square or faster


def _rbf_terms(svc: SVC, gamma: float) -> tuple[Any, np.ndarray, Any]:
    """Return the support vectors' side of the RBF decision values and their gradients.

    -gamma ||z - v||^2 = [z, -gamma ||z||^2, 1] . [2 gamma v, 1, -gamma ||v||^2]: the exponent
    of a whole block of rows in one matrix product with these targets (sparse when the vectors
    are), the kernel then taken in place; with the dual coefficients c and the pulls c_i v_i.
    """
    vectors = svc.support_vectors_
    coefficients = _dense(svc.dual_coef_)[0]  # stored sparse when fitted on sparse rows
    targets = _augmented(2 * gamma * vectors, 1.0, -gamma * _squared_norms(vectors)).T
    return targets, coefficients, sparse.diags(coefficients) @ vectors


def _dense(matrix: Any) -> np.ndarray:
    """Densify a sparse matrix, refusing one too large (:func:`check_dense_size`)."""
    if not sparse.issparse(matrix):
        return matrix
    check_dense_size(*matrix.shape)
    return matrix.toarray()


_BLOCK = 10_000  # rows densified at a time by GaussianNB's fit: 63 MB of ACSIncome's 785 columns
_BLOCK_ENTRIES = 8_000_000  # entries densified at a time to predict: 64 MB of float64


def _in_blocks(
    method: Callable[[Any], np.ndarray], features: Any, takes_sparse: bool
) -> np.ndarray:
    """Apply ``method`` to blocks of ``features``' rows and stack the results.

    Sparse rows are passed as they are when the model ``takes_sparse``; else each block is
    densified, with as many rows as make :data:`_BLOCK_ENTRIES` values (157 rows of a 50,000
    column one-hot encoding, not 10,000 rows: 4 GB).
    """
    if takes_sparse and sparse.issparse(features):
        return method(features)
    rows = max(1, _BLOCK_ENTRIES // max(1, features.shape[1]))
    starts = range(0, features.shape[0], rows) or [0]
    return np.concatenate([method(_dense(features[i : i + rows])) for i in starts])


def _squared_norms(rows: Any) -> np.ndarray:
    if sparse.issparse(rows):
        return np.asarray(rows.multiply(rows).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", rows, rows)


def _augmented(rows: Any, first: Any, second: Any) -> Any:
    """``rows`` (dense or sparse) with two more columns, each of values or of one value."""
    n = rows.shape[0]
    columns = np.column_stack([np.broadcast_to(first, n), np.broadcast_to(second, n)])
    if sparse.issparse(rows):
        return sparse.hstack([rows, columns], format="csr")
    return np.hstack([rows, columns])


class DecisionTree(_ProbabilisticBaseline):
    """CART decision tree.

    Parameters
    ----------
    max_depth
        Maximum depth; None grows the tree until its leaves are pure.
    random_state
        Seed for the choice among equally good splits.
    """

    # 2: the benchmark seeds it from what the fit depends on, the same for every attribute and
    # variant, so that one fit serves them all (#30)
    version: ClassVar[str] = "2"
    sparse_input: ClassVar[bool] = True
    predicts_sparse: ClassVar[bool] = True
    search_space: ClassVar[dict[str, Dimension]] = {"max_depth": Integer(2, 32, log=True)}

    def __init__(self, max_depth: int | None = None, random_state: int | None = 0) -> None:
        self.max_depth = max_depth
        self.random_state = random_state

    def _model(self) -> DecisionTreeClassifier:
        return DecisionTreeClassifier(max_depth=self.max_depth, random_state=self.random_state)


class GradientBoosting(_ProbabilisticBaseline):
    """Histogram gradient-boosted trees, the baseline of today's tabular benchmarks.

    scikit-learn's :class:`~sklearn.ensemble.HistGradientBoostingClassifier`: features binned
    into at most 255 values once, so a fit costs about linear time in the rows (FFB and
    ABCFair use such models on ACS data). Above 10,000 training rows it stops early on a
    held-out tenth of them, drawn here (stratified by label, seeded with ``random_state``) so
    that a sparse matrix is densified part by part, never whole: ACSIncome's 164,000 training
    rows are 1 GB as dense floats. Predictions are made in blocks of rows for the same reason.

    Parameters
    ----------
    learning_rate, max_iter, max_leaf_nodes
        As in scikit-learn's model.
    random_state
        Seed of the early-stopping split.
    """

    # 2: the early-stopping tenth is drawn by faircompare, not inside scikit-learn (#31)
    version: ClassVar[str] = "2"
    sparse_input: ClassVar[bool] = True
    search_space: ClassVar[dict[str, Dimension]] = {
        "learning_rate": Real(0.01, 0.5, log=True),
        "max_leaf_nodes": Integer(4, 128, log=True),  # the trees' size: their depth's role
    }

    def __init__(
        self,
        learning_rate: float = 0.1,
        max_iter: int = 100,
        max_leaf_nodes: int = 31,
        random_state: int | None = 0,
    ) -> None:
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> GradientBoosting:
        """Fit on ``X`` and ``y``, stopping early above 10,000 rows (no sensitive attribute)."""
        features, labels = self.validate_fit(X, y)
        n = features.shape[0]
        model = HistGradientBoostingClassifier(
            learning_rate=self.learning_rate,
            max_iter=self.max_iter,
            max_leaf_nodes=self.max_leaf_nodes,
            early_stopping=n > EARLY_STOPPING_ABOVE,
            random_state=self.random_state,
        )
        if n <= EARLY_STOPPING_ABOVE:
            self.model_ = model.fit(_dense(features), labels)
            return self
        fit, held = train_test_split(
            np.arange(n), test_size=0.1, stratify=labels, random_state=self.random_state
        )
        fit, held = np.sort(fit), np.sort(held)
        self.model_ = model.fit(
            _dense(features[fit]), labels[fit], X_val=_dense(features[held]), y_val=labels[held]
        )
        return self


EARLY_STOPPING_ABOVE = 10_000  # training rows; scikit-learn's threshold for "auto"


class GaussianNaiveBayes(_ProbabilisticBaseline):
    """Gaussian naive Bayes.

    Sparse features (a wide one-hot encoding) are fitted block by block of densified rows with
    ``partial_fit``, whose running class means and variances are exact updates (Chan et al.'s),
    and the variance smoothing of a whole fit, ``var_smoothing`` times the largest feature
    variance, is added once at the end: the model ``fit`` gives, without a dense copy.

    Where every feature is constant on the training rows, scikit-learn smooths by nothing and
    scores every row NaN; the features then tell the classes nothing, and the model gives the
    class prior (smoothing by ``var_smoothing`` itself), as Bayes' rule does. (Feldman's full
    repair makes every column constant where a group has one training row: the authors' repair
    cuts a column into as many buckets as the group with the fewest distinct values has.)

    Parameters
    ----------
    var_smoothing
        Share of the largest feature variance added to every variance, for stability.
    """

    sparse_input: ClassVar[bool] = True

    search_space: ClassVar[dict[str, Dimension]] = {"var_smoothing": Real(1e-12, 1e-3, log=True)}

    def __init__(self, var_smoothing: float = 1e-9) -> None:
        self.var_smoothing = var_smoothing

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> GaussianNaiveBayes:
        """Fit on ``X`` and ``y``; ``sensitive_features`` is not used."""
        features, labels = self.validate_fit(X, y)
        if not sparse.issparse(features):
            model = GaussianNB(var_smoothing=self.var_smoothing).fit(features, labels)
        else:
            model = GaussianNB(var_smoothing=0.0)
            for start in range(0, features.shape[0], _BLOCK):
                block = slice(start, start + _BLOCK)
                model.partial_fit(_dense(features[block]), labels[block], classes=[0, 1])
            _, variance = mean_variance_axis(features, axis=0)
            model.set_params(var_smoothing=self.var_smoothing)
            model.epsilon_ = self.var_smoothing * variance.max()
            model.var_ += model.epsilon_
        if model.epsilon_ == 0:  # every feature constant: no variance to smooth by
            model.epsilon_ = self.var_smoothing
            model.var_ += model.epsilon_
        self.model_ = model
        return self


class LogisticRegressionBaseline(_ProbabilisticBaseline):
    """L2-regularised logistic regression on standardised features.

    Parameters
    ----------
    C
        Inverse regularisation strength.
    max_iter
        Iteration limit of the L-BFGS solver.
    """

    sparse_input: ClassVar[bool] = True
    predicts_sparse: ClassVar[bool] = True

    search_space: ClassVar[dict[str, Dimension]] = {"C": Real(0.001, 1000.0, log=True)}

    def __init__(self, C: float = 1.0, max_iter: int = 1000) -> None:
        self.C = C
        self.max_iter = max_iter

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> LogisticRegressionBaseline:
        """Fit on ``X`` and ``y``; ``sensitive_features`` is not used.

        Sparse features are scaled but not centred (centring would fill them): the intercept is
        not penalised, so the fitted log-odds are the same as with centring.
        """
        features, labels = self.validate_fit(X, y)
        scaler = StandardScaler(with_mean=not sparse.issparse(features))
        model = LogisticRegression(C=self.C, max_iter=self.max_iter)
        self.model_ = make_pipeline(scaler, model).fit(features, labels)
        return self

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Log-odds of label 1."""
        features = self.fitted_features(X)
        return self.model_.decision_function(features)

    def logit_coefficients(self) -> tuple[np.ndarray, float]:
        """Weights and intercept of the log-odds on the unstandardised features."""
        scaler, model = self.model_[0], self.model_[-1]
        coef = model.coef_[0] / scaler.scale_
        shift = coef @ scaler.mean_ if scaler.with_mean else 0.0
        return coef, float(model.intercept_[0] - shift)

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its (unstandardised) features.

        For p = sigmoid(w'(x - m)/sd + b), d loss / d x = (p - y) w / sd.
        """
        features = self.fitted_features(X)
        scaler, model = self.model_[0], self.model_[-1]
        p = model.predict_proba(scaler.transform(features))[:, 1]
        residual = p - binary_labels(y, features.shape[0])
        return residual[:, None] * (model.coef_[0] / scaler.scale_)
