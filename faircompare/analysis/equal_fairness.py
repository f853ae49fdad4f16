"""Interventions compared with the post-processed best model at their own level of unfairness.

Cruz & Hardt ("Unprocessing seven years of algorithmic fairness", ICLR 2024, §4) compare each
fairness intervention with the frontier that the most accurate unconstrained model traces when
post-processed by group thresholds relaxed to each tolerance, at the intervention's own
constraint violation. The frontier is the ``unprocessed-<baseline>`` runs
(:mod:`faircompare.algorithms.unprocessed`); here, per dataset, attribute, variant, split and
constraint:

- the frontier's points are its runs' test (violation, accuracy), the violation being the
  constraint's own measure (``demographic_parity_difference`` or ``equalized_odds_difference``),
  the unconstrained run the end of both constraints' frontiers;
- they are joined by straight lines in order of their violation (the order of the tolerances
  wherever the test rows keep it: on the validation rows both grow with the tolerance), and the
  frontier is flat beyond its ends (:func:`frontier_accuracy`);
- every other run's *difference at equal fairness* is its accuracy minus the frontier's at its
  own violation (:func:`equal_fairness`): above 0, the intervention beats the post-processed
  model at its level of unfairness.

The differences are averaged over the shared splits with Nadeau & Bengio's corrected resampled
t interval (:func:`~faircompare.analysis.compare.corrected_ttest`), per algorithm as the report
shows it (:func:`~faircompare.analysis.tidy.representative`), Holm-adjusted over the algorithms
of one table (:func:`equal_fairness_table`).

The yardstick is the frontier of the best model: of the ``unprocessed-*`` algorithms run, the
one whose unconstrained runs (each its baseline's own predictions) are the most accurate on
average over the splits (:func:`frontier_choice`, :func:`best_frontier`). An intervention above
the frontier in every split is a finding however its test reads (:func:`above_in_every_split`).
"""

from __future__ import annotations

import json
from collections.abc import Collection

import numpy as np
import pandas as pd

from faircompare.algorithms.unprocessed import CRUZ_HARDT_2024
from faircompare.analysis.compare import corrected_ttest, detectable_difference, score_bounds
from faircompare.analysis.tidy import RUN, WHERE, budget_of, label, representative, runs_wide
from faircompare.bibliography import Reference
from faircompare.records import DEFAULTS, TRIALS
from faircompare.stats.multitest import holm

__all__ = [
    "REFERENCES",
    "CONSTRAINT_MEASURES",
    "FAIRNESS_LEVELS",
    "FRONTIER_PREFIX",
    "OWN_BASELINE",
    "above_in_every_split",
    "accuracy_limits",
    "best_frontier",
    "caption",
    "equal_fairness",
    "equal_fairness_summary",
    "equal_fairness_table",
    "findings",
    "frontier_accuracy",
    "frontier_choice",
    "frontier_points",
    "most_accurate",
    "tied_with",
    "without_frontiers",
]

#: The work behind the comparison at equal fairness, by the method it describes.
REFERENCES: dict[str, tuple[Reference, ...]] = {
    "the post-processed frontier at equal fairness": (CRUZ_HARDT_2024,),
}

#: Each constraint the frontier is traced for, and the measure of its violation.
CONSTRAINT_MEASURES = {
    "demographic_parity": "demographic_parity_difference",
    "equalized_odds": "equalized_odds_difference",
}
#: The violations of a constraint at most which the findings name the most accurate
#: intervention (:func:`most_accurate`).
FAIRNESS_LEVELS = (0.02, 0.05, 0.1)
#: The name shared by the frontier algorithms: ``unprocessed-<baseline>``.
FRONTIER_PREFIX = "unprocessed-"
#: The verdict of the frontier's own baseline, which is its unconstrained end: no comparison.
OWN_BASELINE = "frontier's own"
_ALPHA = 0.05
_ACCURACY_BOUNDS = score_bounds("accuracy")  # where an accuracy's interval is cut


