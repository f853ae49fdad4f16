"""Multiple-testing corrections of a family of p-values."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import false_discovery_control


def holm(pvalues: Any) -> np.ndarray:
    """Adjust p-values by Holm's step-down method (family-wise error).

    Parameters
    ----------
    pvalues
        The p-values.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the input's order.

    Examples
    --------
    >>> from faircompare.stats import holm
    >>> holm([0.01, 0.04, 0.03])
    array([0.03, 0.06, 0.06])
    """
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    stepped = np.maximum.accumulate((len(p) - np.arange(len(p))) * p[order])
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def benjamini_hochberg(pvalues: Any) -> np.ndarray:
    """Adjust p-values by Benjamini-Hochberg (false discovery rate), through scipy.

    Parameters
    ----------
    pvalues
        The p-values.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the input's order.

    Examples
    --------
    >>> from faircompare.stats import benjamini_hochberg
    >>> benjamini_hochberg([0.01, 0.04, 0.03])
    array([0.03, 0.04, 0.04])
    """
    return false_discovery_control(np.asarray(pvalues, dtype=float), method="bh")
