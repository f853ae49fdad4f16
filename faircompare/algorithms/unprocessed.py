"""The unprocessed frontier: a baseline post-processed to each tolerance of a parity constraint.

Cruz & Hardt ("Unprocessing seven years of algorithmic fairness", ICLR 2024, §3-4) compare
every fairness intervention with the most accurate unconstrained model, post-processed by
group-specific thresholds relaxed to the intervention's own constraint violation: over
thousands of models on ACS data, the interventions rarely beat that frontier at equal
violation. ``unprocessed-<baseline>`` is one point of the frontier:

1. a validation third is carved from the training rows (stratified by group and label, seeded:
   the fraction of the benchmark's tuning, :data:`~faircompare.preprocessing.splits.
   VALIDATION_FRACTION`), and the baseline is fitted on the rest;
2. on the validation third's scores, the most accurate randomised group thresholds whose
   constrained rates differ by at most ``tolerance`` are fitted
   (:func:`~faircompare.algorithms.thresholds.fit_group_thresholds`), or, with no constraint,
   each group's most accurate threshold.

The benchmark plans the frontier's points whatever its ``grid`` setting
(:attr:`UnprocessedClassifier.always_planned`): no constraint, then demographic parity and
equalized odds at each of :data:`TOLERANCES`. Runs that differ only in the constraint and the
tolerance share one fit of the baseline (:attr:`~faircompare.algorithms.base.FairEstimator.
refit_params`). The thresholds' randomisation draws per row from a hash of its features, so a
person's prediction never depends on the rows predicted with them.

A group whose validation rows all have one label has no ROC curve, and a group without
validation rows none at all: such a group keeps the baseline's own decision, unconstrained, as
:class:`~faircompare.algorithms.postprocessing.ThresholdOptimizerPostprocessing` does, with the
same :class:`~faircompare.algorithms.postprocessing.UnconstrainedGroupWarning`.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np
from sklearn.base import clone

from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.baselines import GradientBoosting, LogisticRegressionBaseline
from faircompare.algorithms.postprocessing import groups_with_both_labels, warn_unconstrained
from faircompare.algorithms.rowhash import row_uniform
from faircompare.algorithms.thresholds import (
    CONSTRAINTS,
    HARDT_2016,
    GroupThresholds,
    fit_group_thresholds,
)
from faircompare.bibliography import Reference
from faircompare.preprocessing.splits import VALIDATION_FRACTION

__all__ = [
    "TOLERANCES",
    "UNPROCESSED_BASELINES",
    "UnprocessedClassifier",
]

#: The tolerances of the frontier: the largest difference between two groups' constrained
#: rates (Cruz & Hardt 2024, §4, use a finer grid of the same range).
TOLERANCES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)


#: Cruz and Hardt's unprocessing: the frontier of group thresholds (§3-4).
CRUZ_HARDT_2024 = Reference(
    key="cruz2024unprocessing",
    authors=("Cruz, André F.", "Hardt, Moritz"),
    title="Unprocessing Seven Years of Algorithmic Fairness",
    year=2024,
    venue="The Twelfth International Conference on Learning Representations (ICLR 2024)",
    url="https://arxiv.org/abs/2306.07261",
)


class UnprocessedClassifier(FairEstimator):
    """A baseline with group thresholds fitted on validation data, relaxed to a tolerance.

    Parameters
    ----------
    estimator
        The baseline (a faircompare estimator with ``predict_proba``); cloned before fitting.
        Gradient boosting when None.
    constraint
        ``"demographic_parity"`` or ``"equalized_odds"``; None for each group's most accurate
        threshold, the frontier's unconstrained end.
    tolerance
        The largest difference allowed between two groups' constrained rates on the validation
        rows (demographic parity: selection rates; equalized odds: true and false positive
        rates).
    random_state
        Seed of the validation draw, of the baseline, and of the thresholds' randomisation.
    """

    family: ClassVar[str] = "post-processing"
    references: ClassVar[tuple[Reference, ...]] = (CRUZ_HARDT_2024, HARDT_2016)
    version: ClassVar[str] = "2"  # 2: each group's point reached with the fewest thresholds
    uses_sensitive_at_predict: ClassVar[bool] = True
    sparse_input: ClassVar[bool] = True
    refit_params: ClassVar[frozenset[str]] = frozenset({"constraint", "tolerance"})
    always_planned: ClassVar[tuple[dict[str, Any], ...]] = tuple(
        {"constraint": constraint, "tolerance": tolerance}
        for constraint in CONSTRAINTS
        for tolerance in TOLERANCES
    )

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        constraint: str | None = None,
        tolerance: float = 0.0,
        random_state: int | None = 0,
    ) -> None:
        self.estimator = estimator
        self.constraint = constraint
        self.tolerance = tolerance
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> UnprocessedClassifier:
        """Fit the baseline on two thirds of the rows, then the thresholds on the third left.

        Parameters
        ----------
        X
            Features, one row per person.
        y
            Labels: 1 for the positive outcome, 0 otherwise.
        sensitive_features
            The sensitive attribute of each row (any number of groups).

        Returns
        -------
        UnprocessedClassifier
            The fitted estimator itself.
        """
        features, labels = self.validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        rng = np.random.default_rng(self.random_state)
        strata = 2 * np.unique(s, return_inverse=True)[1] + labels  # group and label
        held = _holdout(strata, VALIDATION_FRACTION, rng)
        fitted, validation = np.flatnonzero(~held), np.flatnonzero(held)
        base = clone(self._base())
        if "random_state" in base.get_params():
            base.set_params(random_state=self.random_state)
        self.estimator_ = base.fit(features[fitted], labels[fitted])
        self.groups_ = np.unique(s)
        self.validation_ = (self._scores(features[validation]), labels[validation], s[validation])
        self._fit_thresholds()
        return self

    def refitted(self, **params: Any) -> UnprocessedClassifier:
        """Return this fit with other thresholds: the baseline and validation rows are shared.

        Parameters
        ----------
        **params
            ``constraint`` and ``tolerance``; one not given takes its default.

        Returns
        -------
        UnprocessedClassifier
            A new fitted estimator; this one is unchanged.
        """
        refit = copy.copy(self).set_params(**self._refit_settings(params))
        refit._fit_thresholds()
        return refit

    def _fit_thresholds(self) -> None:
        """Fit the group thresholds on the validation rows' scores."""
        scores, labels, s = self.validation_
        groups, both = groups_with_both_labels(s, labels)
        self.constrained_groups_ = groups[both]
        left_out = np.setdiff1d(self.groups_, self.constrained_groups_)
        if left_out.size:
            reason = "a single label, or no rows, in the validation part"
            warn_unconstrained(left_out, reason, "unprocessed", "the baseline")
        rows = np.isin(s, self.constrained_groups_)
        self.thresholds_: GroupThresholds | None = (
            fit_group_thresholds(
                scores[rows], labels[rows], s[rows], self.constraint, self.tolerance
            )  # fmt: skip
            if rows.any()
            else None
        )

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Label 1 with the probability the row's group thresholds give its score.

        The draw comes from a hash of the row's features
        (:mod:`~faircompare.algorithms.rowhash`). A row of a group without thresholds of its
        own (see the module's docstring) gets the baseline's decision.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The rows' sensitive attribute.

        Returns
        -------
        numpy.ndarray
            One label per row.
        """
        features = self.fitted_features(X)
        s = self.sensitive_for_predict(features, sensitive_features)
        positive = np.asarray(self.estimator_.predict(features), dtype=float)
        rows = np.isin(s, self.constrained_groups_)
        if self.thresholds_ is not None and rows.any():
            positive[rows] = self.thresholds_.positive_probability(
                self._scores(features[rows]), s[rows]
            )
        unseen = np.setdiff1d(s, self.groups_)
        if unseen.size:
            warn_unconstrained(unseen, "no training rows", "unprocessed", "the baseline")
        return self.to_labels(row_uniform(features, self.random_state) < positive)

    def training_row_limit(self) -> int | None:
        """Return the baseline's limit: the thresholds cost about linear time.

        Returns
        -------
        int or None
            The limit, or None.
        """
        return self._base().training_row_limit()

    def _scores(self, features: Any) -> np.ndarray:
        """Return the baseline's probability of label 1 for each row."""
        return np.asarray(self.estimator_.predict_proba(features))[:, 1]

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else GradientBoosting()


def _holdout(strata: np.ndarray, fraction: float, rng: np.random.Generator) -> np.ndarray:
    """Return a mask of ``fraction`` of each stratum's rows (rounded), drawn with ``rng``."""
    held = np.zeros(len(strata), dtype=bool)
    for stratum in np.unique(strata):
        rows = np.flatnonzero(strata == stratum)
        held[rng.permutation(rows)[: round(len(rows) * fraction)]] = True
    return held


#: The baselines whose frontier the benchmark traces: ``unprocessed-<name>``.
UNPROCESSED_BASELINES: dict[str, type[FairEstimator]] = {
    "gradient-boosting": GradientBoosting,
    "logistic-regression": LogisticRegressionBaseline,
}