def without_frontiers(frame: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of ``frame`` whose algorithm is no frontier (``unprocessed-*``).

    A frontier is a baseline post-processed to each of its tolerances: the yardstick the other
    algorithms are compared with at equal fairness, never one of them.

    Parameters
    ----------
    frame
        Rows with an ``algorithm`` column (measures, runs, points).

    Returns
    -------
    pandas.DataFrame
        Its rows of the other algorithms.
    """
    return frame[~frame["algorithm"].str.startswith(FRONTIER_PREFIX)]


def frontier_points(measures: pd.DataFrame) -> pd.DataFrame:
    """Return the frontier algorithms' runs as points, one row per run and constraint.

    Parameters
    ----------
    measures
        The store's test measures (long form), of any datasets.

    Returns
    -------
    pandas.DataFrame
        ``dataset``, ``sensitive_attribute``, ``variant``, ``split_id``, ``frontier`` (the
        algorithm; a tuned one's with its budget: ``unprocessed-logistic-regression (10
        trials)``), ``constraint``, ``tolerance`` (infinite for the unconstrained run, which
        stands in both constraints' frontiers), ``violation`` (the constraint's measure),
        ``accuracy`` and ``budget`` (a tuned frontier's trials, NaN for one at its parameters).
    """
    wide = runs_wide(measures[measures["algorithm"].str.startswith(FRONTIER_PREFIX)])
    columns = [*WHERE, "split_id", "frontier", "constraint", "tolerance", "violation", "accuracy",
               "budget"]  # fmt: skip
    if wide.empty:
        return pd.DataFrame(columns=columns)
    params = [{} if s == DEFAULTS else json.loads(s) for s in wide["setting"]]
    budgets = [p.get(TRIALS) for p in params]
    wide = wide.assign(
        frontier=[_tuned_name(a, b) for a, b in zip(wide["algorithm"], budgets, strict=True)],
        constraint=[p.get("constraint") for p in params],
        tolerance=[p.get("tolerance", np.inf) for p in params],
        budget=np.array(budgets, dtype=float),
    )
    parts = []
    for constraint, measure in CONSTRAINT_MEASURES.items():
        own = wide[wide["constraint"].isna() | (wide["constraint"] == constraint)]
        parts.append(own.assign(constraint=constraint, violation=own[measure]))
    return pd.concat(parts, ignore_index=True)[columns]


def _tuned_name(algorithm: str, budget: int | None) -> str:
    """Return a frontier's name: its algorithm, and a tuned one's budget."""
    return algorithm if budget is None else label(algorithm, json.dumps({TRIALS: budget}))


def frontier_accuracy(points: pd.DataFrame, violation: np.ndarray | float) -> np.ndarray:
    """Return the frontier's accuracy at each violation: its points joined by straight lines.

    The points are joined in order of their violation, points of equal violation by their mean
    accuracy; beyond the least and the largest violation the frontier is flat.

    Parameters
    ----------
    points
        One frontier's points on one split: ``violation`` and ``accuracy`` (rows of
        :func:`frontier_points`).
    violation
        Where to read it.

    Returns
    -------
    numpy.ndarray
        The frontier's accuracy at each violation (NaN where the violation is NaN).
    """
    curve = points.groupby("violation")["accuracy"].mean()  # a NaN violation is no point
    x = np.asarray(violation, dtype=float)
    if curve.empty:
        return np.full(x.shape, np.nan)
    between = np.interp(x, curve.index, curve.to_numpy())
    on_a_point = curve.reindex(np.atleast_1d(x)).to_numpy().reshape(x.shape)  # exact there
    return np.where(np.isnan(x), np.nan, np.where(np.isnan(on_a_point), between, on_a_point))


def frontier_choice(points: pd.DataFrame) -> pd.DataFrame:
    """Return each frontier's unconstrained end: its test accuracy over splits, and the choice.

    Parameters
    ----------
    points
        :func:`frontier_points` of one dataset, attribute and variant.

    Returns
    -------
    pandas.DataFrame
        One row per frontier algorithm, the most accurate first: ``splits``, ``accuracy`` (the
        mean over splits of its unconstrained runs, or of all its points where no
        unconstrained run is stored), ``se`` (its standard error over splits; NaN with one)
        and ``chosen`` (True for the yardstick, the most accurate).
    """
    unconstrained = points[np.isinf(points["tolerance"])]
    chosen = unconstrained if len(unconstrained) else points  # its unconstrained runs failed
    by_split = chosen.groupby(["frontier", "split_id"])["accuracy"].mean()
    table = by_split.groupby(level="frontier").agg(["size", "mean", "sem"])
    table = table.set_axis(["splits", "accuracy", "se"], axis=1).sort_values(
        "accuracy", ascending=False, kind="stable"
    )
    return table.assign(chosen=np.arange(len(table)) == 0).rename_axis("frontier")


def best_frontier(points: pd.DataFrame) -> str:
    """Return the frontier algorithm whose unconstrained runs are the most accurate on average.

    Parameters
    ----------
    points
        :func:`frontier_points` of one dataset, attribute and variant.

    Returns
    -------
    str
        The algorithm's name (:func:`frontier_choice`).
    """
    return str(frontier_choice(points).index[0])


def equal_fairness(measures: pd.DataFrame) -> pd.DataFrame:
    """Return every other run's accuracy minus the best frontier's at the run's own violation.

    Parameters
    ----------
    measures
        Test measures (long form), with the ``unprocessed-*`` runs of each dataset, attribute
        and variant to compare.

    Returns
    -------
    pandas.DataFrame
        One row per run of an algorithm other than the frontiers and per constraint (a tuned
        run against the frontier tuned with its budget): the run's identifying columns,
        ``frontier``, ``constraint``, ``violation``, ``accuracy``, ``frontier_accuracy`` and
        ``difference``. Configurations without a frontier are left out.
    """
    points = frontier_points(measures)
    others = runs_wide(without_frontiers(measures))
    budgets = others["setting"].map(budget_of).astype(float)
    rows = []
    for (*where, budget), mine in points.groupby([*WHERE, "budget"], dropna=False):
        frontier = best_frontier(mine)
        mine = mine[mine["frontier"] == frontier]
        same = budgets.isna() if np.isnan(budget) else budgets == budget
        runs = others[(others[WHERE] == pd.Series(where, index=WHERE)).all(axis=1) & same]
        for (split, constraint), curve in mine.groupby(["split_id", "constraint"]):
            compared = runs[runs["split_id"] == split]
            if compared.empty:
                continue
            violation = compared[CONSTRAINT_MEASURES[constraint]].to_numpy(dtype=float)
            at_equal = frontier_accuracy(curve, violation)
            rows.append(
                compared[RUN].assign(
                    frontier=frontier,
                    constraint=constraint,
                    violation=violation,
                    accuracy=compared["accuracy"].to_numpy(),
                    frontier_accuracy=at_equal,
                    difference=compared["accuracy"].to_numpy() - at_equal,
                )
            )
    columns = [*RUN, "frontier", "constraint", "violation", "accuracy", "frontier_accuracy",
               "difference"]  # fmt: skip
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=columns)


def equal_fairness_table(
    measures: pd.DataFrame, validation: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Return each algorithm's mean difference at equal fairness, with its corrected interval.

    An algorithm is taken as the report shows it (its defaults, tuned for accuracy, or its
    grid pooled: :func:`~faircompare.analysis.tidy.representative`); its runs' differences
    are averaged per split, then over splits.

    Parameters
    ----------
    measures
        Test measures (long form) of one dataset, attribute and variant, frontier runs included.
    validation
        Validation measures of tuned runs, or None.

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (its label) and constraint: ``frontier``, ``splits``,
        ``difference`` (the mean), ``ci_low`` and ``ci_high`` (95%, NaN with one split),
        ``pvalue`` (corrected resampled t-test of a zero mean), ``holm`` (adjusted over the
        table's algorithms compared with one frontier, per constraint: a tuned study's budgets,
        each compared with the frontier of its budget, are families of their own), ``above``
        (the share of splits above the frontier) and ``verdict``: ``above``, ``below``
        (Holm-adjusted p < 0.05), ``on``, ``untested`` where fewer than two splits give a
        difference (the constraint's measure is undefined on test where a group lacks
        positives or negatives), or :data:`OWN_BASELINE` for the frontier's own baseline,
        whose fit is the frontier's unconstrained end: its difference is 0 by construction, so
        it has no interval and no test, and is left out of Holm's family.
    """
    differences = equal_fairness(measures)
    columns = ["algorithm", "constraint", "frontier", "splits", "difference", "ci_low",
               "ci_high", "pvalue", "holm", "above", "verdict"]  # fmt: skip
    if differences.empty:
        return pd.DataFrame(columns=columns)
    chosen = representative(without_frontiers(measures), validation).drop_duplicates("key")[
        ["key", "setting"]
    ]
    chosen_differences = differences.drop(columns="setting").merge(chosen, on="key")
    by_split = chosen_differences.groupby(
        ["algorithm", "setting", "constraint", "frontier", "split_id"]
    )["difference"].mean()
    rows = []
    for (algorithm, setting, constraint, frontier), values in by_split.groupby(level=[0, 1, 2, 3]):
        d, name = values.dropna().to_numpy(), label(algorithm, setting)
        tested = len(d) > 1 and not _is_own(name, frontier)  # the own: 0 by construction
        test = corrected_ttest(d) if tested else None
        rows.append({
            "algorithm": name,
            "constraint": constraint,
            "frontier": frontier,
            "splits": len(d),
            "difference": float(d.mean()) if len(d) else np.nan,
            "ci_low": test.interval[0] if test else np.nan,
            "ci_high": test.interval[1] if test else np.nan,
            "pvalue": test.pvalue if test else np.nan,
            "above": float(np.mean(d > 0)) if len(d) else np.nan,
        })  # fmt: skip
    table = pd.DataFrame(rows)
    own = _own_baseline(table)
    table["holm"] = np.nan
    for _, part in table.groupby(["constraint", "frontier"]):  # a budget's methods, its frontier's
        tested = part["pvalue"].notna()
        table.loc[part.index[tested], "holm"] = holm(part.loc[tested, "pvalue"])
    significant = table["holm"] < _ALPHA
    table["verdict"] = np.select(
        [own, significant & (table["difference"] > 0), significant & (table["difference"] < 0),
         table["pvalue"].isna()],
        [OWN_BASELINE, "above", "below", "untested"],
        "on",
    )  # fmt: skip
    return table[columns].sort_values(["constraint", "difference"], ascending=[True, False])


