"""AIF360's GerryFair classifier (Kearns et al., ICML 2018).

Needs the optional ``aif360`` extra; without it the registry lists it as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from aif360.algorithms.inprocessing import GerryFairClassifier
from sklearn.linear_model import LinearRegression

from faircompare.algorithms.aif360_data import binary_label_dataset
from faircompare.algorithms.base import FairEstimator, binary_sensitive


class GerryFair(FairEstimator):
    """Rich-subgroup fairness by fictitious play between a learner and an auditor.

    The learner best-responds with cost-sensitive linear regressions, the auditor finds the
    subgroup (a linear threshold of the protected attributes) whose false positive rate (or
    false negative rate, or positive rate) differs most from the overall one; after
    ``max_iters`` rounds the classifier is the average of the learner's, thresholded at 1/2
    (Kearns et al. §4). With one binary sensitive attribute the subgroups are the two groups.
    As in AIF360's datasets, the sensitive attribute is one of the features, so it is needed at
    prediction time.

    Parameters
    ----------
    fairness_def
        ``"FP"``, ``"FN"`` or ``"SP"``: the rate held within ``gamma`` across subgroups.
    gamma
        The allowed unfairness.
    C
        Bound on the L1 norm of the dual variables.
    max_iters
        Rounds of fictitious play.
    """

    name: ClassVar[str] = "gerryfair"
    family: ClassVar[str] = "in-processing"
    library: ClassVar[str] = "aif360"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    uses_sensitive_at_predict: ClassVar[bool] = True
    param_grid: ClassVar[dict[str, list]] = {"gamma": [0.002, 0.005, 0.01, 0.02, 0.05]}

    def __init__(
        self, fairness_def: str = "FP", gamma: float = 0.01, C: float = 10.0, max_iters: int = 10
    ) -> None:
        self.fairness_def = fairness_def
        self.gamma = gamma
        self.C = C
        self.max_iters = max_iters

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> GerryFair:
        """Play the learner against the auditor on the training data."""
        features, labels = self._validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "GerryFair")
        self.model_ = GerryFairClassifier(
            C=self.C,
            gamma=self.gamma,
            fairness_def=self.fairness_def,
            max_iters=self.max_iters,
            predictor=LinearRegression(),  # a fresh one: AIF360's default is shared
        ).fit(binary_label_dataset(labels, s, features), early_termination=True)
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Average the learner's classifiers, then threshold at 1/2."""
        features = self._fitted_features(X)
        s = binary_sensitive(
            self._sensitive_for_predict(features, sensitive_features), len(features), "GerryFair"
        )
        dataset = binary_label_dataset(np.zeros(len(s)), s, features)
        return self._labels(self.model_.predict(dataset, threshold=0.5).labels.ravel())
