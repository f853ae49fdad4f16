"""Per-group confusion counts and AUCs, computed in one pass over the predictions.

Every measure of the catalogue is a function of these statistics, so a run's whole catalogue
costs one ``bincount`` over the rows (and one sort per AUC flavour), not one scan per measure.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from faircompare._validation import check_choice
from faircompare.stats.groups import GroupCounts
from faircompare.stats.rates import ALL, RATES

_COLUMN = {rate: j for j, rate in enumerate(RATES)}
# Cell-to-rate indicator matrices: counts @ _NUMERATORS gives every rate's numerator at once.
_NUMERATORS, _DENOMINATORS = (
    np.array([[cell in RATES[rate][part] for rate in RATES] for cell in ALL], dtype=np.int64)
    for part in (0, 1)
)


class UndefinedMeasureWarning(UserWarning):
    """A measure is undefined for a group (an empty denominator); its value is NaN."""


def warn_undefined(measure: str, group: str, reason: str) -> None:
    """Warn that ``measure`` is NaN for ``group`` because of ``reason``."""
    warnings.warn(
        f"{measure} is undefined for group {group!r} ({reason}); its value is NaN",
        UndefinedMeasureWarning,
        stacklevel=4,
    )


@dataclass(frozen=True, eq=False)
class GroupStats:
    """Confusion counts (and AUCs when scores are given) of each group of a sensitive attribute.

    Attributes
    ----------
    groups
        Group labels as strings, in :class:`~faircompare.stats.groups.GroupCounts`' order: sorted
        by the original values.
    privileged_index
        Position of the privileged group in ``groups``.
    counts
        Array of shape (groups, 4): true negatives, false positives, false negatives and true
        positives of each group.
    scores, y_true, codes
        The scores, labels and group codes, kept only when scores are given (for AUC).
    """

    groups: tuple[str, ...]
    privileged_index: int
    counts: np.ndarray
    scores: np.ndarray | None = None
    y_true: np.ndarray | None = None
    codes: np.ndarray | None = None

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        sensitive_features: Any,
        *,
        privileged: Any,
        scores: Any = None,
    ) -> GroupStats:
        """Count each group's confusion cells in one pass.

        Parameters
        ----------
        y_true, y_pred
            Labels and predictions, 1 for the positive outcome and 0 otherwise.
        sensitive_features
            The sensitive attribute's value for each row.
        privileged
            The privileged value; it must occur in ``sensitive_features``.
        scores
            Scores or probabilities of the positive outcome, for AUC; optional.

        Returns
        -------
        GroupStats
            The statistics every measure is computed from.
        """
        counted = GroupCounts.from_predictions(y_true, y_pred, sensitive_features, scores=scores)
        check_choice(privileged, counted.names, what="privileged group")
        kept = counted.scores is not None  # AUC needs the rows themselves
        return cls(
            groups=tuple(str(name) for name in counted.names),
            privileged_index=counted.names.index(privileged),
            counts=counted.counts,
            scores=counted.scores,
            y_true=counted.y_true if kept else None,
            codes=counted.codes if kept else None,
        )

    @property
    def unprivileged(self) -> list[int]:
        """Positions of the groups other than the privileged one."""
        return [g for g in range(len(self.groups)) if g != self.privileged_index]

    def rate(self, rate: str, measure: str) -> np.ndarray:
        """Return a rate per group; NaN, with a warning, where undefined.

        Parameters
        ----------
        rate
            A rate of :data:`RATES`.
        measure
            The measure asking, named in the warning.

        Returns
        -------
        numpy.ndarray
            The rate of each group, in the order of :attr:`groups`.
        """
        return _lookup(self._by_group, rate, measure, self.groups)

    def overall(self, rate: str, measure: str) -> float:
        """Return a rate over all rows.

        Parameters
        ----------
        rate
            A rate of :data:`RATES`.
        measure
            The measure asking, named in the warning.

        Returns
        -------
        float
            The rate; NaN where undefined.
        """
        return float(_lookup(self._overall, rate, measure, ("all",))[0])

    def binary(self, rate: str, measure: str) -> tuple[float, float]:
        """Return a rate for the privileged group and for everyone else taken together.

        Parameters
        ----------
        rate
            A rate of :data:`RATES`.
        measure
            The measure asking, named in the warning.

        Returns
        -------
        tuple of float
            The privileged group's rate and the others'.
        """
        names = (self.groups[self.privileged_index], "all unprivileged")
        privileged, others = _lookup(self._binary, rate, measure, names)
        return float(privileged), float(others)

    @cached_property
    def _by_group(self) -> tuple[np.ndarray, np.ndarray]:
        return _rate_table(self.counts)

    @cached_property
    def _overall(self) -> tuple[np.ndarray, np.ndarray]:
        return _rate_table(self.counts.sum(0, keepdims=True))

    @cached_property
    def _binary(self) -> tuple[np.ndarray, np.ndarray]:
        privileged = self.counts[self.privileged_index]
        return _rate_table(np.stack([privileged, self.counts.sum(0) - privileged]))

    def auc(self, measure: str) -> np.ndarray:
        """Return each group's ROC AUC (Mann-Whitney, ties by midranks); NaN where undefined.

        Parameters
        ----------
        measure
            The measure asking, named in the warning.

        Returns
        -------
        numpy.ndarray
            The AUC of each group, in the order of :attr:`groups`.
        """
        # A stable radix sort by group keeps each group's scores in score order.
        codes = self._scored[2]
        order = self._score_order[np.argsort(codes[self._score_order], kind="stable")]
        return self._auc(order, codes[order], len(self.groups), self.groups, measure)

    def overall_auc(self, measure: str) -> float:
        """Return the ROC AUC over all rows.

        Parameters
        ----------
        measure
            The measure asking, named in the warning.

        Returns
        -------
        float
            The AUC; NaN without both labels.
        """
        order = self._score_order
        return float(self._auc(order, np.zeros_like(order), 1, ("all",), measure)[0])

    @property
    def _scored(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Scores, labels and group codes; an error when no scores were given."""
        if self.scores is None or self.y_true is None or self.codes is None:
            raise ValueError("AUC needs scores, and none were given")
        return self.scores, self.y_true, self.codes

    @cached_property
    def _score_order(self) -> np.ndarray:
        """Rows sorted by score: the one comparison sort that every AUC shares."""
        return np.argsort(self._scored[0], kind="stable")

    def _auc(
        self, order: np.ndarray, group: np.ndarray, n_groups: int, names, measure: str
    ) -> np.ndarray:
        """AUC per group from rows ``order`` sorted by (group, score), ``group`` their codes."""
        scores, labels, _ = self._scored
        score, label = scores[order], labels[order]
        # Runs of equal (group, score) share their midrank; ranks restart in each group.
        starts = np.r_[True, (score[1:] != score[:-1]) | (group[1:] != group[:-1])]
        run = np.cumsum(starts) - 1
        run_start = np.flatnonzero(starts)
        run_end = np.r_[run_start[1:], len(score)]
        group_start = np.searchsorted(group, np.arange(n_groups))
        rank = (run_start + run_end + 1)[run] / 2 - group_start[group]
        positives = np.bincount(group, weights=label, minlength=n_groups)
        negatives = np.bincount(group, minlength=n_groups) - positives
        rank_sum = np.bincount(group, weights=rank * label, minlength=n_groups)
        defined = (positives > 0) & (negatives > 0)
        for g in np.flatnonzero(~defined):
            warn_undefined(measure, names[g], "it needs both positives and negatives")
        with np.errstate(divide="ignore", invalid="ignore"):
            auc = (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)
        return np.where(defined, auc, np.nan)


def _rate_table(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every rate for each row of ``counts`` (NaN where undefined), and the denominators."""
    top, bottom = counts @ _NUMERATORS, counts @ _DENOMINATORS
    return np.where(bottom > 0, top / np.maximum(bottom, 1), np.nan), bottom


def _lookup(table: tuple[np.ndarray, np.ndarray], rate: str, measure: str, names) -> np.ndarray:
    """One rate's column of a rate table, warning for each row where it is undefined."""
    values, bottom = table
    j = _COLUMN[rate]
    for g in np.flatnonzero(bottom[:, j] == 0):
        warn_undefined(measure, names[g], RATES[rate][2])
    return values[:, j]
