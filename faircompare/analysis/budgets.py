"""Rankings by tuning budget: each method at its defaults and tuned with each budget.

A study with :attr:`~faircompare.config.BenchmarkConfig.tuning_budgets` runs every method at its
defaults and tuned with each budget, the yardstick's frontiers too
(:mod:`faircompare.benchmark.trials`). Here, per dataset, attribute and variant:

- :func:`by_budget`: each method's mean test score over splits at each budget (0: its
  defaults), with its corrected resampled 95 % interval (Nadeau & Bengio's, as the comparisons'),
  a fairness measure read as its gap from parity;
- :func:`verdicts_by_budget`: each method's verdict against the yardstick at equal fairness
  (:func:`~faircompare.analysis.equal_fairness.equal_fairness_table`: above, on or below the
  frontier tuned with the same budget) at each budget, and whether the verdict at its defaults
  survives each budget;
- :func:`surviving`: the sentence the report opens its tuning section with.

Studies that tune every method with the same budget (Aequitas Flow, Jesus et al. 2024; ManyFairHPO,
2024) find the budget decides much of a ranking: these say which of a study's verdicts at the
defaults hold once every method, and the yardstick, is tuned alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from faircompare.analysis.compare import corrected_ttest, score_bounds
from faircompare.analysis.equal_fairness import (
    FRONTIER_PREFIX,
    OWN_BASELINE,
    equal_fairness_table,
)
from faircompare.analysis.tidy import WHERE, budget_of, label, representative
from faircompare.measures import MEASURES
from faircompare.records import DEFAULTS

__all__ = [
    "DEFAULT_BUDGET",
    "SHOWN_CHANGES",
    "budget_name",
    "by_budget",
    "surviving",
    "verdicts_by_budget",
]

#: The budget a method at its defaults is shown at: no trial, its parameters as they come.
DEFAULT_BUDGET = 0
#: The changed verdicts :func:`surviving` names one by one; the others it counts.
SHOWN_CHANGES = 5


def budget_name(budget: int) -> str:
    """Return how a table or axis names a budget: ``defaults``, ``1 trial``, ``10 trials``.

    Parameters
    ----------
    budget
        The trials; :data:`DEFAULT_BUDGET` for the defaults.

    Returns
    -------
    str
        The name.
    """
    if budget == DEFAULT_BUDGET:
        return DEFAULTS
    return f"{budget} trial{'s' if budget != 1 else ''}"


def by_budget(measures: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Return each method's mean test score at each budget, with its corrected interval.

    Parameters
    ----------
    measures
        Test measures (long form) of a tuned study; the methods with tuned runs are shown
        (the frontiers are the yardstick, left out).
    measure
        The measure; a fairness measure as its gap from parity (:meth:`~faircompare.
        measures.Measure.gap`: lower is fairer).

    Returns
    -------
    pandas.DataFrame
        One row per dataset, attribute, variant, algorithm and budget (:data:`DEFAULT_BUDGET`
        for its defaults): ``splits``, ``mean``, ``ci_low``, ``ci_high`` (NaN with one split;
        cut at the measure's bounds, a gap's at 0, as the mean lies within them).
    """
    columns = [*WHERE, "algorithm", "budget", "splits", "mean", "ci_low", "ci_high"]
    shown = _tuned_methods(measures)
    rows = shown[(shown["measure"] == measure) & (shown["group"] == "")]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    values = rows["value"].to_numpy(dtype=float)
    bounds = score_bounds(measure)
    if MEASURES[measure].kind != "accuracy":
        values, bounds = MEASURES[measure].gap(values), (-bounds[1], -bounds[0])  # a gap's
    rows = rows.assign(value=values, budget=_budgets(rows["setting"]))
    table = []
    for (*where, algorithm, budget), part in rows.groupby([*WHERE, "algorithm", "budget"]):
        d = part.groupby("split_id")["value"].mean().dropna().to_numpy()
        interval = np.clip(corrected_ttest(d).interval, *bounds) if len(d) > 1 else (np.nan,) * 2
        table.append([*where, algorithm, budget, len(d), d.mean() if len(d) else np.nan,
                      *interval])  # fmt: skip
    return pd.DataFrame(table, columns=columns)


