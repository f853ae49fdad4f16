"""Statistical inference for individual fairness (Maity, Xue, Yurochkin & Sun, ICLR 2021).

An auditor moves every audit point (x, y) along the gradient flow of

    l(f(x'), y) - lambda * d_x(x', x)^2                                  (§2, Eq. 2.6)

for a fixed number of forward Euler steps (Eq. 2.8), where d_x is a *fair metric*: moves that
the metric considers free (say, along a direction that encodes gender) should not change the
model's loss. The ratio of the loss after the attack to the loss before is at least 1 (Eq. 3.2);
its mean, the audit value, is tested against a tolerance delta (Eq. 3.3):

- :func:`loss_ratio_test`: the one-sided lower confidence bound T_n = S_n - z_{1-alpha} V_n /
  sqrt(n), rejecting fairness when T_n > delta (§3.1, Eq. 3.10), and the two-sided interval
  (Eq. 3.6);
- :func:`error_ratio_test`: the ratio of the 0-1 error rates after and before the attack, with
  its delta-method bound T~_n (§3.2, Eq. 3.13; App. C).

The attack is batched over all audit points at once. Gradients come from the model where it
has them (``input_gradient``: analytic for linear models and the networks, autograd for a
plugin's torch model) and from a Gaussian-smoothing estimate otherwise (trees, naive Bayes, SVM,
repaired pipelines), so every model can be audited; the result records which kind was used.
A model whose loss depends on x only through a few projections x'V (logistic regression, one
hidden layer) is attacked in the span of V and the metric's directions, exactly
(:class:`Ridge`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import minimize_scalar
from scipy.special import expit
from scipy.stats import norm
from sklearn.linear_model import LogisticRegression

from faircompare._validation import check_choice
from faircompare.bibliography import Reference

PROBABILITY_FLOOR = 1e-6  # probabilities are clipped to [floor, 1 - floor] before the log-loss
# Beyond this probability of its true label a point's loss is below 1e-3, and its loss ratio can
# exceed 10^4 (the largest loss, at the floor, is 13.8): assumption A3 of §3.1 (a loss bounded
# away from zero) no longer holds for it.
NEAR_CERTAIN = 0.999
# Above this share of near-certain audit points the loss ratio is read as the loss's floor, not
# as the model: the error-rate ratio (§3.2) is the statistic defined for such a model.
NEAR_CERTAIN_SHARE = 0.05
MONTE_CARLO_Z = float(norm.ppf(0.975))  # a verdict within this many Monte Carlo errors is open
_ATTACK_ROWS = 2048  # points attacked together in the reduced space (their arrays stay in cache)


#: Maity et al.'s test of individual fairness, which this module implements.
MAITY_2021 = Reference(
    key="maity2021statistical",
    authors=("Maity, Subha", "Xue, Songkai", "Yurochkin, Mikhail", "Sun, Yuekai"),
    title="Statistical Inference for Individual Fairness",
    year=2021,
    venue="International Conference on Learning Representations (ICLR 2021)",
    url="https://openreview.net/forum?id=z9k8BWL-_2u",
)


#: Yurochkin, Bower and Sun's SenSR (Algorithm 2) and its sensitive subspace metric (§2.1).
YUROCHKIN_2020 = Reference(
    key="yurochkin2020training",
    authors=("Yurochkin, Mikhail", "Bower, Amanda", "Sun, Yuekai"),
    title="Training individually fair ML models with sensitive subspace robustness",
    year=2020,
    venue="International Conference on Learning Representations (ICLR 2020)",
    url="https://openreview.net/forum?id=B1gdkxHFDH",
)


@dataclass(frozen=True, eq=False)
class FairMetric:
    """A fair metric d(x, x')^2 = (x - x')' Sigma (x - x') with a low-rank description.

    Sigma = base * (I - D'D) + D' diag(weights) D, where the rows of ``directions`` (D) are
    orthonormal. A sensitive-subspace metric has weights 0 along the sensitive directions and
    base 1 elsewhere; an explicit metric gives every direction its weight. Distances and
    gradients cost O(n d k) for k directions, never a d x d product.

    Attributes
    ----------
    directions
        Orthonormal rows spanning the directions with their own weights, shape (k, d).
    weights
        Weight of each direction, shape (k,).
    base
        Weight of every direction orthogonal to ``directions``.

    Examples
    --------
    >>> from faircompare.stats import explicit_metric
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> metric.weights.tolist(), metric.base
    ([0.0, 1.0], 0.0)
    """

    directions: np.ndarray
    weights: np.ndarray
    base: float = 1.0

    def squared(self, x: np.ndarray, x0: np.ndarray) -> np.ndarray:
        """Return d(x, x0)^2 for each row.

        Parameters
        ----------
        x, x0
            Points and their reference points, one per row.

        Returns
        -------
        numpy.ndarray
            The squared distances.
        """
        v = np.asarray(x, dtype=float) - np.asarray(x0, dtype=float)
        along = v @ self.directions.T
        rest = (v * v).sum(1) - (along * along).sum(1)
        return self.base * rest + (along * along) @ self.weights

    def gradient(self, x: np.ndarray, x0: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Return the gradient of d(x, x0)^2 with respect to x, for each row: 2 Sigma (x - x0).

        Sigma v = base * v + ((v D') * (weights - base)) D.

        Parameters
        ----------
        x, x0
            Points and their reference points, one per row.
        out
            An array to receive the result, or None.

        Returns
        -------
        numpy.ndarray
            The gradients, one row per point.
        """
        v = np.subtract(x, x0, out=out)
        directions = self.directions.astype(v.dtype, copy=False)  # keep single precision single
        along = (v @ directions.T) * (2 * (self.weights - self.base)).astype(v.dtype)
        v *= 2 * self.base
        v += along @ directions
        return v

    def free_directions(self) -> np.ndarray | None:
        """Return the directions cheaper than the rest, where an attack moves (orthonormal rows).

        Returns
        -------
        numpy.ndarray or None
            The rows of ``directions`` whose weight is below ``base`` (a sensitive-subspace
            metric's sensitive directions, free of cost); None where every other direction
            is as cheap (``base`` 0) or none is cheaper.
        """
        cheaper = self.weights < self.base
        if self.base == 0 or not cheaper.any():
            return None
        return self.directions[cheaper]

    def project(self, X: Any) -> np.ndarray:
        """Remove the components of the rows along ``directions`` (the "project" baseline).

        Parameters
        ----------
        X
            Points, one per row.

        Returns
        -------
        numpy.ndarray
            The projected points.
        """
        X = np.asarray(X, dtype=float)
        return X - (X @ self.directions.T) @ self.directions


def explicit_metric(
    weights: Any, directions: Any | None = None, *, base: float = 0.0
) -> FairMetric:
    """Build a metric given by an expert: a weight per direction (default: per coordinate).

    ``explicit_metric([0, 1])`` is Maity et al.'s simulation metric d^2 = (x_2 - x'_2)^2 (§4.1);
    ``explicit_metric([0, 1], [[cos b, sin b], [-sin b, cos b]])`` its misspecified version, with
    the discounted direction rotated by b (Fig. 1).

    Parameters
    ----------
    weights
        One weight per direction.
    directions
        The directions, one per row (normalised here; they must be orthogonal); the
        coordinates when None.
    base
        The weight of every direction not listed.

    Returns
    -------
    FairMetric
        ``d(x, x')^2 = sum_k w_k (v_k'(x - x'))^2 + base * |r|^2``, with r the part of
        x - x' outside the directions.

    Raises
    ------
    ValueError
        If the weights and directions differ in number, or the directions are not orthogonal.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> metric.squared(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0]]))
    array([16.])
    """
    weights = np.asarray(weights, dtype=float)
    directions = np.eye(len(weights)) if directions is None else np.asarray(directions, float)
    directions = directions / np.linalg.norm(directions, axis=1, keepdims=True)
    if len(weights) != len(directions) or not np.allclose(
        directions @ directions.T, np.eye(len(directions))
    ):
        raise ValueError(
            f"an explicit metric needs one weight per direction and orthogonal directions; got "
            f"{len(weights)} weights for {len(directions)} directions"
        )
    return FairMetric(directions=directions, weights=weights, base=base)


def sensitive_subspace_metric(X: Any, sensitive_features: Any, *, C: float = 1.0) -> FairMetric:
    """Learn the sensitive-subspace metric of Yurochkin et al. (Maity et al. §4.2, App. F.2).

    One logistic regression per sensitive attribute predicts it from the features; the span of
    their coefficient vectors is the sensitive subspace H, and d(x, x')^2 = ||(I - P_H)(x - x')||^2
    treats people who differ only along H as identical.

    Parameters
    ----------
    X
        Features, dense or sparse (standardise them first, so that no feature's units set the
        subspace; scaling alone does for sparse ones, since the regressions' unpenalised
        intercepts absorb the centring).
    sensitive_features
        One sensitive attribute per column (or a single 1-D attribute), any values.
    C
        Inverse regularisation strength of the logistic regressions.

    Returns
    -------
    FairMetric
        The metric that ignores moves within the sensitive subspace.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import sensitive_subspace_metric
    >>> rng = np.random.default_rng(0)
    >>> sex = rng.integers(0, 2, 200)
    >>> X = np.column_stack([sex + 0.1 * rng.normal(size=200), rng.normal(size=200)])
    >>> metric = sensitive_subspace_metric(X, sex)
    >>> metric.directions.shape
    (1, 2)
    >>> metric.squared(np.zeros((1, 2)), np.array([[1.0, 0.0], [0.0, 1.0]])).round(2)
    array([0., 1.])
    """
    X = X if sparse.issparse(X) else np.asarray(X, dtype=float)
    columns = np.asarray(sensitive_features).reshape(X.shape[0], -1)
    vectors = np.vstack([LogisticRegression(C=C, max_iter=1000).fit(X, c).coef_ for c in columns.T])
    _, singular, rows = np.linalg.svd(vectors, full_matrices=False)
    directions = rows[singular > 1e-10 * singular.max()]  # an orthonormal basis of their span
    return FairMetric(directions=directions, weights=np.zeros(len(directions)), base=1.0)


@dataclass(frozen=True, eq=False)
class LossOracle:
    """A model's per-row log-loss and its gradient, in the coordinates the attack moves in.

    Attributes
    ----------
    loss
        ``loss(X, y)``: the log-loss of each row.
    gradient
        ``gradient(X, y)``: its gradient with respect to each row.
    kind
        ``"analytic"``, ``"autograd"`` or ``"derivative-free"``.
    ridge
        For a model whose loss depends on x only through x'V, its :class:`Ridge`: the attack
        then runs in the span of V and the metric's directions, exactly.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import logistic_oracle
    >>> oracle = logistic_oracle([2.0, 0.0], 0.0)
    >>> oracle.gradient(np.array([[0.0, 0.0]]), np.array([1])).round(3)
    array([[-1.,  0.]])
    """

    loss: Callable[[np.ndarray, np.ndarray], np.ndarray]
    gradient: Callable[[np.ndarray, np.ndarray], np.ndarray]
    kind: str
    ridge: Ridge | None = None


@dataclass(frozen=True, eq=False)
class Ridge:
    """A loss that depends on a point x only through its projections u = x'V + c.

    Logistic regression is one (V = w, c = b); so is a network with one hidden layer (V and c
    its first layer's weights and biases, one column per unit). The loss's gradient in x is then
    V times its gradient in u, and the attack can run in the span of V's columns and the
    metric's directions.

    Attributes
    ----------
    directions
        V, shape (d, m).
    offset
        c, shape (m,).
    loss
        ``loss(u, y)``: each row's log-loss from its projections u, shape (n, m).
    gradient
        ``gradient(u, y)``: the log-loss's gradient with respect to u, shape (n, m); it may
        overwrite u (the attack's steps then allocate nothing).
    """

    directions: np.ndarray
    offset: np.ndarray
    loss: Callable[[np.ndarray, np.ndarray], np.ndarray]
    gradient: Callable[[np.ndarray, np.ndarray], np.ndarray]

    def oracle(self, kind: str = "analytic") -> LossOracle:
        """Return the loss oracle in x: loss(u) and V gradient(u), u = x'V + c.

        Parameters
        ----------
        kind
            How the gradient was obtained.

        Returns
        -------
        LossOracle
        """

        def projections(X: np.ndarray) -> np.ndarray:
            u = X @ self.directions.astype(X.dtype, copy=False)
            u += self.offset.astype(X.dtype, copy=False)
            return u

        def loss(X: np.ndarray, y: np.ndarray) -> np.ndarray:
            return self.loss(projections(X), y)

        def gradient(X: np.ndarray, y: np.ndarray) -> np.ndarray:
            return self.gradient(projections(X), y) @ self.directions.T.astype(X.dtype, copy=False)

        return LossOracle(loss, gradient, kind, self)


def smoothed_gradient(
    loss: Callable[..., np.ndarray],
    s: np.ndarray | None,
    smoothing: float,
    pairs: int,
    rng: np.random.Generator,
    within: np.ndarray | None = None,
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Return an antithetic Gaussian-smoothing estimate of a loss's gradient in its input.

    The gradient of the smoothed loss E[l(z + smoothing * u)], u ~ N(0, I), estimated from
    ``pairs`` antithetic pairs of random directions per point and call, all points in one batch
    (Nesterov & Spokoiny 2017): it exists for piecewise-constant models such as trees, whose
    exact gradient is zero almost everywhere.

    With ``within`` (orthonormal rows D spanning k directions), u = D'g with g ~ N(0, I_k): the
    estimate is that of the gradient's projection D'D grad l, whose variance grows with k
    rather than with the input's d dimensions. An attack under a sensitive-subspace metric moves
    freely along a few directions only (:meth:`FairMetric.free_directions`); its estimate there
    is some d / k times less noisy at the same cost.

    Parameters
    ----------
    loss
        ``loss(Z, y, s)``: each row's loss; ``s`` is tiled with the rows (None passes through).
    s
        Each row's sensitive feature, or None.
    smoothing
        The standard deviation of the Gaussian perturbation.
    pairs
        Antithetic pairs of random directions per point.
    rng
        The random generator of the perturbations.
    within
        Orthonormal rows spanning the directions to perturb along; None for every direction.

    Returns
    -------
    callable
        ``gradient(Z, y)``: the estimate, one row per point.
    """

    def gradient(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        n, d = Z.shape
        if within is None:
            u = rng.standard_normal((pairs, n, d))
        else:
            u = rng.standard_normal((pairs, n, len(within))) @ within
        shifted = np.concatenate([Z + smoothing * u, Z - smoothing * u]).reshape(-1, d)
        copies = None if s is None else np.tile(s, 2 * pairs)
        values = loss(shifted, np.tile(y, 2 * pairs), copies).reshape(2, pairs, n)
        slope = (values[0] - values[1]) / (2 * smoothing)
        return np.einsum("kn,knd->nd", slope, u) / pairs

    return gradient


def clipped_log_loss(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Log-loss of probabilities ``p`` of label 1, clipped to [1e-6, 1 - 1e-6] first."""
    p = np.clip(p, PROBABILITY_FLOOR, 1 - PROBABILITY_FLOOR)
    return -np.where(y == 1, np.log(p), np.log1p(-p))


def logistic_oracle(coef: Any, intercept: Any) -> LossOracle:
    """Build the exact oracle of a logistic model p = sigmoid(x'w + b).

    Parameters
    ----------
    coef
        One w for every row, or one row of w per audit point; a shared w lets the attack run
        in its reduced form.
    intercept
        b, or one b per audit point.

    Returns
    -------
    LossOracle
        The log-loss and its exact gradient in x.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import logistic_oracle
    >>> oracle = logistic_oracle([2.0, 0.0], 0.0)
    >>> oracle.kind
    'analytic'
    >>> oracle.loss(np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([1, 1])).round(3)
    array([0.693, 0.127])
    """
    coef, intercept = np.asarray(coef, dtype=float), np.asarray(intercept, dtype=float)
    if coef.ndim == 1:
        return Ridge(
            coef[:, None],
            intercept.reshape(1),
            lambda u, y: clipped_log_loss(expit(u[:, 0]), y),
            lambda u, y: expit(u) - np.asarray(y)[:, None],
        ).oracle()

    def probability(X: np.ndarray) -> np.ndarray:
        return expit(np.einsum("nd,nd->n", X, coef) + intercept)

    def loss(X: np.ndarray, y: np.ndarray) -> np.ndarray:
        return clipped_log_loss(probability(X), y)

    def gradient(X: np.ndarray, y: np.ndarray) -> np.ndarray:
        return (probability(X) - y)[:, None] * coef

    return LossOracle(loss, gradient, "analytic")


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


@dataclass(frozen=True, eq=False)
class LossRatioResult:
    """The loss-ratio test of §3.1.

    Attributes
    ----------
    ratios
        l(f(Phi(x_i)), y_i) / l(f(x_i), y_i) for every audit point.
    mean, std
        S_n and V_n (Eq. 3.4).
    lower_bound
        T_n = S_n - c V_n / sqrt(n) (Eq. 3.10, with c = z_{1-alpha} there).
    interval
        The two-sided 1 - alpha confidence interval of the audit value (Eq. 3.6).
    delta, alpha
        Tolerance and level.
    critical
        c: z_{1-alpha} (``calibration="normal"``, the paper's), or the 1 - alpha quantile of
        the bootstrap distribution of the studentized mean (``"bootstrap-t"``).
    calibration
        How ``critical`` and the interval were found (:func:`loss_ratio_test`).
    studentized_draws
        The bootstrap-t's draws of the studentized mean (its p-value's reference); None for
        the normal calibration.
    near_certain
        Share of the audit points whose probability of their true label exceeds
        :data:`NEAR_CERTAIN` before the attack. Their loss is near zero, so one of them can
        move S_n by thousands: where many are, the loss ratio says more about the loss's floor
        than about the model (§3.1 warns that a small loss inflates V_n, and assumption A3
        bounds the loss below), and the error-rate ratio (§3.2) is the statistic to read.
    monte_carlo_error
        The standard error of T_n over the attack's own randomness, where the attack is random
        (a derivative-free gradient) and was run more than once
        (:func:`replicated_fairness_test`); 0 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> loss = individual_fairness_test(oracle, X, y, metric, steps=50).loss
    >>> bool(loss.lower_bound > loss.delta), loss.reject
    (True, True)
    """

    ratios: np.ndarray
    mean: float
    std: float
    lower_bound: float
    interval: tuple[float, float]
    delta: float
    alpha: float
    near_certain: float
    monte_carlo_error: float = 0.0
    critical: float = float(norm.ppf(0.95))
    calibration: str = "normal"
    studentized_draws: np.ndarray | None = field(default=None, repr=False)

    @property
    def reject(self) -> bool:
        """Whether the audit rejects fairness: T_n > delta."""
        return bool(self.lower_bound > self.delta)

    @property
    def undecided(self) -> bool:
        """Whether delta lies within T_n's Monte Carlo interval: a seed may decide otherwise."""
        return _undecided(self.lower_bound, self.delta, self.monte_carlo_error)

    @property
    def pvalue(self) -> float:
        """The p-value of H0: audit value <= delta, by the test's calibration.

        Normal: the studentized mean's upper tail (below alpha exactly when it rejects).
        Bootstrap-t: the share of bootstrap draws at least as large, (k + 1) / (B + 1).
        """
        if self.std == 0:
            return float(self.mean <= self.delta)
        observed = math.sqrt(len(self.ratios)) * (self.mean - self.delta) / self.std
        if self.studentized_draws is None:
            return float(norm.sf(observed))
        draws = self.studentized_draws
        return float((1 + np.sum(draws >= observed)) / (len(draws) + 1))


#: Bootstrap resamples of the loss-ratio test's bootstrap-t calibration.
BOOTSTRAP_RESAMPLES = 2000


def loss_ratio_test(
    loss_before: Any,
    loss_after: Any,
    *,
    delta: float = 1.25,
    alpha: float = 0.05,
    calibration: Literal["bootstrap-t", "normal"] = "bootstrap-t",
) -> LossRatioResult:
    """Test H0: E[l(f(Phi(x)), y) / l(f(x), y)] <= delta (Maity et al. §3.1, Corollary 3.3).

    The paper's test compares the studentized mean of the loss ratios with the normal quantile
    (``calibration="normal"``), which holds as n grows. The ratios are strongly skewed (a
    point's loss can only fall so far, but rise a lot), and at n = 200 audit points, on the
    paper's 2-D example at the boundary of the null (the audit value equal to delta), that test
    rejects about 7 % of the time at the 5 % level. The default calibration is the
    bootstrap-t (Efron & Tibshirani 1993, §12.5; Hall 1992, §3.5): the critical value is the
    1 - alpha quantile of sqrt(n) (S*_n - S_n) / V*_n over :data:`BOOTSTRAP_RESAMPLES`
    resamples of the ratios (drawn from a fixed seed, so a test is deterministic), which
    corrects the skewness to second order; there it rejects about 4 % at n = 200 and 5 % at
    n = 400 (``tests/stats/test_individual.py``).

    Parameters
    ----------
    loss_before, loss_after
        Each audit point's loss before and after the attack.
    delta, alpha
        Tolerance and level.
    calibration
        ``"bootstrap-t"`` or ``"normal"`` (Eq. 3.10 as written).

    Returns
    -------
    LossRatioResult
        S_n, V_n, T_n and the interval, with the critical value used.
    """
    check_choice(calibration, ("bootstrap-t", "normal"), what="calibration")
    before = np.asarray(loss_before, dtype=float)
    ratios = np.asarray(loss_after, dtype=float) / before
    n = len(ratios)
    mean, std = float(ratios.mean()), float(ratios.std(ddof=1))
    margin = std / math.sqrt(n)
    draws = _studentized_draws(ratios) if calibration == "bootstrap-t" and std > 0 else None
    if draws is None:
        low, high, critical = (norm.ppf(q) for q in (alpha / 2, 1 - alpha / 2, 1 - alpha))
    else:
        low, high, critical = np.quantile(draws, [alpha / 2, 1 - alpha / 2, 1 - alpha])
    return LossRatioResult(
        ratios=ratios,
        mean=mean,
        std=std,
        lower_bound=mean - critical * margin,
        interval=(mean - high * margin, mean - low * margin),
        delta=delta,
        alpha=alpha,
        near_certain=float(np.mean(before < -math.log(NEAR_CERTAIN))),
        critical=float(critical),
        calibration="normal" if draws is None else "bootstrap-t",
        studentized_draws=draws,
    )


def _studentized_draws(ratios: np.ndarray) -> np.ndarray:
    """Return sqrt(n) (S*_n - S_n) / V*_n over bootstrap resamples of the ratios (fixed seed)."""
    n = len(ratios)
    rng = np.random.default_rng(0)
    resampled = ratios[rng.integers(0, n, (BOOTSTRAP_RESAMPLES, n))]
    means, spreads = resampled.mean(axis=1), resampled.std(axis=1, ddof=1)
    shift = means - ratios.mean()
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample of one value: no spread
        return math.sqrt(n) * np.where(spreads > 0, shift / spreads, 0.0)


@dataclass(frozen=True)
class ErrorRatioResult:
    """The error-rate-ratio test of §3.2 and App. C.

    Attributes
    ----------
    error_before, error_after
        B_n and A_n: the 0-1 error rates on the audit points and on their attacked versions.
    ratio
        S~_n = A_n / B_n (NaN when the model makes no error on the audit points).
    lower_bound
        T~_n of Eq. 3.13.
    delta, alpha
        Tolerance and level.
    monte_carlo_error
        The standard error of T~_n over the attack's own randomness (as the loss ratio's).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> error = individual_fairness_test(oracle, X, y, metric, steps=50).error
    >>> error.error_after >= error.error_before
    True
    """

    error_before: float
    error_after: float
    ratio: float
    lower_bound: float
    delta: float
    alpha: float
    monte_carlo_error: float = 0.0

    @property
    def reject(self) -> bool:
        """Whether the audit rejects fairness: T~_n > delta."""
        return bool(self.lower_bound > self.delta)

    @property
    def undecided(self) -> bool:
        """Whether delta lies within T~_n's Monte Carlo interval."""
        return _undecided(self.lower_bound, self.delta, self.monte_carlo_error)


def _undecided(statistic: float, delta: float, error: float) -> bool:
    """Whether ``delta`` lies within ``statistic`` +- z_{0.975} ``error`` (a positive error)."""
    return bool(error > 0 and abs(statistic - delta) <= MONTE_CARLO_Z * error)


def error_ratio_test(
    wrong_before: Any, wrong_after: Any, *, delta: float = 1.25, alpha: float = 0.05
) -> ErrorRatioResult:
    """Test H0: E[l01(f(Phi(x)), y)] / E[l01(f(x), y)] <= delta (Eq. 3.11, 3.13).

    The standard error is the delta method's for a ratio of means (Theorem C.1), with the
    sample covariance of the (after, before) error indicators. Eq. C.1 writes their uncentred
    second moment, but the proof needs a consistent estimate of the covariance Sigma (Eq. C.3),
    which the uncentred moment is not; we use the covariance.
    """
    after, before = np.asarray(wrong_after, dtype=float), np.asarray(wrong_before, dtype=float)
    n = len(after)
    a, b = after.mean(), before.mean()
    if b == 0:
        return ErrorRatioResult(b, a, math.nan, math.nan, delta, alpha)
    covariance = np.cov(after, before, ddof=0)
    spread = a**2 * covariance[1, 1] + b**2 * covariance[0, 0] - 2 * a * b * covariance[0, 1]
    bound = a / b - norm.ppf(1 - alpha) / b**2 * math.sqrt(max(spread, 0.0) / n)
    return ErrorRatioResult(float(b), float(a), float(a / b), float(bound), delta, alpha)


@dataclass(frozen=True, eq=False)
class IndividualFairnessResult:
    """One individual-fairness audit: both tests, the attacked points and how they were found.

    Attributes
    ----------
    loss
        The loss-ratio test (T_n).
    error
        The error-rate-ratio test (T~_n).
    attacked
        The audit points after the attack, Phi(x_i).
    gradient
        How the model's gradient was obtained: analytic, autograd or derivative-free.
    settings
        The attack's lam, steps, step_size and decay.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> oracle = logistic_oracle([3.0, 3.0], 0.0)
    >>> result = individual_fairness_test(oracle, X, y, metric, steps=50)
    >>> result.gradient, result.attacked.shape
    ('analytic', (100, 2))
    """

    loss: LossRatioResult
    error: ErrorRatioResult
    attacked: np.ndarray
    gradient: str
    settings: dict[str, float] = field(default_factory=dict)


def individual_fairness_test(
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
    delta: float = 1.25,
    alpha: float = 0.05,
) -> IndividualFairnessResult:
    """Audit a classifier for individual fairness under a fair metric (Maity et al. App. D).

    Parameters
    ----------
    oracle
        The classifier's log-loss and its gradient in the coordinates of ``X`` (a model's:
        :func:`faircompare.algorithms.hooks.model_oracle`).
    X, y
        Audit points and labels, independent of the model's training data (Theorem 3.1).
    metric
        The fair metric, in the coordinates of ``X``.
    lam, steps, step_size, decay, gradient_every
        The attack's settings (:func:`gradient_flow_attack`).
    delta, alpha
        Tolerance of H0 (1.25, the four-fifths rule, §3.2) and level.

    Returns
    -------
    IndividualFairnessResult
        The loss-ratio test (T_n) and the error-ratio test (T~_n), with the attack's settings.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> fair = individual_fairness_test(logistic_oracle([0.0, 3.0], 0.0), X, y, metric, steps=50)
    >>> unfair = individual_fairness_test(logistic_oracle([3.0, 3.0], 0.0), X, y, metric, steps=50)
    >>> fair.loss.reject, unfair.loss.reject
    (False, True)
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    settings: dict[str, Any] = {"lam": lam, "steps": steps, "step_size": step_size, "decay": decay}
    if gradient_every > 1:
        settings["gradient_every"] = gradient_every
    attacked = gradient_flow_attack(oracle, X, y, metric, **settings)
    before, after = oracle.loss(X, y), oracle.loss(attacked, y)
    loss, error = _tests(before, after[np.newaxis], delta=delta, alpha=alpha)
    return IndividualFairnessResult(loss, error, attacked, oracle.kind, settings)


def replicated_fairness_test(
    oracle: LossOracle,
    X: Any,
    y: Any,
    metric: FairMetric,
    *,
    replicates: int = 2,
    most_replicates: int | None = None,
    lam: float = 50.0,
    steps: int = 500,
    step_size: float = 0.01,
    decay: float = 0.0,
    delta: float = 1.25,
    alpha: float = 0.05,
) -> IndividualFairnessResult:
    """Audit with independent runs of a random attack, and the Monte Carlo error of the result.

    A derivative-free gradient is random, so one attack's T_n depends on its seed. Every point
    is attacked ``replicates`` times, all in one batch: the attack moves R stacked copies of
    the points, whose random directions are drawn row by row, so each copy's attack is
    independent of the others' (and costs what one attack of R times the points costs, not R
    attacks' overheads). A point's loss after the attack, and whether it is misclassified, are
    averaged over its R attacks before the tests of :func:`individual_fairness_test` read
    them. Given the points, the R attacks of a point are independent draws, so the variance of
    S_n over the attacks' randomness is estimated by sum_i s_i^2 / (R n^2), s_i^2 the sample
    variance of point i's ratio over its attacks; its square root is T_n's
    ``monte_carlo_error`` (T~_n's: the same for the error rate after the attack, divided by the
    rate before). A verdict within z_{0.975} Monte Carlo errors of delta is ``undecided``:
    another seed could reverse it. With ``most_replicates``, an undecided verdict is not the
    end: the points are attacked R times more, again and again, until the verdict read (T_n,
    or T~_n where more than :data:`NEAR_CERTAIN_SHARE` of the points are near-certain) is
    decided or ``most_replicates`` attacks are made; the error shrinks as one over the square
    root of the attacks, so only verdicts close to delta cost more. (The interval is the
    normal one at each look, not a confidence sequence: with at most a few looks its
    resampling risk stays a small multiple of 5%.)

    Parameters
    ----------
    oracle
        The model's loss and a random gradient, for R stacked copies of the points (a model
        that reads the sensitive attribute gets it R times over, in the same order).
    X, y, metric
        As for :func:`individual_fairness_test`: the points once.
    replicates
        The attacks per point in one batch, R; at least two (no Monte Carlo error comes from
        one).
    most_replicates
        Attack in further batches of R while the verdict is undecided, up to this many attacks
        per point; None for one batch.
    lam, steps, step_size, decay
        The attack's settings (:func:`gradient_flow_attack`).
    delta, alpha
        Tolerance of H0 and level.

    Returns
    -------
    IndividualFairnessResult
        Both tests on the averaged attacks, with their Monte Carlo errors; ``attacked`` holds
        the first attack's points and ``settings`` the number of ``replicates`` made.

    Raises
    ------
    ValueError
        With fewer than two replicates.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import LossOracle, explicit_metric, replicated_fairness_test
    >>> from faircompare.stats.individual import clipped_log_loss, smoothed_gradient
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = (X[:, 1] > 0).astype(int)
    >>> def loss(Z, y, s=None):  # a step function of both coordinates: no gradient
    ...     return clipped_log_loss(0.1 + 0.8 * (Z.sum(axis=1) > 0), y)
    >>> gradient = smoothed_gradient(loss, None, 0.1, 1, np.random.default_rng(1))
    >>> oracle = LossOracle(loss, gradient, "derivative-free")
    >>> metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    >>> result = replicated_fairness_test(oracle, X, y, metric, steps=50)
    >>> result.settings["replicates"], result.loss.monte_carlo_error > 0
    (2, True)
    """
    if replicates < 2:
        raise ValueError(f"a Monte Carlo error needs at least two attacks, got {replicates}")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    n = len(X)
    settings: dict[str, Any] = {"lam": lam, "steps": steps, "step_size": step_size, "decay": decay}
    copies, labels = np.tile(X, (replicates, 1)), np.tile(y, replicates)
    before = oracle.loss(copies, labels)[:n]  # every copy's: the same points

    def attack() -> tuple[np.ndarray, np.ndarray]:
        """One batch of R attacks: the attacked points, and their losses (one row per attack)."""
        attacked = gradient_flow_attack(oracle, copies, labels, metric, **settings)
        return attacked, oracle.loss(attacked, labels).reshape(replicates, n)

    attacked, after = attack()
    afters = [after]
    while True:
        loss, error = _tests(before, np.vstack(afters), delta=delta, alpha=alpha)
        read = error if loss.near_certain > NEAR_CERTAIN_SHARE else loss
        more = (len(afters) + 1) * replicates
        if not read.undecided or most_replicates is None or more > most_replicates:
            break
        afters.append(attack()[1])
    settings |= {"replicates": len(afters) * replicates}
    return IndividualFairnessResult(loss, error, attacked[:n], oracle.kind, settings)


def _tests(
    before: np.ndarray, after: np.ndarray, *, delta: float, alpha: float
) -> tuple[LossRatioResult, ErrorRatioResult]:
    """Run both tests on the losses before the attack and after each attack (one row each).

    Each point's loss after, and whether it is misclassified, are its means over the attacks;
    with more than one attack the tests carry their Monte Carlo errors.
    """
    # A point is misclassified exactly when its log-loss exceeds log 2 (p(true label) < 1/2).
    wrong_before, wrong_after = before > math.log(2), (after > math.log(2)).astype(float)
    loss = loss_ratio_test(before, after.mean(axis=0), delta=delta, alpha=alpha)
    error = error_ratio_test(wrong_before, wrong_after.mean(axis=0), delta=delta, alpha=alpha)
    if len(after) == 1:  # one attack: no Monte Carlo error to estimate
        return loss, error
    rate = _replicate_error(wrong_after)
    error_mc = rate / error.error_before if error.error_before > 0 else math.nan
    return (
        replace(loss, monte_carlo_error=_replicate_error(after / before)),
        replace(error, monte_carlo_error=error_mc),
    )


def _replicate_error(values: np.ndarray) -> float:
    """Return the Monte Carlo standard error of the mean over points of each point's replicates.

    ``values`` has one row per replicate and one column per point.
    """
    replicates, points = values.shape
    variance = values.var(axis=0, ddof=1) / replicates  # of each point's replicate mean
    return float(math.sqrt(variance.sum()) / points)


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
