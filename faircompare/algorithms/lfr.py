"""The objective of learning fair representations (Zemel et al., ICML 2013) and its gradient.

Zemel et al. §2 map each person x to a soft assignment M over k prototypes v_1..v_k and learn
the prototypes and a label weight w_k per prototype by minimising

    Ax L_x + Ay L_y + Az L_z,

with, as AIF360's ``LFR`` implements it (its ``LFR_optim_objective``): M = softmax(-||x - v_k||)
over the prototypes (Euclidean distances), L_x the mean squared error of the reconstruction
x^ = M V in each group (summed over the two groups), L_y the log-loss of y^ = M w (clipped to
[eps, 1 - eps]) over everyone, and L_z the mean over prototypes of |mean M in the unprivileged
group - mean M in the privileged group| (statistical parity of the representation).

AIF360 minimises it by L-BFGS-B with finite differences, one objective evaluation per parameter
for each gradient: k (d + 1) of them (485 on Adult). :func:`lfr_objective` returns the exact
gradient with the value, at the cost of about two evaluations, by back-propagation through the
softmax and the distances.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import softmax

_EPS = np.finfo(float).eps  # AIF360 clips y^ to [eps, 1 - eps]


@dataclass(frozen=True, eq=False)
class _Forward:
    """One group's quantities of the objective, kept for the backward pass."""

    x: np.ndarray
    distances: np.ndarray  # (n, k)
    memberships: np.ndarray  # M, (n, k)
    residuals: np.ndarray  # x^ - x, (n, d)
    y_grad: np.ndarray  # d(Ay L_y) / d y^, zero where y^ is clipped


def lfr_objective(
    parameters: np.ndarray,
    x_unprivileged: np.ndarray,
    x_privileged: np.ndarray,
    y_unprivileged: np.ndarray,
    y_privileged: np.ndarray,
    k: int,
    Ax: float,
    Ay: float,
    Az: float,
) -> tuple[float, np.ndarray]:
    """Return the LFR objective (AIF360's) and its gradient in the parameters.

    Parameters
    ----------
    parameters
        The k label weights w, then the k prototypes (k x d, row by row), as AIF360 orders them.
    x_unprivileged, x_privileged
        Each group's features, one row per person.
    y_unprivileged, y_privileged
        Each group's labels, 0 or 1.
    k
        Number of prototypes.
    Ax, Ay, Az
        Weights of the reconstruction, prediction and parity terms.

    Returns
    -------
    value : float
        Ax L_x + Ay L_y + Az L_z.
    gradient : numpy.ndarray
        Its gradient, ordered as ``parameters``.
    """
    w = parameters[:k]
    prototypes = parameters[k:].reshape(k, -1)
    rows = len(y_unprivileged) + len(y_privileged)
    value, grad_w, grad_v = 0.0, np.zeros(k), np.zeros_like(prototypes)
    groups = []
    for x, y in ((x_unprivileged, y_unprivileged), (x_privileged, y_privileged)):
        distances = cdist(x, prototypes)
        memberships = softmax(-distances, axis=1)
        residuals = memberships @ prototypes - x
        raw = memberships @ w
        y_hat = np.clip(raw, _EPS, 1 - _EPS)
        value += Ax * np.mean(residuals**2)
        value -= Ay * np.sum(y * np.log(y_hat) + (1 - y) * np.log(1 - y_hat)) / rows
        inside = (raw > _EPS) & (raw < 1 - _EPS)
        y_grad = np.where(inside, -Ay * (y / y_hat - (1 - y) / (1 - y_hat)) / rows, 0.0)
        groups.append(_Forward(x, distances, memberships, residuals, y_grad))
    gap = groups[0].memberships.mean(0) - groups[1].memberships.mean(0)
    value += Az * np.mean(np.abs(gap))
    for forward, sign in zip(groups, (1.0, -1.0), strict=True):
        n, d = forward.x.shape
        m = forward.memberships
        residual_grad = (2 * Ax / (n * d)) * forward.residuals  # d(Ax L_x) / d x^
        grad_v += m.T @ residual_grad
        grad_w += m.T @ forward.y_grad
        m_grad = residual_grad @ prototypes.T + np.outer(forward.y_grad, w)
        m_grad += sign * Az * np.sign(gap) / (k * n)  # d(Az L_z) / dM
        # through the softmax of -distances, then the distances ||x - v||
        s_grad = m * (m_grad - np.sum(m * m_grad, axis=1, keepdims=True))
        per_distance = s_grad / forward.distances
        grad_v += per_distance.T @ forward.x - per_distance.sum(0)[:, None] * prototypes
    return float(value), np.concatenate([grad_w, grad_v.ravel()])


def represent(x: np.ndarray, prototypes: np.ndarray) -> np.ndarray:
    """Return the representation AIF360's ``LFR.transform`` gives: the reconstruction M V."""
    return softmax(-cdist(x, prototypes), axis=1) @ prototypes
