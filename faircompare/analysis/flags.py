"""Which cells of a study a reader should not take at face value, and why.

A cell is one measure of one algorithm (in the setting the report shows) over the splits of a
dataset, attribute and variant. It is flagged, with its reasons, when

- ``one class``: a run predicts one class for every test row, so its accuracy is the base
  rate and its fairness measures those of a constant;
- ``few events``: a rate the measure reads rests, in a group on some split, on fewer than
  :data:`~faircompare.choices.MIN_RATE_EVENTS` rows of its denominator (a TPR from 6
  positives), or the measure is a ratio of rates and one of them counts fewer events than
  that in its numerator (a disparate impact over 3 predicted positives of the privileged
  group: a denominator near zero, a ratio in the hundreds);
- ``k of n splits``: the measure is defined on fewer splits than the configuration's most.

A flagged cell is shown with its reasons instead of an interval, and is neither compared,
ranked nor marked best (:mod:`faircompare.analysis.report`). The counts come from each run's
stored predictions, through the same confusion counts as the measures
(:class:`~faircompare.measures.group_stats.GroupStats`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from faircompare.analysis.tidy import CONFIGURATION, WHERE
from faircompare.choices import MIN_RATE_EVENTS
from faircompare.measures import MEASURES, GroupStats, Measure
from faircompare.results import ResultStore
from faircompare.stats.rates import RATES

__all__ = ["FEW_EVENTS", "ONE_CLASS", "cell_flags", "few_events", "flagged_rows", "run_flags",
           "stored_cell_flags"]  # fmt: skip

#: The reason of a run that predicts one class for every test row.
ONE_CLASS = "one class"
#: The reason of a measure reading a rate from few rows, or a ratio of rates from few events.
FEW_EVENTS = "few events"


def few_events(stats: GroupStats, measure: Measure, minimum: int = MIN_RATE_EVENTS) -> bool:
    """Return whether a rate the measure reads rests on fewer than ``minimum`` rows or events.

    Parameters
    ----------
    stats
        One run's confusion counts per group.
    measure
        The measure; one without :attr:`~faircompare.measures.Measure.rates` (an overall
        measure) never rests on few events of a group.
    minimum
        The fewest rows of a rate's denominator, and for a ratio of rates the fewest events
        of its numerator, in every group compared.

    Returns
    -------
    bool
        True where some group (the others pooled, for a measure comparing the privileged group
        with them) falls short.
    """
    counts = stats.counts
    if measure.pooled:
        others = np.delete(counts, stats.privileged_index, axis=0).sum(axis=0)
        counts = np.vstack([counts[stats.privileged_index], others])
    for rate in measure.rates:
        numerator, denominator, _ = RATES[rate]
        short = counts[:, list(denominator)].sum(axis=1) < minimum
        if measure.ratio:
            short |= counts[:, list(numerator)].sum(axis=1) < minimum
        if short.any():
            return True
    return False


def run_flags(store: ResultStore, keys: Iterable[str], measures: Sequence[str]) -> pd.DataFrame:
    """Return each run's flagged measures, read from its stored predictions.

    Parameters
    ----------
    store
        The results store.
    keys
        The runs' keys.
    measures
        The measures to judge (names of the catalogue; others are never flagged).

    Returns
    -------
    pandas.DataFrame
        ``key``, ``measure`` and ``reason`` (:data:`ONE_CLASS` or :data:`FEW_EVENTS`), one row
        per flagged measure of a run.
    """
    known = [MEASURES[name] for name in measures if name in MEASURES]
    rows = []
    for key in keys:
        predictions = store.predictions(key)
        if len(np.unique(predictions.y_pred)) < 2:
            rows += [(key, measure.name, ONE_CLASS) for measure in known]
            continue
        stats = GroupStats.from_predictions(
            predictions.y_true,
            predictions.y_pred,
            predictions.sensitive_features,
            privileged=predictions.privileged,
        )
        rows += [(key, m.name, FEW_EVENTS) for m in known if few_events(stats, m)]
    return pd.DataFrame(rows, columns=["key", "measure", "reason"])


def cell_flags(chosen: pd.DataFrame, flags: pd.DataFrame) -> pd.DataFrame:
    """Return each cell's flag: its reasons over the splits, empty where there are none.

    Parameters
    ----------
    chosen
        The runs shown, long (the store's measures frame, or part of it): one configuration
        or several.
    flags
        :func:`run_flags` of (at least) those runs.

    Returns
    -------
    pandas.DataFrame
        One row per configuration, setting and measure of ``chosen`` (:data:`CONFIGURATION`
        and ``measure``), with ``flag``: its reasons, each with its number of splits
        (``"few events on 2 of 5 splits; defined on 3 of 5 splits"``), or ``""``.
    """
    aggregate = chosen[chosen["group"] == ""]
    cell = [*CONFIGURATION, "measure"]
    cells = aggregate.groupby(cell, observed=True).agg(
        runs=("key", "nunique"), defined=("value", "count")
    )
    most = cells["defined"].groupby(level=WHERE).transform("max")  # the configuration's most
    found = aggregate[[*cell, "key"]].merge(flags, on=["key", "measure"])
    reasons: dict[tuple[str, ...], list[str]] = {}
    for (*where, reason), count in found.groupby([*cell, "reason"])["key"].nunique().items():
        runs = cells.loc[tuple(where), "runs"]
        reasons.setdefault(tuple(where), []).append(f"{reason} on {count} of {runs} splits")
    flag = [
        "; ".join(reasons.get(where, []) + _fewer_splits(defined, top))
        for where, defined, top in zip(cells.index, cells["defined"], most, strict=True)
    ]
    return cells.assign(flag=flag).reset_index()[[*cell, "flag"]]


def stored_cell_flags(
    store: ResultStore, chosen: pd.DataFrame, measures: Sequence[str]
) -> pd.DataFrame:
    """Return :func:`cell_flags` of ``chosen``, its runs judged from the store's predictions.

    Parameters
    ----------
    store
        The results store.
    chosen
        The runs shown, long.
    measures
        The measures to judge.

    Returns
    -------
    pandas.DataFrame
        As :func:`cell_flags`.
    """
    return cell_flags(chosen, run_flags(store, chosen["key"].unique(), measures))


def flagged_rows(chosen: pd.DataFrame, cells: pd.DataFrame) -> np.ndarray:
    """Return whether each row of ``chosen`` belongs to a flagged cell.

    A flagged cell is no result: it is left out of the comparisons, intervals and rankings.

    Parameters
    ----------
    chosen
        The runs shown, long (a row per measure and group).
    cells
        Their cells' flags (:func:`cell_flags`).

    Returns
    -------
    numpy.ndarray
        One bool per row of ``chosen``, in its order.
    """
    keys = [*CONFIGURATION, "measure"]
    flagged = cells.loc[cells["flag"] != "", keys].drop_duplicates()
    joined = chosen.merge(flagged.assign(flagged=True), on=keys, how="left")
    return joined["flagged"].notna().to_numpy()  # a left merge keeps chosen's rows in order


def _fewer_splits(defined: int, most: int) -> list[str]:
    """Return the reason of a cell defined on fewer splits than its configuration's most."""
    return [f"defined on {defined} of {most} splits"] if defined < most else []
