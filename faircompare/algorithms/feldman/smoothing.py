"""A repair smoothed into straight lines between its knots: the slopes of its surrogate gradient.

A repair of new values is a step function of each feature (it moves only where a value crosses
a training value), so its derivative is zero wherever it exists. The individual-fairness audit's
attack follows a smoothing of it instead: for each group and column, the points (v_k, m_k), v_k
the group's distinct training values and m_k where the repair sends them (in the mean over its
tie draws, where it draws), joined by straight lines, flat below the first and above the last.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from faircompare.algorithms.feldman.columns import FEW_VALUES, by_size

KNOT_TOLERANCE = 1e-6  # relative: a value this close to a training value is at it


@dataclass(frozen=True, eq=False)
class PiecewiseLinear:
    """One group's repair, smoothed: a piecewise-linear map per column (:meth:`slopes`).

    A column's knots are the group's distinct training values v_0 < ... < v_{K-1}, and its K + 1
    gradients the map's slopes: 0 below v_0, (m_k - m_{k-1}) / (v_k - v_{k-1}) between knots,
    0 above v_{K-1}. Columns with few knots are kept together by their number K, and a value's
    place among them found by comparisons; the others by binary search.
    """

    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]  # (columns, knots, gradients)
    many: tuple[tuple[int, np.ndarray, np.ndarray], ...]  # (column, knots, gradients)

    @classmethod
    def through(cls, knots: list[np.ndarray], points: list[np.ndarray]) -> PiecewiseLinear:
        """Join each column's points (``knots[j]``, ``points[j]``) by straight lines."""
        gradients = [
            np.concatenate([[0.0], np.diff(m) / np.diff(v), [0.0]])
            for v, m in zip(knots, points, strict=True)
        ]
        sizes = np.array([len(v) for v in knots])
        few = tuple(
            (
                columns,
                np.array([knots[j] for j in columns]),
                np.array([gradients[j] for j in columns]),
            )
            for columns in by_size(sizes)
        )
        many = tuple((int(j), knots[j], gradients[j]) for j in np.flatnonzero(sizes > FEW_VALUES))
        return cls(few, many)

    def slopes(self, values: np.ndarray) -> np.ndarray:
        """Return the smoothing's slope at each value, the mean of both sides' at a knot.

        A value within :data:`KNOT_TOLERANCE` (relative) of a knot is at it: the attack moves
        its points in single precision.
        """
        slopes = np.empty_like(values)
        near = KNOT_TOLERANCE * np.maximum(np.abs(values), 1.0)
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
