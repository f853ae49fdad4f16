"""The unprocessed frontier: a baseline post-processed to each tolerance of a parity constraint.

Cruz & Hardt ("Unprocessing seven years of algorithmic fairness", ICLR 2024, §3-4) compare
every fairness intervention with the most accurate unconstrained model, post-processed by
group-specific thresholds relaxed to the intervention's own constraint violation: over
thousands of models on ACS data, the interventions rarely beat that frontier at equal
violation. ``unprocessed-<baseline>`` is one point of the frontier:

- with no constraint, the baseline itself, fitted on all the training rows: in the benchmark
  the very fit of the baseline's own runs (:meth:`UnprocessedClassifier.fit_equivalent`), so
  the frontier's unconstrained end is its baseline, prediction for prediction;
- with a constraint, the baseline cross-fitted: the training rows are cut into :data:`FOLDS`
  folds (stratified by group and label, seeded), the baseline is fitted on each fold's
  complement, and the most accurate randomised group thresholds whose constrained rates differ
  by at most ``tolerance`` on the out-of-fold scores are fitted
  (:func:`~faircompare.algorithms.thresholds.fit_group_thresholds`); a row is scored by the
  mean of the fold models' scores.

No training row is given up: the frontier's first version fitted the baseline on two thirds of
the rows and the thresholds on the third left, which put its unconstrained end up to 3 points
below its own baseline on German credit and Ricci (``perf/frontier_baseline.py`` measures both
schemes). The fold models' mean, rather than the baseline fitted on every row, scores the rows
the thresholds decide because it is the model whose scores the thresholds were fitted on:
gradient boosting on Ricci scores the training rows near 0 and 1, and a threshold fitted among
the fold models' out-of-fold scores selects none of the full model's more extreme test scores
(test demographic-parity violation 0.34 at tolerance 0, against 0.05 with the fold models'
mean, whose accuracy matched or beat the full model's elsewhere within 0.01).

The benchmark plans the frontier's points whatever its ``grid`` setting
(:attr:`UnprocessedClassifier.always_planned`): no constraint, then demographic parity and
equalized odds at each of :data:`TOLERANCES`. Runs that differ only in the constraint and the
tolerance share one fit (:attr:`~faircompare.algorithms.base.FairEstimator.refit_params`), its
models seeded as the baseline's own runs are (:meth:`UnprocessedClassifier.seeded_like`). The
thresholds' randomisation draws per row from a hash of its features, so a person's prediction
never depends on the rows predicted with them.

Small groups get thresholds of their own as soon as their training rows hold both labels, with
no shrinkage toward the pooled threshold: cross-fitted on all their training rows, the
thresholds of Adult's smallest race groups meet the tolerance on test as closely as
error-parity's (``perf/frontier_error_parity.py``). A group whose training rows all have one
label has no ROC curve: it keeps the baseline's own decision, unconstrained, as
:class:`~faircompare.algorithms.postprocessing.ThresholdOptimizerPostprocessing` does, with the
same :class:`~faircompare.algorithms.postprocessing.UnconstrainedGroupWarning`.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np
from sklearn.base import clone

from faircompare._deprecations import RenamedAttribute
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

__all__ = [
    "FOLDS",
    "TOLERANCES",
    "UNPROCESSED_BASELINES",
    "UnprocessedClassifier",
]

#: The tolerances of the frontier: the largest difference between two groups' constrained
#: rates (Cruz & Hardt 2024, §4, use a finer grid of the same range).
TOLERANCES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)
#: The folds of the cross-fitting whose out-of-fold scores the thresholds are fitted on.
FOLDS = 5


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
    """A baseline cross-fitted with group thresholds on its out-of-fold scores, to a tolerance.

    Parameters
    ----------
    estimator
        The baseline (a faircompare estimator with ``predict_proba``); cloned before fitting.
        Gradient boosting when None.
    constraint
        ``"demographic_parity"`` or ``"equalized_odds"``; None for the baseline's own
        decisions, the frontier's unconstrained end.
    tolerance
        The largest difference allowed between two groups' constrained rates on the training
        rows' out-of-fold scores (demographic parity: selection rates; equalized odds: true and
        false positive rates).
    random_state
        Seed of the baseline (as its own runs are seeded), of the folds, and of the thresholds'
        randomisation.
    """

    family: ClassVar[str] = "post-processing"
    references: ClassVar[tuple[Reference, ...]] = (CRUZ_HARDT_2024, HARDT_2016)
    # 2: each group's point reached with the fewest thresholds; 3: cross-fitted on all the
    # training rows, no constraint the baseline itself (#79)
    version: ClassVar[str] = "3"
    uses_sensitive_at_predict: ClassVar[bool] = True
    sparse_input: ClassVar[bool] = True
    refit_params: ClassVar[frozenset[str]] = frozenset({"constraint", "tolerance"})
    always_planned: ClassVar[tuple[dict[str, Any], ...]] = tuple(
        {"constraint": constraint, "tolerance": tolerance}
        for constraint in CONSTRAINTS
        for tolerance in TOLERANCES
    )
    validation_ = RenamedAttribute()

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
        """Fit the baseline on every row and on each fold's complement, then the thresholds.

        The fit costs :data:`FOLDS` + 1 fits of the baseline, shared by every constraint and
        tolerance (:meth:`refitted`).

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
        self.estimator_ = self._seeded_base().fit(features, labels, sensitive_features=s)
        self.groups_ = np.unique(s)
        strata = 2 * np.unique(s, return_inverse=True)[1] + labels  # group and label
        folds = _folds(strata, FOLDS, np.random.default_rng(self.random_state))
        self.fold_estimators_ = []
        scores = np.empty(len(labels))
        for fold in range(FOLDS):
            held = folds == fold
            model = self._seeded_base().fit(
                features[~held], labels[~held], sensitive_features=s[~held]
            )
            self.fold_estimators_.append(model)
            scores[held] = _scores(model, features[held])
        self.out_of_fold_ = (scores, labels, s)
        self._fit_thresholds()
        return self

    def fit_equivalent(self) -> FairEstimator | None:
        """Return the baseline when there is no constraint: the unconstrained end is its fit.

        Returns
        -------
        FairEstimator or None
            The baseline, unfitted, without a constraint; else None.
        """
        return self._base() if self.constraint is None else None

    def seeded_like(self) -> FairEstimator | None:
        """Return the baseline: the frontier's fit is seeded as the baseline's own runs are.

        Returns
        -------
        FairEstimator
            The baseline, unfitted.
        """
        return self._base()

    def refitted(self, **params: Any) -> UnprocessedClassifier:
        """Return this fit with other thresholds: the baseline and its folds are shared.

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
        """Fit the group thresholds on the out-of-fold scores; none without a constraint."""
        scores, labels, s = self.out_of_fold_
        groups, both = groups_with_both_labels(s, labels)
        self.constrained_groups_ = groups[both] if self.constraint is not None else groups[:0]
        if self.constraint is not None and not both.all():
            warn_unconstrained(
                groups[~both], "a single label in training", "unprocessed", "the baseline"
            )
        rows = np.isin(s, self.constrained_groups_)
        self.thresholds_: GroupThresholds | None = (
            fit_group_thresholds(
                scores[rows], labels[rows], s[rows], self.constraint, self.tolerance
            )  # fmt: skip
            if rows.any()
            else None
        )

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Label 1 with the probability the row's group thresholds give its cross-fitted score.

        The draw comes from a hash of the row's features
        (:mod:`~faircompare.algorithms.rowhash`). Without a constraint every row gets the
        baseline's decision, and so does a row of a group without thresholds of its own (see
        the module's docstring).

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
                self._fold_mean(features[rows]), s[rows]
            )
        unseen = np.setdiff1d(s, self.groups_)
        if unseen.size and self.constraint is not None:
            warn_unconstrained(unseen, "no training rows", "unprocessed", "the baseline")
        return self.to_labels(row_uniform(features, self.random_state) < positive)

    def cross_fitted_scores(self, X: Any) -> np.ndarray:
        """Return the mean of the fold models' probabilities of label 1: what is thresholded.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.

        Returns
        -------
        numpy.ndarray
            One score per row.
        """
        return self._fold_mean(self.fitted_features(X))

    def _fold_mean(self, features: Any) -> np.ndarray:
        """Return the fold models' mean score of rows already checked (the predict path's)."""
        return np.mean([_scores(model, features) for model in self.fold_estimators_], axis=0)

    def training_row_limit(self) -> int | None:
        """Return the baseline's limit: the thresholds cost about linear time.

        Returns
        -------
        int or None
            The limit, or None.
        """
        return self._base().training_row_limit()

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else GradientBoosting()

    def _seeded_base(self) -> FairEstimator:
        """Return an unfitted copy of the baseline, seeded with :attr:`random_state`."""
        base = clone(self._base())
        if "random_state" in base.get_params():
            base.set_params(random_state=self.random_state)
        return base


def _scores(model: FairEstimator, features: Any) -> np.ndarray:
    """Return a fitted model's probability of label 1 for each row."""
    return np.asarray(model.predict_proba(features))[:, 1]


def _folds(strata: np.ndarray, folds: int, rng: np.random.Generator) -> np.ndarray:
    """Return each row's fold: every stratum's rows, shuffled with ``rng``, dealt in turn."""
    fold = np.empty(len(strata), dtype=int)
    for stratum in np.unique(strata):
        rows = rng.permutation(np.flatnonzero(strata == stratum))
        fold[rows] = (np.arange(len(rows)) + rng.integers(folds)) % folds
    return fold


#: The baselines whose frontier the benchmark traces: ``unprocessed-<name>``.
UNPROCESSED_BASELINES: dict[str, type[FairEstimator]] = {
    "gradient-boosting": GradientBoosting,
    "logistic-regression": LogisticRegressionBaseline,
}
