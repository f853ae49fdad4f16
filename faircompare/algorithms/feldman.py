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

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
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
from faircompare.algorithms.loss_oracle import gradient_kind
from faircompare.algorithms.rowhash import cell_uniforms, dense_columns, row_hashes
from faircompare.bibliography import Reference
from faircompare.preprocessing import is_sparse_frame, sparse_matrix

REPAIR_LEVELS = [round(0.05 * k, 2) for k in range(21)]  # Friedler et al. §7: 0 to 1 by 0.05
SURROGATE = "surrogate"  # the gradient kind of a pipeline whose classifier has one


#: Feldman et al.'s repair of the features (§5.1-5.2).
FELDMAN_2015 = Reference(
    key="feldman2015certifying",
    authors=(
        "Feldman, Michael",
        "Friedler, Sorelle A.",
        "Moeller, John",
        "Scheidegger, Carlos",
        "Venkatasubramanian, Suresh",
    ),
    title="Certifying and Removing Disparate Impact",
    year=2015,
    venue="Proceedings of the 21st ACM SIGKDD International Conference on Knowledge Discovery "
    "and Data Mining (KDD '15)",
    pages="259-268",
    doi="10.1145/2783258.2783311",
)


class DisparateImpactRepair(TransformerMixin, BaseEstimator):
    """Repair numeric features toward the groups' median distribution.

    Columns are repaired a block of :data:`COLUMN_BLOCK` at a time (new rows, when few, several
    blocks at once), so that the working memory is a few blocks of the data whatever its width;
    sparse input (a wide one-hot encoding) is densified a block at a time and repaired into a
    sparse matrix (a one-hot column repairs to values of the data, mostly its zeros).

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
        """Learn each group's training values, and where a full repair sends each of them.

        A training value's quantile comes from its rank in its group, ties broken by a random
        permutation, so each group's quantiles are evenly spread and a full repair makes the
        groups' distributions equal up to one value. Each group and block of columns draws
        from its own stream of ``random_state``. Nothing fitted depends on the repair level
        (:meth:`at_level`).
        """
        _check_level(self.repair_level)
        features = _repair_input(X)
        self.groups_, codes = np.unique(np.asarray(sensitive_features), return_inverse=True)
        self.blocks_: list[_RepairBlock] = []
        self.targets_: list[Any] = []  # dense, or CSC for sparse features
        for number, columns in enumerate(_column_blocks(features.shape[1])):
            values = dense_columns(features, columns)
            block = _RepairBlock.of(columns, values, codes, len(self.groups_))
            for g in range(len(self.groups_)):
                rows = codes == g
                stream = np.random.default_rng(
                    np.random.SeedSequence(self.random_state, spawn_key=(number, g))
                )
                values[rows] = block.median.at(block.training_levels(values[rows], stream))
            self.blocks_.append(block)
            self.targets_.append(sparse.csc_matrix(values) if sparse.issparse(features) else values)
        self.n_features_in_ = features.shape[1]
        return self

    def fit_transform(self, X: Any, y: Any = None, *, sensitive_features: Any) -> Any:
        """Fit on the training data and repair it (:meth:`fit`, :meth:`repaired_training`)."""
        return self.fit(X, sensitive_features=sensitive_features).repaired_training(X)

    def repaired_training(self, X: Any) -> Any:
        """Return the training data repaired: each value moved toward where :meth:`fit` sent it.

        Parameters
        ----------
        X
            The rows the repair was fitted on, in the same order.

        Returns
        -------
        numpy.ndarray or scipy.sparse.csr_matrix
            The repaired rows (sparse for sparse input).
        """
        features = _repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        repaired = []
        for block, target in zip(self.blocks_, self.targets_, strict=True):
            full = target.toarray() if sparse.issparse(target) else target
            values = self._moved(dense_columns(features, block.columns), full)
            repaired.append(sparse.csc_matrix(values) if sparse.issparse(features) else values)
        return _stacked(repaired, features)

    def at_level(self, repair_level: float) -> DisparateImpactRepair:
        """Return this fitted repair at another level, sharing the fit (its tie draws too).

        Parameters
        ----------
        repair_level
            lambda in [0, 1].

        Returns
        -------
        DisparateImpactRepair
            A new fitted repair; this one is unchanged.
        """
        _check_level(repair_level)
        other = copy.copy(self)
        other.repair_level = repair_level
        return other

    def transform(self, X: Any, *, sensitive_features: Any) -> Any:
        """Repair new data, whose rows belong to the groups given by ``sensitive_features``.

        A group absent from the training data (a group of a few people who all fell in the test
        part of a split) has no distribution of its own to take quantiles in: its rows take
        their quantiles among all training rows, the pooled distribution.
        """
        features = _repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        draws = _TieDraws(features, self.random_state)
        repaired = []
        for block in self._transform_blocks(features.shape[0]):
            values = dense_columns(features, block.columns)
            for g in np.unique(codes):
                rows = np.flatnonzero(codes == g)
                group_draws = partial(draws, rows, range(*block.span))
                target = block.targets(values[rows], group_draws, g)
                values[rows] = self._moved(values[rows], target)
            repaired.append(sparse.csc_matrix(values) if sparse.issparse(features) else values)
        return _stacked(repaired, features)

    def slopes(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        """Return each cell's slope d x' / d x under the repair's piecewise-linear smoothing.

        The repair of a new value is a step function of it (its level F_s(x) moves only where x
        crosses a training value), so its derivative is zero wherever it exists. Its smoothing
        joins, feature by feature and group by group, the points (v_k, m_k) by straight lines:
        v_k the group's distinct training values, and m_k the mean over the tie-breaking draw V
        of where the repair sends v_k, the median distribution's quantile function averaged
        over the levels [F_s(v_k-), F_s(v_k)] (Feldman et al. §5.1: the repair is the monotone
        map that sends F_s to the median distribution, this one its interpolation between
        the data's values). It is constant below the smallest value and above the largest.
        The slope of a partial repair is (1 - lambda) + lambda times the smoothing's; at a
        training value (where the data's rows are) it is the mean of the slopes on either side.
        A row of a group absent from the training data gets (1 - lambda).

        This is the search direction of the individual-fairness audit's attack on a repaired
        pipeline (:meth:`FeldmanClassifier.input_gradient`), not the repair's derivative.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray
            One slope per cell, shape ``X.shape``.
        """
        features = _repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        slopes = np.full(features.shape, 1.0 - self.repair_level)
        for block in self.blocks_:
            values = dense_columns(features, block.columns)
            for g in np.unique(codes[codes != _UNSEEN]):
                rows = np.flatnonzero(codes == g)
                smoothed = block.smoothed[g].slopes(values[rows])
                slopes[rows, block.columns] += self.repair_level * smoothed
        return slopes

    def _transform_blocks(self, rows: int) -> list[_RepairBlock]:
        """Return the fitted blocks, consecutive ones merged so ``rows`` rows fill :data:`_CELLS`.

        Fitted blocks keep the memory of a fit to a few of its blocks; a repair of a few rows
        (the individual audit's batches) would spend most of its time on each block's and
        group's calls. Merged blocks repair every column the same way, value for value.
        """
        per_block = _CELLS // max(1, rows * COLUMN_BLOCK)
        if per_block <= 1:
            return self.blocks_
        merged = self.__dict__.setdefault("_merged_blocks", {})
        if per_block not in merged:
            merged[per_block] = [
                _RepairBlock.merged(self.blocks_[start : start + per_block])
                for start in range(0, len(self.blocks_), per_block)
            ]
        return merged[per_block]

    def _moved(self, values: np.ndarray, target: np.ndarray) -> np.ndarray:
        """Move ``values`` toward their median distribution's quantiles (values of the data)."""
        return (1 - self.repair_level) * values + self.repair_level * target

    def _codes(self, groups: np.ndarray) -> np.ndarray:
        """Each row's group index in ``groups_``; ``_UNSEEN`` for a group not seen in fit."""
        codes = np.minimum(np.searchsorted(self.groups_, groups), len(self.groups_) - 1)
        return np.where(groups == self.groups_[codes], codes, _UNSEEN)


def _check_level(repair_level: float) -> None:
    if not 0 <= repair_level <= 1:
        raise AlgorithmInputError(f"repair_level must lie in [0, 1], got {repair_level}")


COLUMN_BLOCK = 32  # columns repaired at a time: 42 MB of ACSIncome's 164,000 training rows
_CELLS = 1 << 20  # values of new rows repaired at a time, at least a block's columns


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
    """The fitted repair of a block of columns: each group's ECDF and the median quantiles.

    A new value that ties with none of its group's training values has the level of its place
    among them. Where a group's columns all have few values, the median quantiles at the
    levels of every place are computed once (``untied``: by column, then place, as
    :meth:`_Ecdf.places` numbers them), so such values are repaired by a look-up.
    """

    columns: slice
    ecdfs: list[_Ecdf]
    median: _MedianQuantile
    untied: tuple[np.ndarray | None, ...]  # by group; None where a column has many values

    @property
    def span(self) -> tuple[int, int]:
        """The block's first column and the column after its last."""
        return self.columns.start, self.columns.stop

    @classmethod
    def of(cls, columns: slice, values: np.ndarray, codes: np.ndarray, groups: int) -> _RepairBlock:
        """Index the block's training values, each group's columns sorted."""
        by_group = [np.asfortranarray(np.sort(values[codes == g], axis=0)) for g in range(groups)]
        ecdfs = [_Ecdf.of(group) for group in by_group]
        median = _MedianQuantile.of(by_group)
        untied = tuple(
            None if len(ecdf.many) else median.at(ecdf.untied_levels()).T.ravel() for ecdf in ecdfs
        )
        return cls(columns, ecdfs, median, untied)

    @classmethod
    def merged(cls, blocks: list[_RepairBlock]) -> _RepairBlock:
        """Join the fits of consecutive blocks of columns into one block's."""
        if len(blocks) == 1:
            return blocks[0]
        start = blocks[0].columns.start
        offsets = [block.columns.start - start for block in blocks]
        groups = range(len(blocks[0].ecdfs))
        tables = [
            [table for block in blocks if (table := block.untied[g]) is not None] for g in groups
        ]
        return cls(
            slice(start, blocks[-1].columns.stop),
            [_Ecdf.merged([block.ecdfs[g] for block in blocks], offsets) for g in groups],
            _MedianQuantile.merged([block.median for block in blocks], offsets),
            tuple(np.concatenate(own) if len(own) == len(blocks) else None for own in tables),
        )

    @cached_property
    def smoothed(self) -> tuple[_SmoothedRepair, ...]:
        """Each group's piecewise-linear smoothing of the repair (:meth:`.slopes`), made once."""
        return tuple(_SmoothedRepair.of(ecdf, self.median) for ecdf in self.ecdfs)

    @staticmethod
    def training_levels(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Levels of one group's training values: their ranks, ties in random order, jittered."""
        shuffled_ties = np.lexsort((rng.random(values.shape), values), axis=0)
        rank = np.empty_like(shuffled_ties)
        np.put_along_axis(rank, shuffled_ties, np.arange(len(values))[:, None], axis=0)
        return (rank + rng.random(values.shape)) / len(values)

    def targets(
        self, values: np.ndarray, draws: Callable[[np.ndarray], np.ndarray], group: int
    ) -> np.ndarray:
        """Return the median distribution's quantiles at the levels of new values of a group.

        Rows with no tie take them from ``untied`` where the group has it; the others go
        through their levels and the median's quantile function (the same numbers).
        """
        table = None if group == _UNSEEN else self.untied[group]
        if table is None:
            return self.median.at(self.levels(values, draws, group))
        ecdf = self.ecdfs[group]
        places = ecdf.places(values)
        tied = np.flatnonzero((places & 1).any(axis=1))
        if len(tied) == len(values):  # data rows, not perturbed ones: tied throughout
            counts = ecdf.counts(values, places)
            return self.median.at(_randomised_levels([counts], ecdf.n, draws))
        target = table[places]
        if len(tied):
            counts = ecdf.counts(values[tied], places[tied])
            levels = _randomised_levels([counts], ecdf.n, lambda rows: draws(tied[rows]))
            target[tied] = self.median.at(levels)
        return target

    def levels(
        self, values: np.ndarray, draws: Callable[[np.ndarray], np.ndarray], group: int
    ) -> np.ndarray:
        """Levels of new values of a group (``_UNSEEN``: pooled), by the randomised ECDF."""
        ecdfs = self.ecdfs if group == _UNSEEN else [self.ecdfs[group]]
        counts = [ecdf.counts(values) for ecdf in ecdfs]
        return _randomised_levels(counts, sum(ecdf.n for ecdf in ecdfs), draws)


def _randomised_levels(
    counts: list[tuple[np.ndarray, np.ndarray]], n: int, draws: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """Return the levels u = (below + V (at most - below)) / n of values, summing ``counts``.

    A value that equals no training value has the level F_s(x) = F_s(x-): only the rows with
    a tie take their uniforms V, ``draws(rows)`` (the individual audit's perturbed rows have
    none, and their draws cost more than their repair).
    """
    (below, at_most), *others = counts
    below = sum((fewer for fewer, _ in others), start=below)
    spread = sum((up_to for _, up_to in others), start=at_most) - below
    levels = below.astype(float)  # below + V * spread, V's term zero where spread is
    tied = np.flatnonzero(spread.any(axis=1))
    if len(tied) == len(levels):  # data rows: every one draws, no copy of its counts
        levels += draws(tied) * spread
    elif len(tied):
        levels[tied] += draws(tied) * spread[tied]
    return levels / n


class _TieDraws:
    """The rows' tie-breaking uniforms, every row hashed when the first tied cell needs one.

    Hashing rows costs a pass per column over the rows hashed together: a batch's rows are
    hashed at once, not group by group as the repair asks for them.
    """

    def __init__(self, features: Any, seed: int | None) -> None:
        self.features, self.seed = features, seed
        self.hashes: np.ndarray | None = None

    def __call__(self, rows: np.ndarray, columns: range, tied: np.ndarray) -> np.ndarray:
        """Return the uniforms of ``rows[tied]`` in ``columns`` (as :func:`.cell_uniforms`)."""
        if self.hashes is None:  # a block of columns at a time, the rows as they stand
            self.hashes = row_hashes(self.features)
        return cell_uniforms(self.hashes[rows[tied]], self.seed, columns)


_FEW_VALUES = 16  # columns with at most this many distinct values are counted by comparisons
_PLACES = 2 * _FEW_VALUES + 2  # a column's places (2K + 1), even: a place keeps its parity
_UNSEEN = -1  # the code of a group absent from the training data


@dataclass(frozen=True, eq=False)
class _Ecdf:
    """One group's training values, column by column: how many lie below a query value.

    A column with few distinct values v_0 < ... < v_{K-1} (one-hot and small integer features,
    most of the columns of the benchmark's datasets) counts by a query's place among them
    (:meth:`places`), found for all columns of a size at once by comparisons, and a table of
    counts by place; the others by binary search in the sorted column.
    """

    n: int  # the group's training rows
    few: tuple[tuple[np.ndarray, np.ndarray], ...]  # (columns, their distinct values), by K
    below_at: np.ndarray  # by column, then place: the training values < a value there
    at_most_at: np.ndarray  # and <= it
    many: np.ndarray
    many_sorted: np.ndarray  # the ``many`` columns' sorted values, column-major

    @classmethod
    def of(cls, sorted_values: np.ndarray) -> _Ecdf:
        """Index a group's training values, each column sorted."""
        distinct = [np.unique(column, return_counts=True) for column in sorted_values.T]
        sizes = np.array([len(values) for values, _ in distinct], dtype=int)
        below_at = np.zeros((len(sizes), _PLACES), dtype=np.int64)
        at_most_at = np.zeros_like(below_at)
        few = []
        for columns in _by_size(sizes):
            few.append((columns, np.array([distinct[j][0] for j in columns])))
            counts = np.array([distinct[j][1] for j in columns])
            size = counts.shape[1]
            below = np.cumsum(counts, axis=1) - counts  # below the m-th value, m < K
            between = np.column_stack([below, np.full(len(columns), len(sorted_values))])
            between_values, at_values = slice(0, 2 * size + 1, 2), slice(1, 2 * size, 2)
            below_at[columns, between_values] = at_most_at[columns, between_values] = between
            below_at[columns, at_values] = below
            at_most_at[columns, at_values] = below + counts
        many = np.flatnonzero(sizes > _FEW_VALUES)
        return cls(
            len(sorted_values),
            tuple(few),
            below_at.ravel(),
            at_most_at.ravel(),
            many,
            np.asfortranarray(sorted_values[:, many]),
        )

    @classmethod
    def merged(cls, parts: list[_Ecdf], offsets: list[int]) -> _Ecdf:
        """Join one group's indexes of consecutive blocks, their first columns at ``offsets``."""
        return cls(
            parts[0].n,
            _merged_few([part.few for part in parts], offsets),
            np.concatenate([part.below_at for part in parts]),
            np.concatenate([part.at_most_at for part in parts]),
            np.concatenate([part.many + at for part, at in zip(parts, offsets, strict=True)]),
            np.asfortranarray(np.hstack([part.many_sorted for part in parts])),
        )

    def places(self, query: np.ndarray) -> np.ndarray:
        """Return each value's place among its column's distinct training values.

        2m between the m-th (from 0: none below) and the next, 2m + 1 at the m-th (a tie),
        plus the column's offset in a table of :data:`_PLACES` places per column; place 0 in
        columns with many values.
        """
        places = np.empty(query.shape, dtype=np.intp)
        places[:] = np.arange(query.shape[1]) * _PLACES
        for columns, values in self.few:
            x = query[:, columns]
            place = places[:, columns]
            for value in values.T:  # branch-free: the attack's values are random
                place += x > value
                place += x >= value
            places[:, columns] = place
        return places

    def counts(
        self, query: np.ndarray, places: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Count, column by column, the training values < and <= each query value.

        ``places`` are the query's :meth:`places`, when already found.
        """
        places = self.places(query) if places is None else places
        below, at_most = self.below_at[places], self.at_most_at[places]
        for k, j in enumerate(self.many):
            below[:, j] = np.searchsorted(self.many_sorted[:, k], query[:, j], side="left")
            at_most[:, j] = np.searchsorted(self.many_sorted[:, k], query[:, j], side="right")
        return below, at_most

    def untied_levels(self) -> np.ndarray:
        """Return the level F_s(x-) = below / n of a value at each place (places x columns).

        The level of an untied value (:func:`_randomised_levels` with no draw); in columns with
        many values, and at ties, not a level of any value.
        """
        return self.below_at.reshape(-1, _PLACES).T.astype(float) / self.n

    def atoms(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Return each column's distinct values with the counts of training values < and <= them."""
        below_at = self.below_at.reshape(-1, _PLACES)
        at_most_at = self.at_most_at.reshape(-1, _PLACES)
        atoms: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for columns, values in self.few:
            at_values = slice(1, 2 * values.shape[1], 2)
            for j, distinct in zip(columns, values, strict=True):
                atoms[j] = (distinct, below_at[j, at_values], at_most_at[j, at_values])
        for k, j in enumerate(self.many):
            distinct, counts = np.unique(self.many_sorted[:, k], return_counts=True)
            at_most = np.cumsum(counts)
            atoms[j] = (distinct, at_most - counts, at_most)
        return [atoms[j] for j in range(len(below_at))]


_SMOOTHING_LEVELS = 16  # levels averaged over a tie's interval for its mean repaired value
_SMOOTHING_CELLS = 1 << 18  # knots x levels x columns of a smoothing made at once, at most
_KNOT_TOLERANCE = 1e-6  # relative: a value this close to a training value is at it


@dataclass(frozen=True, eq=False)
class _SmoothedRepair:
    """One group's repair, smoothed: a piecewise-linear map per column (:meth:`.slopes`).

    A column's knots are the group's distinct training values v_0 < ... < v_{K-1}, and its K + 1
    gradients the map's slopes: 0 below v_0, (m_k - m_{k-1}) / (v_k - v_{k-1}) between knots,
    0 above v_{K-1}. Columns with few knots are kept together by their number K, and a value's
    place among them found by comparisons (as :meth:`_Ecdf.places`); the others by binary search.
    """

    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]  # (columns, knots, gradients)
    many: tuple[tuple[int, np.ndarray, np.ndarray], ...]  # (column, knots, gradients)

    @classmethod
    def of(cls, ecdf: _Ecdf, median: _MedianQuantile) -> _SmoothedRepair:
        """Smooth the repair of a group: its ECDF, sent to the median distribution."""
        atoms = ecdf.atoms()
        widest = max(len(values) for values, _, _ in atoms)
        levels = int(np.clip(_SMOOTHING_CELLS // (widest * len(atoms)), 1, _SMOOTHING_LEVELS))
        share = (np.arange(levels) + 0.5) / levels  # midpoints of equal parts of [0, 1]
        u = np.empty((widest, levels, len(atoms)))
        for j, (values, below, at_most) in enumerate(atoms):
            padded = np.arange(widest).clip(max=len(values) - 1)  # the last knot repeated
            low, high = below[padded, None], at_most[padded, None]
            u[:, :, j] = (low + share * (high - low)) / ecdf.n
        means = median.at(u.reshape(-1, len(atoms))).reshape(u.shape).mean(axis=1)
        gradients = [
            np.concatenate([[0.0], np.diff(means[: len(values), j]) / np.diff(values), [0.0]])
            for j, (values, _, _) in enumerate(atoms)
        ]
        sizes = np.array([len(values) for values, _, _ in atoms])
        few = tuple(
            (
                columns,
                np.array([atoms[j][0] for j in columns]),
                np.array([gradients[j] for j in columns]),
            )
            for columns in _by_size(sizes)
        )
        many = tuple(
            (int(j), atoms[j][0], gradients[j]) for j in np.flatnonzero(sizes > _FEW_VALUES)
        )
        return cls(few, many)

    def slopes(self, values: np.ndarray) -> np.ndarray:
        """Return the smoothing's slope at each value, the mean of both sides' at a knot.

        A value within :data:`_KNOT_TOLERANCE` (relative) of a knot is at it: the attack moves
        its points in single precision.
        """
        slopes = np.empty_like(values)
        near = _KNOT_TOLERANCE * np.maximum(np.abs(values), 1.0)
        low_values, high_values = values - near, values + near
        for columns, knots, gradients in self.few:
            low, high = low_values[:, columns], high_values[:, columns]
            below = np.zeros(low.shape, dtype=np.intp)  # knots below the value's neighbourhood
            up_to = np.zeros(low.shape, dtype=np.intp)  # and up to its end
            for knot in knots.T:
                below += knot < low
                up_to += knot <= high
            rows = np.arange(len(columns))
            slopes[:, columns] = (gradients[rows, below] + gradients[rows, up_to]) / 2
        for j, knots, gradients in self.many:
            below = np.searchsorted(knots, low_values[:, j], side="left")
            up_to = np.searchsorted(knots, high_values[:, j], side="right")
            slopes[:, j] = (gradients[below] + gradients[up_to]) / 2  # one interval: equal
        return slopes


@dataclass(frozen=True, eq=False)
class _MedianQuantile:
    """The median distribution's quantile function, F_A^{-1}(u) = lower median_h F_h^{-1}(u).

    Taking every group's quantile and sorting them costs G gathers and a sort per value. For a
    column with distinct training values v_0 < ... < v_{K-1} (over all groups), group h's
    quantile at u, its sorted values' entry ceil(u n_h) - 1, is at least v_k iff u n_h > b_hk,
    b_hk its number of values below v_k (always when b_hk = 0); in floating point, iff u is at
    least t_hk, the least double whose product with n_h exceeds b_hk (the product is monotone
    in u). The lower median of G values is at least v_k iff at least G - (G - 1) // 2 of them
    are, that is iff u reaches that many of the t_hk: iff u >= t_k, the (G - (G - 1) // 2)-th
    smallest of them. So the median is v_k, k the number of the thresholds t_1 <= ... <= t_{K-1}
    that u reaches: the same value as the groups' quantiles, found by comparisons in columns with
    few values (one-hot and small integer columns, kept together by their K) and by binary
    search in the others.
    """

    # (columns, their distinct values (columns x K), thresholds t_k (columns x K)), per number
    # K of distinct values
    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    many: tuple[tuple[int, np.ndarray, np.ndarray], ...]  # (column, values, thresholds t_1...)

    @classmethod
    def of(cls, sorted_by_group: list[np.ndarray]) -> _MedianQuantile:
        """Index the groups' sorted training values, column by column."""
        distinct = [np.unique(column) for column in np.vstack(sorted_by_group).T]
        sizes = np.array([len(values) for values in distinct], dtype=int)
        few = []
        for columns in _by_size(sizes):
            values = np.array([distinct[j] for j in columns])
            few.append((columns, values, _median_thresholds(sorted_by_group, columns, values)))
        many = tuple(
            (int(j), values, _median_thresholds(sorted_by_group, [j], values[None])[0, 1:])
            for j in np.flatnonzero(sizes > _FEW_VALUES)
            for values in [distinct[j]]
        )
        return cls(tuple(few), many)

    @classmethod
    def merged(cls, parts: list[_MedianQuantile], offsets: list[int]) -> _MedianQuantile:
        """Join the medians of consecutive blocks, their first columns at ``offsets``."""
        return cls(
            _merged_few([part.few for part in parts], offsets),
            tuple(
                (j + offset, values, thresholds)
                for part, offset in zip(parts, offsets, strict=True)
                for j, values, thresholds in part.many
            ),
        )

    def at(self, u: np.ndarray) -> np.ndarray:
        """Return the quantiles at levels ``u`` (rows x columns), column by column."""
        target = np.empty_like(u)
        for columns, values, thresholds in self.few:
            x = u[:, columns]
            level = np.zeros(x.shape, dtype=np.intp)
            for threshold in thresholds[:, 1:].T:
                level += x >= threshold
            target[:, columns] = values[np.arange(len(columns)), level]
        for j, values, thresholds in self.many:
            target[:, j] = values[np.searchsorted(thresholds, u[:, j], side="right")]
        return target


def _median_thresholds(
    sorted_by_group: list[np.ndarray], columns: Any, values: np.ndarray
) -> np.ndarray:
    """Return the levels t_k from which the median reaches each of ``values`` (columns x K)."""
    below = np.array(
        [
            [np.searchsorted(group[:, j], row) for j, row in zip(columns, values, strict=True)]
            for group in sorted_by_group
        ]
    )  # groups x columns x K
    sizes = np.array([len(group) for group in sorted_by_group]).reshape(-1, 1, 1)
    enough = len(sorted_by_group) - (len(sorted_by_group) - 1) // 2
    return np.sort(_least_level_above(below, sizes), axis=0)[enough - 1]


def _least_level_above(below: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Return the least double u with u * n > b, for each count b (-inf where b is 0).

    ``u * n`` as a group's empirical quantile function computes it (its entry ceil(u n) - 1):
    ``b / n`` is within an ulp or two of the answer, and a product is monotone in u, so a few
    steps to the next double find it.
    """
    n = np.broadcast_to(n, below.shape)
    u = below / n
    too_high = np.nextafter(u, -np.inf) * n > below  # a smaller double's product exceeds b
    while too_high.any():
        u[too_high] = np.nextafter(u[too_high], -np.inf)
        too_high = np.nextafter(u, -np.inf) * n > below
    too_low = u * n <= below
    while too_low.any():
        u[too_low] = np.nextafter(u[too_low], np.inf)
        too_low = u * n <= below
    return np.where(below == 0, -np.inf, u)


def _by_size(sizes: np.ndarray) -> list[np.ndarray]:
    """Return the columns with at most :data:`_FEW_VALUES` values, grouped by that number K."""
    return [np.flatnonzero(sizes == size) for size in np.unique(sizes[sizes <= _FEW_VALUES])]


def _merged_few(parts: list[tuple[Any, ...]], offsets: list[int]) -> tuple[Any, ...]:
    """Join blocks' columns with few values, by their number K of values.

    Each part's entries are ``(columns, values, ...)``, one per K, each array by column.
    """
    by_size: dict[int, list[tuple[np.ndarray, ...]]] = {}
    for few, offset in zip(parts, offsets, strict=True):
        for columns, *rest in few:
            by_size.setdefault(rest[0].shape[1], []).append((columns + offset, *rest))
    return tuple(
        tuple(np.concatenate(arrays) for arrays in zip(*entries, strict=True))
        for _, entries in sorted(by_size.items())
    )


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
    references: ClassVar[tuple[Reference, ...]] = (FELDMAN_2015,)
    param_grid: ClassVar[dict[str, list]] = {"repair_level": REPAIR_LEVELS}
    uses_sensitive_at_predict: ClassVar[bool] = True
    groups_by_order: ClassVar[bool] = True  # groups are their indices in the sorted groups_
    # 2: tie-breaking by row hash, lower median; 3: the training rows' ties broken by a stream
    # per block of columns and group, the repair done a block of columns at a time (#31); 4: one
    # fit of the repair, and one seed of its draws, for every level of a sweep (#69)
    version: ClassVar[str] = "4"
    refit_params: ClassVar[frozenset[str]] = frozenset({"repair_level"})
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
        """Fit the repair on the training data, then the classifier on the repaired data.

        The training rows are kept with the model, so that :meth:`refitted` can repair them at
        another level.
        """
        features, labels = self.validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        self.repair_ = DisparateImpactRepair(self.repair_level, self.random_state)
        self._training = features, labels, s
        self.repair_.fit(features, sensitive_features=s)
        return self._fit_classifier()

    def refitted(self, **params: Any) -> FeldmanClassifier:
        """Return this model at another repair level: the repair's fit shared, the classifier new.

        Nothing the repair fits depends on the level (:meth:`DisparateImpactRepair.at_level`),
        so the runs of a sweep over levels share one fit of it, and one set of tie-breaking
        draws: their models differ by the level alone.

        Parameters
        ----------
        **params
            ``repair_level``; its default (1) when not given.

        Returns
        -------
        FeldmanClassifier
            A new fitted model; this one is unchanged.
        """
        other = copy.copy(self).set_params(**self._refit_settings(params))
        other.repair_ = self.repair_.at_level(other.repair_level)
        return other._fit_classifier()

    def _fit_classifier(self) -> FeldmanClassifier:
        """Fit the classifier on the training rows repaired at the model's level."""
        features, labels, s = self._training
        repaired = self._for_base(self.repair_.repaired_training(features))
        self.estimator_ = clone(self._base()).fit(repaired, labels, sensitive_features=s)
        return self

    def _checked(self, X: Any, sensitive_features: Any) -> tuple[Any, np.ndarray]:
        """Return the features as fitted and each row's group."""
        features = self.fitted_features(X)
        return features, self.sensitive_for_predict(features, sensitive_features)

    def _repaired(self, features: Any, s: np.ndarray) -> Any:
        """Repair checked features (:meth:`_checked`) for the classifier."""
        return self._for_base(self.repair_.transform(features, sensitive_features=s))

    def _for_base(self, repaired: Any) -> Any:
        """Return the repaired features, densified for a classifier without sparse input."""
        dense = sparse.issparse(repaired) and not self._base().sparse_input
        return repaired.toarray() if dense else repaired

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Repair ``X`` with the training quantiles, then predict."""
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.to_labels(self.estimator_.predict(repaired))

    @available_if(lambda self: hasattr(self._base(), "predict_proba"))
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, when the classifier has them."""
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.estimator_.predict_proba(repaired)

    @available_if(lambda self: hasattr(self._base(), "decision_function"))
    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Scores, when the classifier has them."""
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.estimator_.decision_function(repaired)

    @property
    def gradient_kind(self) -> str | None:
        """``"surrogate"`` if the classifier has a gradient, else None (trees, naive Bayes)."""
        fitted = getattr(self, "estimator_", None)
        base = self._base() if fitted is None else fitted
        return SURROGATE if gradient_kind(base) is not None else None

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return the log-loss's gradient through the repair's smoothing, for the audit's attack.

        The repair is a step function of each feature, so the pipeline's exact gradient is zero
        almost everywhere. This is the chain rule through the repair's piecewise-linear
        smoothing instead (:meth:`DisparateImpactRepair.slopes`): the classifier's input
        gradient at the repaired row, times each feature's slope. The individual-fairness audit
        follows it as its search direction (the attack's kind is ``"surrogate"``); the losses
        it tests are the pipeline's own.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        y
            Labels (1 positive, 0 other).
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray
            One gradient per row, shape ``(rows, features)``.

        Raises
        ------
        NotImplementedError
            Where the classifier has no input gradient (``gradient_kind`` is None).
        """
        if self.gradient_kind is None:
            raise NotImplementedError(f"{type(self._base()).__name__} has no input gradient")
        features, s = self._checked(X, sensitive_features)
        inner = self.estimator_.input_gradient(self._repaired(features, s), y, sensitive_features=s)
        return inner * self.repair_.slopes(features, sensitive_features=s)

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
