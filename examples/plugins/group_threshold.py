"""An example faircompare plugin: demographic parity by group-specific thresholds.

Logistic regression scores every person; each group then gets its own threshold, the quantile
of its training scores that gives it the training data's overall positive rate. Check it and
use it with

    faircompare check-plugin examples/plugins/group_threshold.py
    faircompare list algorithms --plugins examples/plugins
"""

from typing import Any, ClassVar

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from faircompare.algorithms import FairEstimator
from faircompare.algorithms.libraries import SCIKIT_LEARN
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference


class GroupQuantileThreshold(FairEstimator):
    """Logistic regression with one threshold per group, equalising positive rates.

    Parameters
    ----------
    C
        Inverse regularisation strength of the logistic regression.
    """

    name: ClassVar[str] = "group-quantile-threshold"
    version: ClassVar[str] = "1"  # change it when a change of the code changes its results
    library: ClassVar[str] = "scikit-learn"  # whose code runs: the logistic regression's
    family: ClassVar[str] = "post-processing"  # thresholds on a fitted model's scores
    # what `faircompare cite` lists for a study that ran it: the method's paper, if it has one,
    # and the library whose code runs
    references: ClassVar[tuple[Reference, ...]] = (SCIKIT_LEARN,)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical", "numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {"C": [0.1, 1.0, 10.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"C": Real(0.01, 100.0, log=True)}
    uses_sensitive_at_predict: ClassVar[bool] = True

    def __init__(self, C: float = 1.0) -> None:
        self.C = C

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> "GroupQuantileThreshold":
        """Fit the scores, then each group's threshold."""
        features, y = self.validate_fit(X, y)  # scikit-learn's checks; labels as 0/1
        groups = np.asarray(sensitive_features)
        self.model_ = make_pipeline(StandardScaler(), LogisticRegression(C=self.C, max_iter=1000))
        scores = self.model_.fit(features, y).decision_function(features)
        self.thresholds_ = {
            group: np.quantile(scores[groups == group], 1 - y.mean()) for group in np.unique(groups)
        }
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict 1 where a person's score exceeds their group's threshold."""
        features = self.fitted_features(X)  # fitted first, the width seen in fit
        groups = self.sensitive_for_predict(features, sensitive_features)
        thresholds = np.array([self.thresholds_[group] for group in groups])
        return self.to_labels(self.model_.decision_function(features) > thresholds)
