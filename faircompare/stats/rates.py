"""The confusion cells and the rates built from them: one table for measures and audits.

Every proportion a measure reports or a permutation test compares is a ratio of sums of a group's
confusion counts; :data:`RATES` names each one once, so the catalogue's ``TPR`` and the audits'
``TPR`` are the same numbers under the same name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Confusion cells, indexed by 2 * y_true + y_pred.
TN, FP, FN, TP = range(4)
ALL = (TN, FP, FN, TP)

#: Each rate's name, its numerator and denominator cells of the confusion table, and what an
#: empty denominator means.
RATES: dict[str, tuple[tuple[int, ...], tuple[int, ...], str]] = {
    "accuracy": ((TN, TP), ALL, "no rows"),
    "TPR": ((TP,), (FN, TP), "no positives (Y = 1)"),
    "TNR": ((TN,), (TN, FP), "no negatives (Y = 0)"),
    "FPR": ((FP,), (TN, FP), "no negatives (Y = 0)"),
    "FNR": ((FN,), (FN, TP), "no positives (Y = 1)"),
    "calibration+": ((TP,), (FP, TP), "no predicted positives"),
    "calibration-": ((TN,), (TN, FN), "no predicted negatives"),
    "positive_rate": ((FP, TP), ALL, "no rows"),
}
# Other names the audits accept for a rate.
ALIASES = {"precision": "calibration+"}


def binary_labels(values: Any, name: str) -> np.ndarray:
    """Return 0/1 labels (or booleans) as int64, refusing anything else.

    Parameters
    ----------
    values
        One label per row: 1 for the positive outcome, 0 otherwise.
    name
        The argument's name, for the error message.

    Returns
    -------
    numpy.ndarray
        The labels as a one-dimensional int64 array.

    Raises
    ------
    ValueError
        If the labels are not one-dimensional, or hold other values than 0 and 1 (the message
        shows up to five of them).
    """
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.dtype == bool:
        return array.astype(np.int64)
    unexpected = array[(array != 0) & (array != 1)]
    if unexpected.size:
        raise ValueError(
            f"{name} must hold 1 (positive) and 0 (other) only; "
            f"found {np.unique(unexpected)[:5].tolist()}"
        )
    return array.astype(np.int64)
