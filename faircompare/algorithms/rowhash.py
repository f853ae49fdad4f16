"""Random draws that belong to a row: the same for the same row, whatever batch it is in.

Randomised algorithms (Feldman's tie-breaking, the randomised classifiers of the reductions and
of threshold post-processing) must give a person the same output whether they are predicted
alone, in a batch or in another order: the audits predict perturbed copies of rows in batches,
and a prediction that depends on its neighbours would be audited as unfair or unstable. Their
draws come from a hash of the row's values instead of a stream consumed in row order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from scipy import sparse


def row_uniforms(values: Any, seed: int | None, columns: int | None = None) -> np.ndarray:
    """Return uniforms in [0, 1), one per cell, that depend only on the cell's row, column and seed.

    Each row is hashed (:func:`row_hashes`), then mixed with the column index and the seed by
    SplitMix64 (Steele et al., OOPSLA 2014), whose 53 high bits give the uniform. Equal rows get
    equal draws, wherever they stand in the batch.

    Parameters
    ----------
    values
        A float matrix, dense or sparse.
    seed
        Seed of the draws (None counts as 0).
    columns
        Draw for the first ``columns`` columns only (every column when None); the whole row is
        hashed either way.

    Returns
    -------
    numpy.ndarray
        One row per row of ``values``, one column per column drawn.
    """
    drawn = values.shape[1] if columns is None else columns
    return cell_uniforms(row_hashes(values), seed, range(drawn))


def cell_uniforms(hashes: np.ndarray, seed: int | None, columns: range) -> np.ndarray:
    """Return the draws of :func:`row_uniforms` in some columns, from the rows' hashes.

    Parameters
    ----------
    hashes
        The rows' :func:`row_hashes`.
    seed
        Seed of the draws (None counts as 0).
    columns
        The columns drawn for.

    Returns
    -------
    numpy.ndarray
        One row per hash, one column per column drawn.
    """
    with np.errstate(over="ignore"):
        streams = np.asarray(columns, dtype=np.uint64) + np.uint64(seed or 0) * _GOLDEN
        streams = _mix(streams + _GOLDEN)  # SplitMix64 of each column's stream
        uniforms = np.empty((len(hashes), len(columns)))
        for block, bits, spare in _blocks(len(hashes), len(columns)):
            np.bitwise_xor(hashes[block, None], streams, out=bits)
            bits += _GOLDEN
            _mix(bits, spare)
            uniforms[block] = (bits >> np.uint64(11)) * 2.0**-53
    return uniforms


def row_uniform(values: np.ndarray, seed: int | None) -> np.ndarray:
    """Return one uniform per row: its first column's draw of :func:`row_uniforms`."""
    return row_uniforms(values, seed, columns=1)[:, 0]


def row_hashes(values: np.ndarray) -> np.ndarray:
    """Hash each row of a float matrix: pandas' ``hash_pandas_object(frame, index=False)``.

    The same 64-bit hashes as pandas 3 (whose float hashing canonicalises -0.0 and NaN), in
    numpy: each value's bits are mixed by SplitMix64's finaliser, then a row's values are
    combined in column order as CPython combines a tuple's hashes. pandas hashes column by
    column through its own machinery; here blocks of columns are mixed in place, in cache. The
    draws no longer depend on the installed pandas either.

    Parameters
    ----------
    values
        A float matrix, dense or sparse (densified a block of columns at a time).

    Returns
    -------
    numpy.ndarray
        One uint64 hash per row.
    """
    values = sparse.csc_matrix(values) if sparse.issparse(values) else np.asarray(values, float)
    n, d = values.shape
    combined = np.full(n, 0x345678, dtype=np.uint64)
    multiplier = np.uint64(1000003)
    with np.errstate(over="ignore"):
        for block, bits, spare in _blocks(d, n):
            columns = dense_columns(values, block).T
            bits[...] = columns.view(np.uint64)
            bits[np.isnan(columns)] = _NAN_BITS
            bits[bits == _NEGATIVE_ZERO_BITS] = 0
            _mix(bits, spare)
            for column, position in zip(bits, range(block.start, block.stop), strict=True):
                combined ^= column
                combined *= multiplier
                multiplier += np.uint64(82520 + 2 * (d - position))
        return combined + np.uint64(97531)


def dense_columns(values: Any, columns: slice) -> np.ndarray:
    """Return some columns of a dense or sparse (CSC) matrix as a new dense float array."""
    part = values[:, columns]
    return part.toarray() if sparse.issparse(part) else np.array(part, dtype=np.float64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_NAN_BITS = np.array(np.nan).view(np.uint64)
_NEGATIVE_ZERO_BITS = np.array(-0.0).view(np.uint64)
_BLOCK = 1 << 15  # uint64 values mixed at a time: 256 kB, which stay in cache


def _blocks(length: int, width: int) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
    """Yield consecutive slices of ``range(length)`` and two uint64 buffers (slice x width)."""
    size = max(1, _BLOCK // max(1, width))
    buffers = np.empty((2, min(size, length), width), dtype=np.uint64)
    for start in range(0, length, size):
        block = slice(start, min(start + size, length))
        taken = block.stop - block.start
        yield block, buffers[0, :taken], buffers[1, :taken]


def _mix(z: np.ndarray, spare: np.ndarray | None = None) -> np.ndarray:
    """SplitMix64's finaliser (pandas' integer mixing), in place on uint64 (modulo 2**64)."""
    spare = np.empty_like(z) if spare is None else spare
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB), (31, None)):
        np.right_shift(z, np.uint64(shift), out=spare)
        z ^= spare
        if factor is not None:
            z *= np.uint64(factor)
    return z
