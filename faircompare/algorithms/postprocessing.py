"""Hardt et al. (NeurIPS 2016) post-processing, through fairlearn's ThresholdOptimizer.

Group-specific (randomised) thresholds on a logistic regression's scores. Registered as a plugin
through faircompare's own entry point, like any third-party algorithm.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from fairlearn.postprocessing import ThresholdOptimizer

from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.reductions import _logistic_regression
from faircompare.algorithms.rowhash import row_uniform


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

    family: ClassVar[str] = "post-processing"
    library: ClassVar[str] = "fairlearn"
    name: ClassVar[str] = "threshold-optimizer"
    uses_sensitive_at_predict: ClassVar[bool] = True
    version: ClassVar[str] = "2"  # 2: randomised thresholds drawn per row (row hash)

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
        features, labels = self._validate_fit(X, y)
        self.model_ = ThresholdOptimizer(
            estimator=_logistic_regression(),
            constraints=self.constraint,
            objective=self.objective,
            predict_method="predict_proba",
        ).fit(
            features, labels, sensitive_features=check_sensitive(sensitive_features, len(features))
        )
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Apply each row's group threshold (randomised where the optimum needs it).

        The randomisation draws per row from a hash of its features (:mod:`~faircompare.
        algorithms.rowhash`), so a person's prediction does not depend on the batch.
        """
        features = self._fitted_features(X)
        s = self._sensitive_for_predict(features, sensitive_features)
        positive = self.model_._pmf_predict(features, sensitive_features=s)[:, 1]
        return self._labels(row_uniform(features, self.random_state) < positive)
