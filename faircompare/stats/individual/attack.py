"""The gradient-flow attack on the audit points (Maity et al. §2, Eq. 2.6-2.8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from faircompare.stats.individual.metric import FairMetric
from faircompare.stats.individual.oracle import LossOracle, Ridge

_ATTACK_ROWS = 2048  # points attacked together in the reduced space (their arrays stay in cache)


def gradient_flow_attack(
    oracle: LossOracle,
    X: Any,
    y: Any,
    metric: FairMetric,
    *,
    lam: float = 50.0,
    steps: int = 500,
    step_size: float = 0.01,
    decay: float = 0.0,
    gradient_every: int = 1,
    callback: Callable[[int, np.ndarray], None] | None = None,
) -> np.ndarray:
    """Move every audit point along the gradient flow of Eq. 2.6 by forward Euler (Eq. 2.8).

    x_t = x_{t-1} + eps_t * grad[l(f(x_{t-1}), y) - lam * d(x_{t-1}, x_0)^2], with
    eps_t = step_size / t**decay, for t = 1..steps, all points at once (App. D's Algorithm 1
    loops over points). The defaults are the Adult audit's (App. F.4: lam 50, 500 steps of
    0.01); the simulation uses lam 100, 400 steps, step 0.02 and decay 2/3 (App. E.3).

    With ``gradient_every`` k > 1 the loss's gradient is evaluated at every k-th step and
    held for the k - 1 steps after it, while the metric's term, stiff (it bounds the step) but
    exact and cheap, is still taken at every step: a multirate Euler scheme for a model whose
    gradient is an expensive estimate (a smoothed one costs two predictions of every point per
    pair of directions), at 1/k of its evaluations.

    Parameters
    ----------
    oracle
        The model's log-loss and its gradient in the coordinates of ``X``.
    X, y
        The audit points and their labels.
    metric
        The fair metric d.
    lam
        The weight of the transport cost (the attack's budget).
    steps, step_size, decay
        Forward Euler's steps and its step schedule eps_t = step_size / t**decay.
    gradient_every
        Evaluate the loss's gradient at every this many steps (1: at every step).
    callback
        ``callback(t, x_t)`` sees every iterate (for the statistic against the number of steps).

    Returns
    -------
    numpy.ndarray
        The attacked points Phi(x_i), one row per audit point.

    Raises
    ------
    ValueError
        If the schedule makes forward Euler diverge on the metric term.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, gradient_flow_attack, logistic_oracle
    >>> oracle = logistic_oracle([2.0, 0.0], 0.0)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> attacked = gradient_flow_attack(oracle, np.zeros((3, 2)), np.ones(3), metric, steps=50)
    >>> bool((attacked[:, 0] < 0).all()), bool(np.allclose(attacked[:, 1], 0))
    (True, True)
    """
    if gradient_every < 1:
        raise ValueError(f"gradient_every must be a positive integer, got {gradient_every}")
    schedule = [step_size / t**decay for t in range(1, steps + 1)]
    _check_stable(schedule, 2 * lam * max(metric.base, float(np.max(metric.weights, initial=0))))
    origin, y = np.asarray(X, dtype=float), np.asarray(y)
    if oracle.ridge is not None and callback is None and gradient_every == 1:
        return _ridge_attack(oracle.ridge, origin, y, metric, lam, schedule)
    # Single precision halves the memory traffic of the n x d updates, which dominate.
    start = origin.astype(np.float32)
    x, penalty = start.copy(), np.empty_like(start)
    for t, step in enumerate(schedule, start=1):
        if (t - 1) % gradient_every == 0:
            gradient = oracle.gradient(x, y)
        metric.gradient(x, start, out=penalty)
        penalty *= step * lam
        x += step * gradient
        x -= penalty
        if callback is not None:
            callback(t, x)
    return x.astype(float)


def _check_stable(schedule: list[float], stiffness: float, limit: float = 1e3) -> None:
    """Refuse a step schedule on which forward Euler diverges on the metric term alone.

    Along the metric's stiffest direction the penalty multiplies the displacement by
    |1 - eps_t * stiffness| at step t; a few large early steps are harmless when the schedule
    decays (App. E.3's first step amplifies 3-fold), but a product above ``limit`` is not.
    """
    growth = np.cumprod([max(1.0, abs(1 - eps * stiffness)) for eps in schedule])
    if len(growth) and growth.max() > limit:
        raise ValueError(
            f"the step schedule (step_size {schedule[0]:.4g}) makes forward Euler diverge on the "
            f"metric term: constant steps must satisfy step_size * 2 * lam * (largest metric "
            f"weight) <= 2, here step_size <= {2 / stiffness:.4g}"
        )


def _ridge_attack(
    ridge: Ridge,
    origin: np.ndarray,
    y: np.ndarray,
    metric: FairMetric,
    lam: float,
    schedule: list[float],
) -> np.ndarray:
    """Run the attack on a :class:`Ridge` loss in the span of V and the metric's directions D.

    A step adds eps V g_t (g_t: the loss's gradient in u) and -eps lam 2 Sigma (x_t - x_0),
    with 2 Sigma e = 2 base e + 2 (e D')(weights - base) D. So x_t - x_0 = P_t V' + Q_t D for
    all t (it is 0 at the start), and with s = 1 - 2 eps lam base and q_t = (x_t - x_0) D' =
    P_t V'D' + Q_t (D's rows are orthonormal):

        P_{t+1} = s P_t + eps g_t,    Q_{t+1} = s Q_t - 2 eps lam q_t diag(weights - base),

    while u_t = x_t'V + c = u_0 + P_t V'V + Q_t DV. The iteration is exact and costs O(n m^2) per
    step for m projections (one matrix product with V'V), not O(n m d) in x. Points move
    independently, so blocks of them take all their steps in turn, their arrays in cache.
    """
    v, d = ridge.directions, metric.directions
    m, k = v.shape[1], len(d)
    to_u = np.vstack([v.T @ v, d @ v])  # [P Q] -> u - u_0
    to_along = np.vstack([v.T @ d.T, np.eye(k)])  # [P Q] -> q
    extra = metric.weights - metric.base
    pq = np.zeros((len(origin), m + k))  # P and Q side by side: one product per step
    for rows in range(0, len(origin), _ATTACK_ROWS):  # points move independently: in cache
        block = pq[rows : rows + _ATTACK_ROWS]
        p, q = block[:, :m], block[:, m:]
        start = origin[rows : rows + _ATTACK_ROWS] @ v + ridge.offset
        u = np.empty_like(start)
        for step in schedule:
            np.matmul(block, to_u, out=u)
            u += start
            along = block @ to_along
            gradient = ridge.gradient(u, y[rows : rows + _ATTACK_ROWS])  # may overwrite u
            block *= 1 - 2 * step * lam * metric.base
            gradient *= step
            p += gradient
            along *= (2 * step * lam) * extra
            q -= along
    return origin + pq[:, :m] @ v.T + pq[:, m:] @ d
