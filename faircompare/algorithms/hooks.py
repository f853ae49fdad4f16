"""The optional methods an algorithm provides for the individual-fairness audit.

The audit (:func:`faircompare.audits.individual.model_oracle`) attacks a model by following the
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

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from faircompare.audits.individual import LossOracle


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
