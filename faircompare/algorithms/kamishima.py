"""Kamishima et al. (ECML-PKDD 2012) prejudice remover.

Logistic regression with a penalty on the prejudice index.

The model has one weight vector per sensitive value, Pr[y = 1 | x, s] = sigmoid(w_s'x + b_s)
(the authors' "type 4" model), and minimises (Kamishima et al. §4, eq. 4)

    -sum_i log Pr[y_i | x_i, s_i]  +  eta * PI  +  (C / 2) * sum_s ||(w_s, b_s)||^2,

where the prejudice index PI = sum_i sum_y Pr[y | x_i, s_i] log(Pr^[y | s_i] / Pr^[y]) is
the mutual information between the prediction and s, with Pr^[y | s] and Pr^[y] the mean
predicted probabilities in group s and overall (§4.2). Its gradient is analytic: with
p_i = Pr[y = 1 | x_i, s_i], q_s and r the mean of p in group s and overall,

    d PI / d p_i = log(q_s / r) - log((1 - q_s) / (1 - r)),

the terms from differentiating q and r summing to zero. The problem is solved with L-BFGS,
starting from the eta = 0 solution (two ordinary regularised logistic regressions). Features
are standardised with training statistics.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy.optimize import minimize
from scipy.sparse.linalg import LinearOperator
from scipy.special import expit, log_expit
from sklearn.linear_model import LogisticRegression

from faircompare._validation import check_choice
from faircompare.algorithms.base import (
    FairEstimator,
    binary_sensitive,
)
from faircompare.algorithms.linear import Design
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

# Friedler et al.'s grid: 0 to 300, finer at low values (Kamishima et al. Fig. 2).
ETAS = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 100.0, 150.0, 200.0,
        250.0, 300.0]  # fmt: skip


#: Kamishima et al.'s prejudice remover.
KAMISHIMA_2012 = Reference(
    key="kamishima2012fairness",
    authors=("Kamishima, Toshihiro", "Akaho, Shotaro", "Asoh, Hideki", "Sakuma, Jun"),
    title="Fairness-Aware Classifier with Prejudice Remover Regularizer",
    year=2012,
    venue="Machine Learning and Knowledge Discovery in Databases (ECML PKDD 2012), Lecture "
    "Notes in Computer Science 7524",
    pages="35-50",
    doi="10.1007/978-3-642-33486-3_3",
)


#: How :class:`PrejudiceRemover` fits: to convergence, or where the authors' code stopped.
SOLVERS = ("lbfgs", "start")


class PrejudiceRemover(FairEstimator):
    """Logistic regression with Kamishima et al.'s prejudice-index regulariser.

    Parameters
    ----------
    eta
        Weight of the prejudice index; 0 gives ordinary logistic regression per group.
    C
        L2 regularisation strength (the authors' default 1).
    max_iter
        Iteration limit of L-BFGS.
    scale
        Standardise the features (the default); False fits on them as they are, as the paper's
        benchmark gave them to the authors' code.
    solver
        ``"lbfgs"`` (the default): L-BFGS to convergence, from the eta = 0 solution; or
        ``"start"``, what the authors' ``train_pr.py`` returned: its start, one logistic
        regression per group (scikit-learn's liblinear, the ones column a feature), from which
        its conjugate gradients never moved (their line search fails at the first step: the
        code's gradient disagrees with its objective), so ``eta`` has no effect.
    """

    family: ClassVar[str] = "in-processing"
    references: ClassVar[tuple[Reference, ...]] = (KAMISHIMA_2012,)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {"eta": ETAS}
    search_space: ClassVar[dict[str, Dimension]] = {
        "eta": Real(0.0, 300.0),
        "C": Real(0.001, 1000.0, log=True),
    }
    uses_sensitive_at_predict: ClassVar[bool] = True
    sparse_input: ClassVar[bool] = True  # the design is then an operator (linear.Design)

    def __init__(
        self,
        eta: float = 1.0,
        C: float = 1.0,
        max_iter: int = 1000,
        scale: bool = True,
        solver: str = "lbfgs",
    ) -> None:
        self.eta = eta
        self.C = C
        self.max_iter = max_iter
        self.scale = scale
        self.solver = solver

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> PrejudiceRemover:
        """Fit the two weight vectors by L-BFGS (or return the authors' start)."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, features.shape[0], "PrejudiceRemover")
        check_choice(self.solver, SOLVERS, what="solver")
        self.design_ = Design(features, standardise=self.scale)
        design = self.design_(features)
        if self.solver == "start":
            self.coef_, self.n_iter_ = _per_group_start(design, labels, s, self.C), 0
            return self
        start = np.zeros((2, design.shape[1]))
        for eta in (0.0, self.eta) if self.eta else (0.0,):
            result = minimize(  # the mean, not the sum: tolerances then mean what they say
                lambda w, *args: tuple(part / design.shape[0] for part in _objective(w, *args)),
                start.ravel(),
                args=(design, labels, s, eta, self.C),
                jac=True,
                method="L-BFGS-B",
                options={"maxiter": self.max_iter},
            )
            start = result.x.reshape(2, -1)
        self.coef_ = start
        self.n_iter_ = result.nit
        return self

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Log-odds of label 1, with the weights of each row's group."""
        features = self.fitted_features(X)
        s = self.binary_sensitive_for_predict(features, sensitive_features)
        if_one, if_zero = (self.design_(features) @ self.coef_[::-1].T).T
        return np.where(s == 1, if_one, if_zero)

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, columns for labels 0 and 1."""
        p = expit(self.decision_function(X, sensitive_features=sensitive_features))
        return np.column_stack([1 - p, p])

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict label 1 (``classes_[1]``) where the log-odds are positive."""
        return self.to_labels(self.decision_function(X, sensitive_features=sensitive_features) > 0)

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its (unstandardised) features."""
        p = self.predict_proba(X, sensitive_features=sensitive_features)[:, 1]
        s = np.asarray(sensitive_features).astype(np.int64)
        return self.design_.input_gradient(p, y, self.coef_[s, :-1])


def _per_group_start(design: Any, y: np.ndarray, s: np.ndarray, C: float) -> np.ndarray:
    """Return the authors' start: each group's logistic regression, the ones column a feature.

    ``LRwPRType4.fit``'s ``itype=3``: scikit-learn's L2 logistic regression of strength C with
    no intercept of its own (the design's last column, all ones, takes its place), fitted by
    liblinear on each group's rows; a group with one class keeps zero weights.
    """
    if isinstance(design, LinearOperator):  # sparse features: the authors' code had them dense
        design = design.matmat(np.eye(design.shape[1]))
    coef = np.zeros((2, design.shape[1]))
    for g in (0, 1):
        rows = s == g
        if len(np.unique(y[rows])) == 2:
            own = LogisticRegression(C=C, fit_intercept=False, solver="liblinear")
            coef[g] = own.fit(design[rows], y[rows]).coef_[0]
    return coef


def _objective(
    flat: np.ndarray, X: np.ndarray, y: np.ndarray, s: np.ndarray, eta: float, C: float
) -> tuple[float, np.ndarray]:
    """Kamishima et al.'s objective and its gradient with respect to both weight vectors."""
    coef = flat.reshape(2, -1)
    z = np.where(s == 1, *(X @ coef[::-1].T).T)  # each row's log-odds under its group's weights
    p = expit(z)
    loss = -np.sum(y * log_expit(z) + (1 - y) * log_expit(-z)) + 0.5 * C * np.sum(coef**2)
    dz = p - y
    if eta:
        counts = np.bincount(s, minlength=2)
        q = np.bincount(s, weights=p, minlength=2) / np.maximum(counts, 1)
        r = p.mean()
        log_ratio_1 = np.log(q) - np.log(r)
        log_ratio_0 = np.log1p(-q) - np.log1p(-r)
        loss += eta * np.sum(p * log_ratio_1[s] + (1 - p) * log_ratio_0[s])
        dz = dz + eta * p * (1 - p) * (log_ratio_1 - log_ratio_0)[s]
    by_group = dz[:, None] * (s[:, None] == np.arange(2))  # dz split into the groups' columns
    grad = (X.T @ by_group).T
    return loss, (grad + C * coef).ravel()
