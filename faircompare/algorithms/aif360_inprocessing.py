"""AIF360's in-processing methods: GerryFair and Celis et al.'s meta-algorithm.

Kearns et al. (ICML 2018) and Celis et al. (FAT* 2019). They need the optional ``aif360`` extra;
without it the registry lists them as unavailable.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from aif360.algorithms.inprocessing import GerryFairClassifier, MetaFairClassifier
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression

from faircompare.algorithms.aif360_data import binary_label_dataset
from faircompare.algorithms.base import AlgorithmInputError, FairEstimator, binary_sensitive
from faircompare.algorithms.libraries import AIF360
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

#: Kearns et al.'s rich-subgroup fairness.
KEARNS_2018 = Reference(
    key="kearns2018preventing",
    authors=("Kearns, Michael", "Neel, Seth", "Roth, Aaron", "Wu, Zhiwei Steven"),
    title="Preventing Fairness Gerrymandering: Auditing and Learning for Subgroup Fairness",
    year=2018,
    venue="Proceedings of the 35th International Conference on Machine Learning (ICML), PMLR 80",
    pages="2564-2572",
    url="https://proceedings.mlr.press/v80/kearns18a.html",
)

#: Celis et al.'s meta-algorithm.
CELIS_2019 = Reference(
    key="celis2019classification",
    authors=("Celis, L. Elisa", "Huang, Lingxiao", "Keswani, Vijay", "Vishnoi, Nisheeth K."),
    title="Classification with Fairness Constraints: A Meta-Algorithm with Provable Guarantees",
    year=2019,
    venue="Proceedings of the Conference on Fairness, Accountability, and Transparency (FAT* '19)",
    pages="319-328",
    doi="10.1145/3287560.3287586",
)


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
    references: ClassVar[tuple[Reference, ...]] = (KEARNS_2018, AIF360)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    uses_sensitive_at_predict: ClassVar[bool] = True
    param_grid: ClassVar[dict[str, list]] = {"gamma": [0.002, 0.005, 0.01, 0.02, 0.05]}
    search_space: ClassVar[dict[str, Dimension]] = {"gamma": Real(0.002, 0.05, log=True)}

    def __init__(
        self, fairness_def: str = "FP", gamma: float = 0.01, C: float = 10.0, max_iters: int = 10
    ) -> None:
        self.fairness_def = fairness_def
        self.gamma = gamma
        self.C = C
        self.max_iters = max_iters

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> GerryFair:
        """Play the learner against the auditor on the training data."""
        features, labels = self.validate_fit(X, y)
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
        features = self.fitted_features(X)
        s = self.binary_sensitive_for_predict(features, sensitive_features)
        dataset = binary_label_dataset(np.zeros(len(s)), s, features)
        return self.to_labels(self.model_.predict(dataset, threshold=0.5).labels.ravel())


class MetaFair(FairEstimator):
    """Celis et al.'s meta-algorithm for classification with fairness constraints (FAT* 2019).

    AIF360's ``MetaFairClassifier`` fits one Gaussian to the training rows (features, label and
    sensitive attribute) and, over a grid of the constraint's bounds, the Lagrangian dual's
    parameters by gradient descent; the classifier is the sign of the resulting score, and the
    chosen one is the most accurate whose fairness ratio ("sr": statistical rate, the ratio of
    the groups' positive rates; "fdr": the ratio of their false discovery rates) on training data
    is at least ``tau`` - 0.2 (AIF360's rule). The sensitive attribute is kept out of the
    features: a copy of it among them makes the Gaussian's covariance singular, and AIF360's fit
    then finds no parameters and fails (measured on German and on synthetic data). For the same
    reason more than ``max_features`` features are replaced by their first ``max_features``
    principal components (training statistics): on ProPublica's 399 mostly one-hot features
    (rank 332) AIF360's objective is never finite, even on all 332 components, and the fit fails
    at tau 0.8; on 100 components it fits in 4 s (split 0, test accuracy 0.66; 0.68 at tau 0).
    A fit that finds no parameters raises :class:`AlgorithmInputError`. The classifier uses the
    features alone.

    Parameters
    ----------
    tau
        The fairness ratio aimed at, in [0, 1]; 0 is unconstrained.
    metric
        ``"sr"`` or ``"fdr"``.
    max_features
        Features beyond this many are reduced to principal components; None keeps them all.
    random_state
        Seed of the Gaussian's samples.
    """

    name: ClassVar[str] = "metafair"
    family: ClassVar[str] = "in-processing"
    library: ClassVar[str] = "aif360"
    references: ClassVar[tuple[Reference, ...]] = (CELIS_2019, AIF360)
    version: ClassVar[str] = "2"  # 2: principal components beyond max_features
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {"tau": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"tau": Real(0.0, 1.0)}

    def __init__(
        self,
        tau: float = 0.8,
        metric: str = "sr",
        max_features: int | None = 100,
        random_state: int | None = 0,
    ) -> None:
        self.tau = tau
        self.metric = metric
        self.max_features = max_features
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> MetaFair:
        """Fit the meta-algorithm's classifier on the training data."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "MetaFair")
        self.components_ = None
        if self.max_features is not None and features.shape[1] > self.max_features:
            self.components_ = PCA(self.max_features, random_state=0).fit(features)
            features = self.components_.transform(features)
        dataset = binary_label_dataset(labels, s, features, sensitive_is_feature=False)
        model = MetaFairClassifier(tau=self.tau, type=self.metric, seed=self.random_state)
        try:
            self.model_ = model.fit(dataset)
        except TypeError as error:  # AIF360 unpacks the parameters it never found
            raise AlgorithmInputError(
                f"AIF360's MetaFairClassifier found no parameters for any constraint bound: its "
                f"objective was never finite on these {features.shape[1]} features (measured on "
                "ProPublica's 332 principal components); a smaller max_features, or tau = 0, "
                "avoids it"
            ) from error
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict from the features alone: the sign of the fitted score."""
        features = self.fitted_features(X)
        if self.components_ is not None:
            features = self.components_.transform(features)
        dataset = binary_label_dataset(
            np.zeros(len(features)), np.zeros(len(features)), features, sensitive_is_feature=False
        )
        return self.to_labels(self.model_.predict(dataset).labels.ravel())
