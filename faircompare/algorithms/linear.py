"""Pieces shared by the linear models: a standardised design matrix and the input gradient."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import LinearOperator

from faircompare.algorithms.base import binary_labels
from faircompare.preprocessing import standardisation


class Design:
    """Standardise features with training statistics and append an intercept column.

    Sparse features (a wide one-hot encoding) get the same design as a linear operator that
    never fills them: [(X - mean) / scale, 1] w = X (w / scale) - mean'(w / scale) + b.

    Parameters
    ----------
    features
        The training features, dense or sparse, whose means and standard deviations are kept.
    standardise
        False keeps the features as they are (mean 0, scale 1): the design is [X, 1].
    """

    def __init__(self, features: Any, standardise: bool = True) -> None:
        if standardise:
            self.mean, self.scale = standardisation(features)
        else:
            self.mean, self.scale = np.zeros(features.shape[1]), np.ones(features.shape[1])

    def __call__(self, features: Any) -> Any:
        """Return the design matrix: standardised features and a column of ones.

        A :class:`~scipy.sparse.linalg.LinearOperator` for sparse features, with the products
        (``@``, and ``.T @``) of the dense matrix.
        """
        if sparse.issparse(features):
            return _SparseDesign(sparse.csr_matrix(features), self.mean, self.scale)
        standard = (features - self.mean) / self.scale
        return np.hstack([standard, np.ones((len(features), 1))])

    def input_gradient(self, p: np.ndarray, y: Any, weights: np.ndarray) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its unstandardised features.

        For p = sigmoid(w'(x - mean) / scale + b), d loss / d x = (p - y) w / scale; ``weights``
        holds w without the intercept, shared (1-D) or one row per sample (2-D).
        """
        residual = p - binary_labels(y, len(p))
        return residual[:, None] * np.atleast_2d(weights) / self.scale

    def raw_coefficients(self, theta: np.ndarray) -> tuple[np.ndarray, float]:
        """Weights and intercept of the log-odds on unstandardised features, from ``theta``.

        theta'[(x - mean) / scale, 1] = x'(w / scale) + (b - (w / scale)'mean).
        """
        coef = theta[:-1] / self.scale
        return coef, float(theta[-1] - coef @ self.mean)


class _SparseDesign(LinearOperator):
    """[(X - mean) / scale, 1] for sparse X, as products that keep X sparse."""

    def __init__(self, X: sparse.csr_matrix, mean: np.ndarray, scale: np.ndarray) -> None:
        super().__init__(dtype=np.float64, shape=(X.shape[0], X.shape[1] + 1))
        self.X, self.shift = X, mean / scale
        self.scale = scale

    def _matmat(self, W: np.ndarray) -> np.ndarray:
        weights = W[:-1] / self.scale[:, None]
        return self.X @ weights - self.shift @ W[:-1] + W[-1]

    def _rmatmat(self, V: np.ndarray) -> np.ndarray:
        totals = V.sum(axis=0)
        top = (self.X.T @ V) / self.scale[:, None] - self.shift[:, None] * totals
        return np.vstack([top, totals])

    def _matvec(self, w: np.ndarray) -> np.ndarray:
        return self._matmat(w.reshape(-1, 1)).ravel()

    def _rmatvec(self, v: np.ndarray) -> np.ndarray:
        return self._rmatmat(v.reshape(-1, 1)).ravel()
