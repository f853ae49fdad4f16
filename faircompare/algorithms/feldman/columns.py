"""What both ways of repairing share: the input's columns, in blocks and by their number of values.

A repair works a block of :data:`COLUMN_BLOCK` columns at a time, so its working memory is a few
blocks of the data whatever its width, and keeps the columns with few distinct values (one-hot
and small integer features, most of the benchmark's columns) together by that number, so that a
value's place among them is found for all such columns at once by comparisons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from scipy import sparse

from faircompare.algorithms.base import AlgorithmInputError, numeric_matrix
from faircompare.preprocessing import is_sparse_frame, sparse_matrix

COLUMN_BLOCK = 32  # columns repaired at a time: 42 MB of ACSIncome's 164,000 training rows
CELLS = 1 << 20  # values of new rows repaired at a time, at least a block's columns
FEW_VALUES = 16  # columns with at most this many distinct values are searched by comparisons
UNSEEN = -1  # the code of a group absent from the training data


def check_level(repair_level: float) -> None:
    """Refuse a repair level outside [0, 1], naming it."""
    if not 0 <= repair_level <= 1:
        raise AlgorithmInputError(f"repair_level must lie in [0, 1], got {repair_level}")


def column_blocks(width: int) -> list[slice]:
    """Return the consecutive blocks of :data:`COLUMN_BLOCK` columns of a matrix this wide."""
    starts = range(0, width, COLUMN_BLOCK)
    return [slice(start, min(start + COLUMN_BLOCK, width)) for start in starts]


def repair_input(X: Any) -> Any:
    """Return the features as a float matrix: CSC for sparse input, else dense."""
    if sparse.issparse(X) or is_sparse_frame(X):
        matrix = sparse.csc_matrix(sparse_matrix(X) if is_sparse_frame(X) else X, dtype=float)
        if not np.isfinite(matrix.data).all():
            raise AlgorithmInputError("Feldman repair needs a finite 2-D feature matrix")
        return matrix
    return numeric_matrix(X, "Feldman repair")


def stacked(blocks: list[Any], like: Any) -> Any:
    """Join repaired column blocks (sparse ones for sparse input) into a CSR or dense matrix."""
    if sparse.issparse(like):
        return sparse.hstack(blocks, format="csr") if blocks else sparse.csr_matrix(like.shape)
    return np.hstack(blocks) if blocks else np.empty(like.shape)


def as_input(values: np.ndarray, like: Any) -> Any:
    """Return a repaired dense block as the input was: CSC for sparse input."""
    return sparse.csc_matrix(values) if sparse.issparse(like) else values


Block = TypeVar("Block")


def merged_blocks(
    blocks: list[Block], rows: int, cache: dict[int, list[Block]], merge: Callable[..., Block]
) -> list[Block]:
    """Return fitted blocks, consecutive ones merged so ``rows`` new rows fill :data:`CELLS`.

    Fitted blocks keep the memory of a fit to a few of its blocks; a repair of a few rows (the
    individual audit's batches) would spend most of its time on each block's and group's calls.
    ``merge`` joins a list of consecutive blocks into one that repairs every column the same
    way, value for value; the merged lists are kept in ``cache``, by blocks per merge.
    """
    per_block = CELLS // max(1, rows * COLUMN_BLOCK)
    if per_block <= 1:
        return blocks
    if per_block not in cache:
        starts = range(0, len(blocks), per_block)
        cache[per_block] = [merge(blocks[start : start + per_block]) for start in starts]
    return cache[per_block]


def by_size(sizes: np.ndarray) -> list[np.ndarray]:
    """Return the columns with at most :data:`FEW_VALUES` values, grouped by that number K."""
    return [np.flatnonzero(sizes == size) for size in np.unique(sizes[sizes <= FEW_VALUES])]


def merged_few(parts: list[tuple[Any, ...]], offsets: list[int]) -> tuple[Any, ...]:
    """Join blocks' columns with few values, by their number K of values.

    Each part's entries are ``(columns, values, ...)``, one per K, each array by column.
    """
    by_count: dict[int, list[tuple[np.ndarray, ...]]] = {}
    for few, offset in zip(parts, offsets, strict=True):
        for columns, *rest in few:
            by_count.setdefault(rest[0].shape[1], []).append((columns + offset, *rest))
    return tuple(
        tuple(np.concatenate(arrays) for arrays in zip(*entries, strict=True))
        for _, entries in sorted(by_count.items())
    )
