"""Feldman's repair as its authors' code does it: each distinct value of a group to one value.

BlackBoxAuditing, the authors' code (its numeric repair in ``repairers/CategoricRepairer.py``,
which Friedler et al.'s benchmark and AIF360's ``DisparateImpactRemover`` call), repairs a
column value by value, never row by row (Feldman et al. §5.1-5.2), and ``ties="value"`` does
the same, value for value:

- each group h's *distinct* values v_0 < ... < v_{n_h - 1} are cut into Q = min_h n_h buckets,
  bucket q holding the entries from round(o_q n_h) to round(o_{q+1} n_h) (exclusive), where
  o_0 = 0 and o_{q+1} = o_q + 1/Q as the authors' loop sums them in floating point, and round
  halves to even as Python's ``round``;
- a bucket's value is the lower median of its distinct values, and bucket q's target the lower
  median over the groups of theirs;
- a value at position p among the column's distinct values (all groups together), whose bucket's
  target is at position t, is repaired at level lambda to the distinct value at position
  p + round((t - p) lambda): always a value of the data, itself at lambda = 0.

So equal values of a group are repaired alike, whatever else their rows hold, and a 0/1 column
whose two values every group has keeps them (the buckets are values, not people: such a column
is left as it is). The authors' code repairs whatever rows it is given; here the map is fitted
on the training rows and applied to new ones: a new value takes the repair of the nearest
distinct training value of its group (the lower of two at equal distance), so it is placed
among the training values, monotone and deterministic, and at lambda = 0 stays as it is. A
group absent from the training data takes the repair of its value's bucket among all the
training values (their distinct values cut into the same Q buckets).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from faircompare.algorithms.feldman.columns import (
    FEW_VALUES,
    as_input,
    by_size,
    column_blocks,
    merged_blocks,
    merged_few,
    stacked,
)
from faircompare.algorithms.feldman.smoothing import PiecewiseLinear
from faircompare.algorithms.rowhash import dense_columns


class ValueRepair:
    """The fitted repair by value: each group's distinct training values and where they go.

    Parameters
    ----------
    features
        The training features (dense, or CSC).
    codes
        Each training row's group, 0 to ``groups`` - 1.
    groups
        The number of groups.
    """

    def __init__(self, features: Any, codes: np.ndarray, groups: int) -> None:
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(groups + 1))
        self.codes = codes
        self._merged: dict[int, list[_ValueBlock]] = {}
        self.blocks = [
            _ValueBlock.of(columns, dense_columns(features, columns)[order], bounds)
            for columns in column_blocks(features.shape[1])
        ]

    def training(self, features: Any, level: float) -> Any:
        """Return the training rows (as fitted, in order) repaired at ``level``."""
        return self.transform(features, self.codes, level)

    def transform(self, features: Any, codes: np.ndarray, level: float) -> Any:
        """Repair rows, whose groups are ``codes`` (-1, a group unseen in fit: the pooled map)."""
        repaired = []
        for block in self._transform_blocks(features.shape[0]):
            values = dense_columns(features, block.columns)
            for g in np.unique(codes) if level else ():  # level 0: as they are
                rows = np.flatnonzero(codes == g)
                values[rows] = block.maps[g].repaired(values[rows], level)
            repaired.append(as_input(values, features))
        return stacked(repaired, features)

    def slopes(self, features: Any, codes: np.ndarray, level: float) -> np.ndarray:
        """Return each cell's slope under the smoothing of the repair at ``level``.

        The smoothing joins each group's points (v_k, r(v_k)), r(v_k) where the repair at this
        level sends its distinct training value v_k (:mod:`.smoothing`); at level 0 the repair
        is the identity, whose slope is 1.
        """
        if level == 0:
            return np.ones(features.shape)
        slopes = np.empty(features.shape)
        for block in self._transform_blocks(features.shape[0]):
            values = dense_columns(features, block.columns)
            for g in np.unique(codes):
                rows = np.flatnonzero(codes == g)
                slopes[rows, block.columns] = block.maps[g].smoothed(level).slopes(values[rows])
        return slopes

    def _transform_blocks(self, rows: int) -> list[_ValueBlock]:
        """Return the fitted blocks, merged for few rows (:func:`.columns.merged_blocks`)."""
        return merged_blocks(self.blocks, rows, self._merged, _ValueBlock.merged)


@dataclass(frozen=True, eq=False)
class _ValueBlock:
    """The repair by value of a block of columns: one map per group, then the pooled one."""

    columns: slice
    maps: tuple[_GroupMap, ...]  # by group code; the last (code -1) for an unseen group

    @classmethod
    def of(cls, columns: slice, values: np.ndarray, bounds: np.ndarray) -> _ValueBlock:
        """Fit the block on its training values, sorted by group (group g's rows in ``bounds``)."""
        by_group = [values[start:stop] for start, stop in zip(bounds[:-1], bounds[1:], strict=True)]
        distinct = [np.unique(column) for column in values.T]
        knots: list[list[np.ndarray]] = [[] for _ in range(len(by_group) + 1)]
        targets: list[list[np.ndarray]] = [[] for _ in range(len(by_group) + 1)]
        for j, everyone in enumerate(distinct):
            own = [np.unique(group[:, j]) for group in by_group]
            sent = _bucket_targets(own, everyone)
            for g, (v, t) in enumerate(zip([*own, everyone], sent, strict=True)):
                knots[g].append(v)
                targets[g].append(t)
        maps = tuple(_GroupMap.of(v, t, distinct) for v, t in zip(knots, targets, strict=True))
        return cls(columns, maps)

    @classmethod
    def merged(cls, blocks: list[_ValueBlock]) -> _ValueBlock:
        """Join the fits of consecutive blocks of columns into one block's."""
        if len(blocks) == 1:
            return blocks[0]
        start = blocks[0].columns.start
        offsets = [block.columns.start - start for block in blocks]
        maps = tuple(
            _GroupMap.merged([block.maps[g] for block in blocks], offsets)
            for g in range(len(blocks[0].maps))
        )
        return cls(slice(start, blocks[-1].columns.stop), maps)


def _bucket_targets(own: list[np.ndarray], everyone: np.ndarray) -> list[np.ndarray]:
    """Return where a full repair sends each group's distinct values, then every value's.

    ``own`` holds each group's sorted distinct values in one column, ``everyone`` the column's;
    the buckets, their lower medians and the targets are the authors' (the module's text).
    """
    q = min(len(v) for v in own)
    offsets = np.concatenate([[0.0], np.cumsum(np.full(q, 1.0 / q))])  # summed one by one
    bounds = [np.round(offsets * len(v)).astype(np.int64) for v in own]
    medians = np.full((len(own), q), np.inf)  # each group's bucket value; inf where empty
    for g, (v, b) in enumerate(zip(own, bounds, strict=True)):
        sizes = np.diff(b)
        filled = sizes > 0
        medians[g, filled] = v[b[:-1][filled] + (sizes[filled] - 1) // 2]
    filled_groups = np.isfinite(medians).sum(axis=0)
    target = np.sort(medians, axis=0)[(filled_groups - 1) // 2, np.arange(q)]

    def sent(values: np.ndarray, bucket_bounds: np.ndarray) -> np.ndarray:
        bucket = np.searchsorted(bucket_bounds[1:], np.arange(len(values)), side="right")
        return np.where(bucket < q, target[np.minimum(bucket, q - 1)], values)  # past: kept

    pooled = np.round(offsets * len(everyone)).astype(np.int64)
    return [*(sent(v, b) for v, b in zip(own, bounds, strict=True)), sent(everyone, pooled)]


@dataclass(frozen=True, eq=False)
class _GroupMap:
    """One group's repair of a block's columns: its distinct values and their places.

    A column's knots are the group's distinct training values; ``positions`` and ``targets``
    their places, and their full repair's, among the column's distinct values (``distinct``).
    Columns with few knots are kept together by their number K (their nearest knot found by
    comparisons), the others one by one (by binary search).
    """

    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ...]
    many: tuple[tuple[int, np.ndarray, np.ndarray, np.ndarray], ...]
    distinct: tuple[np.ndarray, ...]  # each column's distinct training values, all groups
    _at_level: dict[float, tuple[Any, ...]]  # the knots' repaired values, by level
    _smoothings: dict[float, PiecewiseLinear]  # the repair's smoothing, by level

    @classmethod
    def of(
        cls, knots: list[np.ndarray], targets: list[np.ndarray], distinct: list[np.ndarray]
    ) -> _GroupMap:
        """Index a group's knots and targets, column by column."""
        positions = [np.searchsorted(d, v) for d, v in zip(distinct, knots, strict=True)]
        aims = [np.searchsorted(d, t) for d, t in zip(distinct, targets, strict=True)]
        sizes = np.array([len(v) for v in knots])

        def stacked_at(part: list[np.ndarray], columns: np.ndarray) -> np.ndarray:
            return np.array([part[j] for j in columns])

        few = tuple(
            (c, stacked_at(knots, c), stacked_at(positions, c), stacked_at(aims, c))
            for c in by_size(sizes)
        )
        many = tuple(
            (int(j), knots[j], positions[j], aims[j]) for j in np.flatnonzero(sizes > FEW_VALUES)
        )
        return cls(few, many, tuple(distinct), {}, {})

    @classmethod
    def merged(cls, parts: list[_GroupMap], offsets: list[int]) -> _GroupMap:
        """Join one group's maps of consecutive blocks, their first columns at ``offsets``."""
        return cls(
            merged_few([part.few for part in parts], offsets),
            tuple(
                (j + offset, knots, positions, targets)
                for part, offset in zip(parts, offsets, strict=True)
                for j, knots, positions, targets in part.many
            ),
            tuple(values for part in parts for values in part.distinct),
            {},
            {},
        )

    def repaired(self, values: np.ndarray, level: float) -> np.ndarray:
        """Return the values (rows x the block's columns) repaired at ``level``."""
        repaired = np.empty_like(values)
        few, many = self._levelled(level)
        for (columns, knots, *_), sent in zip(self.few, few, strict=True):
            nearest = _nearest_few(values[:, columns], knots)
            repaired[:, columns] = sent[np.arange(len(columns)), nearest]
        for (j, knots, *_), sent in zip(self.many, many, strict=True):
            repaired[:, j] = sent[_nearest(knots, values[:, j])]
        return repaired

    def smoothed(self, level: float) -> PiecewiseLinear:
        """Return the repair at ``level`` joined by straight lines between the knots (once)."""
        if level not in self._smoothings:
            self._smoothings[level] = self._smoothing(level)
        return self._smoothings[level]

    def _smoothing(self, level: float) -> PiecewiseLinear:
        few, many = self._levelled(level)
        width = len(self.distinct)
        knots: list[np.ndarray] = [np.empty(0)] * width
        points: list[np.ndarray] = [np.empty(0)] * width
        for (columns, at, *_), sent in zip(self.few, few, strict=True):
            for row, j in enumerate(columns):
                knots[j], points[j] = at[row], sent[row]
        for (j, at, *_), sent in zip(self.many, many, strict=True):
            knots[j], points[j] = at, sent
        return PiecewiseLinear.through(knots, points)

    def _levelled(self, level: float) -> tuple[Any, ...]:
        """Return the knots' repaired values at ``level``: for the few, then the many columns."""
        if level not in self._at_level:
            few = tuple(
                np.array(
                    [
                        self.distinct[j][_moved(p, t, level)]
                        for j, p, t in zip(columns, positions, targets, strict=True)
                    ]
                )
                for columns, _, positions, targets in self.few
            )
            many = tuple(self.distinct[j][_moved(p, t, level)] for j, _, p, t in self.many)
            self._at_level[level] = (few, many)
        return self._at_level[level]


def _moved(position: np.ndarray, target: np.ndarray, level: float) -> np.ndarray:
    """Return the place ``level`` of the way from ``position`` to ``target``, rounded as Python.

    ``np.round`` rounds halves to even, as Python's ``round`` the authors' code calls.
    """
    return position + np.round((target - position) * level).astype(np.int64)


def _nearest_few(values: np.ndarray, knots: np.ndarray) -> np.ndarray:
    """Return each value's nearest knot (rows x columns; ``knots`` is columns x K, sorted)."""
    below = np.zeros(values.shape, dtype=np.intp)  # knots below the value
    for knot in knots.T:
        below += values > knot
    return _closer(values, knots.T, below)


def _nearest(knots: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return each value's nearest knot in one column (``knots`` sorted)."""
    below = np.searchsorted(knots, values, side="left")
    return _closer(values[:, None], knots[:, None], below[:, None])[:, 0]


def _closer(values: np.ndarray, knots: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Choose between the knots either side of each value: the nearer, the lower at a tie.

    ``knots`` is K x columns; ``below`` the number of knots below each value.
    """
    last = len(knots) - 1
    lower, upper = np.clip(below - 1, 0, last), np.minimum(below, last)
    low = np.take_along_axis(knots, lower, axis=0)
    high = np.take_along_axis(knots, upper, axis=0)
    return np.where(high - values < values - low, upper, lower)
