"""The audits' per-split setups read sparse test features as their dense values."""

import numpy as np
import pytest
from scipy import sparse

from faircompare.audits.fliptest import split_transport
from faircompare.audits.individual import split_fair_metric
from faircompare.preprocessing import standardisation


def one_hot_test_rows(n: int = 400, seed: int = 0):
    """A numeric column and a 30-valued one-hot category, with groups p, q and r."""
    rng = np.random.default_rng(seed)
    groups = rng.choice(["p", "q", "r"], size=n, p=[0.5, 0.3, 0.2])
    category = rng.integers(30, size=n)
    X = np.column_stack([rng.normal(size=n) + (groups == "p"), np.eye(30)[category]])
    return X, groups


def test_sparse_standardisation_is_the_dense_one():
    X, _ = one_hot_test_rows()
    for got, expected in zip(
        standardisation(sparse.csr_matrix(X)), standardisation(X), strict=True
    ):
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_fliptest_maps_of_sparse_rows_are_those_of_their_dense_values():
    X, groups = one_hot_test_rows()
    dense = split_transport(X, groups, "p", rng=0)
    wide = split_transport(sparse.csr_matrix(X), groups, "p", rng=0)
    assert list(wide.maps) == list(dense.maps) == ["unprivileged", "q", "r"]
    for scope, group in dense.maps.items():
        np.testing.assert_array_equal(wide.maps[scope].pairs.source_rows, group.pairs.source_rows)
        np.testing.assert_array_equal(
            wide.maps[scope].pairs.counterpart_rows, group.pairs.counterpart_rows
        )
        assert wide.maps[scope].mean_cost == pytest.approx(group.mean_cost, rel=1e-12)
    np.testing.assert_allclose(wide.mean, dense.mean, rtol=1e-12)


def test_the_fair_metric_of_sparse_rows_spans_the_dense_one_without_centring():
    # The sensitive directions come from logistic regressions on scaled (sparse) or
    # standardised (dense) rows: the intercepts absorb the centring, so the subspaces agree to
    # the solver's tolerance (L-BFGS at tol = 1e-4: coefficients 0.003 apart here, 3e-6 at
    # tol = 1e-12); the audit rows and their coordinates are the same
    X, groups = one_hot_test_rows()
    dense = split_fair_metric(X, groups, rng=0)
    wide = split_fair_metric(sparse.csr_matrix(X), groups, rng=0)
    np.testing.assert_array_equal(wide.rows, dense.rows)
    np.testing.assert_allclose(wide.Z, dense.Z, atol=1e-12)
    projection = [m.directions.T @ m.directions for m in (wide.metric, dense.metric)]
    np.testing.assert_allclose(*projection, atol=1e-2)