def _own_baseline(table: pd.DataFrame) -> pd.Series:
    """Whether each row is its frontier's own baseline, a budget's for its budget's frontier.

    ``gradient-boosting`` for ``unprocessed-gradient-boosting``.
    """
    pairs = zip(table["algorithm"], table["frontier"], strict=True)
    return pd.Series([_is_own(name, frontier) for name, frontier in pairs], index=table.index,
                     dtype=bool)  # fmt: skip


def _is_own(name: str, frontier: str) -> bool:
    """Whether an algorithm's name is the baseline ``frontier`` post-processes (its fit)."""
    return name == frontier.removeprefix(FRONTIER_PREFIX)


def caption(frontier: str, where: str) -> str:
    """Return the caption of an equal-fairness table: what its intervals and verdicts read.

    The interval is each algorithm's own (corrected resampled t, 95 %), the verdict Holm's over
    the table's algorithms: an interval that leaves out 0 can go with the verdict ``on`` (a
    difference of -0.036 [-0.062, -0.009], Holm p 0.059), and the caption says so.

    Parameters
    ----------
    frontier
        The frontier's algorithm.
    where
        The dataset, attribute and variant, as text.

    Returns
    -------
    str
        The caption.
    """
    return (
        f"Accuracy minus the frontier's ({frontier}) at equal fairness: mean over splits with "
        "its 95% interval (corrected resampled t, each algorithm's own, not adjusted for the "
        "table's several comparisons); share of splits above the frontier; verdict: above or "
        f"below where the Holm-adjusted p-value over the table's algorithms is below "
        f"{_ALPHA:g}, else on, so an interval that leaves out 0 can read on; "
        f"{OWN_BASELINE}: the baseline the frontier post-processes, its unconstrained end, "
        f"not compared: {where}"
    )


