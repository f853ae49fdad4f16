"""Pre-processing interventions followed by a baseline, as Feldman's repair is.

A pre-processing method learns, on the training data, a map from a person's features (and
sensitive attribute) to a new representation; a baseline classifier is then trained and applied
on the representation. :class:`RepresentationClassifier` is that pipeline, and
:func:`with_baselines` names one algorithm per baseline (``<method>-<baseline>``), the form an
entry point of the ``faircompare.algorithms`` group may take for a family of algorithms.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import partial
from typing import Any, ClassVar

import numpy as np
from sklearn.base import clone
from sklearn.utils.metaestimators import available_if

from faircompare.algorithms.base import FairEstimator, binary_sensitive
from faircompare.algorithms.baselines import (
    SVM,
    DecisionTree,
    GaussianNaiveBayes,
    GradientBoosting,
    LogisticRegressionBaseline,
)

BASELINES: dict[str, type[FairEstimator]] = {
    "svm": SVM,
    "decision-tree": DecisionTree,
    "gaussian-nb": GaussianNaiveBayes,
    "logistic-regression": LogisticRegressionBaseline,
}  # the paper's four: every pre-processing method is paired with each
# The baselines a first look pairs a costly pre-processing with: every one but the SVM, whose
# libsvm fit on dense repaired features dominates the ``default`` profile's time.
FIRST_LOOK = ("decision-tree", "gaussian-nb", "logistic-regression")
# Gradient-boosted trees, today's tabular baseline (FFB, ABCFair): on their own and after
# Feldman's repair, the pre-processing of the paper's study.
MODERN_BASELINES: dict[str, type[FairEstimator]] = {"gradient-boosting": GradientBoosting}


class RepresentationClassifier(FairEstimator):
    """A representation learned on the training data, then a classifier trained on it.

    Subclasses implement :meth:`_fit_representation` and :meth:`_represent`; the representation
    may use the sensitive attribute (0/1, 1 privileged), so it is needed at prediction time too.

    Parameters
    ----------
    estimator
        The classifier (a faircompare baseline) trained on the representation; cloned before
        fitting. Logistic regression when None.
    """

    name: ClassVar[str]  # set by each method
    family: ClassVar[str] = "pre-processing"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    uses_sensitive_at_predict: ClassVar[bool] = True

    def __init__(self, estimator: FairEstimator | None = None) -> None:
        self.estimator = estimator

    def _fit_representation(self, features: np.ndarray, labels: np.ndarray, s: np.ndarray) -> None:
        raise NotImplementedError

    def _represent(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _training_data(
        self, features: np.ndarray, labels: np.ndarray, s: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return the classifier's training rows (represented) and labels (unchanged here)."""
        return self._represent(features, s), labels

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> RepresentationClassifier:
        """Learn the representation on the training data, then the classifier on it."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), type(self).__name__)
        self._fit_representation(features, labels, s)
        represented, labels = self._training_data(features, labels, s)
        self.estimator_ = clone(self._base()).fit(represented, labels, sensitive_features=s)
        return self

    def transform(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        """Return the learned representation of ``X``.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The rows' sensitive attribute (0/1, 1 privileged).

        Returns
        -------
        numpy.ndarray
            One row per person.
        """
        features = self.fitted_features(X)
        return self._represent(
            features, self.binary_sensitive_for_predict(features, sensitive_features)
        )

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Represent ``X`` with the map learned in fit, then predict."""
        represented = self.transform(X, sensitive_features=sensitive_features)
        return self.to_labels(self.estimator_.predict(represented))

    @available_if(lambda self: hasattr(self._base(), "predict_proba"))
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, when the classifier has them."""
        represented = self.transform(X, sensitive_features=sensitive_features)
        return self.estimator_.predict_proba(represented)

    def training_row_limit(self) -> int | None:
        """Return the classifier's limit: the representation costs about linear time."""
        return self._base().training_row_limit()

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else LogisticRegressionBaseline()


def with_baselines(
    method: type[RepresentationClassifier], *, first_look: Collection[str] | None = None
) -> dict[str, Callable[[], FairEstimator]]:
    """Name one algorithm per baseline: ``<method.name>-<baseline>``.

    Parameters
    ----------
    method
        A representation classifier with a class attribute ``name``.
    first_look
        The baselines whose pipelines the ``default`` profile runs (None: every one); the
        others' builders say ``in_default_profile = False``
        (:attr:`faircompare.registry.Algorithm.in_default_profile`).

    Returns
    -------
    dict
        Algorithm name to a function building the pipeline with that baseline.
    """
    pipelines: dict[str, Callable[[], FairEstimator]] = {}
    for baseline, make in BASELINES.items():
        build = partial(_pipeline, method, make)
        if first_look is not None and baseline not in first_look:
            build.in_default_profile = False  # type: ignore[attr-defined]
        pipelines[f"{method.name}-{baseline}"] = build
    return pipelines


def _pipeline(
    method: type[RepresentationClassifier], baseline: type[FairEstimator]
) -> RepresentationClassifier:
    return method(estimator=baseline())
