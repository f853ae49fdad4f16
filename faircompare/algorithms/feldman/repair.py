"""Feldman et al.'s disparate-impact repair of the features, as a scikit-learn transformer.

Fitted on training rows, applied unchanged to new ones (the paper's benchmark repaired the test
set on its own: ``FeldmanClassifier(test_repair="own")``). Only features are repaired, never the
label or other sensitive attributes. Two ways to treat ties, the ``ties`` parameter:
``"value"`` (the default) repairs each distinct value of a group to one value as the authors'
code does (:mod:`.values`); ``"random"`` breaks ties at random so a full repair equalises
discrete features too (:mod:`.ranks`).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from faircompare._validation import check_choice
from faircompare.algorithms.base import check_fitted_width
from faircompare.algorithms.feldman.columns import UNSEEN, check_level, repair_input
from faircompare.algorithms.feldman.ranks import RankRepair
from faircompare.algorithms.feldman.values import ValueRepair
from faircompare.bibliography import Reference

#: The ways the repair treats ties: ``"value"`` as the authors' code (each distinct value of a
#: group to one value), ``"random"`` broken at random (each row its own quantile).
TIES = ("value", "random")

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
    """Repair numeric features toward the groups' median distribution (Feldman et al. §5).

    Columns are repaired a block at a time, so that the working memory is a few blocks of the
    data whatever its width; sparse input (a wide one-hot encoding) is densified a block at a
    time and repaired into a sparse matrix.

    Parameters
    ----------
    repair_level
        lambda in [0, 1]: 0 leaves the data unchanged, 1 repairs fully.
    random_state
        Seed of the tie-breaking draws (``ties="random"`` only).
    ties
        ``"value"``: each distinct value of a group is repaired to one value, as the authors'
        code (BlackBoxAuditing) does; ``"random"``: ties are broken at random, so a full repair
        equalises discrete features too.
    """

    def __init__(
        self, repair_level: float = 1.0, random_state: int | None = 0, ties: str = "value"
    ) -> None:
        self.repair_level = repair_level
        self.random_state = random_state
        self.ties = ties

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any) -> DisparateImpactRepair:
        """Learn each group's training values, and where a full repair sends each of them.

        Nothing fitted depends on the repair level (:meth:`at_level`).

        Parameters
        ----------
        X
            Training features (dense, or sparse).
        y
            Ignored.
        sensitive_features
            Each row's group.

        Returns
        -------
        DisparateImpactRepair
            This repair, fitted.
        """
        check_level(self.repair_level)
        check_choice(self.ties, TIES, what="ties")
        features = repair_input(X)
        self.groups_, codes = np.unique(np.asarray(sensitive_features), return_inverse=True)
        if self.ties == "value":
            self.engine_: ValueRepair | RankRepair = ValueRepair(features, codes, len(self.groups_))
        else:
            self.engine_ = RankRepair(features, codes, len(self.groups_), self.random_state)
        self.n_features_in_ = features.shape[1]
        return self

    def fit_transform(self, X: Any, y: Any = None, *, sensitive_features: Any) -> Any:
        """Fit on the training data and repair it (:meth:`fit`, :meth:`repaired_training`).

        Parameters
        ----------
        X
            Training features (dense, or sparse).
        y
            Ignored.
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray or scipy.sparse.csr_matrix
            The repaired rows (sparse for sparse input).
        """
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
        features = repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        return self.engine_.training(features, self.repair_level)

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
        check_level(repair_level)
        other = copy.copy(self)
        other.repair_level = repair_level
        return other

    def transform(self, X: Any, *, sensitive_features: Any) -> Any:
        """Repair new data, whose rows belong to the groups given by ``sensitive_features``.

        A group absent from the training data (a group of a few people who all fell in the test
        part of a split) has no distribution of its own: its rows are placed among all the
        training rows (see :mod:`.values` and :mod:`.ranks`).

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray or scipy.sparse.csr_matrix
            The repaired rows (sparse for sparse input).
        """
        features = repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        return self.engine_.transform(features, codes, self.repair_level)

    def slopes(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        """Return each cell's slope d x' / d x under the repair's piecewise-linear smoothing.

        The repair of a new value is a step function of it, so its derivative is zero wherever
        it exists. Its smoothing joins, feature by feature and group by group, the points
        (v_k, m_k) by straight lines: v_k the group's distinct training values, m_k where the
        repair sends them (in the mean over the tie draw, with ``ties="random"``), constant
        below the smallest and above the largest (:mod:`.smoothing`). At a training value
        (where the data's rows are) the slope is the mean of the slopes on either side.

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
        features = repair_input(X)
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        return self.engine_.slopes(features, codes, self.repair_level)

    def _codes(self, groups: np.ndarray) -> np.ndarray:
        """Each row's group index in ``groups_``; ``UNSEEN`` for a group not seen in fit."""
        codes = np.minimum(np.searchsorted(self.groups_, groups), len(self.groups_) - 1)
        return np.where(groups == self.groups_[codes], codes, UNSEEN)
