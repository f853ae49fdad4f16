"""Zafar et al. (AISTATS 2017) fairness constraints for logistic regression.

The decision-boundary covariance between the sensitive attribute z and the signed distance
theta'x (Zafar et al. §3, eq. 2) is linear in theta:

    cov(theta) = (1/N) sum_i (z_i - mean z) theta'x_i = a'theta,

so both of the paper's problems reduce to minimising the convex loss L on hyperplanes
a'theta = t, which L-BFGS does exactly by optimising in the hyperplane's own coordinates:

- ``ZafarFairness`` (§3.2; named after its fairness constraint, as in Friedler et al.'s code,
  though their §7 prose swaps the two names) minimises L subject to |a'theta| <= c. If the
  unconstrained optimum theta* complies, it is the answer; otherwise, by convexity, the
  constraint is active and the answer is the optimum on a'theta = sign(a'theta*) c.
- ``ZafarAccuracy`` (§3.3) minimises |a'theta| subject to L(theta) <= (1 + gamma) L(theta*).
  The least loss on a'theta = t, phi(t), falls from phi(0) to L(theta*) as t goes from 0 to
  a'theta*: if phi(0) is within the budget the answer is the optimum on a'theta = 0 (the most
  accurate of the exactly uncorrelated solutions), else the t in between where phi(t) equals
  the budget, found by Brent's method.

This replaces the original's general-purpose SLSQP, and the constraints hold exactly. L is the
mean log-loss plus a small L2 penalty ``alpha`` (not on the intercept) that keeps the weights
finite on separable one-hot data. Features are standardised with training statistics (for the
optimiser and the penalty). The bound c constrains a covariance with the decision values
theta'x, the log-odds, which do not depend on the features' units: c means the same on raw and
standardised features, as in the original, where both give the same results.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy.optimize import brentq, minimize
from scipy.special import expit, log_expit

from faircompare._validation import check_choice
from faircompare.algorithms.base import (
    FairEstimator,
    binary_sensitive,
)
from faircompare.algorithms.linear import Design
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

#: How the problems are solved: exactly (the module's method), or as the authors' code did.
SOLVERS = ("exact", "slsqp")
# Friedler et al.: c from 0.001 to 1 and gamma from 0.1 to 1, each in 10 logarithmic steps.
COVARIANCE_BOUNDS = np.geomspace(0.001, 1, 10).round(6).tolist()
GAMMAS = np.geomspace(0.1, 1, 10).round(6).tolist()


#: Zafar et al.'s decision-boundary covariance constraints (§3.2-3.3).
ZAFAR_2017 = Reference(
    key="zafar2017fairness",
    authors=(
        "Zafar, Muhammad Bilal",
        "Valera, Isabel",
        "Gomez Rodriguez, Manuel",
        "Gummadi, Krishna P.",
    ),
    title="Fairness Constraints: Mechanisms for Fair Classification",
    year=2017,
    venue="Proceedings of the 20th International Conference on Artificial Intelligence and "
    "Statistics (AISTATS), PMLR 54",
    pages="962-970",
    url="https://proceedings.mlr.press/v54/zafar17a.html",
)


class _Problem:
    """Mean log-loss with L2 penalty on a design matrix, and the covariance direction a."""

    def __init__(self, design: np.ndarray, y: np.ndarray, z: np.ndarray, alpha: float) -> None:
        self.design = design
        self.sign = 2.0 * y - 1
        self.alpha = alpha
        self.a = (z - z.mean()) @ design / len(design)
        self.penalised = np.r_[np.ones(design.shape[1] - 1), 0.0]  # not the intercept

    def loss(self, theta: np.ndarray) -> float:
        """Mean log-loss plus the L2 penalty."""
        return self._loss_and_grad(theta)[0]

    def _loss_and_grad(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        margins = self.sign * (self.design @ theta)
        penalty = 0.5 * self.alpha * np.sum(self.penalised * theta**2)
        grad = -(self.design.T @ (self.sign * expit(-margins))) / len(margins)
        return float(
            -log_expit(margins).mean() + penalty
        ), grad + self.alpha * self.penalised * theta

    def solve(self, start: np.ndarray) -> np.ndarray:
        """Return the unconstrained optimum theta*."""
        return minimize(self._loss_and_grad, start, jac=True, method="L-BFGS-B").x

    def solve_on(self, t: float, start: np.ndarray) -> np.ndarray:
        """Return argmin L(theta) subject to a'theta = t, exactly on the hyperplane.

        theta = P v + t a / |a|^2, with P the projection orthogonal to a, is on the hyperplane
        for every v, so L-BFGS runs unconstrained over v with the projected gradient.
        """
        unit = self.a / np.linalg.norm(self.a)
        offset = t * self.a / (self.a @ self.a)

        def on_plane(v: np.ndarray) -> np.ndarray:
            return v - unit * (unit @ v) + offset

        def projected(v: np.ndarray) -> tuple[float, np.ndarray]:
            value, grad = self._loss_and_grad(on_plane(v))
            return value, grad - unit * (unit @ grad)

        return on_plane(minimize(projected, start, jac=True, method="L-BFGS-B").x)


class _AuthorsProblem:
    """The problem as the authors' code poses it to SLSQP (``solver="slsqp"``).

    Their ``train_model``: the summed log-loss of the raw features with an intercept (every
    column but the label: the sensitive attribute is a feature too), no penalty, the
    covariance (1/N) sum_i (z_i - mean z) theta'x_i, and scipy's SLSQP from a uniform random
    start, at most 100,000 iterations. Their SLSQP took its gradients by finite differences,
    one loss per feature a step; here they are exact (the same problem, its solution found
    hundreds of times faster on ProPublica's 399 columns).
    """

    def __init__(self, design: np.ndarray, y: np.ndarray, z: np.ndarray, seed: int | None):
        self.design, self.sign = design, 2.0 * y - 1
        self.centred = (z - z.mean()) / len(z)
        self.start = np.random.default_rng(seed).random(design.shape[1])

    def loss(self, theta: np.ndarray) -> float:
        """Return the summed log-loss."""
        return float(-log_expit(self.sign * (self.design @ theta)).sum())

    def loss_gradient(self, theta: np.ndarray) -> np.ndarray:
        """Return the summed log-loss's gradient."""
        return -(self.design.T @ (self.sign * expit(-self.sign * (self.design @ theta))))

    def covariance(self, theta: np.ndarray) -> float:
        """Return the decision-boundary covariance."""
        return float(self.centred @ (self.design @ theta))

    def bounded(self, c: float) -> np.ndarray:
        """Minimise the loss subject to |covariance| <= c, as their ``fairness`` mode."""
        bound = {
            "type": "ineq",
            "fun": lambda theta: c - abs(self.covariance(theta)),
            "jac": lambda theta: -np.sign(self.covariance(theta)) * self._direction,
        }
        return self._slsqp(self.loss, self.loss_gradient, self.start, [bound])

    def least_covariance(self, gamma: float) -> np.ndarray:
        """Minimise |covariance| subject to loss <= (1 + gamma) L*, as their ``accuracy`` mode."""
        optimum = self._slsqp(self.loss, self.loss_gradient, self.start, [])
        budget = (1 + gamma) * self.loss(optimum)
        within = {
            "type": "ineq",
            "fun": lambda theta: budget - self.loss(theta),
            "jac": lambda theta: -self.loss_gradient(theta),
        }
        return self._slsqp(
            lambda theta: abs(self.covariance(theta)),
            lambda theta: np.sign(self.covariance(theta)) * self._direction,
            optimum,
            [within],
        )

    @property
    def _direction(self) -> np.ndarray:
        """The covariance's gradient, a'."""
        return self.centred @ self.design

    @staticmethod
    def _slsqp(
        objective: Any, gradient: Any, start: Any, constraints: list[dict[str, Any]]
    ) -> np.ndarray:
        options = {"maxiter": 100_000}
        return minimize(
            objective,
            start,
            jac=gradient,
            method="SLSQP",
            options=options,
            constraints=constraints,
        ).x


class _Zafar(FairEstimator):
    family: ClassVar[str] = "in-processing"
    references: ClassVar[tuple[Reference, ...]] = (ZAFAR_2017,)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})

    def _problem(self, X: Any, y: Any, sensitive_features: Any) -> _Problem:
        features, labels = self._checked(X, y)
        z = binary_sensitive(sensitive_features, len(features), type(self).__name__)
        self.design_ = Design(features)
        return _Problem(self.design_(features), labels, z.astype(float), self.alpha)

    def _authors_problem(self, X: Any, y: Any, sensitive_features: Any) -> _AuthorsProblem:
        features, labels = self._checked(X, y)
        z = binary_sensitive(sensitive_features, len(features), type(self).__name__)
        with_z = np.column_stack([features, z])  # their x held the sensitive attribute too
        self.design_ = Design(with_z, standardise=False)
        design = np.asarray(self.design_(with_z))
        return _AuthorsProblem(design, labels, z.astype(float), self.random_state)

    def _checked(self, X: Any, y: Any) -> tuple[Any, np.ndarray]:
        check_choice(self.solver, SOLVERS, what="solver")
        return self.validate_fit(X, y)

    def _finish_authors(self, problem: _AuthorsProblem, theta: np.ndarray) -> None:
        self.coef_ = theta
        self.covariance_ = problem.covariance(theta)
        self.loss_ = problem.loss(theta) / len(problem.sign)

    def _finish(self, problem: _Problem, theta: np.ndarray) -> None:
        self.coef_ = theta
        self.covariance_ = float(problem.a @ theta)
        self.loss_ = problem.loss(theta)

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Signed distance theta'x; positive means label 1.

        With ``solver="slsqp"`` the sensitive attribute is one of x's columns, as in the
        authors' code, so it must be given.
        """
        features = self.fitted_features(X)
        if self.solver == "slsqp":
            z = self.binary_sensitive_for_predict(features, sensitive_features)
            features = np.column_stack([features, z])
        return self.design_(features) @ self.coef_

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, columns for labels 0 and 1."""
        p = expit(self.decision_function(X, sensitive_features=sensitive_features))
        return np.column_stack([1 - p, p])

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict label 1 (``classes_[1]``) where theta'x > 0 (the default reads x alone)."""
        scores = self.decision_function(X, sensitive_features=sensitive_features)
        return self.to_labels(scores > 0)

    def logit_coefficients(self) -> tuple[np.ndarray, float]:
        """Weights and intercept of the log-odds on the unstandardised features."""
        self._features_alone()
        return self.design_.raw_coefficients(self.coef_)

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its (unstandardised) features."""
        self._features_alone()
        return self.design_.input_gradient(self.predict_proba(X)[:, 1], y, self.coef_[:-1])

    def _features_alone(self) -> None:
        """Refuse a gradient of a model whose log-odds read the sensitive attribute."""
        if self.solver == "slsqp":
            raise NotImplementedError(
                "solver='slsqp' reads the sensitive attribute as a feature, as the authors' "
                "code did: its log-odds are not a function of the features alone"
            )


class ZafarFairness(_Zafar):
    """Maximise accuracy subject to ``|covariance(z, theta'x)| <= c`` (Zafar et al. §3.2).

    Parameters
    ----------
    c
        Bound on the absolute decision-boundary covariance; 0 makes it exactly 0.
    alpha
        L2 penalty on the weights (not the intercept).
    solver
        ``"exact"`` (the default: the module's method) or ``"slsqp"``, as the authors' code
        (:class:`_AuthorsProblem`).
    random_state
        Seed of the SLSQP start (``solver="slsqp"`` only).
    """

    param_grid: ClassVar[dict[str, list]] = {"c": COVARIANCE_BOUNDS}
    search_space: ClassVar[dict[str, Dimension]] = {"c": Real(0.001, 1.0, log=True)}

    def __init__(
        self,
        c: float = 0.001,
        alpha: float = 1e-4,
        solver: str = "exact",
        random_state: int | None = 0,
    ) -> None:
        self.c = c
        self.alpha = alpha
        self.solver = solver
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> ZafarFairness:
        """Fit the constrained logistic regression."""
        if self.solver == "slsqp":
            authors = self._authors_problem(X, y, sensitive_features)
            self._finish_authors(authors, authors.bounded(self.c))
            return self
        problem = self._problem(X, y, sensitive_features)
        theta = problem.solve(np.zeros(problem.design.shape[1]))
        if abs(covariance := problem.a @ theta) > self.c:
            theta = problem.solve_on(np.sign(covariance) * self.c, theta)
        self._finish(problem, theta)
        return self


class ZafarAccuracy(_Zafar):
    """Minimise ``|covariance(z, theta'x)|`` subject to ``loss <= (1 + gamma) L*`` (§3.3).

    Parameters
    ----------
    gamma
        Allowed relative increase of the loss over the unconstrained optimum L*.
    alpha
        L2 penalty on the weights (not the intercept).
    solver
        ``"exact"`` (the default: the module's method) or ``"slsqp"``, as the authors' code
        (:class:`_AuthorsProblem`).
    random_state
        Seed of the SLSQP start (``solver="slsqp"`` only).
    """

    param_grid: ClassVar[dict[str, list]] = {"gamma": GAMMAS}
    search_space: ClassVar[dict[str, Dimension]] = {"gamma": Real(0.1, 1.0, log=True)}

    def __init__(
        self,
        gamma: float = 0.5,
        alpha: float = 1e-4,
        solver: str = "exact",
        random_state: int | None = 0,
    ) -> None:
        self.gamma = gamma
        self.alpha = alpha
        self.solver = solver
        self.random_state = random_state

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> ZafarAccuracy:
        """Fit the loss-constrained, covariance-minimising logistic regression."""
        if self.solver == "slsqp":
            authors = self._authors_problem(X, y, sensitive_features)
            self._finish_authors(authors, authors.least_covariance(self.gamma))
            return self
        problem = self._problem(X, y, sensitive_features)
        optimum = problem.solve(np.zeros(problem.design.shape[1]))
        budget = (1 + self.gamma) * problem.loss(optimum)
        theta = problem.solve_on(0.0, optimum)
        if problem.loss(theta) > budget:
            solutions = {}

            def excess(t: float) -> float:
                solutions[t] = problem.solve_on(t, optimum)
                return problem.loss(solutions[t]) - budget

            level = brentq(excess, 0.0, problem.a @ optimum, xtol=1e-10, rtol=1e-8)
            theta = solutions.get(level, problem.solve_on(level, optimum))
        self._finish(problem, theta)
        return self
