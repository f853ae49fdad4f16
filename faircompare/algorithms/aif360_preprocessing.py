"""AIF360's pre-processing methods: reweighing, and learning fair representations.

They need the optional ``aif360`` extra; without it the registry lists them as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from aif360.algorithms.preprocessing import LFR, Reweighing
from scipy.optimize import fmin_l_bfgs_b
from sklearn.preprocessing import StandardScaler

from faircompare._validation import check_choice
from faircompare.algorithms.aif360_data import GROUPS, binary_label_dataset
from faircompare.algorithms.base import FairEstimator, binary_sensitive
from faircompare.algorithms.lfr import lfr_objective, represent
from faircompare.algorithms.libraries import AIF360
from faircompare.algorithms.reductions import logistic_regression
from faircompare.algorithms.representation import RepresentationClassifier, with_baselines
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

#: Kamiran and Calders' reweighing (§5.2).
KAMIRAN_CALDERS_2012 = Reference(
    key="kamiran2012data",
    authors=("Kamiran, Faisal", "Calders, Toon"),
    title="Data preprocessing techniques for classification without discrimination",
    year=2012,
    venue="Knowledge and Information Systems",
    kind="article",
    volume="33(1)",
    pages="1-33",
    doi="10.1007/s10115-011-0463-8",
)

#: Zemel et al.'s learned fair representations.
ZEMEL_2013 = Reference(
    key="zemel2013learning",
    authors=("Zemel, Rich", "Wu, Yu", "Swersky, Kevin", "Pitassi, Toni", "Dwork, Cynthia"),
    title="Learning Fair Representations",
    year=2013,
    venue="Proceedings of the 30th International Conference on Machine Learning (ICML), PMLR 28(3)",
    pages="325-333",
    url="https://proceedings.mlr.press/v28/zemel13.html",
)


class AIF360Reweighing(FairEstimator):
    """Kamiran & Calders reweighing (weights P(s) P(y) / P(s, y)), then logistic regression."""

    name: ClassVar[str] = "aif360-reweighing"
    family: ClassVar[str] = "pre-processing"
    library: ClassVar[str] = "aif360"
    references: ClassVar[tuple[Reference, ...]] = (KAMIRAN_CALDERS_2012, AIF360)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> AIF360Reweighing:
        """Weight the training rows, then fit logistic regression with the weights."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "AIF360Reweighing")
        weights = Reweighing(**GROUPS).fit_transform(binary_label_dataset(labels, s))
        # The pipeline's steps are fitted one by one, so that the weights reach the logistic
        # regression whether or not scikit-learn's metadata routing is enabled.
        self.model_ = logistic_regression()
        scaler, model = self.model_[0], self.model_[-1]
        model.fit(scaler.fit_transform(features), labels, sample_weight=weights.instance_weights)
        return self

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities of the reweighted logistic regression."""
        features = self.fitted_features(X)
        return self.model_.predict_proba(features)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone."""
        features = self.fitted_features(X)
        return self.to_labels(self.model_.predict(features))


