"""Row hashes and the per-row draws built on them: pandas' hashes (the reference), batch
invariance, and uniformity."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kstest

from faircompare.algorithms.rowhash import row_hashes, row_uniform, row_uniforms


def pandas_hashes(values: np.ndarray) -> np.ndarray:
    return pd.util.hash_pandas_object(pd.DataFrame(values), index=False).to_numpy(np.uint64)


@pytest.mark.parametrize("shape", [(800, 399), (20_000, 3), (1, 500), (7, 1), (5, 0), (0, 4)])
def test_row_hashes_are_pandas_hashes(shape):
    rng = np.random.default_rng(0)
    values = rng.normal(size=shape)
    values[values > 1.0] = 0.0  # ties, as one-hot columns have
    if values.size:
        values.flat[::7] = -0.0  # pandas hashes -0.0 as 0.0 and every NaN alike
        values.flat[::11] = np.nan
        values.flat[::13] = np.inf
    np.testing.assert_array_equal(row_hashes(values), pandas_hashes(values))
    np.testing.assert_array_equal(row_hashes(np.asfortranarray(values)), pandas_hashes(values))


def test_a_rows_draws_are_its_own_whatever_the_batch():
    rng = np.random.default_rng(1)
    values = rng.integers(0, 3, size=(500, 6)).astype(float)
    order = rng.permutation(len(values))
    draws = row_uniforms(values, seed=5)
    np.testing.assert_array_equal(row_uniforms(values[order], seed=5), draws[order])
    np.testing.assert_array_equal(row_uniforms(values[:1], seed=5), draws[:1])
    equal_rows = (values[:, None, :] == values[None, :, :]).all(axis=2)
    first, second = np.argwhere(np.triu(equal_rows, 1))[0]  # two equal rows: equal draws
    np.testing.assert_array_equal(draws[first], draws[second])
    assert not np.array_equal(row_uniforms(values, seed=6), draws)


def test_draws_of_distinct_rows_are_uniform():
    # 20,000 distinct rows x 5 columns: a KS test at level 1e-3 (seeded, so the check is fixed)
    values = np.random.default_rng(2).normal(size=(20_000, 5))
    draws = row_uniforms(values, seed=0)
    assert ((draws >= 0) & (draws < 1)).all()
    assert kstest(draws.ravel(), "uniform").pvalue > 1e-3
    # the columns' draws are not copies of one another
    assert abs(np.corrcoef(draws[:, 0], draws[:, 1])[0, 1]) < 0.03


def test_the_first_columns_draws_alone_are_those_of_every_column():
    values = np.random.default_rng(3).normal(size=(300, 8))
    every = row_uniforms(values, seed=4)
    np.testing.assert_array_equal(row_uniforms(values, seed=4, columns=3), every[:, :3])
    np.testing.assert_array_equal(row_uniform(values, seed=4), every[:, 0])
