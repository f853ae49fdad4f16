"""Multiple-testing corrections of a family of p-values."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import false_discovery_control

from faircompare.bibliography import Reference

#: Holm's step-down adjustment.
HOLM_1979 = Reference(
    key="holm1979simple",
    authors=("Holm, Sture",),
    title="A Simple Sequentially Rejective Multiple Test Procedure",
    year=1979,
    venue="Scandinavian Journal of Statistics",
    kind="article",
    volume="6(2)",
    pages="65-70",
    url="https://www.jstor.org/stable/4615733",
)


def holm(pvalues: Any) -> np.ndarray:
    """Adjust p-values by Holm's step-down method (family-wise error).

    A NaN p-value (a test that could not be computed) is left out of the family: the others
    are adjusted over the m tests that have a p-value, and its adjusted value is NaN.

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
    >>> holm([0.01, float("nan"), 0.04])
    array([0.02,  nan, 0.04])
    """
    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full_like(p, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    order = tested[np.argsort(p[tested])]
    stepped = np.maximum.accumulate((len(order) - np.arange(len(order))) * p[order])
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def benjamini_hochberg(pvalues: Any) -> np.ndarray:
    """Adjust p-values by Benjamini-Hochberg (false discovery rate), through scipy.

    A NaN p-value is left out of the family, as :func:`holm` leaves it (scipy refuses it).

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
    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full_like(p, np.nan)
    tested = ~np.isnan(p)
    if tested.any():
        adjusted[tested] = false_discovery_control(p[tested], method="bh")
    return adjusted
