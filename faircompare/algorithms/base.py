"""The estimator contract every algorithm follows, and the input checks they share.

Algorithms are scikit-learn classifiers (``__init__`` stores its arguments, fitted state ends in
``_``, ``clone`` round-trips) with the sensitive attribute passed separately and by keyword:
``fit(X, y, *, sensitive_features)`` and ``predict(X, *, sensitive_features=None)``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from faircompare.exceptions import FaircompareError


class AlgorithmInputError(FaircompareError, ValueError):
    """Data an algorithm cannot use (wrong variant, non-binary sensitive attribute, ...)."""


class FairEstimator(ClassifierMixin, BaseEstimator):
    """Base class of faircompare's algorithms.

    Class attributes
    ----------------
    supports
        Preprocessing variants the algorithm accepts.
    param_grid
        Parameter values swept for tradeoff curves; each value is its own run.
    uses_sensitive_at_predict
        Whether ``predict`` needs ``sensitive_features`` (for example, one model per group).
    version
        The algorithm's version: change it when a change to the code changes its results, so
        that runs stored by the earlier version are recomputed rather than reused.
    """

    supports: ClassVar[frozenset[str]] = frozenset({"numerical", "numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {}
    uses_sensitive_at_predict: ClassVar[bool] = False
    version: ClassVar[str] = "1"

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> FairEstimator:
        """Fit on features ``X``, labels ``y`` (1 positive, 0 other) and the sensitive attribute."""
        raise NotImplementedError

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict labels (1 positive, 0 other)."""
        raise NotImplementedError

    def _fitted_features(self, X: Any) -> np.ndarray:
        """Return ``X`` as a float matrix, refused unless it has the width seen in ``fit``."""
        features = numeric_matrix(X, type(self).__name__)
        check_fitted_width(features, self.n_features_in_, type(self).__name__)
        return features

    def _sensitive_for_predict(self, X: Any, sensitive_features: Any) -> np.ndarray:
        """Check the sensitive attribute passed to ``predict`` by an algorithm that needs it."""
        if sensitive_features is None:
            raise AlgorithmInputError(
                f"{type(self).__name__}.predict needs sensitive_features: it uses the sensitive "
                "attribute at prediction time"
            )
        s = np.asarray(sensitive_features)
        if len(s) != len(X):
            raise AlgorithmInputError(
                f"sensitive_features has {len(s)} entries but X has {len(X)} rows"
            )
        return s


def numeric_matrix(X: Any, algorithm: str) -> np.ndarray:
    """Return ``X`` as a float matrix, or explain which variant the algorithm needs."""
    if isinstance(X, pd.DataFrame):
        text = [c for c, dtype in X.dtypes.items() if not pd.api.types.is_numeric_dtype(dtype)]
        if text:
            raise AlgorithmInputError(
                f"{algorithm} needs numeric features, but {text[:5]} are not numeric: use the "
                "'numerical' or 'numerical+binary' preprocessing variant"
            )
    matrix = np.asarray(X, dtype=float)
    if matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise AlgorithmInputError(f"{algorithm} needs a finite 2-D feature matrix")
    return matrix


def binary_labels(y: Any, n: int) -> np.ndarray:
    """Return ``y`` as an int array of 0 and 1 with ``n`` entries, or raise naming the problem."""
    labels = np.asarray(y)
    if labels.shape != (n,):
        raise AlgorithmInputError(f"y must have one label per row ({n}), got shape {labels.shape}")
    bad = np.unique(labels[(labels != 0) & (labels != 1)])
    if bad.size:
        raise AlgorithmInputError(f"y must hold 1 (positive) and 0 (other); found {bad[:5]}")
    return labels.astype(np.int64)


def binary_sensitive(s: Any, n: int, algorithm: str) -> np.ndarray:
    """Return a 0/1 sensitive attribute (1 privileged) with ``n`` entries, or explain."""
    values = np.asarray(s)
    if values.shape != (n,):
        raise AlgorithmInputError(
            f"sensitive_features must have one value per row ({n}), got shape {values.shape}"
        )
    if values.dtype.kind not in "biuf" or not np.isin(values, (0, 1)).all():
        found = pd.unique(values)[:5].tolist()
        raise AlgorithmInputError(
            f"{algorithm} needs a binary sensitive attribute (1 privileged, 0 other), got values "
            f"{found}: use the 'numerical+binary' preprocessing variant"
        )
    return values.astype(np.int64)


def check_fitted_width(X: np.ndarray, n_features: int, algorithm: str) -> None:
    """Refuse a feature matrix whose width differs from the one seen in ``fit``."""
    if X.shape[1] != n_features:
        raise AlgorithmInputError(
            f"{algorithm} was fitted on {n_features} features but got {X.shape[1]}"
        )
