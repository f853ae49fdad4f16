"""Tidy analyses of stored results: pure functions from the store's frames to DataFrames.

They follow Friedler et al. (2019): measure correlations across runs (§6.3, with the balanced
re-sample), stability over splits (§7.1), fairness-accuracy tradeoffs with their Pareto front,
the numerical against numerical+binary comparison (§5.1), parameter sweeps (§7.2), and the audit
outcomes of every configuration. Inputs are the long frames of the store's ``measures()`` and
``audits()``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection, Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from faircompare._validation import check_choice
from faircompare.analysis.tuning import tuned_measures
from faircompare.datasets import get_spec
from faircompare.exceptions import ChoiceError
from faircompare.measures import MEASURES, UndefinedMeasureWarning, measure_rows
from faircompare.records import DEFAULTS, POOLED, TRIALS, TUNED
from faircompare.results import ResultStore, audit_details
from faircompare.stats.individual import MONTE_CARLO_Z, NEAR_CERTAIN_SHARE
from faircompare.stats.multitest import holm

__all__ = [
    "ADJUSTMENTS",
    "RETUNED_SUFFIX",
    "SETTING_SUFFIXES",
    "algorithm_of",
    "audit_outcomes",
    "balanced_measures",
    "budget_of",
    "budgets_run",
    "correlation_matrix",
    "degenerate_runs",
    "group_names",
    "group_outcomes",
    "individual_statistics",
    "is_degenerate",
    "label",
    "labelled",
    "measure_correlations",
    "monte_carlo_errors",
    "parameter_sweep",
    "permutation_verdicts",
    "pooled_audits",
    "preprocessing_comparison",
    "representative",
    "runs_wide",
    "shown_settings",
    "stability",
    "tradeoff",
]

#: What :func:`permutation_verdicts` adjusts together: each family of a run's tests (its pooled
#: tests; each metric's comparisons of the groups), or every test of a run.
ADJUSTMENTS = ("family", "run")

WHERE = ["dataset", "sensitive_attribute", "variant"]  # one configuration of a study
CONFIGURATION = [*WHERE, "algorithm", "setting"]
RUN = ["key", *CONFIGURATION, "split_id"]


DEGENERATE = "DegeneratePredictionsWarning: "  # the stored warning of a degenerate run


def degenerate_runs(runs: pd.DataFrame, measures: pd.DataFrame) -> pd.DataFrame:
    """Return the done runs that predict one class for every test row, overall or in a group.

    Such a run is done, not failed, and its measures are stored, but those that divide by its
    predicted positives or negatives are undefined (NaN), and a constant classifier's defined
    ones (an accuracy at the base rate, a BCR of 0.5) are not an intervention's results. A run
    is degenerate when its stored warnings say so
    (:class:`~faircompare.exceptions.DegeneratePredictionsWarning`).

    Parameters
    ----------
    runs
        The store's runs (:meth:`~faircompare.results.ResultStore.runs`).
    measures
        The store's long measures frame, for the measures each run leaves undefined.

    Returns
    -------
    pandas.DataFrame
        One row per degenerate run: its configuration, split, ``predicts`` (what it predicts
        where) and ``undefined`` (its aggregate measures that are NaN).
    """
    done = runs[runs["status"] == "done"]
    predicts = _one_class(done).dropna().str.removeprefix(DEGENERATE)
    degenerate = done.loc[predicts.index]
    named = [
        _name_groups(text, group_names(*where))
        for text, where in zip(predicts, degenerate[WHERE].itertuples(index=False), strict=True)
    ]
    degenerate = degenerate.assign(predicts=named)
    aggregate = measures[(measures["group"] == "") & measures["value"].isna()]
    undefined = aggregate.groupby("key")["measure"].agg(lambda names: ", ".join(sorted(names)))
    degenerate = degenerate.assign(undefined=[undefined.get(key, "") for key in degenerate["key"]])
    columns = ["dataset", "sensitive_attribute", "variant", "algorithm", "params", "split_id"]
    return degenerate[[*columns, "predicts", "undefined"]].reset_index(drop=True)


def group_names(dataset: str, attribute: str, variant: str) -> dict[str, str]:
    """Return the names of a configuration's group codes, where its groups are coded.

    ``numerical+binary`` codes the privileged value 1 and every other value 0; the other
    variants keep the values, which name themselves.

    Parameters
    ----------
    dataset, attribute, variant
        The configuration.

    Returns
    -------
    dict
        ``{"1": "Male", "0": "not Male"}`` for a built-in dataset in ``numerical+binary``;
        empty otherwise (a dataset of your own keeps its codes).
    """
    if variant != "numerical+binary":
        return {}
    try:
        privileged = get_spec(dataset).privileged_value(attribute)
    except (ChoiceError, KeyError):  # not a built-in dataset, or not one of its attributes
        return {}
    return {"1": str(privileged), "0": f"not {privileged}"}


def _name_groups(text: str, names: dict[str, str]) -> str:
    """Name each coded group of a degenerate run's text: ``group 0`` -> ``group 0 (not Male)``."""
    for code, name in names.items():
        text = text.replace(f"group {code}:", f"group {code} ({name}):")
    return text


def is_degenerate(runs: pd.DataFrame) -> pd.Series:
    """Return whether each run predicts one class for every test row, overall or in a group.

    Parameters
    ----------
    runs
        The store's runs (:meth:`~faircompare.results.ResultStore.runs`), or some of them.

    Returns
    -------
    pandas.Series
        Booleans, indexed as ``runs``: what :func:`degenerate_runs` lists.
    """
    return (runs["status"] == "done") & _one_class(runs).notna()