def verdicts_by_budget(measures: pd.DataFrame) -> pd.DataFrame:
    """Return each method's verdict against the yardstick at each budget, and what survives.

    Parameters
    ----------
    measures
        Test measures (long form) of a tuned study, the frontiers' runs included.

    Returns
    -------
    pandas.DataFrame
        One row per dataset, attribute, variant, algorithm and constraint: a column per budget
        (:func:`budget_name`: ``defaults``, ``1 trial``, ...) holding the verdict at equal
        fairness there (``above``, ``on``, ``below``, ``untested``; empty where not run), and
        ``survives``: whether the verdict at the defaults is the verdict at every budget (NA
        where no method ran at its defaults, or the method is the yardstick's own baseline
        there). The yardstick's own baseline, its frontier's unconstrained end, has no verdict
        (:data:`~faircompare.analysis.equal_fairness.OWN_BASELINE`): at a budget where it is,
        nothing holds or changes.
    """
    tuned = _tuned_methods(measures)
    if tuned.empty:
        return pd.DataFrame(columns=[*WHERE, "algorithm", "constraint", "survives"])
    names = {
        label(a, s): (a, b)
        for a, s, b in zip(tuned["algorithm"], tuned["setting"], _budgets(tuned["setting"]),
                           strict=True)
    }  # fmt: skip
    parts = []
    for where, mine in measures.groupby(WHERE, sort=False):
        table = equal_fairness_table(mine)
        table = table[table["algorithm"].isin(names)]
        if table.empty:
            continue
        algorithm, budget = zip(*table["algorithm"].map(names), strict=True)
        parts.append(table.assign(**dict(zip(WHERE, where, strict=True)),
                                  algorithm=algorithm, budget=budget))  # fmt: skip
    if not parts:
        return pd.DataFrame(columns=[*WHERE, "algorithm", "constraint", "survives"])
    verdicts = pd.concat(parts, ignore_index=True)
    wide = verdicts.pivot_table(index=[*WHERE, "algorithm", "constraint"], columns="budget",
                                values="verdict", aggfunc="first")  # fmt: skip
    budgets = sorted(wide.columns)
    wide = wide[budgets].fillna("")
    defaults = wide.get(DEFAULT_BUDGET)  # none where no method ran at its defaults
    survives: object = pd.NA
    if defaults is not None:
        held = _holds(wide, defaults).all(axis=1).astype(object)
        survives = held.where(defaults != OWN_BASELINE, pd.NA)  # its baseline: no verdict
    wide.columns = [budget_name(b) for b in budgets]
    return wide.assign(survives=survives).reset_index().rename_axis(columns=None)


def surviving(verdicts: pd.DataFrame) -> str:
    """Say how many verdicts at the defaults hold at every budget, and which change.

    Parameters
    ----------
    verdicts
        :func:`verdicts_by_budget`.

    Returns
    -------
    str
        ``"Of 24 verdicts against the yardstick at the defaults, 20 hold at every budget (22 at
        1 trial, 21 at 10 trials); 4 change: ..."`` (the first :data:`SHOWN_CHANGES` changes
        named: configuration, method, constraint, verdicts; the others counted), or why there
        is nothing to say.
    """
    if verdicts.empty or DEFAULTS not in verdicts:
        return "No method was run both at its defaults and tuned: no verdict to follow."
    verdicts = verdicts[verdicts["survives"].notna()]  # the yardstick's baseline: no verdict
    held = int(verdicts["survives"].astype(bool).sum())
    changed = verdicts[~verdicts["survives"].astype(bool)]
    budgets = [c for c in verdicts.columns if c not in (*WHERE, "algorithm", "constraint",
                                                        "survives")]  # fmt: skip
    tuned = [b for b in budgets if b != DEFAULTS]
    each = [
        f"{int(n)} at {b}" for b, n in _holds(verdicts[tuned], verdicts[DEFAULTS]).sum().items()
    ]
    said = (f"Of {len(verdicts)} verdicts against the yardstick at the defaults, {held} hold at "
            f"every budget ({', '.join(each)})")  # fmt: skip
    if changed.empty:
        return said + "."
    named = [
        f"{row['dataset']}/{row['sensitive_attribute']} {row['algorithm']} "
        f"({row['constraint'].replace('_', ' ')}): "
        + " -> ".join(f"{row[b] or '-'}" for b in budgets)
        for _, row in changed.head(SHOWN_CHANGES).iterrows()
    ]
    more = len(changed) - len(named)
    rest = f"; and {more} more (the table's 'survives' column)" if more else ""
    return f"{said}; {len(changed)} change: {'; '.join(named)}{rest}."


def _holds(verdicts: pd.DataFrame, defaults: pd.Series) -> pd.DataFrame:
    """Whether each budget's verdict is the one at the defaults.

    A budget where the method is the yardstick's own baseline gives no verdict, so it refutes
    none; one where the method did not run (empty) does not hold it.
    """
    return verdicts.eq(defaults, axis=0) | verdicts.eq(OWN_BASELINE)


def _tuned_methods(measures: pd.DataFrame) -> pd.DataFrame:
    """Return the runs the report shows of the methods that have tuned runs, frontiers left out."""
    budgets = measures["setting"].map(budget_of)
    tuned = measures.loc[budgets.notna(), "algorithm"].unique()
    shown = budgets.notna() | (measures["setting"] == DEFAULTS)  # not a grid's runs
    mine = measures[shown & measures["algorithm"].isin(tuned)
                    & ~measures["algorithm"].str.startswith(FRONTIER_PREFIX)]  # fmt: skip
    return representative(mine) if len(mine) else mine


def _budgets(settings: pd.Series) -> pd.Series:
    """Return each setting's budget: its trials, :data:`DEFAULT_BUDGET` at its defaults."""
    return settings.map(lambda s: budget_of(s) or DEFAULT_BUDGET).astype(int)
