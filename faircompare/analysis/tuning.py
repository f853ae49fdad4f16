"""Tuned variants: per split, the parameter setting that is best on the validation part.

Friedler et al. (2019) §7 report each algorithm tuned for accuracy and tuned for DI. Here the
choice uses only the validation part carved from the training data (runs planned with
``tune``); the test measures of the chosen setting are then reported, so the test data never
influence the choice (the paper's benchmark chose on the test split).
"""

from __future__ import annotations

import pandas as pd

from faircompare._validation import check_choice
from faircompare.results import ResultStore

# criterion -> (measure, how a value is scored: lower is better)
#: The tuning criteria by name: the measure each scores and whether lower is better.
CRITERIA = {
    "accuracy": ("accuracy", lambda value: -value),
    "DI": ("DIbinary", lambda value: (1 - value).abs()),
}
_RUN = ["dataset", "sensitive_attribute", "variant", "algorithm", "split_id"]


def tuned(store: ResultStore, by: str = "accuracy") -> pd.DataFrame:
    """Test measures of each algorithm tuned on validation data, one setting per split.

    Parameters
    ----------
    store
        A results store with validation measures (runs planned with ``tune``).
    by
        ``"accuracy"`` (highest validation accuracy) or ``"DI"`` (validation DIbinary closest
        to 1). Ties go to the first setting in parameter order.

    Returns
    -------
    pandas.DataFrame
        The test measures (long form) of the chosen runs, with the column ``tuned_by``.
    """
    return tuned_measures(store.measures("test"), store.measures("validation"), by)


def tuned_measures(
    test: pd.DataFrame, validation: pd.DataFrame, by: str = "accuracy"
) -> pd.DataFrame:
    """:func:`tuned` on the store's test and validation measure frames."""
    measure, score = CRITERIA[check_choice(by, CRITERIA, what="tuning criterion")]
    candidates = validation[(validation["measure"] == measure) & (validation["group"] == "")]
    candidates = candidates.assign(score=score(candidates["value"])).dropna(subset="score")
    ordered = candidates.sort_values([*_RUN, "score", "params"], kind="stable")
    chosen = ordered.groupby(_RUN, sort=False).head(1)["key"]
    return test[test["key"].isin(chosen)].assign(tuned_by=by).reset_index(drop=True)
