"""Agarwal et al. (ICML 2018) reductions, through fairlearn.

Exponentiated gradient and grid search around logistic regression, with demographic-parity or
equalized-odds constraints.

The sensitive attribute is used in training only; it may have any number of values.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from fairlearn.reductions import DemographicParity, EqualizedOdds, ExponentiatedGradient, GridSearch
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from faircompare._validation import check_choice
from faircompare.algorithms.base import (
    FairEstimator,
    check_sensitive,
)
from faircompare.algorithms.libraries import FAIRLEARN
from faircompare.algorithms.rowhash import row_uniform
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

CONSTRAINTS = {"demographic_parity": DemographicParity, "equalized_odds": EqualizedOdds}


@contextmanager
def quiet_fairlearn() -> Iterator[None]:
    """Silence fairlearn's deprecation warnings about newer pandas, and its log messages.

    Grid search logs advice on the grid size when a constraint has many dimensions (equalized
    odds with several groups); raise ``grid_size`` to follow it.
    """
    logger = logging.getLogger("fairlearn")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            category = getattr(pd.errors, "Pandas4Warning", FutureWarning)
            warnings.filterwarnings("ignore", category=category, module=r"fairlearn\.")
            yield
    finally:
        logger.setLevel(level)


def logistic_regression() -> Pipeline:
    """Return the logistic regression the reductions and AIF360's wrappers start from."""
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


#: Agarwal et al.'s reductions, as fairlearn implements them.
AGARWAL_2018 = Reference(
    key="agarwal2018reductions",
    authors=(
        "Agarwal, Alekh",
        "Beygelzimer, Alina",
        "Dudík, Miroslav",
        "Langford, John",
        "Wallach, Hanna",
    ),
    title="A Reductions Approach to Fair Classification",
    year=2018,
    venue="Proceedings of the 35th International Conference on Machine Learning (ICML), PMLR 80",
    pages="60-69",
    url="https://proceedings.mlr.press/v80/agarwal18a.html",
)


class _Reduction(FairEstimator):
    family: ClassVar[str] = "in-processing"
    library: ClassVar[str] = "fairlearn"
    references: ClassVar[tuple[Reference, ...]] = (AGARWAL_2018, FAIRLEARN)

    def _constraint(self) -> DemographicParity | EqualizedOdds:
        check_choice(self.constraint, CONSTRAINTS, what="reduction constraint")
        return CONSTRAINTS[self.constraint]()

    def _fit(self, reduction: ExponentiatedGradient | GridSearch, X: Any, y: Any, s: Any) -> Any:
        """Fit a fairlearn reduction of logistic regression on standardised numeric features.

        The features are standardised once, with unweighted training statistics, as a pipeline
        would in each of the reduction's fits; the reduction then passes its weights by
        scikit-learn's own ``sample_weight``, which the dummy classifier fairlearn substitutes
        when a reweighted problem has a single label (separable data) accepts too.
        """
        features, labels = self.validate_fit(X, y)
        self.scaler_ = StandardScaler().fit(features)
        with quiet_fairlearn():
            reduction.fit(
                self.scaler_.transform(features),
                labels,
                sensitive_features=check_sensitive(s, len(features)),
            )
        self.model_ = reduction
        return self

    def _scaled(self, X: Any) -> np.ndarray:
        features = self.fitted_features(X)
        return self.scaler_.transform(features)


class ExponentiatedGradientReduction(_Reduction):
    """fairlearn's exponentiated gradient: a randomised mixture of logistic regressions.

    Parameters
    ----------
    constraint
        ``"demographic_parity"`` or ``"equalized_odds"``.
    eps
        Allowed constraint violation on the training data.
    max_iter
        Iterations of the exponentiated-gradient game.
    random_state
        Seed of the randomised predictions.
    """

    param_grid: ClassVar[dict[str, list]] = {"eps": [0.001, 0.005, 0.01, 0.02, 0.05, 0.1]}
    search_space: ClassVar[dict[str, Dimension]] = {"eps": Real(0.001, 0.1, log=True)}
    version: ClassVar[str] = "2"  # 2: randomised predictions drawn per row (row hash)

    def __init__(
        self,
        constraint: str = "demographic_parity",
        eps: float = 0.01,
        max_iter: int = 50,
        random_state: int | None = 0,
    ) -> None:
        self.constraint = constraint
        self.eps = eps
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> ExponentiatedGradientReduction:
        """Play the exponentiated-gradient game on the training data."""
        reduction = ExponentiatedGradient(
            LogisticRegression(max_iter=1000),
            self._constraint(),
            eps=self.eps,
            max_iter=self.max_iter,
        )
        return self._fit(reduction, X, y, sensitive_features)

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Probability that the randomised classifier predicts each label."""
        features = self._scaled(X)
        return self.model_._pmf_predict(features)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Draw the randomised classifier's predictions (seeded by ``random_state``).

        Each row's draw comes from a hash of its features (:mod:`~faircompare.algorithms.
        rowhash`), so a person's prediction does not depend on the rows predicted with them.
        """
        features = self._scaled(X)
        positive = self.model_._pmf_predict(features)[:, 1]
        return self.to_labels(row_uniform(features, self.random_state) < positive)


class GridSearchReduction(_Reduction):
    """fairlearn's grid search over Lagrange multipliers: one deterministic logistic regression.

    Parameters
    ----------
    constraint
        ``"demographic_parity"`` or ``"equalized_odds"``.
    constraint_weight
        Weight of the constraint violation against the error when choosing among the grid.
    grid_size
        Number of Lagrange multipliers tried.
    """

    param_grid: ClassVar[dict[str, list]] = {"constraint_weight": [0.0, 0.25, 0.5, 0.75, 1.0]}
    search_space: ClassVar[dict[str, Dimension]] = {"constraint_weight": Real(0.0, 1.0)}

    def __init__(
        self,
        constraint: str = "demographic_parity",
        constraint_weight: float = 0.5,
        grid_size: int = 10,
    ) -> None:
        self.constraint = constraint
        self.constraint_weight = constraint_weight
        self.grid_size = grid_size

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> GridSearchReduction:
        """Fit one logistic regression per grid point and keep the best tradeoff."""
        reduction = GridSearch(
            LogisticRegression(max_iter=1000),
            self._constraint(),
            constraint_weight=self.constraint_weight,
            grid_size=self.grid_size,
        )
        return self._fit(reduction, X, y, sensitive_features)

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities of the chosen logistic regression."""
        features = self._scaled(X)
        return self.model_.predict_proba(features)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict with the chosen logistic regression."""
        features = self._scaled(X)
        return self.to_labels(self.model_.predict(features))
