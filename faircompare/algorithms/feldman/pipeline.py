"""Feldman et al.'s repair, then any classifier trained and applied on the repaired features."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np
from scipy import sparse
from sklearn.base import clone
from sklearn.utils.metaestimators import available_if

from faircompare._validation import check_choice
from faircompare.algorithms.base import FairEstimator, check_sensitive
from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.feldman.repair import FELDMAN_2015, DisparateImpactRepair
from faircompare.algorithms.loss_oracle import gradient_kind
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

REPAIR_LEVELS = [round(0.05 * k, 2) for k in range(21)]  # Friedler et al. §7: 0 to 1 by 0.05
SURROGATE = "surrogate"  # the gradient kind of a pipeline whose classifier has one
#: Which rows repair the rows a model predicts: ``"fitted"``, the repair fitted on the training
#: rows; ``"own"``, a repair fitted on the predicted rows themselves, as the paper's benchmark
#: repaired its test set (a batch's predictions then depend on the batch).
TEST_REPAIRS = ("fitted", "own")


class FeldmanClassifier(FairEstimator):
    """Disparate-impact repair, then a classifier trained and applied on repaired features.

    Parameters
    ----------
    estimator
        The classifier (a faircompare baseline); cloned before fitting.
    repair_level
        lambda in [0, 1].
    random_state
        Seed of the repair's tie-breaking draws (``ties="random"``).
    ties
        ``"value"`` (each distinct value of a group repaired to one value, as the authors' code)
        or ``"random"`` (ties broken at random): :class:`DisparateImpactRepair`.
    test_repair
        ``"fitted"`` (new rows repaired by the repair fitted on the training rows) or ``"own"``
        (new rows repaired by a repair fitted on themselves, as the paper's benchmark did).
    """

    family: ClassVar[str] = "pre-processing"
    references: ClassVar[tuple[Reference, ...]] = (FELDMAN_2015,)
    param_grid: ClassVar[dict[str, list]] = {"repair_level": REPAIR_LEVELS}
    search_space: ClassVar[dict[str, Dimension]] = {"repair_level": Real(0.0, 1.0)}
    uses_sensitive_at_predict: ClassVar[bool] = True
    groups_by_order: ClassVar[bool] = True  # groups are their indices in the sorted groups_
    # 2: tie-breaking by row hash, lower median; 3: the training rows' ties broken by a stream
    # per block of columns and group, the repair done a block of columns at a time (#31); 4: one
    # fit of the repair, and one seed of its draws, for every level of a sweep (#69); 5: ties
    # repaired value by value as the authors' code does, by default (#78)
    version: ClassVar[str] = "5"
    refit_params: ClassVar[frozenset[str]] = frozenset({"repair_level"})
    sparse_input: ClassVar[bool] = True  # repaired sparse; densified for a classifier without

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        repair_level: float = 1.0,
        random_state: int | None = 0,
        ties: str = "value",
        test_repair: str = "fitted",
    ) -> None:
        self.estimator = estimator
        self.repair_level = repair_level
        self.random_state = random_state
        self.ties = ties
        self.test_repair = test_repair

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> FeldmanClassifier:
        """Fit the repair on the training data, then the classifier on the repaired data.

        The training rows are kept with the model, so that :meth:`refitted` can repair them at
        another level.

        Parameters
        ----------
        X
            Training features.
        y
            Labels (1 positive, 0 other).
        sensitive_features
            Each row's group.

        Returns
        -------
        FeldmanClassifier
            This model, fitted.
        """
        features, labels = self.validate_fit(X, y)
        s = check_sensitive(sensitive_features, features.shape[0])
        check_choice(self.test_repair, TEST_REPAIRS, what="test_repair")
        self.repair_ = DisparateImpactRepair(self.repair_level, self.random_state, self.ties)
        self._training = features, labels, s
        self.repair_.fit(features, sensitive_features=s)
        return self._fit_classifier()

    def refitted(self, **params: Any) -> FeldmanClassifier:
        """Return this model at another repair level: the repair's fit shared, the classifier new.

        Nothing the repair fits depends on the level (:meth:`DisparateImpactRepair.at_level`),
        so the runs of a sweep over levels share one fit of it, and one set of tie-breaking
        draws: their models differ by the level alone.

        Parameters
        ----------
        **params
            ``repair_level``; its default (1) when not given.

        Returns
        -------
        FeldmanClassifier
            A new fitted model; this one is unchanged.
        """
        other = copy.copy(self).set_params(**self._refit_settings(params))
        other.repair_ = self.repair_.at_level(other.repair_level)
        return other._fit_classifier()

    def _fit_classifier(self) -> FeldmanClassifier:
        """Fit the classifier on the training rows repaired at the model's level."""
        features, labels, s = self._training
        repaired = self._for_base(self.repair_.repaired_training(features))
        self.estimator_ = clone(self._base()).fit(repaired, labels, sensitive_features=s)
        return self

    def _checked(self, X: Any, sensitive_features: Any) -> tuple[Any, np.ndarray]:
        """Return the features as fitted and each row's group."""
        features = self.fitted_features(X)
        return features, self.sensitive_for_predict(features, sensitive_features)

    def _repaired(self, features: Any, s: np.ndarray) -> Any:
        """Repair checked features (:meth:`_checked`) for the classifier."""
        repair = self.repair_
        if self.test_repair == "own":
            repair = clone(repair).fit(features, sensitive_features=s)
        return self._for_base(repair.transform(features, sensitive_features=s))

    def _for_base(self, repaired: Any) -> Any:
        """Return the repaired features, densified for a classifier without sparse input."""
        dense = sparse.issparse(repaired) and not self._base().sparse_input
        return repaired.toarray() if dense else repaired

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Repair ``X`` with the repair fitted on the training rows, then predict.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray
            The predicted labels.
        """
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.to_labels(self.estimator_.predict(repaired))

    @available_if(lambda self: hasattr(self._base(), "predict_proba"))
    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, when the classifier has them."""
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.estimator_.predict_proba(repaired)

    @available_if(lambda self: hasattr(self._base(), "decision_function"))
    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Scores, when the classifier has them."""
        repaired = self._repaired(*self._checked(X, sensitive_features))
        return self.estimator_.decision_function(repaired)

    @property
    def gradient_kind(self) -> str | None:
        """``"surrogate"`` if the classifier has a gradient, else None (trees, naive Bayes)."""
        fitted = getattr(self, "estimator_", None)
        base = self._base() if fitted is None else fitted
        return SURROGATE if gradient_kind(base) is not None else None

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return the log-loss's gradient through the repair's smoothing, for the audit's attack.

        The repair is a step function of each feature, so the pipeline's exact gradient is zero
        almost everywhere. This is the chain rule through the repair's piecewise-linear
        smoothing instead (:meth:`DisparateImpactRepair.slopes`): the classifier's input
        gradient at the repaired row, times each feature's slope. The individual-fairness audit
        follows it as its search direction (the attack's kind is ``"surrogate"``); the losses
        it tests are the pipeline's own.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        y
            Labels (1 positive, 0 other).
        sensitive_features
            Each row's group.

        Returns
        -------
        numpy.ndarray
            One gradient per row, shape ``(rows, features)``.

        Raises
        ------
        NotImplementedError
            Where the classifier has no input gradient (``gradient_kind`` is None).
        """
        if self.gradient_kind is None:
            raise NotImplementedError(f"{type(self._base()).__name__} has no input gradient")
        features, s = self._checked(X, sensitive_features)
        inner = self.estimator_.input_gradient(self._repaired(features, s), y, sensitive_features=s)
        return inner * self.repair_.slopes(features, sensitive_features=s)

    def fit_equivalent(self) -> FairEstimator | None:
        """Return the classifier at repair level 0, where the repair leaves every value as is.

        At level 0 both repairs return the features themselves (by value, each value moves
        ``round(0 * d)`` places; with random ties, ``(1 - 0) x + 0 q`` is ``x``), so the
        classifier is fitted on, and predicts from, the features themselves. The repair fitted
        on the predicted rows themselves (``test_repair="own"``) is one too.

        Returns
        -------
        FairEstimator or None
            The classifier at level 0, else None.
        """
        return self._base() if self.repair_level == 0 else None

    def training_row_limit(self) -> int | None:
        """Return the classifier's limit: the repair costs about linear time.

        Returns
        -------
        int or None
            The classifier's training-row limit.
        """
        return self._base().training_row_limit()

    def _base(self) -> FairEstimator:
        return self.estimator if self.estimator is not None else LogisticRegressionBaseline()
