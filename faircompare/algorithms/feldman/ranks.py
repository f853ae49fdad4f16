"""Feldman's repair with ties broken at random: each row its own quantile (``ties="random"``).

Each feature is repaired so that its distribution is the same in every group (Feldman et al.
§5): a value x of group s is sent to its quantile u = F_s(x) in that group, then to the "median
distribution" A, whose quantile function is the lower median over groups of theirs,
F_A^{-1}(u) = median_h F_h^{-1}(u), so a repaired value is always a value of the data. Partial
repair (§5.2, geometric repair) moves each value the share lambda of the way:
(1 - lambda) x + lambda F_A^{-1}(F_s(x)).

Ties, which one-hot and integer features are full of, are broken at random, so a full repair
equalises discrete features too (the authors' code, :mod:`.values`, leaves a 0/1 column as it
is): training values take their rank in their group with ties in random order; new values take
the randomised probability integral transform u = F_s(x-) + V (F_s(x) - F_s(x-)), V ~ U(0, 1),
where V is drawn from a hash of the row's *tied* cells (its values equal to a training value of
its group; the others hashed as missing), the column and the seed. A row's repaired value
depends on that row alone, never on which rows are repaired with it; moving a feature that ties
with no training value never draws another cell again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

import numpy as np
from scipy import sparse

from faircompare.algorithms.feldman.columns import (
    FEW_VALUES,
    UNSEEN,
    as_input,
    by_size,
    column_blocks,
    merged_blocks,
    merged_few,
    stacked,
)
from faircompare.algorithms.feldman.smoothing import PiecewiseLinear
from faircompare.algorithms.rowhash import cell_uniforms, dense_columns, row_hashes


class RankRepair:
    """The fitted repair with random ties: each group's ECDF and the median quantiles, by block.

    Parameters
    ----------
    features
        The training features (dense, or CSC).
    codes
        Each training row's group, 0 to ``groups`` - 1.
    groups
        The number of groups.
    seed
        Seed of the tie draws: each group and block of columns draws from its own stream for
        the training rows; new rows' draws mix it with their hash.
    """

    def __init__(self, features: Any, codes: np.ndarray, groups: int, seed: int | None) -> None:
        self.seed = seed
        self.blocks: list[_RepairBlock] = []
        self.targets: list[Any] = []  # where a full repair sends the training rows: dense or CSC
        for number, columns in enumerate(column_blocks(features.shape[1])):
            values = dense_columns(features, columns)
            block = _RepairBlock.of(columns, values, codes, groups)
            for g in range(groups):
                rows = codes == g
                stream = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(number, g)))
                values[rows] = block.median.at(block.training_levels(values[rows], stream))
            self.blocks.append(block)
            self.targets.append(as_input(values, features))
        self._merged: dict[int, list[_RepairBlock]] = {}

    def training(self, features: Any, level: float) -> Any:
        """Return the training rows (as fitted, in order) repaired at ``level``."""
        repaired = []
        for block, target in zip(self.blocks, self.targets, strict=True):
            full = target.toarray() if sparse.issparse(target) else target
            values = _moved(dense_columns(features, block.columns), full, level)
            repaired.append(as_input(values, features))
        return stacked(repaired, features)

    def transform(self, features: Any, codes: np.ndarray, level: float) -> Any:
        """Repair new rows, whose groups are ``codes`` (:data:`UNSEEN`: pooled), at ``level``.

        A group absent from the training data has no distribution of its own to take quantiles
        in: its rows take their quantiles among all training rows, the pooled distribution.
        """
        blocks = self._transform_blocks(features.shape[0])
        draws = _TieDraws(features, self.seed, lambda: self._tied(features, codes, blocks))
        repaired = []
        for block in blocks:
            values = dense_columns(features, block.columns)
            for g in np.unique(codes):
                rows = np.flatnonzero(codes == g)
                group_draws = partial(draws, rows, range(*block.span))
                target = block.targets(values[rows], group_draws, g)
                values[rows] = _moved(values[rows], target, level)
            repaired.append(as_input(values, features))
        return stacked(repaired, features)

    def slopes(self, features: Any, codes: np.ndarray, level: float) -> np.ndarray:
        """Return each cell's slope under the repair's smoothing (:mod:`.smoothing`).

        The smoothing joins (v_k, m_k): m_k the mean over the tie draw V of where the repair
        sends v_k, the median distribution's quantile function averaged over the levels
        [F_s(v_k-), F_s(v_k)]. The slope of a partial repair is (1 - lambda) + lambda times the
        smoothing's; a row of a group absent from the training data gets (1 - lambda).
        """
        slopes = np.full(features.shape, 1.0 - level)
        for block in self.blocks:
            values = dense_columns(features, block.columns)
            for g in np.unique(codes[codes != UNSEEN]):
                rows = np.flatnonzero(codes == g)
                smoothed = block.smoothed[g].slopes(values[rows])
                slopes[rows, block.columns] += level * smoothed
        return slopes

    def _tied(self, features: Any, codes: np.ndarray, blocks: list[_RepairBlock]) -> np.ndarray:
        """Return whether each cell ties with a training value of its row's group."""
        tied = np.zeros(features.shape, dtype=bool)
        for block in blocks:
            values = dense_columns(features, block.columns)
            for g in np.unique(codes):
                rows = np.flatnonzero(codes == g)
                ecdfs = block.ecdfs if g == UNSEEN else [block.ecdfs[g]]
                for ecdf in ecdfs:
                    below, at_most = ecdf.counts(values[rows])
                    tied[rows, block.columns] |= at_most > below
        return tied

    def _transform_blocks(self, rows: int) -> list[_RepairBlock]:
        """Return the fitted blocks, merged for few rows (:func:`.columns.merged_blocks`)."""
        return merged_blocks(self.blocks, rows, self._merged, _RepairBlock.merged)