def equal_fairness_summary(tables: pd.DataFrame) -> pd.DataFrame:
    """Count, per constraint and configuration, the algorithms above, on and below the frontier.

    Parameters
    ----------
    tables
        :func:`equal_fairness_table` rows of several configurations, with their ``dataset``,
        ``sensitive_attribute`` and ``variant``.

    Returns
    -------
    pandas.DataFrame
        Indexed by constraint and configuration: ``algorithms`` compared, and how many are
        ``above`` (significantly, after Holm), ``on`` and ``below`` the frontier, and how many
        are ``untested`` (fewer than two splits with a difference).
    """
    verdicts = ["above", "on", "below", "untested"]
    counts = pd.crosstab(
        [tables["constraint"], *(tables[c] for c in WHERE)], tables["verdict"]
    ).reindex(columns=verdicts, fill_value=0)
    return counts.assign(algorithms=counts.sum(axis=1))[["algorithms", *verdicts]]


def findings(tables: pd.DataFrame, *, power: float = 0.8) -> pd.DataFrame:
    """Return, per configuration and constraint, who beat the yardstick, by how much, how surely.

    The yardstick's own baseline (``gradient-boosting`` for ``unprocessed-gradient-boosting``)
    is its frontier's unconstrained end, not an intervention: it is left out.

    Parameters
    ----------
    tables
        The tables of several configurations, as :func:`equal_fairness_summary` reads them.
    power
        The chance of detecting the difference stated as ``detectable``.

    Returns
    -------
    pandas.DataFrame
        One row per configuration (:data:`~faircompare.analysis.tidy.WHERE`) and constraint:
        ``compared`` (algorithms with a test), ``above`` and ``below`` (how many the
        Holm-adjusted test puts above and below the frontier), ``above by`` (each above, with
        its mean difference and 95 % interval), ``closest`` (the algorithm with the highest
        mean difference, with its interval and verdict), and ``detectable`` (the median over
        the algorithms of the smallest difference their corrected t-test detects with
        ``power`` at 5 %, before Holm's adjustment:
        :func:`~faircompare.analysis.compare.detectable_difference`).
    """
    tested = tables[~_own_baseline(tables) & tables["ci_high"].notna()]
    rows = []
    for (*where, constraint), part in tested.groupby([*WHERE, "constraint"], sort=False):
        half = part["ci_high"] - part["difference"]
        detectable = detectable_difference(half, part["splits"], power=power)
        above = part[part["verdict"] == "above"]
        closest = part.loc[part["difference"].idxmax()]
        rows.append({
            **dict(zip(WHERE, where, strict=True)),
            "constraint": constraint,
            "compared": len(part),
            "above": len(above),
            "below": int((part["verdict"] == "below").sum()),
            "above by": "; ".join(_difference(row) for _, row in above.iterrows()) or "none",
            "closest": f"{_difference(closest)}, {closest['verdict']}",
            "detectable": float(np.median(detectable)),
        })  # fmt: skip
    return pd.DataFrame(rows)


