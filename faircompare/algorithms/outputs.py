"""What a fitted algorithm returns is checked before anything is measured or stored.

A prediction that is not 0 or 1 (NaN, say, which a cast to integers would turn into 0), a score
that is not finite, or a probability outside [0, 1] fails the run with one message naming the
algorithm and the count of bad values; ``check-plugin`` reports the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from faircompare.exceptions import FaircompareError

_SHOWN = 5  # distinct bad values quoted in a message
_ROUNDING = 1e-9  # how far past 0 or 1 a probability may lie by rounding


class BadPredictionsError(FaircompareError, ValueError):
    """Predictions or scores an algorithm returned that cannot be measured."""


def checked_predictions(algorithm: str, y_pred: Any, n: int) -> np.ndarray:
    """Return an algorithm's predictions as 0/1 int8, refusing any other value or shape.

    Parameters
    ----------
    algorithm
        The algorithm's name, for the message.
    y_pred
        What its ``predict`` returned.
    n
        The number of rows predicted.

    Returns
    -------
    numpy.ndarray
        The predictions as int8.

    Raises
    ------
    BadPredictionsError
        If there are not ``n`` of them, or any is not 0 or 1 (NaN included).
    """
    values = np.asarray(y_pred)
    if values.shape != (n,):
        raise BadPredictionsError(
            f"{algorithm}: predict returned shape {values.shape} for {n} rows; expected ({n},)"
        )
    bad = ~np.isin(values, (0, 1))
    if bad.any():
        raise BadPredictionsError(
            f"{algorithm}: predict returned {bad.sum():,} of {n:,} predictions that are not 0 "
            f"or 1: {_distinct(values[bad])}"
        )
    return values.astype(np.int8)


def checked_scores(algorithm: str, scores: Any, n: int, method: str) -> np.ndarray:
    """Return an algorithm's scores as floats, refusing non-finite values or another shape.

    Parameters
    ----------
    algorithm
        The algorithm's name, for the message.
    scores
        The scores of the positive label, one per row.
    n
        The number of rows scored.
    method
        The method that gave them (``predict_proba``, ``decision_function``), for the message.

    Returns
    -------
    numpy.ndarray
        The scores as float64.

    Raises
    ------
    BadPredictionsError
        If there are not ``n`` of them, or any is NaN or infinite, or (from
        ``predict_proba``) outside [0, 1].
    """
    values = np.asarray(scores, dtype=float)
    if values.shape != (n,):
        raise BadPredictionsError(
            f"{algorithm}: {method} returned shape {values.shape} for {n} rows; expected ({n},)"
        )
    bad = ~np.isfinite(values)
    if bad.any():
        raise BadPredictionsError(
            f"{algorithm}: {method} returned {bad.sum():,} of {n:,} scores that are not finite: "
            f"{_distinct(values[bad])}"
        )
    if method == "predict_proba":
        bad = (values < -_ROUNDING) | (values > 1 + _ROUNDING)
        if bad.any():
            raise BadPredictionsError(
                f"{algorithm}: {method} returned {bad.sum():,} of {n:,} probabilities outside "
                f"[0, 1]: {_distinct(values[bad])}"
            )
    return values


def _distinct(values: np.ndarray) -> str:
    shown = list(dict.fromkeys(map(str, values.tolist())))
    return ", ".join(shown[:_SHOWN]) + (", ..." if len(shown) > _SHOWN else "")