def _moved(values: np.ndarray, target: np.ndarray, level: float) -> np.ndarray:
    """Move ``values`` the share ``level`` of the way to ``target`` (geometric repair)."""
    return (1 - level) * values + level * target


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
    def smoothed(self) -> tuple[PiecewiseLinear, ...]:
        """Each group's piecewise-linear smoothing of the repair (:mod:`.smoothing`), made once."""
        return tuple(_smoothed(ecdf, self.median) for ecdf in self.ecdfs)

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
        table = None if group == UNSEEN else self.untied[group]
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
        """Levels of new values of a group (``UNSEEN``: pooled), by the randomised ECDF."""
        ecdfs = self.ecdfs if group == UNSEEN else [self.ecdfs[group]]
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

    A row's hash covers its tied cells only (:func:`_tied_cells`), found over every block
    before the first draw. Hashing rows costs a pass per column over the rows hashed together:
    a batch's rows are hashed at once, not group by group as the repair asks for them.
    """

    def __init__(self, features: Any, seed: int | None, tied: Callable[[], np.ndarray]) -> None:
        self.features, self.seed, self.tied = features, seed, tied
        self.hashes: np.ndarray | None = None

    def __call__(self, rows: np.ndarray, columns: range, tied: np.ndarray) -> np.ndarray:
        """Return the uniforms of ``rows[tied]`` in ``columns`` (as :func:`.cell_uniforms`)."""
        if self.hashes is None:
            self.hashes = row_hashes(_tied_cells(self.features, self.tied()))
        return cell_uniforms(self.hashes[rows[tied]], self.seed, columns)


def _tied_cells(features: Any, tied: np.ndarray) -> Any:
    """Return the features with every untied cell missing (NaN): what a row's draws hash.

    In a sparse matrix the implicit zeros stay zeros (zero is a training value of every
    sparse column the benchmark makes).
    """
    if not sparse.issparse(features):
        return np.where(tied, features, np.nan)
    masked = sparse.csc_matrix(features, copy=True)
    columns = np.repeat(np.arange(masked.shape[1]), np.diff(masked.indptr))
    masked.data[~tied[masked.indices, columns]] = np.nan
    return masked


_PLACES = 2 * FEW_VALUES + 2  # a column's places (2K + 1), even: a place keeps its parity


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
        for columns in by_size(sizes):
            few.append((columns, np.array([distinct[j][0] for j in columns])))
            counts = np.array([distinct[j][1] for j in columns])
            size = counts.shape[1]
            below = np.cumsum(counts, axis=1) - counts  # below the m-th value, m < K
            between = np.column_stack([below, np.full(len(columns), len(sorted_values))])
            between_values, at_values = slice(0, 2 * size + 1, 2), slice(1, 2 * size, 2)
            below_at[columns, between_values] = at_most_at[columns, between_values] = between
            below_at[columns, at_values] = below
            at_most_at[columns, at_values] = below + counts
        many = np.flatnonzero(sizes > FEW_VALUES)
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
            merged_few([part.few for part in parts], offsets),
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


def _smoothed(ecdf: _Ecdf, median: _MedianQuantile) -> PiecewiseLinear:
    """Smooth the repair of a group: its ECDF, sent to the median distribution.

    A knot's point is the mean of the median's quantiles over the levels its tie draw gives.
    """
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
    knots = [values for values, _, _ in atoms]
    return PiecewiseLinear.through(knots, [means[: len(v), j] for j, v in enumerate(knots)])


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
        for columns in by_size(sizes):
            values = np.array([distinct[j] for j in columns])
            few.append((columns, values, _median_thresholds(sorted_by_group, columns, values)))
        many = tuple(
            (int(j), values, _median_thresholds(sorted_by_group, [j], values[None])[0, 1:])
            for j in np.flatnonzero(sizes > FEW_VALUES)
            for values in [distinct[j]]
        )
        return cls(tuple(few), many)

    @classmethod
    def merged(cls, parts: list[_MedianQuantile], offsets: list[int]) -> _MedianQuantile:
        """Join the medians of consecutive blocks, their first columns at ``offsets``."""
        return cls(
            merged_few([part.few for part in parts], offsets),
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
