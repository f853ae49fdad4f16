"""Feldman et al. (KDD 2015) disparate-impact repair, followed by any classifier.

Each feature is repaired so that its distribution is the same in every group (Feldman et al.
§5): a value x of group s is sent to its quantile u = F_s(x) in that group, then to the "median
distribution" A, whose quantile function is the median over groups of theirs,
F_A^{-1}(u) = median_h F_h^{-1}(u). Partial repair (§5.2, geometric repair) moves each value
the share ``repair_level`` of the way: (1 - lambda) x + lambda F_A^{-1}(F_s(x)).

The quantile functions are fitted on training data and applied unchanged to test data (the
paper's benchmark repaired the test set on its own). Ties, which one-hot and integer features
are full of, are broken at random, so a full repair equalises discrete features too: training
values take their rank in their group with ties in random order; new values take the randomised
probability integral transform u = F_s(x-) + V (F_s(x) - F_s(x-)), V ~ U(0, 1). Only features
are repaired, never the label or other sensitive attributes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.metaestimators import available_if

from faircompare.algorithms.base import (
    AlgorithmInputError,
    FairEstimator,
    binary_labels,
    check_fitted_width,
    numeric_matrix,
)
from faircompare.algorithms.baselines import LogisticRegressionBaseline

REPAIR_LEVELS = [round(0.05 * k, 2) for k in range(21)]  # Friedler et al. §7: 0 to 1 by 0.05


class DisparateImpactRepair(TransformerMixin, BaseEstimator):
    """Repair numeric features toward the groups' median distribution.

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
        """Learn each group's sorted training values, column by column."""
        if not 0 <= self.repair_level <= 1:
            raise AlgorithmInputError(f"repair_level must lie in [0, 1], got {self.repair_level}")
        features = numeric_matrix(X, "Feldman repair")
        groups = np.asarray(sensitive_features)
        self.groups_, codes = np.unique(groups, return_inverse=True)
        # Column-major, so that each column is contiguous for the binary searches of transform.
        self.sorted_ = [
            np.asfortranarray(np.sort(features[codes == g], axis=0))
            for g in range(len(self.groups_))
        ]
        self.n_features_in_ = features.shape[1]
        return self

    def fit_transform(self, X: Any, y: Any = None, *, sensitive_features: Any) -> np.ndarray:
        """Fit on the training data and repair it.

        A training value's quantile comes from its rank in its group, ties broken by a random
        permutation, so each group's quantiles are evenly spread and a full repair makes the
        groups' distributions equal up to one value.
        """
        self.fit(X, sensitive_features=sensitive_features)
        features = numeric_matrix(X, "Feldman repair")
        rng = np.random.default_rng(self.random_state)
        codes = self._codes(np.asarray(sensitive_features))
        repaired = features.copy()
        for g in range(len(self.groups_)):
            rows = codes == g
            values = features[rows]
            shuffled_ties = np.lexsort((rng.random(values.shape), values), axis=0)
            rank = np.empty_like(shuffled_ties)
            np.put_along_axis(rank, shuffled_ties, np.arange(len(values))[:, None], axis=0)
            u = (rank + rng.random(values.shape)) / len(values)
            repaired[rows] = self._repair(values, u)
        return repaired

    def transform(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        """Repair new data, whose rows belong to the groups given by ``sensitive_features``."""
        features = numeric_matrix(X, "Feldman repair")
        check_fitted_width(features, self.n_features_in_, "Feldman repair")
        codes = self._codes(np.asarray(sensitive_features))
        rng = np.random.default_rng(self.random_state)
        repaired = features.copy()
        for g, reference in enumerate(self.sorted_):
            rows = codes == g
            values = features[rows]
            below, at_most = _ecdf_counts(reference, values)
            u = (below + rng.random(values.shape) * (at_most - below)) / len(reference)
            repaired[rows] = self._repair(values, u)
        return repaired

    def _repair(self, values: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Move ``values`` toward the median distribution's quantiles at levels ``u``."""
        target = np.median([_quantile(sorted_h, u) for sorted_h in self.sorted_], axis=0)
        return (1 - self.repair_level) * values + self.repair_level * target

    def _codes(self, groups: np.ndarray) -> np.ndarray:
        codes = np.searchsorted(self.groups_, groups)
        codes = np.minimum(codes, len(self.groups_) - 1)
        unknown = groups != self.groups_[codes]
        if unknown.any():
            raise AlgorithmInputError(
                f"groups {np.unique(groups[unknown])[:5].tolist()} were not in the training "
                f"data; known groups: {self.groups_.tolist()}"
            )
        return codes


def _ecdf_counts(sorted_reference: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Count, column by column, the reference values < and <= each query value.

    Binary search in each sorted reference column: O(m log n) per column, where sorting the
    stacked columns would cost O((n + m) log(n + m)) at every call.
    """
    below = np.empty(query.shape, dtype=np.int64)
    at_most = np.empty(query.shape, dtype=np.int64)
    for j in range(query.shape[1]):
        below[:, j] = np.searchsorted(sorted_reference[:, j], query[:, j], side="left")
        at_most[:, j] = np.searchsorted(sorted_reference[:, j], query[:, j], side="right")
    return below, at_most


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

    param_grid: ClassVar[dict[str, list]] = {"repair_level": REPAIR_LEVELS}
    uses_sensitive_at_predict: ClassVar[bool] = True

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
        self.repair_ = DisparateImpactRepair(self.repair_level, self.random_state)
        repaired = self.repair_.fit_transform(X, sensitive_features=sensitive_features)
        self.estimator_ = clone(self._base()).fit(
            repaired, binary_labels(y, len(repaired)), sensitive_features=sensitive_features
        )
        self.classes_ = np.array([0, 1])
        return self

    def _repaired(self, X: Any, sensitive_features: Any) -> np.ndarray:
        s = self._sensitive_for_predict(X, sensitive_features)
        return self.repair_.transform(X, sensitive_features=s)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Repair ``X`` with the training quantiles, then predict."""
        return self.estimator_.predict(self._repaired(X, sensitive_features))

    @available_if(lambda self: hasattr(self._base(), "predict_proba"))
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, when the classifier has them."""
        return self.estimator_.predict_proba(self._repaired(X, sensitive_features))

    @available_if(lambda self: hasattr(self._base(), "decision_function"))
    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Scores, when the classifier has them."""
        return self.estimator_.decision_function(self._repaired(X, sensitive_features))

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else LogisticRegressionBaseline()
