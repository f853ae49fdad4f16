"""Column means and scales of numeric features, dense or sparse, and rows standardised by them."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse
from sklearn.utils.sparsefuncs import mean_variance_axis


def standardisation(X: Any) -> tuple[np.ndarray, np.ndarray]:
    """Return column means and standard deviations (1 for constant columns).

    Parameters
    ----------
    X
        Numeric features, dense or sparse.

    Returns
    -------
    tuple of numpy.ndarray
        The means and the scales: (X - mean) / scale has unit variance where X varies.
    """
    if sparse.issparse(X):
        mean, variance = mean_variance_axis(sparse.csr_matrix(X), axis=0)
        spread = np.sqrt(variance)
    else:
        mean, spread = X.mean(0), X.std(0)
    return mean, np.where(spread > 0, spread, 1.0)


def standardised(X: Any, rows: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Return rows ``rows`` of ``X`` standardised, as a dense matrix.

    Parameters
    ----------
    X
        Features, dense or sparse.
    rows
        Positions of the rows wanted.
    mean, scale
        From :func:`standardisation`.

    Returns
    -------
    numpy.ndarray
        ``(X[rows] - mean) / scale``.
    """
    part = X[rows]  # a copy: rows are positions
    part = part.toarray() if sparse.issparse(part) else np.asarray(part, dtype=float)
    part -= mean
    part /= scale
    return part
