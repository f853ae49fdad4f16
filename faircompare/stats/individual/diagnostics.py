"""Diagnostics of the attack: the statistic by step and by the attack's coefficients."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar

from faircompare.stats.individual.attack import gradient_flow_attack
from faircompare.stats.individual.inference import loss_ratio_test
from faircompare.stats.individual.metric import FairMetric
from faircompare.stats.individual.oracle import LossOracle, logistic_oracle


def coefficient_grid(
    X: Any,
    y: Any,
    metric: FairMetric,
    theta1: Any,
    theta2: Any,
    *,
    delta: float = 1.25,
    alpha: float = 0.05,
    **attack: Any,
) -> pd.DataFrame:
    """T_n of two-feature logistic models over a grid of coefficients (Maity et al. Fig. 1).

    Each model is p = sigmoid(b + theta1 x_1 + theta2 x_2) with the intercept b fitted by
    maximum likelihood (App. E.2); all models are attacked together in one batch.

    Returns
    -------
    pandas.DataFrame
        One row per (theta1, theta2): ``statistic`` (T_n) and ``reject``.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    grid = np.array([(a, b) for a in theta1 for b in theta2], dtype=float)
    intercepts = np.array([_intercept(X @ w, y) for w in grid])
    n = len(X)
    coef = np.repeat(grid, n, axis=0)
    oracle = logistic_oracle(coef, np.repeat(intercepts, n))
    X_all, y_all = np.tile(X, (len(grid), 1)), np.tile(y, len(grid))
    attacked = gradient_flow_attack(oracle, X_all, y_all, metric, **attack)
    before = oracle.loss(X_all, y_all).reshape(len(grid), n)
    after = oracle.loss(attacked, y_all).reshape(len(grid), n)
    bounds = [
        loss_ratio_test(b, a, delta=delta, alpha=alpha).lower_bound
        for b, a in zip(before, after, strict=True)
    ]
    frame = pd.DataFrame(grid, columns=["theta1", "theta2"])
    frame["statistic"] = bounds
    frame["reject"] = frame["statistic"] > delta
    return frame


def logistic_loss_ratios(
    theta: Any, X_fit: Any, y_fit: Any, X: Any, y: Any, metric: FairMetric, **attack: Any
) -> np.ndarray:
    """Each point's loss ratio under the attack, for a logistic model of fixed coefficients.

    The model is p = sigmoid(b + theta' x), its intercept b fitted by maximum likelihood on
    ``X_fit, y_fit`` (App. E.2); the ratio is its loss at the attacked point over its loss at
    the point. Drawn on fresh points of a known model, ratios like these give the test's
    behaviour at its null's boundary (``docs/measured/audit_error_rates.py``).

    Parameters
    ----------
    theta
        The coefficients.
    X_fit, y_fit
        The rows the intercept is fitted on.
    X, y
        The points attacked.
    metric
        The fair metric of the attack.
    **attack
        The attack's settings (:func:`~faircompare.stats.individual.gradient_flow_attack`).

    Returns
    -------
    numpy.ndarray
        One ratio per point.
    """
    w = np.asarray(theta, dtype=float)
    X_fit, X = np.asarray(X_fit, dtype=float), np.asarray(X, dtype=float)
    oracle = logistic_oracle(w, _intercept(X_fit @ w, np.asarray(y_fit)))
    attacked = gradient_flow_attack(oracle, X, np.asarray(y), metric, **attack)
    return oracle.loss(attacked, np.asarray(y)) / oracle.loss(X, np.asarray(y))


def _intercept(margin: np.ndarray, y: np.ndarray) -> float:
    """Fit the maximum-likelihood intercept of a logistic model with a fixed linear part."""

    def negative_log_likelihood(b: float) -> float:
        z = margin + b
        return float(np.sum(np.logaddexp(0, z) - y * z))

    return float(minimize_scalar(negative_log_likelihood).x)


def statistic_by_steps(
    oracle: LossOracle,
    X: Any,
    y: Any,
    metric: FairMetric,
    checkpoints: Any,
    *,
    delta: float = 1.25,
    alpha: float = 0.05,
    **attack: Any,
) -> pd.DataFrame:
    """T_n after each of ``checkpoints`` attack steps, from one run of the flow (Fig. 2).

    Returns
    -------
    pandas.DataFrame
        Columns ``steps`` and ``statistic``.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    before, wanted, rows = oracle.loss(X, y), set(checkpoints), []

    def record(t: int, x: np.ndarray) -> None:
        if t in wanted:
            result = loss_ratio_test(before, oracle.loss(x, y), delta=delta, alpha=alpha)
            rows.append((t, result.lower_bound))

    gradient_flow_attack(oracle, X, y, metric, steps=max(wanted), callback=record, **attack)
    return pd.DataFrame(rows, columns=["steps", "statistic"])
