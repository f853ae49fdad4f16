"""fairlearn's ``CorrelationRemover``, followed by each baseline."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from fairlearn.preprocessing import CorrelationRemover

from faircompare.algorithms.base import FairEstimator
from faircompare.algorithms.libraries import FAIRLEARN
from faircompare.algorithms.representation import (
    FIRST_LOOK,
    RepresentationClassifier,
    with_baselines,
)
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference


class CorrelationRemoval(RepresentationClassifier):
    """Linear decorrelation of the features from the sensitive attribute, then a baseline.

    fairlearn's ``CorrelationRemover`` regresses the features on the centred sensitive attribute
    by least squares (fitted on the training data) and replaces each feature x by
    ``alpha`` (x - (s - mean s) beta) + (1 - ``alpha``) x: at ``alpha`` = 1 no feature is
    linearly correlated with s on the training data; at 0 the data are unchanged.

    Parameters
    ----------
    estimator
        The classifier trained on the decorrelated features (logistic regression when None).
    alpha
        How much of the correlation is removed, in [0, 1].
    """

    name: ClassVar[str] = "correlation-remover"
    library: ClassVar[str] = "fairlearn"
    references: ClassVar[tuple[Reference, ...]] = (FAIRLEARN,)
    param_grid: ClassVar[dict[str, list]] = {"alpha": [0.0, 0.25, 0.5, 0.75, 1.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"alpha": Real(0.0, 1.0)}

    def __init__(self, estimator: FairEstimator | None = None, alpha: float = 1.0) -> None:
        super().__init__(estimator)
        self.alpha = alpha

    def _fit_representation(self, features: np.ndarray, labels: np.ndarray, s: np.ndarray) -> None:
        with_s = np.column_stack([features, s])
        ids = [features.shape[1]]
        self.remover_ = CorrelationRemover(sensitive_feature_ids=ids, alpha=self.alpha).fit(with_s)

    def _represent(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        return self.remover_.transform(np.column_stack([features, s]))


# Its SVM pipeline fits libsvm on dense repaired features: the default profile's costliest cell
# (29 s a run on Adult, 2 cores busy), so the first look runs the three other classifiers.
CORRELATION_REMOVER_PIPELINES = with_baselines(CorrelationRemoval, first_look=FIRST_LOOK)
