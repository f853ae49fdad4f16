"""Pieces shared by the linear models: a standardised design matrix and the input gradient."""

from __future__ import annotations

from typing import Any

import numpy as np

from faircompare.algorithms.base import binary_labels


class Design:
    """Standardise features with training statistics and append an intercept column.

    Parameters
    ----------
    features
        The training features, whose means and standard deviations are kept.
    """

    def __init__(self, features: np.ndarray) -> None:
        self.mean = features.mean(0)
        spread = features.std(0)
        self.scale = np.where(spread > 0, spread, 1.0)

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """Return the design matrix: standardised features and a column of ones."""
        standard = (features - self.mean) / self.scale
        return np.hstack([standard, np.ones((len(features), 1))])

    def input_gradient(self, p: np.ndarray, y: Any, weights: np.ndarray) -> np.ndarray:
        """Gradient of each row's log-loss with respect to its unstandardised features.

        For p = sigmoid(w'(x - mean) / scale + b), d loss / d x = (p - y) w / scale; ``weights``
        holds w without the intercept, shared (1-D) or one row per sample (2-D).
        """
        residual = p - binary_labels(y, len(p))
        return residual[:, None] * np.atleast_2d(weights) / self.scale

    def raw_coefficients(self, theta: np.ndarray) -> tuple[np.ndarray, float]:
        """Weights and intercept of the log-odds on unstandardised features, from ``theta``.

        theta'[(x - mean) / scale, 1] = x'(w / scale) + (b - (w / scale)'mean).
        """
        coef = theta[:-1] / self.scale
        return coef, float(theta[-1] - coef @ self.mean)
