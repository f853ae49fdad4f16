"""Baseline classifiers of Friedler et al. (2019), §7.

scikit-learn models that never see the sensitive attribute. SVM and logistic regression
standardise their inputs (fitted on training data): the paper's benchmark ran an unscaled RBF
SVM, which on German predicts almost only the positive class.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit
from sklearn.base import ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from faircompare.algorithms.base import (
    FairEstimator,
    binary_labels,
    numeric_matrix,
)


class _SklearnBaseline(FairEstimator):
    """A scikit-learn classifier on the features alone; the sensitive attribute is ignored."""

    def _model(self) -> ClassifierMixin | Pipeline:
        raise NotImplementedError

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> _SklearnBaseline:
        """Fit the model on ``X`` and ``y``; ``sensitive_features`` is not used."""
        features = numeric_matrix(X, type(self).__name__)
        self.model_ = self._model().fit(features, binary_labels(y, len(features)))
        self.n_features_in_ = features.shape[1]
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict labels from the features alone."""
        return self.model_.predict(self._fitted_features(X)).astype(np.int64)


class _ProbabilisticBaseline(_SklearnBaseline):
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, columns for labels 0 and 1."""
        return self.model_.predict_proba(self._fitted_features(X))


class SVM(_SklearnBaseline):
    """Support vector machine with an RBF kernel on standardised features.

    Parameters
    ----------
    C
        Inverse regularisation strength.
    kernel
        Kernel, as in :class:`sklearn.svm.SVC`.
    """

    def __init__(self, C: float = 1.0, kernel: str = "rbf") -> None:
        self.C = C
        self.kernel = kernel

    def _model(self) -> Pipeline:
        return make_pipeline(StandardScaler(), SVC(C=self.C, kernel=self.kernel, cache_size=500))

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Signed distance to the separating surface; positive means label 1."""
        return self.model_.decision_function(self._fitted_features(X))

    @property
    def gradient_kind(self) -> str | None:
        """``"analytic"`` for the RBF and linear kernels, else None."""
        return "analytic" if self.kernel in ("rbf", "linear") else None

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of the log-loss of sigmoid(f(x)) in x, f the decision function.

        For the RBF kernel, f(x) = sum_i c_i exp(-gamma ||z - s_i||^2) + b on standardised z,
        so grad_z f = -2 gamma sum_i c_i K(z, s_i) (z - s_i); the linear kernel's is w. Other
        kernels have none (``gradient_kind`` is None; the audit then estimates it).
        """
        if self.gradient_kind is None:
            raise NotImplementedError(f"no analytic gradient for the {self.kernel!r} kernel")
        scaler, svc = self.model_[0], self.model_[-1]
        Z = scaler.transform(self._fitted_features(X))
        if self.kernel == "linear":
            slope = np.broadcast_to(svc.coef_[0], Z.shape)
        else:
            gamma = 1.0 / (Z.shape[1] * self.training_variance_)  # gamma="scale", as fitted
            kernel = rbf_kernel(Z, svc.support_vectors_, gamma=gamma) * svc.dual_coef_[0]
            slope = -2 * gamma * (kernel.sum(1)[:, None] * Z - kernel @ svc.support_vectors_)
        residual = expit(svc.decision_function(Z)) - binary_labels(y, len(Z))
        return residual[:, None] * slope / scaler.scale_

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None) -> SVM:
        """Fit on standardised features; keep their variance, which sets gamma="scale"."""
        super().fit(X, y)
        features = numeric_matrix(X, type(self).__name__)
        self.training_variance_ = float(self.model_[0].transform(features).var())
        return self


class DecisionTree(_ProbabilisticBaseline):
    """CART decision tree.

    Parameters
    ----------
    max_depth
        Maximum depth; None grows the tree until its leaves are pure.
    random_state
        Seed for the choice among equally good splits.
    """

    def __init__(self, max_depth: int | None = None, random_state: int | None = 0) -> None:
        self.max_depth = max_depth
        self.random_state = random_state

    def _model(self) -> DecisionTreeClassifier:
        return DecisionTreeClassifier(max_depth=self.max_depth, random_state=self.random_state)


class GaussianNaiveBayes(_ProbabilisticBaseline):
    """Gaussian naive Bayes.

    Parameters
    ----------
    var_smoothing
        Share of the largest feature variance added to every variance, for stability.
    """

    def __init__(self, var_smoothing: float = 1e-9) -> None:
        self.var_smoothing = var_smoothing

    def _model(self) -> GaussianNB:
        return GaussianNB(var_smoothing=self.var_smoothing)


class LogisticRegressionBaseline(_ProbabilisticBaseline):
    """L2-regularised logistic regression on standardised features.

    Parameters
    ----------
    C
        Inverse regularisation strength.
    max_iter
        Iteration limit of the L-BFGS solver.
    """

    def __init__(self, C: float = 1.0, max_iter: int = 1000) -> None:
        self.C = C
        self.max_iter = max_iter

    def _model(self) -> Pipeline:
        return make_pipeline(StandardScaler(), LogisticRegression(C=self.C, max_iter=self.max_iter))

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Log-odds of label 1."""
        return self.model_.decision_function(self._fitted_features(X))

    def logit_coefficients(self) -> tuple[np.ndarray, float]:
        """Weights and intercept of the log-odds on the unstandardised features."""
        scaler, model = self.model_[0], self.model_[-1]
        coef = model.coef_[0] / scaler.scale_
        return coef, float(model.intercept_[0] - coef @ scaler.mean_)

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its (unstandardised) features.

        For p = sigmoid(w'(x - m)/sd + b), d loss / d x = (p - y) w / sd.
        """
        features = self._fitted_features(X)
        scaler, model = self.model_[0], self.model_[-1]
        p = model.predict_proba(scaler.transform(features))[:, 1]
        residual = p - binary_labels(y, len(features))
        return residual[:, None] * (model.coef_[0] / scaler.scale_)
