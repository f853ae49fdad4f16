"""The fair metric of the individual-fairness test: explicit, or the sensitive subspace's.

Maity et al. §2 and §4.2; the sensitive subspace metric of Yurochkin, Bower & Sun (2020, §2.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from faircompare.bibliography import Reference

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
