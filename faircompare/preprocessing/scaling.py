"""Column means and scales of numeric features, dense or sparse, and rows standardised by them.

Sparse features (a wide one-hot encoding) are densified a part at a time, never beyond
:data:`DENSE_LIMIT` bytes in one copy (:func:`check_dense_size`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse
from sklearn.utils.sparsefuncs import mean_variance_axis

from faircompare.exceptions import TooLargeError
from faircompare.safe_write import size_text

#: The most bytes one dense copy of a run's features may take (4 GiB); :func:`check_dense_size`
#: refuses more.
DENSE_LIMIT = 4 * 2**30


def check_dense_size(rows: int, columns: int) -> None:
    """Refuse to densify features whose dense copy would not fit: say its size and the limit.

    A one-hot encoding of a column with 50,000 values is kept sparse; densified, 33,000 rows
    of it would take 13 GB, and the operating system would kill the worker.

    Parameters
    ----------
    rows, columns
        The shape of the features to densify.

    Raises
    ------
    TooLargeError
        If ``rows * columns`` float64 values take more than :data:`DENSE_LIMIT` bytes.
    """
    size = rows * columns * 8
    if size > DENSE_LIMIT:
        raise TooLargeError(
            f"a dense copy of {rows:,} rows x {columns:,} features would take {size_text(size)}, "
            f"more than the {size_text(DENSE_LIMIT)} one copy may take: use an algorithm that "
            "takes sparse features (sparse_input, e.g. logistic-regression or decision-tree), or "
            "merge rare categories in the data"
        )


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

    Raises
    ------
    TooLargeError
        If the rows of sparse ``X`` are too many to densify (:func:`check_dense_size`).
    """
    part = X[rows]  # a copy: rows are positions
    if sparse.issparse(part):
        check_dense_size(*part.shape)
        part = part.toarray()
    else:
        part = np.asarray(part, dtype=float)
    part -= mean
    part /= scale
    return part
