"""The optional methods an algorithm provides for the individual-fairness audit, and its oracle.

The audit attacks a model through its loss oracle (:func:`model_oracle`), following the
gradient of its log-loss in the input. It asks the model, in this order, for

- :class:`LogitCoefficients`: ``logit_coefficients() -> (w, b)`` when the log-odds are x'w + b
  for everyone (logistic regression, Zafar's models); the attack then has a closed form;
- :class:`OwnLossOracle`: ``loss_oracle(mean, scale) -> LossOracle`` when the model computes
  its loss and gradient itself (the torch networks, which stay in torch);
- :class:`InputGradient`: ``input_gradient(X, y, *, sensitive_features=None)``, the gradient of
  each row's log-loss with respect to its features, with ``gradient_kind`` saying how it is
  computed (``"analytic"`` by default, ``"autograd"``, or None for an instance that has none);

and estimates the gradient from the model's predictions (Gaussian smoothing) when none is
there. A plugin provides whichever fits; ``faircompare check-plugin`` checks each one it finds
against the model's own ``predict_proba`` (:func:`faircompare.algorithms.contract.check_contract`).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
from scipy.special import expit

from faircompare._deprecations import former_forms
from faircompare.algorithms.outputs import in_row_order, row_index
from faircompare.stats.individual import (
    LossOracle,
    clipped_log_loss,
    logistic_oracle,
    smoothed_gradient,
)

__all__ = [
    "InputGradient",
    "LogitCoefficients",
    "OwnLossOracle",
    "gradient_kind",
    "model_oracle",
]


@runtime_checkable
class LogitCoefficients(Protocol):
    """A model whose log-odds of label 1 are x'w + b, the same for every group."""

    def logit_coefficients(self) -> tuple[np.ndarray, float]:
        """Return the coefficients w (one per feature) and the intercept b.

        Returns
        -------
        tuple of numpy.ndarray and float
            ``(w, b)`` in the model's input coordinates.
        """
        ...


@runtime_checkable
class OwnLossOracle(Protocol):
    """A model that builds the audit's loss oracle itself."""

    def loss_oracle(self, mean: Any = 0.0, scale: Any = 1.0) -> LossOracle:
        """Return the loss and its input gradient at x = mean + scale * z.

        Parameters
        ----------
        mean, scale
            The affine map from the attack's coordinates z to the model's inputs x.

        Returns
        -------
        LossOracle
            Per-row log-loss and its gradient in z.
        """
        ...


@runtime_checkable
class InputGradient(Protocol):
    """A model that gives the gradient of each row's log-loss with respect to its features."""

    def input_gradient(self, X: Any, y: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return d log-loss(x_i, y_i) / d x_i for each row.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        y
            Labels (1 positive, 0 other).
        sensitive_features
            The sensitive attribute of each row, for models that use it at prediction time.

        Returns
        -------
        numpy.ndarray
            One gradient per row, shape ``(rows, features)``.
        """
        ...


def gradient_kind(model: object) -> str | None:
    """Return how ``model`` computes its input gradient, or None when it has none.

    Parameters
    ----------
    model
        A fitted estimator.

    Returns
    -------
    str or None
        ``"analytic"`` (the default of a model with ``input_gradient``), ``"autograd"``, or None.
    """
    if not isinstance(model, InputGradient):
        return None
    kind: str | None = getattr(model, "gradient_kind", "analytic")
    return kind


@former_forms
def model_oracle(
    model: Any,
    *,
    sensitive_features: Any = None,
    mean: Any = 0.0,
    scale: Any = 1.0,
    smoothing: float = 0.1,
    pairs: int = 8,
    rng: np.random.Generator | int | None = None,
    within: np.ndarray | None = None,
) -> LossOracle:
    """Build the loss oracle of a fitted classifier.

    The attack moves points z; the model sees x = mean + scale * z (so the attack can run in
    standardised coordinates while the model keeps its own); the methods a model may provide
    are the protocols above. Models with ``input_gradient(X, y,
    sensitive_features=...)`` give their gradient (its kind is the model's ``gradient_kind``,
    default ``"analytic"``; None when this instance has none). Others get the gradient of their
    Gaussian-smoothed loss, E[l(z + smoothing * u)] with u ~ N(0, I), estimated from
    ``pairs`` antithetic pairs of random directions per point and step (Nesterov & Spokoiny
    2017): it exists for piecewise-constant models such as trees, whose exact gradient is zero
    almost everywhere.

    Models with ``logit_coefficients()`` (log-odds x'w + b, the same for everyone) get the
    exact :func:`~faircompare.stats.individual.logistic_oracle`, which the attack runs in a
    low-dimensional span; models with ``loss_oracle(mean, scale)`` build their own (the torch
    networks, which stay in torch).

    Probabilities come from ``predict_proba``, else the sigmoid of ``decision_function``, else
    the hard predictions, clipped to [1e-6, 1 - 1e-6] before the log-loss.

    Parameters
    ----------
    model
        A fitted classifier.
    sensitive_features
        The audit points' sensitive attribute, for a model that reads it at prediction time.
    mean, scale
        The standardisation: the model sees ``mean + scale * z``.
    smoothing
        The Gaussian smoothing's standard deviation, in standardised units.
    pairs
        Antithetic pairs of random directions per point and step of the smoothed gradient
        (formerly ``directions=``, which still works with a :class:`DeprecationWarning`).
    rng
        Seed or generator of the random directions.
    within
        Orthonormal rows spanning the smoothed gradient's directions (the attack's free ones,
        :meth:`~faircompare.stats.individual.FairMetric.free_directions`); None for all.

    Returns
    -------
    LossOracle
        The model's log-loss and its gradient in the standardised coordinates.
    """
    mean, scale = np.asarray(mean, dtype=float), np.asarray(scale, dtype=float)
    s = None if sensitive_features is None else np.asarray(sensitive_features)
    if isinstance(model, LogitCoefficients):
        coef, intercept = model.logit_coefficients()
        return logistic_oracle(coef * scale, intercept + float(np.sum(coef * mean)))
    if isinstance(model, OwnLossOracle):
        return model.loss_oracle(mean, scale)

    def loss(Z: np.ndarray, y: np.ndarray, s: Any = s) -> np.ndarray:
        return clipped_log_loss(_positive_probability(model, mean + scale * Z, s), y)

    kind = gradient_kind(model)
    if kind is not None:

        def analytic_gradient(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
            return model.input_gradient(mean + scale * Z, y, sensitive_features=s) * scale

        return LossOracle(loss, analytic_gradient, kind)
    gradient = smoothed_gradient(loss, s, smoothing, pairs, np.random.default_rng(rng), within)
    return LossOracle(loss, gradient, "derivative-free")


def _positive_probability(model: Any, X: np.ndarray, s: Any) -> np.ndarray:
    """Return the model's probability of the positive label, in the order of the rows of ``X``."""
    methods = ("predict_proba", "decision_function", "predict")
    method = next(name for name in methods if hasattr(model, name))
    output = getattr(model, method)(X, sensitive_features=s)
    values = np.asarray(in_row_order(type(model).__name__, output, row_index(X), method), float)
    if method == "predict_proba":
        return values[:, 1]
    return expit(values) if method == "decision_function" else values
