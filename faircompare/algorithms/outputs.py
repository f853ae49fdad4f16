"""What a fitted algorithm returns is checked before anything is measured or stored.

A prediction that is not 0 or 1 (NaN, say, which a cast to integers would turn into 0), a score
that is not finite, or a probability outside [0, 1] fails the run with one message naming the
algorithm and the count of bad values; ``check-plugin`` reports the same. Outputs are taken by
position only when they carry no index: a pandas Series or frame is put in the order of the rows
asked about by its index, and refused when its index is not theirs (:func:`in_row_order`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from faircompare.exceptions import FaircompareError, cut_message

_SHOWN = 5  # distinct bad values quoted in a message
_ROUNDING = 1e-9  # how far past 0 or 1 a probability may lie by rounding


class BadPredictionsError(FaircompareError, ValueError):
    """Predictions or scores an algorithm returned that cannot be measured."""


def row_index(X: Any) -> pd.Index:
    """Return the labels of the rows of ``X``: a pandas object's index, else their positions.

    Parameters
    ----------
    X
        The rows a model was asked about: a frame, or an array.

    Returns
    -------
    pandas.Index
        ``X.index``, or ``RangeIndex(len(X))``.
    """
    if isinstance(X, pd.DataFrame | pd.Series):
        return X.index
    return pd.RangeIndex(np.shape(X)[0])


def in_row_order(algorithm: str, values: Any, rows: pd.Index, method: str) -> Any:
    """Return a method's output in the order of the rows it was asked about.

    A pandas Series or frame is aligned on its index to ``rows`` (a per-group ``pd.concat``
    returns the rows grouped, not in their order); anything else is taken by position.

    Parameters
    ----------
    algorithm
        The algorithm's name, for the message.
    values
        What the method returned.
    rows
        The labels of the rows asked about (:func:`row_index`).
    method
        The method (``predict``, ``predict_proba``, ``decision_function``), for the message.

    Returns
    -------
    Any
        ``values`` as they were, or as an array in the order of ``rows``.

    Raises
    ------
    BadPredictionsError
        If a pandas output's index is not the rows' labels, each once.
    """
    if not isinstance(values, pd.Series | pd.DataFrame):
        return values
    if values.index.equals(rows):
        return values.to_numpy()
    if values.index.is_unique and len(values.index) == len(rows) and values.index.isin(rows).all():
        return values.reindex(rows).to_numpy()
    missing = rows.difference(values.index)[:_SHOWN].tolist()
    raise BadPredictionsError(
        f"{algorithm}: {method} returned a pandas object whose index is not the rows' labels "
        f"(rows {missing} missing, or labels repeated or foreign): return an array in the "
        "rows' order, or a Series indexed by X.index"
    )


def checked_predictions(
    algorithm: str, y_pred: Any, n: int, *, rows: pd.Index | None = None
) -> np.ndarray:
    """Return an algorithm's predictions as 0/1 int8, refusing any other value or shape.

    Parameters
    ----------
    algorithm
        The algorithm's name, for the message.
    y_pred
        What its ``predict`` returned.
    n
        The number of rows predicted.
    rows
        Their labels (:func:`row_index`; by default their positions), which a pandas output is
        aligned to (:func:`in_row_order`).

    Returns
    -------
    numpy.ndarray
        The predictions as int8, in the rows' order.

    Raises
    ------
    BadPredictionsError
        If there are not ``n`` of them, any is not 0 or 1 (NaN included), or a pandas output's
        index is not the rows' labels.
    """
    rows = pd.RangeIndex(n) if rows is None else rows
    values = np.asarray(in_row_order(algorithm, y_pred, rows, "predict"))
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


def checked_scores(
    algorithm: str, scores: Any, n: int, method: str, *, rows: pd.Index | None = None
) -> np.ndarray:
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
    rows
        The rows' labels, which a pandas output is aligned to (as in
        :func:`checked_predictions`).

    Returns
    -------
    numpy.ndarray
        The scores as float64, in the rows' order.

    Raises
    ------
    BadPredictionsError
        If there are not ``n`` of them, or any is NaN or infinite, or (from
        ``predict_proba``) outside [0, 1].
    """
    rows = pd.RangeIndex(n) if rows is None else rows
    values = np.asarray(in_row_order(algorithm, scores, rows, method), dtype=float)
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
    """Quote the first distinct values, text in quotes: ``'1', '0' (text)`` is no 1 and 0."""
    listed = values.tolist()
    shown = list(dict.fromkeys(repr(v) if isinstance(v, str) else str(v) for v in listed))
    text = ", ".join(shown[:_SHOWN]) + (", ..." if len(shown) > _SHOWN else "")
    if any(isinstance(v, str) for v in listed):
        text += " (text: return the integers 0 and 1, or booleans)"
    return cut_message(text)