class LearnedFairRepresentations(RepresentationClassifier):
    """Zemel et al. (ICML 2013) learning fair representations, AIF360's ``LFR`` objective.

    Each person is mapped to a soft assignment M over ``k`` prototypes (a softmax of minus the
    Euclidean distances), learned by minimising ``Ax`` L_x (reconstruction) + ``Ay`` L_y
    (prediction of the label from the prototypes) + ``Az`` L_z (the mean absolute difference of
    the groups' mean assignments: statistical parity of the representation). The representation
    a baseline is trained on is AIF360's transform, the reconstruction M V. The features are
    standardised first (training statistics), as in AIF360's LFR demonstration, since the
    distances would otherwise be those of the widest feature; the sensitive attribute is the last
    feature, as in AIF360's datasets.

    AIF360 minimises the objective by L-BFGS-B from uniform random parameters, with gradients by
    finite differences. By default the same L-BFGS-B from the same start gets the exact gradient
    (:func:`faircompare.algorithms.lfr.lfr_objective`): on Adult a fit runs to convergence in
    26-152 CPU-seconds, where AIF360's spends 11.5 CPU-minutes of its evaluation budget on a few
    iterations. ``gradient="numerical"`` runs AIF360's own fit, for comparisons with
    the library.

    Parameters
    ----------
    estimator
        The classifier trained on the representation (logistic regression when None).
    k
        Number of prototypes.
    Ax, Ay, Az
        Weights of the reconstruction, prediction and parity terms.
    max_evaluations
        Objective evaluations (and iterations) allowed to L-BFGS-B (AIF360's ``maxfun`` and
        ``maxiter``).
    gradient
        ``"analytic"`` (the exact gradient) or ``"numerical"`` (AIF360's fit, finite
        differences).
    random_state
        Seed of the initial prototypes and weights.
    """

    name: ClassVar[str] = "lfr"
    library: ClassVar[str] = "aif360"
    references: ClassVar[tuple[Reference, ...]] = (ZEMEL_2013, AIF360)
    version: ClassVar[str] = "2"  # 2: the exact gradient, to convergence
    # Even with the exact gradient a fit to convergence is costly on the larger datasets
    # (measured: Adult 26-152 CPU s, ProPublica 9-57 s, Az 50 to 0.5), and each of the four
    # pipelines fits its own representation, so a first look leaves LFR out.
    in_default_profile: ClassVar[bool] = False
    # Az, the parity term's weight: AIF360's default is 50 and its demonstration uses 2.
    param_grid: ClassVar[dict[str, list]] = {"Az": [0.5, 1.0, 2.0, 5.0, 10.0, 50.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"Az": Real(0.5, 50.0, log=True)}

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        k: int = 5,
        Ax: float = 0.01,
        Ay: float = 1.0,
        Az: float = 50.0,
        max_evaluations: int = 5000,
        gradient: str = "analytic",
        random_state: int | None = 0,
    ) -> None:
        super().__init__(estimator)
        self.k = k
        self.Ax = Ax
        self.Ay = Ay
        self.Az = Az
        self.max_evaluations = max_evaluations
        self.gradient = gradient
        self.random_state = random_state

    def _fit_representation(self, features: np.ndarray, labels: np.ndarray, s: np.ndarray) -> None:
        check_choice(self.gradient, ("analytic", "numerical"), what="gradient")
        self.scaler_ = StandardScaler().fit(features)
        if self.gradient == "numerical":
            dataset = binary_label_dataset(labels, s, self.scaler_.transform(features))
            lfr = LFR(
                k=self.k, Ax=self.Ax, Ay=self.Ay, Az=self.Az, seed=self.random_state, **GROUPS
            ).fit(dataset, maxiter=self.max_evaluations, maxfun=self.max_evaluations)
            self.weights_, self.prototypes_ = lfr.w, lfr.prototypes
            return
        x = self._with_sensitive(features, s)
        d = x.shape[1]
        # AIF360's start: np.random.seed(seed), then uniform parameters
        start = np.random.RandomState(self.random_state).uniform(size=self.k * (d + 1))
        groups = (s == 0, s == 1)  # unprivileged, privileged (AIF360's GROUPS)
        parameters, _, _ = fmin_l_bfgs_b(
            lfr_objective,
            start,
            args=(
                *(x[g] for g in groups),
                *(labels[g] for g in groups),
                self.k,
                self.Ax,
                self.Ay,
                self.Az,
            ),
            bounds=[(0, 1)] * self.k + [(None, None)] * (d * self.k),
            maxfun=self.max_evaluations,
            maxiter=self.max_evaluations,
        )
        self.weights_ = parameters[: self.k]
        self.prototypes_ = parameters[self.k :].reshape(self.k, d)

    def _with_sensitive(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Standardised features with the sensitive attribute last, as AIF360's datasets have."""
        return np.column_stack([self.scaler_.transform(features), s])

    def _represent(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        return represent(self._with_sensitive(features, s), self.prototypes_)


LFR_PIPELINES = with_baselines(LearnedFairRepresentations)
