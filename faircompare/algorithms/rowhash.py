"""Random draws that belong to a row: the same for the same row, whatever batch it is in.

Randomised algorithms (Feldman's tie-breaking, the randomised classifiers of the reductions and
of threshold post-processing) must give a person the same output whether they are predicted
alone, in a batch or in another order: the audits predict perturbed copies of rows in batches,
and a prediction that depends on its neighbours would be audited as unfair or unstable. Their
draws come from a hash of the row's values instead of a stream consumed in row order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def row_uniforms(values: np.ndarray, seed: int | None) -> np.ndarray:
    """Return uniforms in [0, 1), one per cell, that depend only on the cell's row, column and seed.

    Each row is hashed (pandas' SipHash of its values), then mixed with the column index and the
    seed by SplitMix64 (Steele et al., OOPSLA 2014), whose 53 high bits give the uniform. Equal
    rows get equal draws, wherever they stand in the batch.

    Parameters
    ----------
    values
        A float matrix.
    seed
        Seed of the draws (None counts as 0).

    Returns
    -------
    numpy.ndarray
        An array of the shape of ``values``.
    """
    rows = pd.util.hash_pandas_object(pd.DataFrame(values), index=False).to_numpy(np.uint64)
    columns = np.arange(values.shape[1], dtype=np.uint64)
    with np.errstate(over="ignore"):
        streams = _splitmix64(columns + np.uint64(seed or 0) * _GOLDEN)
        return (_splitmix64(rows[:, None] ^ streams[None, :]) >> np.uint64(11)) * 2.0**-53


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, elementwise on uint64 (arithmetic modulo 2**64, wrapping)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))
