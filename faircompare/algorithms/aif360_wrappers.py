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
    binary_sensitive,
)
from faircompare.algorithms.reductions import _logistic_regression
from faircompare.algorithms.rowhash import row_uniforms

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
        features, labels = self._validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "AIF360Reweighing")
        weights = Reweighing(**_GROUPS).fit_transform(_dataset(labels, s)).instance_weights
        # The pipeline's steps are fitted one by one, so that the weights reach the logistic
        # regression whether or not scikit-learn's metadata routing is enabled.
        self.model_ = _logistic_regression()
        scaler, model = self.model_[0], self.model_[-1]
        model.fit(scaler.fit_transform(features), labels, sample_weight=weights)
        return self

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities of the reweighted logistic regression."""
        features = self._fitted_features(X)
        return self.model_.predict_proba(features)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone."""
        features = self._fitted_features(X)
        return self._labels(self.model_.predict(features))


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
    version: ClassVar[str] = "2"  # 2: mixing drawn per row (row hash)

    def __init__(self, cost_constraint: str = "weighted", random_state: int | None = 0) -> None:
        self.cost_constraint = cost_constraint
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AIF360CalibratedEqualizedOdds:
        """Fit logistic regression, then the mixing rates on its training probabilities."""
        features, labels = self._validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "AIF360CalibratedEqualizedOdds")
        self.model_ = _logistic_regression().fit(features, labels)
        scores = self.model_.predict_proba(features)[:, 1]
        self.postprocessor_ = CalibratedEqOddsPostprocessing(
            cost_constraint=self.cost_constraint, seed=self.random_state, **_GROUPS
        ).fit(_dataset(labels, s), _dataset((scores > 0.5).astype(int), s, scores))
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Mix each group's probabilities as fitted, then threshold at 1/2.

        AIF360's ``predict`` replaces a row's probability by its group's base rate with the
        group's mixing rate, drawing in row order from one seeded stream, so a person's label
        depends on the rows predicted with them. Here the same mixing draws per row, from a hash
        of its features (:mod:`~faircompare.algorithms.rowhash`).
        """
        features = self._fitted_features(X)
        s = binary_sensitive(
            self._sensitive_for_predict(features, sensitive_features),
            len(features),
            "AIF360CalibratedEO",
        )
        fitted = self.postprocessor_
        mix = np.where(s == 1, fitted.priv_mix_rate, fitted.unpriv_mix_rate)
        base = np.where(s == 1, fitted.base_rate_priv, fitted.base_rate_unpriv)
        scores = self.model_.predict_proba(features)[:, 1]
        mixed = np.where(row_uniforms(features, self.random_state)[:, 0] <= mix, base, scores)
        return self._labels(mixed >= 0.5)