def most_accurate(
    measures: pd.DataFrame,
    validation: pd.DataFrame | None = None,
    levels: tuple[float, ...] = FAIRNESS_LEVELS,
    *,
    excluded: Collection[str] = (),
    only: Collection[str] | None = None,
) -> pd.DataFrame:
    """Return, per configuration, constraint and level, the most accurate intervention there.

    An intervention is taken as the report shows it (:func:`~.tidy.representative`), its
    runs averaged per split, then over splits; it is at a level when its mean violation of the
    constraint (``demographic_parity_difference``, ``equalized_odds_difference``) is at most
    the level. The frontiers, a yardstick, are never named; beside each intervention named
    stands the yardstick's most accurate mean at a violation at most the level (the best
    frontier's, :func:`frontier_accuracy` on each split, averaged: the most accurate the
    yardstick is that fair, as the intervention is the most accurate that fair).

    Parameters
    ----------
    measures
        Test measures (long form) of one or more configurations.
    validation
        Validation measures of tuned runs, or None.
    levels
        The violations at most which the most accurate intervention is named.
    excluded
        Keys of runs that are no result (a constant classifier's: :mod:`.flags`), left out.
    only
        The algorithms that may be named (the interventions, say, without the baselines);
        None: every one but the frontiers.

    Returns
    -------
    pandas.DataFrame
        One row per configuration (:data:`~.tidy.WHERE`), constraint and ``level``:
        ``algorithm`` (empty where none is that fair), its ``accuracy`` with its corrected 95 %
        interval (``ci_low``, ``ci_high``, cut at 0 and 1), its mean ``violation``,
        ``candidates`` (how many interventions are at the level), ``tied`` (how many of the
        other candidates it is not told apart from: :func:`tied_with`) and ``yardstick`` (the
        yardstick's most accurate mean at the level; NaN where no frontier ran).
    """
    others = without_frontiers(measures)
    if only is not None:
        others = others[others["algorithm"].isin(list(only))]
    chosen = representative(others, validation)
    wide = runs_wide(chosen[~chosen["key"].isin(excluded)])
    wide = wide.assign(name=[label(a, s) for a, s in zip(wide["algorithm"], wide["setting"],
                                                         strict=True)])  # fmt: skip
    yardsticks = _yardstick_at(frontier_points(measures), levels)
    rows = []
    for where, part in wide.groupby(WHERE):
        for constraint, measure in CONSTRAINT_MEASURES.items():
            if measure not in part:
                continue
            by_split = part.groupby(["name", "split_id"])[["accuracy", measure]].mean()
            means = by_split.groupby(level="name").mean()
            for level in levels:
                fair = means[means[measure] <= level]
                yardstick = yardsticks.get((*where, constraint, level), np.nan)
                row = {**dict(zip(WHERE, where, strict=True)), "constraint": constraint,
                       "level": level, "candidates": len(fair), "algorithm": "",
                       "yardstick": yardstick}  # fmt: skip
                if len(fair):
                    name = fair["accuracy"].idxmax()
                    accuracy = by_split.loc[name, "accuracy"].dropna().to_numpy()
                    test = corrected_ttest(accuracy) if len(accuracy) > 1 else None
                    cut = np.clip(test.interval, *_ACCURACY_BOUNDS) if test else (np.nan, np.nan)
                    row |= {"algorithm": name, "accuracy": float(accuracy.mean()),
                            "ci_low": cut[0], "ci_high": cut[1],
                            "violation": float(fair.loc[name, measure]),
                            "tied": tied_with(by_split["accuracy"], name, fair.index)}  # fmt: skip
                rows.append(row)
    columns = [*WHERE, "constraint", "level", "algorithm", "accuracy", "ci_low", "ci_high",
               "violation", "candidates", "tied", "yardstick"]  # fmt: skip
    return pd.DataFrame(rows).reindex(columns=columns).astype({"tied": "Int64"})


