"""A model's loss and its input gradient, as the attack asks for them (its loss oracle).

The log-loss clipped at :data:`PROBABILITY_FLOOR`, the closed form of a logistic model, the
Gaussian-smoothed gradient of a model without one, and the reduced space of a model whose
loss depends on a few projections (:class:`Ridge`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit

PROBABILITY_FLOOR = 1e-6  # probabilities are clipped to [floor, 1 - floor] before the log-loss


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
        ``"analytic"``, ``"autograd"``, ``"surrogate"`` (the exact gradient of a smoothed
        stand-in for a model whose own is zero almost everywhere, a Feldman pipeline's) or
        ``"derivative-free"``.
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
