"""Hardt et al. (NeurIPS 2016) post-processing, through fairlearn's ThresholdOptimizer.

Group-specific (randomised) thresholds on a logistic regression's scores. Registered as a plugin
through faircompare's own entry point, like any third-party algorithm.

The logistic regression is faircompare's baseline, fitted here; fairlearn's optimizer then sees
its scores alone (a one-column input and a pass-through estimator, ``prefit``), so that the
features reach fairlearn, which needs them dense, never: ACSIncome's one-hot encoding stays
sparse. The thresholds are those of fairlearn fitting the same regression itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from fairlearn.postprocessing import ThresholdOptimizer
from sklearn.base import BaseEstimator, ClassifierMixin

from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.baselines import LogisticRegressionBaseline
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
    sparse_input: ClassVar[bool] = True

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
        """Fit logistic regression, then the thresholds of each group on its scores."""
        features, labels = self._validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        self.scorer_ = LogisticRegressionBaseline().fit(features, labels)
        scores = self._scores(features)
        self.model_ = ThresholdOptimizer(
            estimator=_GivenScores().fit(scores, labels),
            constraints=self.constraint,
            objective=self.objective,
            predict_method="predict_proba",
            prefit=True,
        ).fit(scores, labels, sensitive_features=s)
        return self

    def _scores(self, features: Any) -> np.ndarray:
        """Return the regression's probabilities of label 1, as a one-column matrix."""
        return self.scorer_.predict_proba(features)[:, 1:]

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Apply each row's group threshold (randomised where the optimum needs it).

        The randomisation draws per row from a hash of its features (:mod:`~faircompare.
        algorithms.rowhash`), so a person's prediction does not depend on the batch.
        """
        features = self._fitted_features(X)
        s = self._sensitive_for_predict(features, sensitive_features)
        positive = self.model_._pmf_predict(self._scores(features), sensitive_features=s)[:, 1]
        return self._labels(row_uniform(features, self.random_state) < positive)


class _GivenScores(ClassifierMixin, BaseEstimator):
    """A classifier whose one input column is already its probability of label 1."""

    def fit(self, X: Any, y: Any) -> _GivenScores:
        """Record the labels; there is nothing to learn."""
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X: Any) -> np.ndarray:
        """Columns 1 - p and p, p the input's column."""
        p = np.asarray(X, dtype=float)[:, 0]
        return np.column_stack([1 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        """Label 1 where p > 1/2."""
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]