def _one_class(runs: pd.DataFrame) -> pd.Series:
    """Each run's stored warning that it predicts one class, or None."""
    notes = runs["warnings"].map(lambda text: json.loads(text or "[]"))
    return notes.map(lambda found: next((w for w in found if w.startswith(DEGENERATE)), None))


UNDEFINED = "UndefinedMeasureWarning: "  # the stored warning of a measure left NaN


def undefined_reasons(runs: pd.DataFrame) -> dict[str, str]:
    """Return why each measure some of ``runs`` leave undefined is undefined, from their warnings.

    Parameters
    ----------
    runs
        Runs of the store (:meth:`~faircompare.results.ResultStore.runs`), with their stored
        ``warnings``.

    Returns
    -------
    dict
        ``{measure: reason}``: the first run's reason, "for group '0' (no positives (Y = 1))",
        and how many runs gave a reason ("and 4 more runs").
    """
    reasons: dict[str, list[str]] = {}
    for text in runs["warnings"].dropna():
        for note in json.loads(text or "[]"):
            if note.startswith(UNDEFINED) and " is undefined " in note:
                measure, _, why = note.removeprefix(UNDEFINED).partition(" is undefined ")
                reasons.setdefault(measure, []).append(why.removesuffix("; its value is NaN"))
    return {
        measure: found[0] + (f", and {len(found) - 1} more runs" if len(found) > 1 else "")
        for measure, found in reasons.items()
    }


def runs_wide(measures: pd.DataFrame) -> pd.DataFrame:
    """Pivot to one row per run and one column per aggregate measure (per-group values left out).

    Parameters
    ----------
    measures
        The store's long measures frame (``ResultStore.measures()``), or part of it.

    Returns
    -------
    pandas.DataFrame
        The runs' identifying columns and a column per aggregate measure.
    """
    aggregate = measures[measures["group"] == ""]
    wide = aggregate.pivot(index=RUN, columns="measure", values="value")
    return wide.rename_axis(columns=None).reset_index()


