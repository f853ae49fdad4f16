"""AIF360's reweighing and calibrated equalized odds, as thin wrappers.

Kamiran & Calders reweighing and Pleiss et al.'s calibrated equalized-odds post-processing,
each around logistic regression. They need the optional ``aif360`` extra; without it the
registry lists them as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd
from aif360.algorithms.postprocessing import CalibratedEqOddsPostprocessing
from aif360.algorithms.preprocessing import Reweighing
from aif360.datasets import BinaryLabelDataset

from faircompare.algorithms.base import (
    FairEstimator,
    binary_labels,
    binary_sensitive,
    numeric_matrix,
)
from faircompare.algorithms.reductions import _logistic_regression

_GROUPS = {"unprivileged_groups": [{"s": 0}], "privileged_groups": [{"s": 1}]}


def _dataset(y: np.ndarray, s: np.ndarray, scores: np.ndarray | None = None) -> BinaryLabelDataset:
    """AIF360's container for labels and the sensitive attribute (features are not needed)."""
    frame = pd.DataFrame({"s": s.astype(float), "y": y.astype(float)})
    dataset = BinaryLabelDataset(df=frame, label_names=["y"], protected_attribute_names=["s"])
    if scores is not None:
        dataset.scores = scores.reshape(-1, 1)
    return dataset


class AIF360Reweighing(FairEstimator):
    """Kamiran & Calders reweighing (weights P(s) P(y) / P(s, y)), then logistic regression."""

    name: ClassVar[str] = "aif360-reweighing"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AIF360Reweighing:
        """Weight the training rows, then fit logistic regression with the weights."""
        features = numeric_matrix(X, "AIF360Reweighing")
        labels = binary_labels(y, len(features))
        s = binary_sensitive(sensitive_features, len(features), "AIF360Reweighing")
        weights = Reweighing(**_GROUPS).fit_transform(_dataset(labels, s)).instance_weights
        self.model_ = _logistic_regression().fit(
            features, labels, logisticregression__sample_weight=weights
        )
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities of the reweighted logistic regression."""
        return self.model_.predict_proba(numeric_matrix(X, "AIF360Reweighing"))

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone."""
        return self.model_.predict(numeric_matrix(X, "AIF360Reweighing")).astype(int)


class AIF360CalibratedEqualizedOdds(FairEstimator):
    """Calibrated equalized-odds post-processing of logistic regression's probabilities.

    Parameters
    ----------
    cost_constraint
        ``"fnr"``, ``"fpr"`` or ``"weighted"``: which error rates to equalise.
    random_state
        Seed of the randomised mixing.
    """

    name: ClassVar[str] = "aif360-calibrated-eo"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    uses_sensitive_at_predict: ClassVar[bool] = True

    def __init__(self, cost_constraint: str = "weighted", random_state: int | None = 0) -> None:
        self.cost_constraint = cost_constraint
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AIF360CalibratedEqualizedOdds:
        """Fit logistic regression, then the mixing rates on its training probabilities."""
        features = numeric_matrix(X, "AIF360CalibratedEqualizedOdds")
        labels = binary_labels(y, len(features))
        s = binary_sensitive(sensitive_features, len(features), "AIF360CalibratedEqualizedOdds")
        self.model_ = _logistic_regression().fit(features, labels)
        scores = self.model_.predict_proba(features)[:, 1]
        self.postprocessor_ = CalibratedEqOddsPostprocessing(
            cost_constraint=self.cost_constraint, seed=self.random_state, **_GROUPS
        ).fit(_dataset(labels, s), _dataset((scores > 0.5).astype(int), s, scores))
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Mix each group's probabilities as fitted, then threshold."""
        s = binary_sensitive(
            self._sensitive_for_predict(X, sensitive_features), len(X), "AIF360CalibratedEO"
        )
        scores = self.model_.predict_proba(numeric_matrix(X, "AIF360CalibratedEO"))[:, 1]
        adjusted = self.postprocessor_.predict(_dataset((scores > 0.5).astype(int), s, scores))
        return adjusted.labels.ravel().astype(int)
