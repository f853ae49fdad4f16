"""Hardt et al. (NeurIPS 2016) post-processing, through fairlearn's ThresholdOptimizer.

Group-specific (randomised) thresholds on a logistic regression's scores. Registered as a plugin
through faircompare's own entry point, like any third-party algorithm.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from fairlearn.postprocessing import ThresholdOptimizer

from faircompare.algorithms.base import FairEstimator, binary_labels, numeric_matrix
from faircompare.algorithms.reductions import _logistic_regression


class ThresholdOptimizerPostprocessing(FairEstimator):
    """Equalized odds (or another parity) by group-specific thresholds on logistic regression.

    Parameters
    ----------
    constraint
        A constraint fairlearn's ThresholdOptimizer knows, e.g. ``"equalized_odds"``.
    objective
        The score maximised subject to the constraint, e.g. ``"accuracy_score"``.
    random_state
        Seed of the randomised thresholds.
    """

    name: ClassVar[str] = "threshold-optimizer"
    uses_sensitive_at_predict: ClassVar[bool] = True

    def __init__(
        self,
        constraint: str = "equalized_odds",
        objective: str = "accuracy_score",
        random_state: int | None = 0,
    ) -> None:
        self.constraint = constraint
        self.objective = objective
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> ThresholdOptimizerPostprocessing:
        """Fit logistic regression, then the thresholds of each group."""
        features = numeric_matrix(X, "ThresholdOptimizer")
        self.model_ = ThresholdOptimizer(
            estimator=_logistic_regression(),
            constraints=self.constraint,
            objective=self.objective,
            predict_method="predict_proba",
        ).fit(features, binary_labels(y, len(features)), sensitive_features=sensitive_features)
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Apply each row's group threshold (randomised where the optimum needs it)."""
        s = self._sensitive_for_predict(X, sensitive_features)
        features = numeric_matrix(X, "ThresholdOptimizer")
        predicted = self.model_.predict(
            features, sensitive_features=s, random_state=self.random_state
        )
        return np.asarray(predicted).astype(int)