def representative(measures: pd.DataFrame, validation: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return one setting per algorithm, as Friedler et al. report them (§7).

    An algorithm's runs with default parameters (setting ``"defaults"``); for an algorithm run
    only over its grid, the parameters tuned for accuracy on validation data per split (setting
    :data:`TUNED`) when its runs were tuned, else all its grid runs together (:data:`POOLED`:
    Calders' one-point grid is never tuned, even beside algorithms that are). A tuned run's
    budget is a setting of its own (``{"trials": 10}``), as its runs are (a frontier's
    points, tuned, left out as they are untuned).
    Each run keeps its own ``params``; :func:`label` names a setting for figures and tables.
    Each dataset, attribute and variant is chosen for on its own: an algorithm run with its
    defaults in one of them and over its grid in another is shown as each was run.

    Parameters
    ----------
    measures
        Test measures, long form.
    validation
        Validation measures of tuned runs (the store's, or those of ``measures``' runs); None
        or none of them: grid runs are pooled.

    Returns
    -------
    pandas.DataFrame
        The chosen runs' measures, their ``setting`` column saying how each was chosen.
    """
    tuning = {} if validation is None else dict(iter(validation.groupby(WHERE, sort=False)))
    parts = [
        _representative(part, tuning.get(where))
        for where, part in measures.groupby(WHERE, sort=False, dropna=False)
    ]
    if len(parts) == 1:
        return parts[0]
    return pd.concat(parts, ignore_index=True) if parts else measures.iloc[:0]


def _representative(measures: pd.DataFrame, validation: pd.DataFrame | None) -> pd.DataFrame:
    """:func:`representative` of one dataset, attribute and variant."""
    budgets = measures["setting"].map(budget_of)
    if budgets.notna().any():  # each budget a setting of its own, a frontier's points left out
        searched = [json.dumps({TRIALS: int(b)}) if pd.notna(b) else None for b in budgets]
        tuned = measures[measures["setting"] == pd.Series(searched, index=measures.index)]
        return pd.concat([_representative(measures[budgets.isna()], validation), tuned],
                         ignore_index=True)  # fmt: skip
    defaults = measures[measures["setting"] == DEFAULTS]
    swept = measures[~measures["algorithm"].isin(defaults["algorithm"].unique())]
    if swept.empty:
        return defaults
    tuned = tuned_measures(swept, validation, "accuracy") if validation is not None else None
    tuned = swept.iloc[:0] if tuned is None else tuned[measures.columns]
    pooled = swept[~swept["algorithm"].isin(tuned["algorithm"].unique())]
    chosen = [defaults, tuned.assign(setting=TUNED), pooled.assign(setting=POOLED)]
    return pd.concat(chosen, ignore_index=True)


#: The ending :func:`label` gives an algorithm's name in each setting it chooses (the
#: paper's ``-accuracy`` for tuned; a grid point's name ends in its parameters).
SETTING_SUFFIXES = {DEFAULTS: "", TUNED: "-accuracy", POOLED: " (grid)"}
#: Tuned for accuracy, after a name that ends in ``-accuracy`` already (Zafar's method).
RETUNED_SUFFIX = " (tuned)"


def label(algorithm: str, setting: str) -> str:
    """Return the name figures and tables give an algorithm in a setting (the paper's names).

    Parameters
    ----------
    algorithm
        The algorithm's registry name.
    setting
        ``"defaults"``, :data:`TUNED`, :data:`POOLED`, or a grid point's parameters.

    Returns
    -------
    str
        ``kamishima``, ``kamishima-accuracy`` (tuned for accuracy, as the paper names it;
        ``zafar-accuracy (tuned)`` for a name that ends so already), ``kamishima (grid)``,
        ``kamishima {"eta": 30.0}``, or ``kamishima (10 trials)`` (a tuned run's,
        :attr:`~faircompare.records.RunSpec.budget`).
    """
    if (trials := budget_of(setting)) is not None:
        kept = {n: v for n, v in json.loads(setting).items() if n != TRIALS}
        shown = f" {json.dumps(kept)}" if kept else ""
        return f"{algorithm}{shown} ({trials} trial{'s' if trials != 1 else ''})"
    if setting == TUNED and algorithm.endswith(SETTING_SUFFIXES[TUNED]):
        return algorithm + RETUNED_SUFFIX
    return algorithm + SETTING_SUFFIXES.get(setting, f" {setting}")


def algorithm_of(algorithms: Iterable[str], budgets: Iterable[int] = ()) -> dict[str, str]:
    """Return the algorithm each name of a representative setting names.

    :func:`~faircompare.analysis.tidy.representative` shows an algorithm with its defaults,
    tuned for accuracy (``kamishima-accuracy``) or its grid pooled (``calders (grid)``); each
    of those names maps back to the algorithm, whose label a selection gives (also
    ``faircompare.analysis.selection.algorithm_of``).

    Parameters
    ----------
    algorithms
        The algorithms (registry names).
    budgets
        The study's tuning budgets (:func:`~faircompare.analysis.tidy.budgets_run`): a tuned
        run's name (``kamishima (10 trials)``) maps back to its algorithm too.

    Returns
    -------
    dict
        ``{name of a setting: algorithm}``.
    """
    settings = shown_settings(budgets)
    return {label(a, s): a for a in sorted(set(algorithms)) for s in settings}


def shown_settings(budgets: Iterable[int] = ()) -> tuple[str, ...]:
    """Return every setting the report shows an algorithm in (:func:`representative`).

    Parameters
    ----------
    budgets
        The study's tuning budgets (:func:`budgets_run`).

    Returns
    -------
    tuple of str
        Its defaults, tuned for accuracy, its grid pooled, and tuned with each budget: what
        :func:`label` names the algorithm by in a figure or a table.
    """
    tuned = (json.dumps({TRIALS: int(budget)}) for budget in budgets)
    return (DEFAULTS, TUNED, POOLED, *tuned)


def budgets_run(measures: pd.DataFrame) -> list[int]:
    """Return the tuning budgets a study's runs were tuned with, in increasing order.

    Parameters
    ----------
    measures
        Long measures (their ``setting`` column).

    Returns
    -------
    list of int
        Empty for a study without tuned runs.
    """
    budgets = measures["setting"].drop_duplicates().map(budget_of).dropna()
    return sorted({int(budget) for budget in budgets})


def budget_of(setting: str) -> int | None:
    """Return a tuned run's budget from its setting, or None for a run at its parameters.

    Parameters
    ----------
    setting
        A run's setting (:func:`~faircompare.results.store.setting`).

    Returns
    -------
    int or None
        The ``trials`` of a tuned run's setting (``{"trials": 10}``: 10).
    """
    if not setting.startswith("{") or f'"{TRIALS}"' not in setting:
        return None
    budget = json.loads(setting).get(TRIALS)
    return int(budget) if budget is not None else None


def labelled(frame: pd.DataFrame) -> pd.DataFrame:
    """Return ``frame`` with ``algorithm`` replaced by its :func:`label`, for display.

    Parameters
    ----------
    frame
        Any frame with ``algorithm`` and ``setting`` columns.

    Returns
    -------
    pandas.DataFrame
        A copy whose ``algorithm`` holds the labels.
    """
    names = [label(a, s) for a, s in zip(frame["algorithm"], frame["setting"], strict=True)]
    return frame.assign(algorithm=names)


def measure_correlations(
    measures: pd.DataFrame,
    *,
    method: str = "pearson",
    by: Sequence[str] = ("dataset", "variant"),
    names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Correlate measures across runs (Friedler et al. §6.3, Fig. 3).

    Parameters
    ----------
    measures
        Long measures frame.
    method
        ``"pearson"`` or ``"spearman"``.
    by
        Columns to compute separate correlations for; ``()`` pools every run.
    names
        Measures to correlate; default every aggregate measure.

    Returns
    -------
    pandas.DataFrame
        Columns ``by...``, ``measure_a``, ``measure_b`` and ``correlation``.
    """
    wide = runs_wide(measures)
    names = list(names) if names is not None else sorted(set(wide.columns) - set(RUN))
    groups = wide.groupby(list(by)) if by else [((), wide)]
    frames = []
    for key, part in groups:
        matrix = part[names].corr(method=method)
        long = matrix.rename_axis(index="measure_a", columns="measure_b").stack()
        frame = long.rename("correlation").reset_index()
        for column, value in zip(by, key if isinstance(key, tuple) else (key,), strict=True):
            frame.insert(0, column, value)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def correlation_matrix(correlations: pd.DataFrame) -> pd.DataFrame:
    """Pivot one group of :func:`measure_correlations` into its square matrix.

    Parameters
    ----------
    correlations
        One group's rows of :func:`measure_correlations`.

    Returns
    -------
    pandas.DataFrame
        Measures by measures, symmetric, the diagonal 1.
    """
    return correlations.pivot(index="measure_a", columns="measure_b", values="correlation")


def balanced_measures(
    store: ResultStore, *, size: int = 1000, rng: np.random.Generator | int | None = 0
) -> pd.DataFrame:
    """Compute every run's measures on a balanced re-sample of its test predictions (§6.3).

    Each run's test rows are drawn with replacement into ``size`` rows: half positive and half
    negative labels, and within each half, half privileged and half not. Runs whose test split
    lacks one of the four cells are left out.

    Parameters
    ----------
    store
        The results store.
    size
        Rows of each re-sample.
    rng
        Seed or generator of the re-samples.

    Returns
    -------
    pandas.DataFrame
        A long measures frame, like the store's; empty where no run has the four cells.
    """
    rng = np.random.default_rng(rng)
    runs = store.runs().query("status == 'done'")
    values: list[tuple[str, str, float]] = []
    owners: list[int] = []  # each value's run, by its row in ``runs``
    for run in runs.itertuples():
        stored = store.predictions(run.key)
        privileged = stored.sensitive_features == stored.privileged
        cells = [
            np.flatnonzero((stored.y_true == y) & (privileged == p))
            for y in (1, 0)
            for p in (True, False)
        ]
        if min(len(c) for c in cells) == 0:
            continue
        rows = np.concatenate([rng.choice(c, size // 4) for c in cells])
        scores = None if stored.scores is None else stored.scores[rows]
        with warnings.catch_warnings():  # undefined measures are NaN, as in the store
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            computed = measure_rows(
                stored.y_true[rows], stored.y_pred[rows], stored.sensitive_features[rows],
                privileged=stored.privileged, scores=scores,
            )  # fmt: skip
        values += [(row.measure, row.group, row.value) for row in computed]  # one frame at the end
        owners += [run.Index] * len(computed)
    columns = [*RUN, "measure", "group", "value"]
    if not values:  # no run's test split has the four cells
        return pd.DataFrame(columns=columns)
    identity = runs.loc[owners, RUN].reset_index(drop=True)  # each run's columns, once a row
    computed_frame = pd.DataFrame(values, columns=["measure", "group", "value"])
    return pd.concat([identity, computed_frame], axis=1)[columns]


def stability(
    measures: pd.DataFrame,
    names: Sequence[str] = ("accuracy", "DIbinary", "CV"),
    *,
    confidence: float = 0.95,
    test_to_train: float = 0.0,
) -> pd.DataFrame:
    """Summarise each measure over splits: mean, standard deviation and a t interval (§7.1, Fig. 7).

    Parameters
    ----------
    measures
        The store's long measures frame (``ResultStore.measures()``), or part of it.
    names
        The measures summarised.
    confidence
        The confidence level of the t interval.
    test_to_train
        n_test / n_train of the splits: the interval's variance of the mean is then
        sd^2 (1/J + n_test/n_train) over J splits, Nadeau and Bengio's correction for the
        overlap of the training sets (1/2 for the benchmark's 2/3 : 1/3 splits,
        :data:`~faircompare.analysis.compare.TEST_TO_TRAIN`); 0, the default, is the plain t
        interval of splits taken as independent.

    Returns
    -------
    pandas.DataFrame
        One row per configuration and measure: ``splits``, ``mean``, ``sd``, ``ci_low``,
        ``ci_high`` (the interval cut to the measure's bounds, an accuracy's at 1: the mean
        lies within them, so the cut interval covers it as often).
    """
    wide = runs_wide(measures)
    long = wide.melt(id_vars=RUN, value_vars=list(names), var_name="measure")
    summary = (
        long.groupby([*CONFIGURATION, "measure"])["value"]
        .agg(splits="count", mean="mean", sd="std")
        .reset_index()
    )
    half = stats.t.ppf(0.5 + confidence / 2, (summary["splits"] - 1).clip(lower=1))
    half = half * summary["sd"] * np.sqrt(1 / summary["splits"] + test_to_train)
    unknown = (-np.inf, np.inf)  # a measure of no catalogue entry: no bounds known
    low, high = np.array([MEASURES[m].bounds if m in MEASURES else unknown
                          for m in summary["measure"]]).reshape(-1, 2).T  # fmt: skip
    return summary.assign(ci_low=np.maximum(summary["mean"] - half, low),
                          ci_high=np.minimum(summary["mean"] + half, high))  # fmt: skip


def tradeoff(
    measures: pd.DataFrame,
    audits: pd.DataFrame,
    *,
    accuracy: str = "accuracy",
    fairness: str = "DIbinary",
    audit_metric: str = "positive_rate",
    alpha: float = 0.05,
    excluded: Collection[str] = (),
) -> pd.DataFrame:
    """Pair accuracy with a fairness measure per run, with significance and the Pareto front.

    ``gap`` is the fairness measure's distance from its ideal value, on a bounded scale for a
    ratio such as DI (:meth:`faircompare.measures.Measure.gap`: 1 - min(DI, 1/DI));
    ``significant`` says whether the run's permutation test of ``audit_metric`` (demographic
    parity by default) rejects after Holm's correction across the run's tests; ``pareto`` marks
    the runs that no other run of the same dataset, attribute and variant beats on both
    accuracy and gap.

    Parameters
    ----------
    measures
        The store's long measures frame (``ResultStore.measures()``), or part of it.
    audits
        The store's long audits frame (``ResultStore.audits()``), or part of it.
    accuracy, fairness
        The measures on the two axes.
    audit_metric
        The permutation test's metric that decides ``significant``.
    alpha
        The level of the tests.
    excluded
        Keys of runs that may not be on the front: runs whose measures are no result (a
        ratio over few events, one class predicted: :mod:`faircompare.analysis.flags`).

    Returns
    -------
    pandas.DataFrame
        One row per run: its identifying columns, ``accuracy``, ``fairness``, ``gap``,
        ``significant`` and ``pareto`` (False for an excluded run).
    """
    wide = runs_wide(measures)
    frame = wide[[*RUN, accuracy, fairness]].rename(
        columns={accuracy: "accuracy", fairness: "fairness"}
    )
    frame["gap"] = MEASURES[fairness].gap(frame["fairness"])
    tests = pooled_audits(audits)
    tests = tests[(tests["audit"] == "permutation") & (tests["metric"] == audit_metric)]
    holm = tests.set_index("key")["adjusted_pvalue"]
    frame["significant"] = frame["key"].map(holm.astype(float) < alpha).eq(True)  # NaN: no test
    frame["pareto"] = False
    eligible = frame[~frame["key"].isin(list(excluded))]
    for _, part in eligible.groupby(WHERE):
        frame.loc[part.index, "pareto"] = _non_dominated(part)
    return frame


def _non_dominated(points: pd.DataFrame) -> pd.Series:
    """Whether each row has no other row with accuracy >= and gap <=, one of them strictly."""
    accuracy, gap = points["accuracy"].to_numpy(), points["gap"].to_numpy()
    at_least = (accuracy[None, :] >= accuracy[:, None]) & (gap[None, :] <= gap[:, None])
    better = (accuracy[None, :] > accuracy[:, None]) | (gap[None, :] < gap[:, None])
    dominated = (at_least & better).any(axis=1)
    return pd.Series(~dominated & ~np.isnan(accuracy) & ~np.isnan(gap), index=points.index)


def preprocessing_comparison(measures: pd.DataFrame, measure: str = "accuracy") -> pd.DataFrame:
    """Pair a measure under the numerical and numerical+binary variants, split by split (§5.1).

    Parameters
    ----------
    measures
        The store's long measures frame (``ResultStore.measures()``), or part of it.
    measure
        The measure compared.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, attribute, algorithm, setting, split) run under both variants,
        with columns ``numerical`` and ``numerical+binary``.
    """
    wide = runs_wide(measures)
    variants = wide[wide["variant"].isin(["numerical", "numerical+binary"])]
    keys = ["dataset", "sensitive_attribute", "algorithm", "setting", "split_id"]
    paired = variants.pivot_table(index=keys, columns="variant", values=measure, dropna=False)
    paired = paired.reindex(columns=["numerical", "numerical+binary"])
    return paired.dropna().rename_axis(columns=None).reset_index()


def pooled_audits(audits: pd.DataFrame) -> pd.DataFrame:
    """Return the audit rows about the unprivileged groups together, without per-group rows.

    Parameters
    ----------
    audits
        The store's audits.

    Returns
    -------
    pandas.DataFrame
        Every row but the permutation and FlipTest rows of single groups of a many-group
        attribute (see :func:`group_outcomes`): one row per run, audit and metric.
    """
    return audits[~_group_rows(audits)]


def _group_rows(audits: pd.DataFrame) -> pd.Series:
    """Whether each audit row is about one group of a many-group attribute."""
    pooled = {"permutation": "rest", "fliptest": "unprivileged"}
    return audits["audit"].isin(pooled) & (audits["scope"] != audits["audit"].map(pooled))


def group_outcomes(
    audits: pd.DataFrame, *, alpha: float = 0.05, adjustment: str = "family"
) -> pd.DataFrame:
    """Return the audit outcomes of each group of a many-group attribute, per configuration.

    The permutation audit compares each group with the privileged one
    (:func:`faircompare.audits.permutation.group_audit`): the share of splits where its max-T
    adjusted p-value is below ``alpha``, among those whose Monte Carlo interval does not hold
    ``alpha``; ``permutation undecided`` is the share of the group's tests whose interval holds
    it. FlipTest maps each group onto the privileged one: the mean rates of F+ and F-. A group
    too small for an audit keeps its row, with the reason.

    Parameters
    ----------
    audits
        The store's long audits frame (``ResultStore.audits()``), or part of it: its runs'
        pooled rows too, for ``adjustment="run"``.
    alpha
        The level of the tests.
    adjustment
        Which tests are adjusted together (:data:`ADJUSTMENTS`, :func:`permutation_verdicts`).

    Returns
    -------
    pandas.DataFrame
        One row per configuration and group: its test rows (``size``, the mean over splits),
        a column per outcome, and ``note``; empty without many-group attributes.
    """
    rows = audits[_group_rows(audits)]
    if rows.empty:
        return pd.DataFrame()
    verdicts = permutation_verdicts(
        audits[audits["audit"] == "permutation"], alpha=alpha, adjustment=adjustment
    ).reindex(rows.index)
    flip = rows["audit"] == "fliptest"
    details = rows["details"]
    tested = rows["statistic"].notna() & ~flip
    # a max-T verdict is open where its adjusted p-value's Monte Carlo interval holds alpha
    undecided = (verdicts == "undecided") & tested
    rejects = (verdicts == "reject").astype(float).where(rows["statistic"].notna() & ~undecided)
    frame = rows.assign(
        outcome=np.where(flip, "FlipTest " + rows["metric"] + " rate", rows["metric"]),
        value=np.where(flip, rows["statistic"], rejects),
        # a permutation row's size is its group's test rows (a FlipTest row's, its flipset's)
        size=details.map(lambda d: d.get("size", np.nan)).where(~flip).astype(float),
        note=details.map(lambda d: d.get("error", "")),
    )
    open_ = frame[tested].assign(outcome="permutation undecided", value=undecided[tested] * 1.0)
    frame = pd.concat([frame, open_])
    index = [*CONFIGURATION, "scope"]
    values = frame.pivot_table(index=index, columns="outcome", values="value", aggfunc="mean")
    size = frame.groupby(index)[["size"]].mean()
    notes = frame.groupby(index)["note"].agg(lambda n: "; ".join(sorted(set(n) - {""})))
    table = size.join(values).join(notes).rename_axis(columns=None).reset_index()
    return table.rename(columns={"scope": "group"})


def parameter_sweep(
    measures: pd.DataFrame, names: Sequence[str] = ("accuracy", "DIbinary")
) -> pd.DataFrame:
    """Return the measures of every swept parameter value, run by run (§7.2, Fig. 8).

    Parameters
    ----------
    measures
        The store's long measures frame (``ResultStore.measures()``), or part of it.
    names
        The measures kept.

    Returns
    -------
    pandas.DataFrame
        Runs with parameters: ``parameter`` and ``value`` (the swept one; several parameters
        are joined), and the measures in ``names``.
    """
    wide = runs_wide(measures)
    tuned = wide["setting"].map(budget_of).notna()  # a budget is not a parameter's value
    swept = wide[(wide["setting"] != DEFAULTS) & ~tuned].copy()
    if swept.empty:  # no grid run (or no run of the variant asked for)
        return pd.DataFrame(columns=[*RUN, "parameter", "value", *names])
    params = swept["setting"].map(json.loads)  # a grid run's setting is its parameters
    swept["parameter"] = params.map(lambda p: ", ".join(p))
    swept["value"] = params.map(lambda p: next(iter(p.values())) if len(p) == 1 else json.dumps(p))
    return swept[[*RUN, "parameter", "value", *names]]


def audit_outcomes(
    audits: pd.DataFrame, *, alpha: float = 0.05, adjustment: str = "family"
) -> pd.DataFrame:
    """Return the share of splits whose audits reject, per configuration.

    Permutation tests count as rejecting when their Holm-adjusted p-value is below ``alpha``,
    and as undecided when its Monte Carlo interval holds ``alpha`` (:func:`permutation_verdicts`).
    The individual-fairness tests reject when T_n (or T~_n) exceeds delta, and are undecided
    when delta lies within their Monte Carlo interval (a derivative-free attack's, recorded
    since the audit's version 4); ``individual near-certain`` is the share of splits where the
    loss ratio is not defined and T~_n is the one to read (:func:`individual_statistics`). An
    undecided verdict counts in no rejection share; ``permutation undecided`` and ``individual
    undecided`` are the shares of each audit's verdicts left open. FlipTest contributes the
    mean rates of F+ and F-.

    Parameters
    ----------
    audits
        The store's long audits frame (``ResultStore.audits()``), or part of it.
    alpha
        The level of the tests.
    adjustment
        Which tests are adjusted together (:data:`ADJUSTMENTS`, :func:`permutation_verdicts`).

    Returns
    -------
    pandas.DataFrame
        One row per configuration; columns ``splits`` and one per outcome.
    """
    every = permutation_verdicts(
        audits[audits["audit"] == "permutation"], alpha=alpha, adjustment=adjustment
    )
    audits = pooled_audits(audits)
    permutation = audits["audit"] == "permutation"
    rejects = pd.Series(np.nan, index=audits.index)
    verdicts = every.reindex(audits.index[permutation]).dropna()
    rejects[verdicts.index] = verdicts.map({"reject": 1.0, "accept": 0.0})  # undecided: NaN
    individual = _tested(audit_details(audits, "individual"))
    open_verdict = _undecided(individual)
    if "reject" in individual:  # an undecided verdict counts in no rejection share
        rejects[individual.index] = individual["reject"].astype(float).mask(open_verdict)
    outcome = np.where(
        audits["audit"] == "fliptest",
        audits["metric"].radd("FlipTest ") + " rate",
        audits["audit"] + " " + audits["metric"],
    )
    value = np.where(audits["audit"] == "fliptest", audits["statistic"], rejects)
    frame = audits[[*CONFIGURATION, "split_id"]].assign(outcome=outcome, value=value)
    for audit, undecided in (
        ("permutation", verdicts == "undecided"),
        ("individual", open_verdict),
    ):
        if len(undecided):
            tested = audits.loc[undecided.index, [*CONFIGURATION, "split_id"]]
            value = undecided.astype(float)
            frame = pd.concat([frame, tested.assign(outcome=f"{audit} undecided", value=value)])
    loss = individual[individual["metric"] == "loss-ratio"]
    if "near_certain" in loss:  # recorded since the individual audit's version 3
        near = (loss["near_certain"] > NEAR_CERTAIN_SHARE).astype(float)
        extra = audits.loc[loss.index, [*CONFIGURATION, "split_id"]]
        frame = pd.concat([frame, extra.assign(outcome="individual near-certain", value=near)])
    table = frame.pivot_table(index=CONFIGURATION, columns="outcome", values="value")
    table = table.reindex(columns=sorted(frame["outcome"].unique()))  # all undecided: NaN
    splits = frame.groupby(CONFIGURATION)["split_id"].nunique().rename("splits")
    return table.join(splits).rename_axis(columns=None).reset_index()


def permutation_verdicts(
    audits: pd.DataFrame, *, alpha: float = 0.05, adjustment: str = "family"
) -> pd.Series:
    """Return each permutation test's verdict at ``alpha``, with its Monte Carlo error.

    A p-value from B permutations is a Monte Carlo estimate of the p-value over every
    permutation; the audit stores its interval (``pvalue_interval``: a sequential test's
    confidence sequence, which it drew until this reading decides at 0.05 or to its cap; a
    fixed test's Clopper-Pearson interval). Holm's adjustment is non-decreasing in every
    p-value, so adjusting the intervals' lower and upper ends as the p-values were adjusted
    bounds the adjusted p-value that every permutation would give. A test rejects when that
    bound lies below ``alpha``, accepts when it lies at or above, and is undecided when it
    holds ``alpha``: more permutations would be needed to say.

    What is adjusted together (``adjustment``, :data:`ADJUSTMENTS`):

    - ``"family"`` (the default): a run's pooled tests (privileged group against the rest,
      one per metric) by Holm, and the comparisons of each group with the privileged one by
      max-T across the groups of one metric, as the audit stored them: each family's error is
      at most ``alpha``, a run's up to the number of its families times ``alpha``.
    - ``"run"``: every permutation test of a run together, by Bonferroni over its F families:
      each family-adjusted p-value (and its interval's ends) times F, at most 1, so that each
      family is read at ``alpha / F`` and the run's family-wise error is at most ``alpha``
      (F = 5 with the pooled tests and four metrics' groups, as the audit stored it; the
      permutation audit's version 6 draws each test until its verdict at ``alpha / F`` is
      decided as well; ``docs/measured/audit_error_rates.py`` measures both readings).

    Parameters
    ----------
    audits
        Permutation rows of the store's audits: a run's pooled rows and, where its attribute
        has more than two groups, its rows of each group.
    alpha
        The level of the tests.
    adjustment
        ``"family"`` or ``"run"``.

    Returns
    -------
    pandas.Series
        ``"reject"``, ``"accept"`` or ``"undecided"``, in the index of the rows with a p-value;
        rows stored without an interval are decided by their adjusted p-value alone.
    """
    check_choice(adjustment, ADJUSTMENTS, what="adjustment")
    bounds = _adjusted_bounds(audits, adjustment)
    verdict = np.where(bounds["high"] < alpha, "reject", "accept")
    verdict = np.where((bounds["low"] < alpha) & (bounds["high"] >= alpha), "undecided", verdict)
    return pd.Series(verdict, index=bounds.index, dtype=object)


def _adjusted_bounds(audits: pd.DataFrame, adjustment: str) -> pd.DataFrame:
    """Return the adjusted ends (low, high) of each tested permutation row's interval.

    A pooled row's interval is of its raw p-value: Holm across the run's pooled rows adjusts
    it. A group's row stores its max-T adjusted p-value's interval, adjusted over its metric's
    groups already. ``"run"`` then multiplies every row of a run by its number of families.
    """
    tested = audits[audits["pvalue"].notna()]
    if tested.empty:
        return pd.DataFrame(columns=["low", "high"], dtype=float)
    details = audit_details(tested, "permutation")
    interval = details.get("pvalue_interval", pd.Series(None, index=tested.index, dtype=object))
    group = _group_rows(tested).to_numpy()
    stored = np.where(group, tested["adjusted_pvalue"], tested["pvalue"]).astype(float)
    ends = [
        bounds if isinstance(bounds, list) else [p, p]
        for bounds, p in zip(interval, stored, strict=True)
    ]
    bounds = pd.DataFrame(ends, index=tested.index, columns=["low", "high"], dtype=float)
    pooled = tested[~group]
    for end in ("low", "high"):
        bounds.loc[pooled.index, end] = (
            bounds.loc[pooled.index, end].groupby(pooled["key"]).transform(_holm)
        )
    if adjustment == "run":
        bounds = bounds.mul(_run_families(tested, details, group), axis=0).clip(upper=1.0)
    return bounds


def _run_families(tested: pd.DataFrame, details: pd.DataFrame, group: np.ndarray) -> pd.Series:
    """Each row's F: the families of its run's tests, as the audit stored it (version 6 on).

    An older row has none stored: its run's families are counted (the pooled tests one, each
    metric's groups one), which is F but where a whole family was left undefined.
    """
    family = np.where(group, "groups " + tested["metric"].astype(str), "pooled")
    counted = pd.Series(family, index=tested.index).groupby(tested["key"]).transform("nunique")
    if "families" not in details:
        return counted
    return details["families"].groupby(tested["key"]).transform("max").fillna(counted)


def monte_carlo_errors(audits: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """Return how far the audits' Monte Carlo numbers could move with their seed.

    Each number an audit estimates by simulation carries its error: a permutation p-value its
    stored interval (its half-width, after Holm's adjustment of the run's tests,
    :func:`permutation_verdicts`); a derivative-free individual-fairness statistic the Monte
    Carlo error of its attacks, for the statistic the report reads of each run (T_n, or T~_n
    where T_n is not defined, :func:`individual_statistics`: an undefined T_n's error is no
    error of the study's); a FlipTest rate on a map fitted to samples of a large group its
    sampling error (:func:`~faircompare.stats.fliptest.subsample_errors`). Errors are shown as
    half-widths (95%: 1.96 standard errors where the audit stores one; a sequential
    permutation test's at its confidence sequence's level), over the pooled rows of every run,
    summarised by quantiles, so that no single run sets the summary: the largest is named.

    Parameters
    ----------
    audits
        The store's long audits frame (``ResultStore.audits()``), or part of it.
    alpha
        The level of the tests, for their undecided verdicts.

    Returns
    -------
    pandas.DataFrame
        Indexed by audit number; ``stored`` (the numbers stored: a run's tests, or its
        statistic), ``with an error`` (those that are random, error above 0), the ``median``,
        ``95th percentile`` and ``largest`` half-width among them, ``largest in`` (the run
        behind the largest), and ``undecided`` (verdicts their error leaves open; missing for
        FlipTest, which gives rates, not verdicts).
    """
    pooled = pooled_audits(audits)
    permutation = pooled[pooled["audit"] == "permutation"]
    bounds = _adjusted_bounds(permutation, "family")
    verdicts = permutation_verdicts(permutation, alpha=alpha)
    parts = [
        _errors("permutation p-value (Holm-adjusted)", (bounds["high"] - bounds["low"]) / 2,
                permutation.loc[bounds.index], verdicts == "undecided"),
    ]  # fmt: skip
    statistics = individual_statistics(pooled)  # each run's statistic as the report reads it
    for kind, name in (("loss ratio", "individual T_n"), ("error ratio", "individual T~_n")):
        chosen = statistics[statistics["kind"] == kind]
        error = MONTE_CARLO_Z * chosen["monte_carlo_error"]
        parts.append(_errors(name, error, chosen, chosen["undecided"]))
    fliptest = audit_details(pooled, "fliptest")
    for metric in ("F+", "F-"):
        chosen = fliptest[fliptest["metric"] == metric]
        error = chosen.get("monte_carlo_error", pd.Series(0.0, index=chosen.index))
        parts.append(
            _errors(f"FlipTest {metric} rate", MONTE_CARLO_Z * error.astype(float), chosen)
        )  # fmt: skip
    table = pd.DataFrame([part for part in parts if part["stored"]])
    if table.empty:
        return table
    table["undecided"] = table["undecided"].astype("Int64")
    return table.set_index("number").rename_axis(None)


def _run_name(row: pd.Series) -> str:
    """Name a row's run: dataset, attribute, variant, algorithm in its setting, and split."""
    where = "/".join(str(row[column]) for column in WHERE)
    return f"{where}/{label(row['algorithm'], row['setting'])} split {row['split_id']}"


def _errors(
    number: str, half_width: pd.Series, rows: pd.DataFrame, undecided: pd.Series | None = None
) -> dict:
    """Return one row of :func:`monte_carlo_errors`: an audit number's errors over its rows."""
    half_width = half_width.astype(float).fillna(0.0)
    random = half_width[half_width > 0]
    return {
        "number": number,
        "stored": len(half_width),
        "with an error": len(random),
        "median": random.median() if len(random) else 0.0,
        "95th percentile": random.quantile(0.95) if len(random) else 0.0,
        "largest": random.max() if len(random) else 0.0,
        "largest in": _run_name(rows.loc[random.idxmax()]) if len(random) else "",
        "undecided": pd.NA if undecided is None else int(undecided.sum()),
    }


def _undecided(individual: pd.DataFrame) -> pd.Series:
    """Whether each individual-fairness verdict is open (recorded since the audit's version 4)."""
    recorded = individual.get("undecided", pd.Series(False, index=individual.index))
    return recorded.astype("boolean").fillna(False).astype(bool)


def _tested(rows: pd.DataFrame) -> pd.DataFrame:
    """Leave out an audit's rows that say why it did not test (a group below the minimum)."""
    return rows[rows["error"].isna()] if "error" in rows else rows


def _holm(pvalues: pd.Series) -> pd.Series:
    return pd.Series(holm(pvalues.to_numpy(float)), index=pvalues.index)


def individual_statistics(audits: pd.DataFrame) -> pd.DataFrame:
    """Return each run's individual-fairness statistic: T_n, or T~_n where T_n is not defined.

    The loss ratio T_n (Maity et al. §3.1) needs a loss bounded away from zero (assumption A3);
    a run with more than :data:`~faircompare.stats.individual.NEAR_CERTAIN_SHARE` of its audit
    points near-certain (a tree's leaves, naive Bayes) has it dominated by the loss's floor,
    and is read by the error-rate ratio T~_n (§3.2, App. C) instead.

    Parameters
    ----------
    audits
        The store's audits (:meth:`~faircompare.results.ResultStore.audits`).

    Returns
    -------
    pandas.DataFrame
        One row per audited run: its identifying columns, ``statistic`` (T_n or T~_n), ``kind``
        (``"loss ratio"`` or ``"error ratio"``), ``delta``, ``reject``, ``monte_carlo_error``
        (0 where the attack is exact, or was stored before the audit's version 4) and
        ``undecided``.
    """
    individual = _tested(audit_details(audits, "individual"))
    loss = individual[individual["metric"] == "loss-ratio"].set_index("key")
    error = individual[individual["metric"] == "error-ratio"].set_index("key")
    # stores written before the individual audit's version 3 did not record the share
    near = loss.get("near_certain", pd.Series(np.nan, loss.index)) > NEAR_CERTAIN_SHARE
    errors = error.loc[near[near].index].assign(kind="error ratio")
    chosen = pd.concat([loss[~near].assign(kind="loss ratio"), errors])
    error = chosen.get("monte_carlo_error", pd.Series(0.0, index=chosen.index))
    reject = chosen.get("reject", pd.Series(False, index=chosen.index))  # none: none tested
    return chosen.assign(
        reject=reject.astype(bool),
        monte_carlo_error=error.astype(float).fillna(0.0),
        undecided=_undecided(chosen),
    ).reset_index()
