"""Zhang et al. (AIES 2018) adversarial debiasing, through fairlearn's torch implementation.

Needs the optional ``torch`` extra; without it the registry lists it as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from fairlearn.adversarial import AdversarialFairnessClassifier
from sklearn.preprocessing import StandardScaler

from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.libraries import FAIRLEARN, PYTORCH
from faircompare.algorithms.neural import one_thread
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

#: Zhang, Lemoine and Mitchell's adversarial learning.
ZHANG_2018 = Reference(
    key="zhang2018mitigating",
    authors=("Zhang, Brian Hu", "Lemoine, Blake", "Mitchell, Margaret"),
    title="Mitigating Unwanted Biases with Adversarial Learning",
    year=2018,
    venue="Proceedings of the 2018 AAAI/ACM Conference on AI, Ethics, and Society (AIES '18)",
    pages="335-340",
    doi="10.1145/3278721.3278779",
)


class AdversarialDebiasing(FairEstimator):
    """A predictor trained against an adversary that predicts the sensitive attribute.

    The predictor (one hidden layer of ``hidden_units`` leaky-ReLU units on standardised
    features) minimises its loss while its gradient's component that helps the adversary is
    removed and ``alpha`` times the adversary's gradient subtracted (Zhang et al. §3). The
    adversary sees the predictor's output (demographic parity), and the true label too
    (equalized odds). The sensitive attribute is used in training only.

    Parameters
    ----------
    constraints
        ``"demographic_parity"`` or ``"equalized_odds"``.
    alpha
        Weight of the adversary's gradient in the predictor's update.
    hidden_units
        Width of the predictor's hidden layer.
    epochs, batch_size, learning_rate
        Adam's training schedule.
    random_state
        Seed of the initial weights and the shuffles.
    """

    name: ClassVar[str] = "adversarial-debiasing"
    family: ClassVar[str] = "in-processing"
    library: ClassVar[str] = "fairlearn"
    references: ClassVar[tuple[Reference, ...]] = (ZHANG_2018, FAIRLEARN, PYTORCH)
    param_grid: ClassVar[dict[str, list]] = {"alpha": [0.1, 0.3, 1.0, 3.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"alpha": Real(0.1, 3.0, log=True)}

    def __init__(
        self,
        constraints: str = "demographic_parity",
        alpha: float = 1.0,
        hidden_units: int = 50,
        epochs: int = 10,
        batch_size: int = 256,
        learning_rate: float = 1e-3,
        random_state: int | None = 0,
    ) -> None:
        self.constraints = constraints
        self.alpha = alpha
        self.hidden_units = hidden_units
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AdversarialDebiasing:
        """Standardise the features, then train the predictor against the adversary."""
        features, labels = self.validate_fit(X, y)
        s = check_sensitive(sensitive_features, len(features))
        self.scaler_ = StandardScaler().fit(features)
        self.model_ = AdversarialFairnessClassifier(
            backend="torch",
            predictor_model=[self.hidden_units, "leaky_relu"],
            adversary_model=[3, "leaky_relu"],
            constraints=self.constraints,
            alpha=self.alpha,
            epochs=self.epochs,
            batch_size=self.batch_size,
            learning_rate=self.learning_rate,
            shuffle=True,
            random_state=self.random_state,
        )
        with one_thread():
            self.model_.fit(self.scaler_.transform(features), labels, sensitive_features=s)
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone."""
        features = self.fitted_features(X)
        with one_thread():
            predicted = self.model_.predict(self.scaler_.transform(features))
        return self.to_labels(predicted)