def tied_with(accuracy: pd.Series, best: str, candidates: Collection[str]) -> int:
    """Return how many of the other candidates the splits do not tell apart from ``best``.

    Each is compared with ``best`` by the corrected resampled t-test of their accuracy
    differences over the splits both ran (Nadeau & Bengio 2003), Holm-adjusted over the
    candidates; one with an adjusted p-value of at least 0.05, or fewer than two shared
    splits, is tied with it. 0 of several candidates says a test decides ``best`` is the most
    accurate.

    Parameters
    ----------
    accuracy
        Accuracy by ``name`` and ``split_id`` (a two-level index).
    best
        The candidate of the highest mean accuracy.
    candidates
        The candidates, ``best`` among them.

    Returns
    -------
    int
        The number of candidates tied with ``best``.
    """
    mine = accuracy.loc[best]
    pvalues = []
    for rival in (c for c in candidates if c != best):
        differences = (mine - accuracy.loc[rival]).dropna().to_numpy()
        pvalues.append(corrected_ttest(differences).pvalue if len(differences) > 1 else np.nan)
    adjusted = holm(pvalues)  # an untested rival is left out of the family, and tied
    return int((np.isnan(adjusted) | (adjusted >= _ALPHA)).sum())


def _yardstick_at(
    points: pd.DataFrame, levels: tuple[float, ...]
) -> dict[tuple[object, ...], float]:
    """Return the yardstick's best mean accuracy at a violation at most each level.

    The yardstick of a configuration is its best frontier at its parameters (a tuned
    study's budgets have frontiers of their own, compared with their own budget's runs),
    read on each split (:func:`frontier_accuracy`) and averaged over splits; at a level, the
    most accurate it is at any violation up to the level, as the interventions beside it are
    chosen. Its points are measured on test rows, so its mean curve need not rise everywhere:
    read at the level alone, it could be less accurate at a looser level than at a stricter.
    """
    at_parameters = points[points["budget"].isna()]
    found: dict[tuple[object, ...], float] = {}
    for where, mine in at_parameters.groupby(WHERE):
        curves = mine[mine["frontier"] == best_frontier(mine)]
        for constraint, curve in curves.groupby("constraint"):
            at = np.union1d(curve["violation"].dropna().to_numpy(), levels)  # its corners
            mean = np.mean([frontier_accuracy(split, at)
                            for _, split in curve.groupby("split_id")], axis=0)  # fmt: skip
            best = np.fmax.accumulate(mean)  # the most accurate at a violation at most each
            for level in levels:
                found[(*where, constraint, level)] = float(best[np.searchsorted(at, level)])
    return found


