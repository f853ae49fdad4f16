"""Hardt et al. (NeurIPS 2016) post-processing, through fairlearn's ThresholdOptimizer.

Group-specific (randomised) thresholds on a logistic regression's scores. Registered as a plugin
through faircompare's own entry point, like any third-party algorithm.

The logistic regression is faircompare's baseline, fitted here; fairlearn's optimizer then sees
its scores alone (a one-column input and a pass-through estimator, ``prefit``), so that the
features reach fairlearn, which needs them dense, never: ACSIncome's one-hot encoding stays
sparse. The thresholds are those of fairlearn fitting the same regression itself.

A group whose training rows all have one label has no ROC curve (Hardt et al. 2016, §4: a
group's thresholds trade its true- against its false-positive rate), and fairlearn refuses the
whole fit; many-group attributes have such groups (bank's young and divorced are one person).
Such a group, and a group absent from training, keeps the regression's own decision,
unconstrained: fairlearn fits the other groups alone, and an
:class:`UnconstrainedGroupWarning` names them.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
from fairlearn.postprocessing import ThresholdOptimizer
from sklearn.base import BaseEstimator, ClassifierMixin

from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.libraries import FAIRLEARN
from faircompare.algorithms.rowhash import row_uniform
from faircompare.algorithms.thresholds import HARDT_2016
from faircompare.bibliography import Reference


class ThresholdOptimizerPostprocessing(FairEstimator):
    """Equalized odds (or another parity) by group-specific thresholds on logistic regression.

    Parameters
    ----------
    constraint
        A constraint fairlearn's ThresholdOptimizer knows, e.g. ``"equalized_odds"``.
    objective
        The score maximised subject to the constraint, e.g. ``"accuracy_score"``.
    random_state
        Seed of the randomised thresholds.
    """

    family: ClassVar[str] = "post-processing"
    library: ClassVar[str] = "fairlearn"
    references: ClassVar[tuple[Reference, ...]] = (HARDT_2016, FAIRLEARN)
    name: ClassVar[str] = "threshold-optimizer"
    uses_sensitive_at_predict: ClassVar[bool] = True
    # 2: randomised thresholds drawn per row (row hash); 3: a group absent from training or with
    # one training label gets the regression's decision (fairlearn gave it label 0, or refused);
    # 4: predict_proba, the randomised classifier's expected prediction: its scores, and the
    # loss the individual test attacks (the draws made each attack's loss noisy, #80)
    version: ClassVar[str] = "4"
    sparse_input: ClassVar[bool] = True

    def __init__(
        self,
        constraint: str = "equalized_odds",
        objective: str = "accuracy_score",
        random_state: int | None = 0,
    ) -> None:
        self.constraint = constraint
        self.objective = objective
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> ThresholdOptimizerPostprocessing:
        """Fit logistic regression, then the thresholds of each group on its scores."""
        features, labels = self.validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        self.scorer_ = LogisticRegressionBaseline().fit(features, labels)
        scores = self._scores(features)
        self.groups_, both = groups_with_both_labels(s, labels)
        self.constrained_groups_ = self.groups_[both]
        if not both.all():
            warn_unconstrained(self.groups_[~both], "a single label in training")
        rows = np.isin(s, self.constrained_groups_)
        self.model_ = (
            ThresholdOptimizer(
                estimator=_GivenScores().fit(scores, labels),
                constraints=self.constraint,
                objective=self.objective,
                predict_method="predict_proba",
                prefit=True,
            ).fit(scores[rows], labels[rows], sensitive_features=s[rows])
            if rows.any()
            else None
        )
        return self

    def _scores(self, features: Any) -> np.ndarray:
        """Return the regression's probabilities of label 1, as a one-column matrix."""
        return self.scorer_.predict_proba(features)[:, 1:]

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return the probability that the randomised classifier predicts each label.

        Its expected prediction: 0 or 1 away from a group's thresholds, the mixing probability
        between them (Hardt et al. 2016, §3.2); a row of a group without thresholds of its own
        (see the module's docstring) gets the regression's decision, label 1 where its
        probability exceeds 1/2.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The rows' group.

        Returns
        -------
        numpy.ndarray
            Shape (rows, 2): the probabilities of labels 0 and 1.
        """
        features = self.fitted_features(X)
        positive = self._positive(
            features, self.sensitive_for_predict(features, sensitive_features)
        )
        return np.column_stack([1.0 - positive, positive])

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Apply each row's group threshold (randomised where the optimum needs it).

        Label 1 with the probability :meth:`predict_proba` gives, drawn per row from a hash of
        its features (:mod:`~faircompare.algorithms.rowhash`), so a person's prediction does
        not depend on the batch.
        """
        features = self.fitted_features(X)
        positive = self._positive(
            features, self.sensitive_for_predict(features, sensitive_features)
        )
        return self.to_labels(row_uniform(features, self.random_state) < positive)

    def _positive(self, features: Any, s: np.ndarray) -> np.ndarray:
        """Return each row's probability of label 1, warning of groups unseen in training."""
        scores = self._scores(features)
        positive = (scores[:, 0] > 0.5).astype(float)
        rows = np.isin(s, self.constrained_groups_)
        if self.model_ is not None and rows.any():
            pmf = self.model_._pmf_predict(scores[rows], sensitive_features=s[rows])
            positive[rows] = pmf[:, 1]
        unseen = np.setdiff1d(s, self.groups_)
        if unseen.size:
            warn_unconstrained(unseen, "no training rows")
        return positive


class UnconstrainedGroupWarning(UserWarning):
    """Groups without thresholds of their own get the regression's decision, unconstrained."""


def groups_with_both_labels(s: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the groups of ``s`` and, for each, whether its rows have both 0/1 labels.

    Parameters
    ----------
    s
        Each row's group.
    labels
        Each row's 0/1 label.

    Returns
    -------
    groups : numpy.ndarray
        The groups, sorted.
    both : numpy.ndarray
        Whether each group has rows of both labels.
    """
    groups, group_of_row = np.unique(s, return_inverse=True)
    labels_per_group = np.zeros((len(groups), 2), dtype=bool)
    labels_per_group[group_of_row, labels] = True
    return groups, np.all(labels_per_group, axis=1)


def warn_unconstrained(
    groups: np.ndarray,
    reason: str,
    algorithm: str = "threshold-optimizer",
    model: str = "the logistic regression",
) -> None:
    """Warn that ``groups`` keep an unconstrained model's decision, and say why.

    Parameters
    ----------
    groups
        The groups without thresholds of their own.
    reason
        Why they have none.
    algorithm, model
        The post-processing algorithm, and the model whose decision those groups get.
    """
    warnings.warn(
        f"{algorithm}: group(s) {', '.join(map(repr, groups.tolist()))} have {reason}, "
        f"so no thresholds of their own; their rows get {model}'s decision, unconstrained",
        UnconstrainedGroupWarning,
        stacklevel=3,
    )


class _GivenScores(ClassifierMixin, BaseEstimator):
    """A classifier whose one input column is already its probability of label 1."""

    def fit(self, X: Any, y: Any) -> _GivenScores:
        """Record the labels; there is nothing to learn."""
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X: Any) -> np.ndarray:
        """Columns 1 - p and p, p the input's column."""
        p = np.asarray(X, dtype=float)[:, 0]
        return np.column_stack([1 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        """Label 1 where p > 1/2."""
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]
