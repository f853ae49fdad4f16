"""AIF360's pre-processing methods: reweighing, and learning fair representations.

They need the optional ``aif360`` extra; without it the registry lists them as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from aif360.algorithms.preprocessing import LFR, Reweighing
from sklearn.preprocessing import StandardScaler

from faircompare.algorithms.aif360_data import GROUPS, binary_label_dataset
from faircompare.algorithms.base import FairEstimator, binary_sensitive
from faircompare.algorithms.reductions import _logistic_regression
from faircompare.algorithms.representation import RepresentationClassifier, with_baselines


class AIF360Reweighing(FairEstimator):
    """Kamiran & Calders reweighing (weights P(s) P(y) / P(s, y)), then logistic regression."""

    name: ClassVar[str] = "aif360-reweighing"
    family: ClassVar[str] = "pre-processing"
    library: ClassVar[str] = "aif360"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AIF360Reweighing:
        """Weight the training rows, then fit logistic regression with the weights."""
        features, labels = self._validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "AIF360Reweighing")
        weights = Reweighing(**GROUPS).fit_transform(binary_label_dataset(labels, s))
        # The pipeline's steps are fitted one by one, so that the weights reach the logistic
        # regression whether or not scikit-learn's metadata routing is enabled.
        self.model_ = _logistic_regression()
        scaler, model = self.model_[0], self.model_[-1]
        model.fit(scaler.fit_transform(features), labels, sample_weight=weights.instance_weights)
        return self

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities of the reweighted logistic regression."""
        features = self._fitted_features(X)
        return self.model_.predict_proba(features)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone."""
        features = self._fitted_features(X)
        return self._labels(self.model_.predict(features))


class LearnedFairRepresentations(RepresentationClassifier):
    """Zemel et al. (ICML 2013) learning fair representations, through AIF360's ``LFR``.

    Each person is mapped to a soft assignment M over ``k`` prototypes (a softmax of minus the
    Euclidean distances), learned by minimising ``Ax`` L_x (reconstruction) + ``Ay`` L_y
    (prediction of the label from the prototypes) + ``Az`` L_z (the mean absolute difference of
    the groups' mean assignments: statistical parity of the representation). The representation
    a baseline is trained on is AIF360's transform, the reconstruction M V. The features are
    standardised first (training statistics), as in AIF360's LFR demonstration, since the
    distances would otherwise be those of the widest feature; the sensitive attribute is the last
    feature, as in AIF360's datasets.

    Parameters
    ----------
    estimator
        The classifier trained on the representation (logistic regression when None).
    k
        Number of prototypes.
    Ax, Ay, Az
        Weights of the reconstruction, prediction and parity terms.
    max_evaluations
        Objective evaluations allowed to L-BFGS-B with numerical gradients (AIF360's
        ``maxfun`` and ``maxiter``).
    random_state
        Seed of the initial prototypes and weights.
    """

    name: ClassVar[str] = "lfr"
    library: ClassVar[str] = "aif360"
    # AIF360 minimises by L-BFGS-B with numerical gradients over k (d + 1) parameters: measured
    # 11.5 CPU-minutes per fit on Adult (485 parameters), 130-230 s on ProPublica (2,000
    # parameters, 5,000 evaluations: about 3 iterations), so a first look leaves it out.
    in_default_profile: ClassVar[bool] = False
    # Az, the parity term's weight: AIF360's default is 50 and its demonstration uses 2.
    param_grid: ClassVar[dict[str, list]] = {"Az": [0.5, 1.0, 2.0, 5.0, 10.0, 50.0]}

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        k: int = 5,
        Ax: float = 0.01,
        Ay: float = 1.0,
        Az: float = 50.0,
        max_evaluations: int = 5000,
        random_state: int | None = 0,
    ) -> None:
        super().__init__(estimator)
        self.k = k
        self.Ax = Ax
        self.Ay = Ay
        self.Az = Az
        self.max_evaluations = max_evaluations
        self.random_state = random_state

    def _fit_representation(self, features: np.ndarray, labels: np.ndarray, s: np.ndarray) -> None:
        self.scaler_ = StandardScaler().fit(features)
        dataset = binary_label_dataset(labels, s, self.scaler_.transform(features))
        self.lfr_ = LFR(
            k=self.k, Ax=self.Ax, Ay=self.Ay, Az=self.Az, seed=self.random_state, **GROUPS
        ).fit(dataset, maxiter=self.max_evaluations, maxfun=self.max_evaluations)

    def _represent(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        unlabelled = binary_label_dataset(np.zeros(len(s)), s, self.scaler_.transform(features))
        return self.lfr_.transform(unlabelled).features


LFR_PIPELINES = with_baselines(LearnedFairRepresentations)
