"""Labels, predictions and groups counted per group: the one path from rows to confusion counts.

Every measure (:class:`faircompare.measures.GroupStats`) and every permutation test
(:func:`~faircompare.stats.permutation_test`, :func:`~faircompare.stats.compare_groups`) starts
from :class:`GroupCounts`, so they validate their inputs alike, refuse a length mismatch with
the same message, and list the groups in the same documented order: sorted by value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from faircompare._validation import check_choice
from faircompare.stats.rates import ALL, binary_labels

__all__ = ["GroupCounts"]


@dataclass(frozen=True, eq=False)
class GroupCounts:
    """Rows of predictions with their groups, validated and counted per group.

    Build it with :meth:`from_predictions`.

    Attributes
    ----------
    names
        The groups, sorted by value (numbers numerically, text alphabetically; a pandas
        categorical in its categories' order), each once; numpy scalars as Python values.
    codes
        Each row's group, as a position in ``names``.
    y_true, y_pred
        Each row's label and prediction, 0 or 1.
    counts
        Array of shape (groups, 4): each group's true negatives, false positives, false
        negatives and true positives (the cells of :data:`faircompare.stats.rates.ALL`).
    scores
        Each row's score of the positive outcome, finite; None when not given.

    Examples
    --------
    >>> from faircompare.stats import GroupCounts
    >>> counts = GroupCounts.from_predictions([1, 0, 1, 1], [1, 0, 0, 1], ["b", "b", "a", "a"])
    >>> counts.names
    ('a', 'b')
    >>> counts.counts.tolist()
    [[0, 0, 1, 1], [1, 0, 0, 1]]
    """

    names: tuple[Any, ...]
    codes: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    counts: np.ndarray
    scores: np.ndarray | None = None

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_pred: Any, sensitive_features: Any, *, scores: Any = None
    ) -> GroupCounts:
        """Validate the rows and count each group's confusion cells in one pass.

        Parameters
        ----------
        y_true, y_pred
            Labels and predictions, 1 for the positive outcome and 0 otherwise.
        sensitive_features
            Each row's group: any values, one-dimensional.
        scores
            Scores or probabilities of the positive outcome; optional.

        Returns
        -------
        GroupCounts
            The rows, their groups' codes and the groups' confusion counts.

        Raises
        ------
        ValueError
            If the labels or predictions are not 0/1, the arguments differ in length (the
            message gives each length), or a score is not finite.
        """
        y_true, y_pred = binary_labels(y_true, "y_true"), binary_labels(y_pred, "y_pred")
        groups = sensitive_features
        if not isinstance(groups, pd.Series):
            groups = np.asarray(groups)
            if groups.ndim != 1:
                raise ValueError(f"sensitive_features must be one-dimensional, got {groups.shape}")
        lengths = [len(y_true), len(y_pred), len(groups)]
        if scores is not None:
            scores = np.asarray(scores, dtype=float)
            lengths.append(len(scores) if scores.ndim == 1 else -1)
        if len(set(lengths)) > 1:
            named = ", ".join(f"{name} {n}" for name, n in zip(_ARGUMENTS, lengths, strict=False))
            raise ValueError(f"every argument needs one entry per row; got lengths {named}")
        if scores is not None and not np.isfinite(scores).all():
            raise ValueError("scores must be finite")
        codes, values = pd.factorize(groups, sort=True)
        names = tuple(value.item() if isinstance(value, np.generic) else value for value in values)
        cells = np.bincount(len(ALL) * codes + 2 * y_true + y_pred, minlength=len(ALL) * len(names))
        counts = cells.reshape(len(names), len(ALL))
        return cls(names, codes, y_true, y_pred, counts, scores)

    def position(self, group: Any, *, what: str = "group") -> int:
        """Return a group's position in :attr:`names`.

        Parameters
        ----------
        group
            One of :attr:`names`.
        what
            What the group is, for the error message (``"privileged group"``, say).

        Returns
        -------
        int
            Its position.

        Raises
        ------
        ValueError
            For a group that no row holds, listing those that some row does.
        """
        return self.names.index(check_choice(group, self.names, what=what))


_ARGUMENTS = ("y_true", "y_pred", "sensitive_features", "scores")