def _difference(row: pd.Series) -> str:
    """``kamishima +0.012 [0.004, 0.020]``: an algorithm's mean difference and its interval.

    The interval is shown within [-1, 1], where a difference of accuracies lies (two splits'
    t interval can run past it); the table keeps it whole, its half-width giving the
    detectable difference.
    """
    least, most = _ACCURACY_BOUNDS
    low, high = max(row["ci_low"], least - most), min(row["ci_high"], most - least)
    return f"{row['algorithm']} {row['difference']:+.3f} [{low:.3f}, {high:.3f}]"


def above_in_every_split(tables: pd.DataFrame) -> pd.DataFrame:
    """Return the algorithms above the frontier in every split: findings, whatever their test.

    Parameters
    ----------
    tables
        The tables of several configurations, as :func:`equal_fairness_summary` reads them.

    Returns
    -------
    pandas.DataFrame
        The rows of algorithms compared on at least two splits and above the frontier in each,
        the largest difference first.
    """
    every = (tables["above"] == 1) & (tables["splits"] > 1)
    return tables[every].sort_values("difference", ascending=False)


def accuracy_limits(points: pd.DataFrame, runs: pd.DataFrame) -> tuple[float, float]:
    """Return the lowest and highest accuracy an equal-fairness panel shows.

    The floor is twice the span from the frontier's lowest point to the highest accuracy, below
    that point (at least 0.04 below it): the frontier and the runs that compare with it fill the
    axis. The lowest accuracy sets the floor where it is higher. A run below the floor (naive
    Bayes at 0.38 where the frontier is at 0.82) is drawn at the bottom edge.

    Parameters
    ----------
    points
        The frontier's points (:func:`frontier_points`).
    runs
        The other runs, with ``accuracy`` (:func:`equal_fairness`).

    Returns
    -------
    tuple of float
        The floor and the top of the accuracy axis.
    """
    frontier = points["accuracy"].dropna()
    accuracies = pd.concat([frontier, runs["accuracy"]]).dropna()
    if accuracies.empty:
        return 0.0, 0.0
    lowest, top = float(accuracies.min()), float(accuracies.max())
    if frontier.empty:
        return lowest, top
    reach = frontier.min() - 2 * max(top - frontier.min(), 0.02)
    return float(max(reach, lowest)), top
