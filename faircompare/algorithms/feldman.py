"""Feldman et al. (KDD 2015) disparate-impact repair, followed by any classifier.

Each feature is repaired so that its distribution is the same in every group (Feldman et al.
§5): a value x of group s is sent to its quantile u = F_s(x) in that group, then to the "median
distribution" A, whose quantile function is the median over groups of theirs,
F_A^{-1}(u) = median_h F_h^{-1}(u). The median is the lower median, as in the authors' code, so
a repaired value is always a value of the data (the mean of two groups' quantiles would turn a
binary feature's 0 and 1 into 0.5). Partial repair (§5.2, geometric repair) moves each value
the share ``repair_level`` of the way: (1 - lambda) x + lambda F_A^{-1}(F_s(x)).

The quantile functions are fitted on training data and applied unchanged to test data (the
paper's benchmark repaired the test set on its own). Ties, which one-hot and integer features
are full of, are broken at random, so a full repair equalises discrete features too: training
values take their rank in their group with ties in random order; new values take the randomised
probability integral transform u = F_s(x-) + V (F_s(x) - F_s(x-)), V ~ U(0, 1), where V is drawn
from a hash of the row's values, the column and the seed: a row's repaired value depends on that
row alone, never on which rows are repaired with it or in what order. Only features are
repaired, never the label or other sensitive attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.metaestimators import available_if

from faircompare.algorithms.base import (
    AlgorithmInputError,
    FairEstimator,
    check_fitted_width,
    check_sensitive,
    numeric_matrix,
)
from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.rowhash import cell_uniforms, dense_columns, row_hashes
from faircompare.preprocessing import is_sparse_frame, sparse_matrix

REPAIR_LEVELS = [round(0.05 * k, 2) for k in range(21)]  # Friedler et al. §7: 0 to 1 by 0.05


class DisparateImpactRepair(TransformerMixin, BaseEstimator):
    """Repair numeric features toward the groups' median distribution.

    Columns are repaired a block of :data:`COLUMN_BLOCK` at a time, so that the working memory
    is a few blocks of the data whatever its width; sparse input (a wide one-hot encoding) is
    densified a block at a time and repaired into a sparse matrix (a one-hot column repairs to
    values of the data, mostly its zeros).

    Parameters
    ----------
    repair_level
        lambda in [0, 1]: 0 leaves the data unchanged, 1 repairs fully.
    random_state
        Seed of the tie-breaking draws.
    """

    def __init__(self, repair_level: float = 1.0, random_state: int | None = 0) -> None:
        self.repair_level = repair_level
        self.random_state = random_state

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any) -> DisparateImpactRepair:
        """Learn each group's training values, column by column."""
        if not 0 <= self.repair_level <= 1:
            raise AlgorithmInputError(f"repair_level must lie in [0, 1], got {self.repair_level}")
        features = _repair_input(X)
        groups = np.asarray(sensitive_features)
        self.groups_, codes = np.unique(groups, return_inverse=True)
        self.blocks_ = [
            _RepairBlock.of(columns, dense_columns(features, columns), codes, len(self.groups_))
            for columns in _column_blocks(features.shape[1])
        ]
        self.n_features_in_ = features.shape[1]
        return self

    def fit_transform(self, X: Any, y: Any = None, *, sensitive_features: Any) -> Any:
        """Fit on the training data and repair it.

        A training value's quantile comes from its rank in its group, ties broken by a random
        permutation, so each group's quantiles are evenly spread and a full repair makes the
        groups' distributions equal up to one value. Each group and block of columns draws
        from its own stream of ``random_state``.
        """
        self.fit(X, sensitive_features=sensitive_features)
        features = _repair_input(X)
        codes = self._codes(np.asarray(sensitive_features))
        repaired = []
        for number, block in enumerate(self.blocks_):
            values = dense_columns(features, block.columns)
            for g in range(len(self.groups_)):
                rows = codes == g
                stream = np.random.SeedSequence(self.random_state, spawn_key=(number, g))
                u = block.training_levels(values[rows], np.random.default_rng(stream))
                values[rows] = self._repair(block, values[rows], u)
            repaired.append(sparse.csc_matrix(values) if sparse.issparse(features) else values)
        return _stacked(repaired, features)

    def transform(self, X: Any, *, sensitive_features: Any) -> Any:
        """Repair new data, whose rows belong to the groups given by ``sensitive_features``.

        A group absent from the training data (a group of a few people who all fell in the test
        part of a split) has no distribution of its own to take quantiles in: its rows take
        their quantiles among all training rows, the pooled distribution.
        """
        features = _repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        hashes = row_hashes(features)
        repaired = []
        for block in self.blocks_:
            values = dense_columns(features, block.columns)
            noise = cell_uniforms(hashes, self.random_state, range(*block.span))
            for g in np.unique(codes):
                rows = codes == g
                u = block.levels(values[rows], noise[rows], g)
                values[rows] = self._repair(block, values[rows], u)
            repaired.append(sparse.csc_matrix(values) if sparse.issparse(features) else values)
        return _stacked(repaired, features)

    def _repair(self, block: _RepairBlock, values: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Move ``values`` toward the median distribution's quantiles at levels ``u``."""
        target = block.median.at(u)  # a value of the data
        return (1 - self.repair_level) * values + self.repair_level * target

    def _codes(self, groups: np.ndarray) -> np.ndarray:
        """Each row's group index in ``groups_``; ``_UNSEEN`` for a group not seen in fit."""
        codes = np.minimum(np.searchsorted(self.groups_, groups), len(self.groups_) - 1)
        return np.where(groups == self.groups_[codes], codes, _UNSEEN)


COLUMN_BLOCK = 32  # columns repaired at a time: 42 MB of ACSIncome's 164,000 training rows


def _column_blocks(width: int) -> list[slice]:
    starts = range(0, width, COLUMN_BLOCK)
    return [slice(start, min(start + COLUMN_BLOCK, width)) for start in starts]


def _repair_input(X: Any) -> Any:
    """Return the features as a float matrix: CSC for sparse input, else dense."""
    if sparse.issparse(X) or is_sparse_frame(X):
        matrix = sparse.csc_matrix(sparse_matrix(X) if is_sparse_frame(X) else X, dtype=float)
        if not np.isfinite(matrix.data).all():
            raise AlgorithmInputError("Feldman repair needs a finite 2-D feature matrix")
        return matrix
    return numeric_matrix(X, "Feldman repair")


def _stacked(blocks: list[Any], like: Any) -> Any:
    """Join repaired column blocks (sparse ones for sparse input) into a CSR or dense matrix."""
    if sparse.issparse(like):
        return sparse.hstack(blocks, format="csr") if blocks else sparse.csr_matrix(like.shape)
    return np.hstack(blocks) if blocks else np.empty(like.shape)


@dataclass(frozen=True, eq=False)
class _RepairBlock:
    """The fitted repair of a block of columns: each group's ECDF and the median quantiles."""

    columns: slice
    ecdfs: list[_Ecdf]
    median: _MedianQuantile

    @property
    def span(self) -> tuple[int, int]:
        """The block's first column and the column after its last."""
        return self.columns.start, self.columns.stop

    @classmethod
    def of(cls, columns: slice, values: np.ndarray, codes: np.ndarray, groups: int) -> _RepairBlock:
        """Index the block's training values, each group's columns sorted."""
        by_group = [np.asfortranarray(np.sort(values[codes == g], axis=0)) for g in range(groups)]
        return cls(columns, [_Ecdf.of(group) for group in by_group], _MedianQuantile.of(by_group))

    @staticmethod
    def training_levels(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Levels of one group's training values: their ranks, ties in random order, jittered."""
        shuffled_ties = np.lexsort((rng.random(values.shape), values), axis=0)
        rank = np.empty_like(shuffled_ties)
        np.put_along_axis(rank, shuffled_ties, np.arange(len(values))[:, None], axis=0)
        return (rank + rng.random(values.shape)) / len(values)

    def levels(self, values: np.ndarray, noise: np.ndarray, group: int) -> np.ndarray:
        """Levels of new values of a group (``_UNSEEN``: pooled), by the randomised ECDF."""
        ecdfs = self.ecdfs if group == _UNSEEN else [self.ecdfs[group]]
        counts = [ecdf.counts(values) for ecdf in ecdfs]
        below = sum(fewer for fewer, _ in counts)
        at_most = sum(up_to for _, up_to in counts)
        return (below + noise * (at_most - below)) / sum(ecdf.n for ecdf in ecdfs)


_FEW_VALUES = 16  # columns with at most this many distinct values are counted by comparisons
_UNSEEN = -1  # the code of a group absent from the training data


@dataclass(frozen=True, eq=False)
class _Ecdf:
    """One group's training values, column by column: how many lie below a query value.

    Columns with few distinct values (one-hot and small integer features, most of the columns
    of the benchmark's datasets) are counted for all columns of a size at once, by comparing the
    query with their distinct values; the others by binary search in the sorted column.
    """

    n: int  # the group's training rows
    # (columns, their distinct values, their counts), per number of distinct values
    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    many: np.ndarray
    many_sorted: np.ndarray  # the ``many`` columns' sorted values, column-major

    @classmethod
    def of(cls, sorted_values: np.ndarray) -> _Ecdf:
        """Index a group's training values, each column sorted."""
        distinct = [np.unique(column, return_counts=True) for column in sorted_values.T]
        sizes = np.array([len(values) for values, _ in distinct], dtype=int)
        few = []
        for size in np.unique(sizes[sizes <= _FEW_VALUES]):
            columns = np.flatnonzero(sizes == size)
            values = np.array([distinct[j][0] for j in columns])
            counts = np.array([distinct[j][1] for j in columns])
            few.append((columns, values, counts))
        many = np.flatnonzero(sizes > _FEW_VALUES)
        return cls(len(sorted_values), tuple(few), many, np.asfortranarray(sorted_values[:, many]))

    def counts(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Count, column by column, the training values < and <= each query value."""
        below = np.empty(query.shape, dtype=np.int64)
        at_most = np.empty(query.shape, dtype=np.int64)
        for columns, values, counts in self.few:
            x = query[:, columns]
            fewer = (x > values[:, 0]) * counts[:, 0]
            up_to = (x >= values[:, 0]) * counts[:, 0]
            for value, count in zip(values.T[1:], counts.T[1:], strict=True):
                fewer += (x > value) * count  # branch-free: the attack's values are random
                up_to += (x >= value) * count
            below[:, columns] = fewer
            at_most[:, columns] = up_to
        for k, j in enumerate(self.many):
            below[:, j] = np.searchsorted(self.many_sorted[:, k], query[:, j], side="left")
            at_most[:, j] = np.searchsorted(self.many_sorted[:, k], query[:, j], side="right")
        return below, at_most


@dataclass(frozen=True, eq=False)
class _MedianQuantile:
    """The median distribution's quantile function, F_A^{-1}(u) = lower median_h F_h^{-1}(u).

    Taking every group's quantile and sorting them costs G gathers and a sort per value. For a
    column with few distinct training values v_0 < ... < v_{K-1} (over all groups; one-hot and
    small integer columns), group h's quantile at u, its sorted values' entry ceil(u n_h) - 1,
    is at least v_k iff u n_h > b_hk, b_hk its number of values below v_k (always when
    b_hk = 0); and the lower median of G values is at least v_k iff at least G - (G - 1) // 2
    of them are. So the median is v_k, k the number of levels that enough groups reach: the
    same value, found by comparing the same products u n_h. Other columns take the quantiles.
    """

    sizes: tuple[int, ...]  # n_h, by group
    # (columns, their distinct values (columns x K), thresholds b_hk (groups x columns x K)),
    # per number K of distinct values
    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    many: np.ndarray
    many_sorted: tuple[np.ndarray, ...]  # each group's sorted values of the ``many`` columns

    @classmethod
    def of(cls, sorted_by_group: list[np.ndarray]) -> _MedianQuantile:
        """Index the groups' sorted training values, column by column."""
        pooled = np.vstack(sorted_by_group)
        distinct = [np.unique(column) for column in pooled.T]
        sizes = np.array([len(values) for values in distinct], dtype=int)
        few = []
        for size in np.unique(sizes[sizes <= _FEW_VALUES]):
            columns = np.flatnonzero(sizes == size)
            values = np.array([distinct[j] for j in columns])
            below = np.array(
                [
                    [np.searchsorted(group[:, j], distinct[j], side="left") for j in columns]
                    for group in sorted_by_group
                ],
                dtype=float,
            )
            below[below == 0] = -np.inf  # reached at any level u >= 0
            few.append((columns, values, below))
        many = np.flatnonzero(sizes > _FEW_VALUES)
        return cls(
            tuple(len(group) for group in sorted_by_group),
            tuple(few),
            many,
            tuple(np.asfortranarray(group[:, many]) for group in sorted_by_group),
        )

    def at(self, u: np.ndarray) -> np.ndarray:
        """Return the quantiles at levels ``u`` (rows x columns), column by column."""
        target = np.empty_like(u)
        enough = len(self.sizes) - (len(self.sizes) - 1) // 2
        for columns, values, below in self.few:
            products = [u[:, columns] * n for n in self.sizes]  # as in _quantile
            level = np.zeros(products[0].shape, dtype=np.int64)
            for k in range(1, values.shape[1]):
                groups = sum(product > below[h, :, k] for h, product in enumerate(products))
                level += groups >= enough
            target[:, columns] = values[np.arange(len(columns)), level]
        if len(self.many):
            quantiles = [_quantile(group, u[:, self.many]) for group in self.many_sorted]
            target[:, self.many] = _lower_median(quantiles)
        return target


def _lower_median(quantiles: list[np.ndarray]) -> np.ndarray:
    """Return the lower median of the groups' quantiles, cell by cell (the smaller of two)."""
    if len(quantiles) == 1:
        return quantiles[0]
    if len(quantiles) == 2:
        return np.minimum(*quantiles)
    return np.sort(quantiles, axis=0)[(len(quantiles) - 1) // 2]


def _quantile(sorted_values: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Empirical quantile function (inverse ECDF) of each column at levels ``u``."""
    n = len(sorted_values)
    index = np.clip(np.ceil(u * n).astype(np.int64) - 1, 0, n - 1)
    return np.take_along_axis(sorted_values, index, axis=0)


class FeldmanClassifier(FairEstimator):
    """Disparate-impact repair, then a classifier trained and applied on repaired features.

    Parameters
    ----------
    estimator
        The classifier (a faircompare baseline); cloned before fitting.
    repair_level
        lambda in [0, 1].
    random_state
        Seed of the repair's tie-breaking draws.
    """

    family: ClassVar[str] = "pre-processing"
    param_grid: ClassVar[dict[str, list]] = {"repair_level": REPAIR_LEVELS}
    uses_sensitive_at_predict: ClassVar[bool] = True
    # 2: tie-breaking by row hash, lower median; 3: the training rows' ties broken by a stream
    # per block of columns and group, the repair done a block of columns at a time (#31)
    version: ClassVar[str] = "3"
    sparse_input: ClassVar[bool] = True  # repaired sparse; densified for a classifier without

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        repair_level: float = 1.0,
        random_state: int | None = 0,
    ) -> None:
        self.estimator = estimator
        self.repair_level = repair_level
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> FeldmanClassifier:
        """Fit the repair on the training data, then the classifier on the repaired data."""
        features, labels = self._validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        self.repair_ = DisparateImpactRepair(self.repair_level, self.random_state)
        repaired = self._for_base(self.repair_.fit_transform(features, sensitive_features=s))
        self.estimator_ = clone(self._base()).fit(repaired, labels, sensitive_features=s)
        return self

    def _repaired(self, X: Any, sensitive_features: Any) -> Any:
        features = self._fitted_features(X)
        s = self._sensitive_for_predict(features, sensitive_features)
        return self._for_base(self.repair_.transform(features, sensitive_features=s))

    def _for_base(self, repaired: Any) -> Any:
        """Return the repaired features, densified for a classifier without sparse input."""
        dense = sparse.issparse(repaired) and not self._base().sparse_input
        return repaired.toarray() if dense else repaired

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Repair ``X`` with the training quantiles, then predict."""
        repaired = self._repaired(X, sensitive_features)
        return self._labels(self.estimator_.predict(repaired))

    @available_if(lambda self: hasattr(self._base(), "predict_proba"))
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, when the classifier has them."""
        repaired = self._repaired(X, sensitive_features)
        return self.estimator_.predict_proba(repaired)

    @available_if(lambda self: hasattr(self._base(), "decision_function"))
    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Scores, when the classifier has them."""
        repaired = self._repaired(X, sensitive_features)
        return self.estimator_.decision_function(repaired)

    def fit_equivalent(self) -> FairEstimator | None:
        """Return the classifier at repair level 0, where the repair leaves every value as is.

        ``(1 - 0) * x + 0 * q`` is ``x`` exactly for the finite values the repair accepts, so
        the classifier is fitted on, and predicts from, the features themselves.
        """
        return self._base() if self.repair_level == 0 else None

    def training_row_limit(self) -> int | None:
        """Return the classifier's limit: the representation costs about linear time."""
        return self._base().training_row_limit()

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else LogisticRegressionBaseline()
