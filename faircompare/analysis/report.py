"""The benchmark report: every figure and table of a results folder, and one HTML page.

:func:`write_report` reads only the results store and writes, under its output folder:

- ``figures/<name>.png``: stability, tradeoff and audit figures per dataset, attribute
  and variant; measure correlations (plain and balanced, §6.3); preprocessing comparisons (§5.1);
  parameter sweeps (§7.2); sensitive attributes (§7.3); audit p-values;
- ``tables/<name>.csv|tex``: measures (mean ± sd over splits) and audit outcomes per dataset,
  attribute and variant; the correlations;
- ``report.html``: one self-contained page (figures embedded) with the run summary and failures.

Names are ``<kind>-<dataset>-<attribute>-<variant>`` (lower case, other characters as ``-``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from faircompare._deprecations import former_forms
from faircompare._validation import check_choice
from faircompare.analysis import budgets, compare, equal_fairness, explore, flags, tables, tidy
from faircompare.analysis import kinds as kind
from faircompare.analysis.canvas import REPORT
from faircompare.analysis.report_cache import PartCache
from faircompare.analysis.report_writer import Section, Writer, draw_ahead
from faircompare.analysis.selection import Selection, StudyFrames, recorded_families
from faircompare.analysis.style import Style, study_styles
from faircompare.audits.protocol import MIN_GROUP_ROWS
from faircompare.choices import FAMILIES, FLIPSET_MIN_ROWS, MIN_RATE_EVENTS, TABLE_FIRST_ROWS
from faircompare.config.settings import RULES
from faircompare.exceptions import SettingsError, cut_message
from faircompare.file_names import slug
from faircompare.records import POOLED, TUNED
from faircompare.results import ResultStore
from faircompare.safe_write import refuse_links, replaced, write_text

__all__ = [
    "write_report",
]

PREPROCESSING_MEASURES = ("accuracy", "DIbinary")
COMPARED = ("accuracy", "DIbinary")  # the measures compared pair by pair and ranked
ROPE = 0.01  # region of practical equivalence of the Bayesian comparisons (score units)
SWEEP_VARIANT = "numerical+binary"


_REPORT_JOBS = replace(RULES["jobs"], optional=False)  # processes drawing: a number, no None


@former_forms
def write_report(
    results: str | Path,
    out: str | Path | None = None,
    *,
    say: Callable[[str], None] | None = None,
    reuse: bool = True,
    jobs: int = 1,
    adjustment: str = "family",
) -> Path:
    """Write the report of a results folder; return the path of ``report.html``.

    A part of the report whose inputs are those of the report last written in ``out`` (the
    same runs, numbers and faircompare) is not drawn again (:mod:`.report_cache`): after a
    rerun of one algorithm, only the parts that read its changed numbers are.

    Parameters
    ----------
    results
        The results folder (holding ``results.sqlite``).
    out
        Where to write; default ``results/report``.
    say
        Called with a line as each section starts (the command line prints them; formerly
        ``progress=``, which still works with a :class:`DeprecationWarning`).
    reuse
        Whether to reuse the parts that did not change since the last report; False draws
        every part.
    jobs
        How many processes draw the parts at a time (:func:`.report_writer.draw_ahead`); the
        report is the same for any number.
    adjustment
        Which of a run's permutation tests are adjusted together in the audit tables
        (:func:`~faircompare.analysis.tidy.permutation_verdicts`): ``"family"``, the default,
        each family (the pooled tests by Holm; each metric's groups by max-T), or ``"run"``,
        every test of a run.

    Returns
    -------
    Path
        ``report.html``.

    Raises
    ------
    WriteError
        If a file cannot be written (a full disk, an unwritable folder, a link on the way):
        every file already written is whole, and none is half written.
    SettingsError
        If ``jobs`` is not a whole number of at least 1 (a :class:`ValueError`).
    ChoiceError
        If ``adjustment`` is not one of ``family`` and ``run`` (a :class:`ValueError`).
    StoreError
        If the store cannot be read (damaged, foreign) or holds no run.
    """
    if (problem := _REPORT_JOBS.problem("jobs", jobs)) is not None:
        raise SettingsError(problem)
    check_choice(adjustment, tidy.ADJUSTMENTS, what="adjustment")
    results = Path(results)
    folder = Path(out) if out is not None else results / "report"
    root = Path(out) if out is not None else results  # nothing under it is written through a link
    writer = Writer(folder, root, PartCache(folder, root, reuse=reuse), say)
    refuse_links(writer.out / "report.html", writer.root)  # before any work, not after it
    with ResultStore(results, readonly=True) as store:
        store.require_runs()
        study = _Study.read(store, adjustment)
        draw_ahead(writer, lambda planner: _write_sections(planner, study), jobs)
        _write_sections(writer, study)
    writer.cache.prune()
    if say is not None:
        drawn, kept = writer.cache.misses, writer.cache.hits
        say(f"report: {drawn} part{'s' * (drawn != 1)} drawn, {kept} unchanged since the last "
            "report")  # fmt: skip
    if writer.failures:
        writer.section("Parts of this report that failed")
        failed = pd.DataFrame(writer.failures, columns=["part", "error"])
        failed["error"] = failed["error"].map(cut_message)
        writer.table(failed, "report-failures", "Parts that could not be drawn (the rest is here)")
    page = _page(writer.sections, results, study.named)
    return write_text(writer.out / "report.html", page, writer.root)


@dataclass(frozen=True, eq=False)
class _Study:
    """What the report reads of a results store, read once: its frames and configurations."""

    store: ResultStore
    runs: pd.DataFrame
    measures: pd.DataFrame
    audits: pd.DataFrame
    validation: pd.DataFrame
    family: dict[str, str]
    styles: dict[str, Style]  # one per name across the report, tuned settings included
    named: dict[str, str]  # the algorithm each of those names names
    configurations: list[_Configuration]
    chosen: pd.DataFrame  # every configuration's representative runs
    run_flags: pd.DataFrame  # the flagged measures of those runs (flags.run_flags)

    @property
    def algorithms(self) -> tuple[str, ...]:
        """Every algorithm of the study, which sets each one's style."""
        return tuple(sorted(self.measures["algorithm"].unique()))

    @cached_property
    def frames(self) -> StudyFrames:
        """The study's frames as the figure kinds read them, each algorithm's runs as shown."""
        return StudyFrames(self.measures, self.validation, self.audits, self.algorithms,
                           self.chosen, self.family)  # fmt: skip

    @classmethod
    def read(cls, store: ResultStore, adjustment: str = "family") -> _Study:
        runs, measures, audits = store.runs(), store.measures(), store.audits()
        validation = store.measures("validation")
        family = recorded_families(store, runs["algorithm"].unique())
        algorithms = tuple(sorted(measures["algorithm"].unique()))
        budgets = tidy.budgets_run(measures)
        styles, named = study_styles(algorithms, budgets), tidy.algorithm_of(algorithms, budgets)
        chosen = tidy.representative(measures, validation)
        judged = dict.fromkeys((*tables.KEY_MEASURES, *explore.EXPLORED))  # each once, in order
        run_flags = flags.run_flags(store, chosen["key"].unique(), list(judged))
        tabled = run_flags[run_flags["measure"].isin(tables.KEY_MEASURES)]
        traded_off = set(run_flags.loc[run_flags["measure"].isin(_TRADED), "key"])
        shown = dict(iter(chosen.groupby(tidy.WHERE, sort=False)))
        configurations = []
        for where, part in measures.groupby(tidy.WHERE):
            keys = part["key"].unique()  # isin reads its values one by one: each key once
            part_audits = audits[audits["key"].isin(keys)]
            undefined = tidy.undefined_reasons(runs[runs["key"].isin(keys)])
            shown_runs = shown[where].reset_index(drop=True)
            small = _small_groups(store, part)
            cells = flags.cell_flags(shown_runs, tabled)
            off_front = tuple(sorted(set(keys) & traded_off))
            configurations.append(_Configuration(where, part, shown_runs, part_audits, styles,
                                                 family, undefined, small, cells, algorithms,
                                                 adjustment, off_front))  # fmt: skip
        return cls(store, runs, measures, audits, validation, family, styles, named,
                   configurations, chosen, run_flags)  # fmt: skip


def _write_sections(writer: Writer, study: _Study) -> None:
    """Write every section's figures and tables, in page order."""
    one_class = study.run_flags.loc[study.run_flags["reason"] == flags.ONE_CLASS, "key"]
    constant = tuple(sorted(set(one_class)))
    if not study.measures.empty:
        writer.section("Findings: who beat the yardstick, where, by how much")
        writer.attempt("findings", _findings, study.measures, study.validation, constant,
                       study.family)  # fmt: skip
        writer.attempt("tuning at an equal budget", _tuning, study.measures, study.frames,
                       study.store)  # fmt: skip
        writer.section("Explore the study")
        writer.attempt("explore", _explore, study.measures, study.audits, study.styles,
                       study.run_flags)  # fmt: skip
    writer.section("Summary")
    degenerate = tidy.degenerate_runs(study.runs, study.measures)
    writer.attempt("summary", _summary, study.runs, study.family, degenerate)
    if study.measures.empty:
        return
    for c in study.configurations:
        writer.section(c.label)
        for what, (step, fields) in _CONFIGURATION_PARTS.items():
            reads = (c.where, c.styles, c.family, *(getattr(c, f) for f in fields))
            writer.attempt(f"{what}: {c.label}", step, c, reads=reads)
    measures, chosen = study.measures, study.chosen
    cells = pd.concat([c.flags for c in study.configurations], ignore_index=True)
    test_rows = study.runs.groupby(["dataset", "sensitive_attribute"])["n_test"].median()
    writer.attempt("rankings", _rankings, chosen, cells, test_rows)
    _at_equal_fairness(writer, measures, study.validation, study.algorithms, constant)
    writer.attempt("correlations", _correlations, measures, study.store)
    frames = study.frames
    writer.attempt("measure pairs", _measure_pairs, frames)
    writer.attempt("preprocessing", _preprocessing, frames)
    writer.attempt("sweeps", _sweeps, frames)
    writer.attempt("attributes", _attributes, frames)
    writer.attempt("audit figures", _audit_figures, study.store, frames)


def _findings(
    writer: Writer,
    measures: pd.DataFrame,
    validation: pd.DataFrame,
    constant: tuple[str, ...],
    family: dict[str, str],
) -> None:
    """Write the page's first section: each intervention against the yardstick, at equal fairness.

    Per dataset, attribute, variant and constraint (:func:`.equal_fairness.findings`): how many
    interventions the test puts above and below the post-processed best model at their own
    unfairness, each one above by how much, the closest, and the difference the study's splits
    can detect; then the most accurate intervention at each level of fairness
    (:func:`.equal_fairness.most_accurate`), beside the yardstick's accuracy there. The
    baselines are no intervention: they stand in the section *At equal fairness*, not here. A
    method that predicts one class on some split (``constant``: those runs' keys) is no
    finding on the others either: all its runs in that configuration are left out, and named.
    """
    measures, no_result = _without_constant(measures, constant)
    tables = [
        equal_fairness.equal_fairness_table(
            part, validation[validation["key"].isin(part["key"].unique())]
        ).assign(**dict(zip(tidy.WHERE, where, strict=True)))
        for where, part in measures.groupby(tidy.WHERE)
    ]
    interventions = [a for a in measures["algorithm"].unique() if _intervention(a, family)]
    labels = _labels(measures, interventions)
    tables = pd.concat(tables, ignore_index=True)
    found = equal_fairness.findings(tables[tables["algorithm"].isin(labels)])
    if found.empty:
        writer.text(
            f"No yardstick ran ({equal_fairness.FRONTIER_PREFIX}*: a baseline post-processed to "
            "tolerances of demographic parity and equalized odds), so no intervention is "
            "measured against one; the sections below compare them with each other."
        )
        return
    compared, above, below = (int(found[c].sum()) for c in ("compared", "above", "below"))
    splits = int(measures["split_id"].nunique())
    writer.text(
        f"Of {compared} comparisons of an intervention with the yardstick (the most accurate "
        f"baseline post-processed to the intervention's own unfairness, Cruz & Hardt 2024), "
        f"{above} {'is' if above == 1 else 'are'} above it and {below} below it, by the "
        f"corrected t-test over {splits} splits, Holm-adjusted over each configuration's "
        "algorithms (p < 0.05); the others are not told apart from it ('on'), and the "
        "'detectable' column says how large a difference the splits would have shown. The "
        "baselines are no intervention: they are compared with the yardstick in the section "
        f"'At equal fairness'.{_constant_text(no_result, interventions)}"
    )
    writer.table(
        _by_configuration(found, "constraint").round({"detectable": 3}),
        "findings",
        "Findings, per configuration and constraint: the interventions compared with the "
        "yardstick, how many are above and below it, each one above with its mean accuracy "
        "difference at equal fairness and 95 % corrected interval, the closest to it with its "
        "verdict, and the smallest difference the test detects 80 % of the time at 5 % (the "
        "median over the algorithms, before Holm's adjustment); each configuration's table "
        "and figure are in the section 'At equal fairness'",
        numbers=found,
    )
    _most_accurate(writer, measures, validation, interventions)


def _by_configuration(frame: pd.DataFrame, *within: str) -> pd.DataFrame:
    """Return a table indexed by its configuration in one column, then ``within``.

    Narrow enough for the page; its file keeps the dataset, attribute and variant apart.
    """
    where = frame[tidy.WHERE].astype(str).agg(", ".join, axis=1).rename("configuration")
    return frame.drop(columns=tidy.WHERE).set_index([where, *within])


#: The columns that name a method in a configuration: a run's, less its split.
_METHOD = [*tidy.WHERE, "algorithm", "setting"]


def _without_constant(
    measures: pd.DataFrame, constant: tuple[str, ...]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return ``measures`` without the methods with a constant run, and those methods.

    A method that predicts one class for every test row on some split of a configuration is
    no result there, on any of its splits (:func:`_constant_methods`): the findings and the
    section *At equal fairness* compare the same methods, in the same Holm families.
    """
    no_result = _constant_methods(measures, constant)
    kept = ~pd.MultiIndex.from_frame(measures[_METHOD]).isin(no_result.index)
    return measures[kept], no_result


def _constant_methods(measures: pd.DataFrame, constant: tuple[str, ...]) -> pd.DataFrame:
    """Return each method (configuration, algorithm, setting) with a constant run, frontiers aside.

    Indexed by :data:`_METHOD`: ``constant`` (its splits predicting one class) and ``splits``.
    """
    others = equal_fairness.without_frontiers(measures)
    runs = others.drop_duplicates("key").set_index(_METHOD)
    count = runs.groupby(level=_METHOD)["key"]
    table = pd.DataFrame({"constant": count.agg(lambda keys: keys.isin(constant).sum()),
                          "splits": count.size()})  # fmt: skip
    return table[table["constant"] > 0]


def _constant_text(no_result: pd.DataFrame, shown: list[str]) -> str:
    """Name the methods of ``shown`` left out for a constant run, or say nothing."""
    no_result = no_result[no_result.index.get_level_values("algorithm").isin(shown)]
    if no_result.empty:
        return ""
    named = [
        f"{tidy.label(algorithm, setting)} on {dataset}, {attribute} ({k} of {n} splits)"
        for (dataset, attribute, _, algorithm, setting), (k, n) in no_result.iterrows()
    ]
    return (
        " Left out, as no result: a method that predicts one class for every test row on "
        f"some split (its accuracy the base rate there): {'; '.join(named)}."
    )


def _labels(measures: pd.DataFrame, algorithms: list[str]) -> set[str]:
    """Return every name the tables may give the algorithms (:func:`.tidy.label`)."""
    settings = {*measures["setting"].unique(), POOLED, TUNED}
    return {tidy.label(a, s) for a in algorithms for s in settings}


def _most_accurate(
    writer: Writer, measures: pd.DataFrame, validation: pd.DataFrame, interventions: list[str]
) -> None:
    """Name the most accurate intervention at each level of fairness, with its interval."""
    best = equal_fairness.most_accurate(measures, validation, only=interventions)
    accuracy = zip(best["accuracy"], best["ci_low"], best["ci_high"], strict=True)
    shown = best.assign(
        algorithm=best["algorithm"].replace("", "none this fair"),
        accuracy=[
            "" if np.isnan(mean) else f"{mean:.3f} [{low:.3f}, {high:.3f}]"
            for mean, low, high in accuracy
        ],
    )
    writer.table(
        _by_configuration(shown, "constraint", "level")[
            ["algorithm", "accuracy", "violation", "candidates", "tied", "yardstick"]
        ].round({"violation": 3, "yardstick": 3}),
        "findings-most-accurate",
        "The most accurate intervention at each level of fairness: among the interventions "
        "whose mean violation of the constraint (its difference between groups) is at most the "
        "level, the one with the highest mean accuracy, with its corrected 95 % interval over "
        "splits; candidates: how many are that fair; tied: how many of the other candidates "
        "the corrected paired t-test does not tell apart from it (Holm over them, p < 0.05; "
        "0 of several: a test decides it is the most accurate); yardstick: the post-processed best "
        "model's highest mean accuracy at a mean violation at most the level, chosen as the "
        "intervention is. A baseline, or a method constant on some split, is never named",
        numbers=best,
    )


def _explore(
    writer: Writer,
    measures: pd.DataFrame,
    audits: pd.DataFrame,
    styles: dict[str, Style],
    flagged: pd.DataFrame,
) -> None:
    """Write the explorable chart of every run (:mod:`.explore`), offline in the page."""
    writer.text(
        "Every run (each grid value and split) of one dataset, attribute and variant at a time, "
        "at the two measures chosen; hover a point to read its run, its parameters and its "
        "audits' verdicts; highlight an algorithm here and in every table below. A hollow "
        "point is a run whose measure on an axis is flagged (one class predicted, or a rate "
        "from few events), its reason on hover. Each table filters its rows by the text typed "
        "above it, sorts by a click on a column's header, and shows its first "
        f"{TABLE_FIRST_ROWS} rows until asked for all."
    )
    writer.html(explore.explore_html(explore.run_points(measures, audits, flagged), styles))


def _summary(
    writer: Writer, runs: pd.DataFrame, family: dict[str, str], degenerate: pd.DataFrame
) -> None:
    if runs.empty:
        writer.text("No run is stored yet: run the benchmark (faircompare run) first.")
        return
    counts = runs.groupby(["dataset", "status"]).size().unstack(fill_value=0)
    by_family = (
        runs.assign(family=runs["algorithm"].map(family))
        .groupby("family")["algorithm"]
        .agg(lambda names: ", ".join(sorted(set(names))))
        .reindex([f for f in FAMILIES if f in family.values()])
        .rename("algorithms")
        .to_frame()
    )
    done, failed = (runs["status"] == "done").sum(), (runs["status"] == "failed").sum()
    datasets = runs["dataset"].nunique()
    writer.text(
        f"{len(runs):,} runs stored: {done:,} done ({len(degenerate):,} of them degenerate: one "
        f"class predicted for every test row, overall or in a group), {failed:,} failed; "
        f"{runs['algorithm'].nunique()} algorithms on {datasets} "
        f"dataset{'s' if datasets != 1 else ''}, {runs['split_id'].nunique()} splits."
    )
    writer.table(counts.rename_axis(index=None, columns=None), "runs", "Runs by dataset and status")
    writer.table(by_family.rename_axis(None), "algorithms", "Algorithms by family")
    if len(runs):
        versions = json.loads(runs["versions"].iloc[0] or "{}")
        writer.text("Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())))
    writer.section("Failures")
    failures = runs[runs["status"] == "failed"]
    audit_failures = runs[runs["audit_errors"].notna()]
    if failures.empty and audit_failures.empty:
        writer.text("No run and no audit failed.")
    if len(degenerate):
        caption = (
            "Degenerate runs: done, but one class predicted for every test row, overall or in a "
            "group; their measures are shown with the others, and 'undefined' lists those that "
            "divide by the class never predicted"
        )
        writer.table(degenerate, "degenerate-runs", caption)
    if len(failures):
        shown = failures[[*tidy.CONFIGURATION, "split_id", "error"]].reset_index(drop=True)
        shown["error"] = shown["error"].map(cut_message)  # a store written before they were cut
        writer.table(shown, "failures", "Failed runs")
    if len(audit_failures):
        errors = audit_failures["audit_errors"].map(json.loads)
        shown = audit_failures[[*tidy.CONFIGURATION, "split_id"]].assign(
            audit=errors.map(", ".join),
            error=errors.map(lambda e: cut_message("; ".join(e.values()))),
        )
        caption = "Audits that failed (the runs' measures are kept)"
        writer.table(shown.reset_index(drop=True), "audit-failures", caption)


@dataclass(frozen=True, eq=False)
class _Configuration:
    """One dataset, attribute and variant: its runs, representative runs and audits."""

    where: tuple[str, str, str]
    measures: pd.DataFrame
    chosen: pd.DataFrame  # the representative runs (defaults, tuned or pooled)
    audits: pd.DataFrame
    styles: dict[str, Style]
    family: dict[str, str]
    undefined: dict[str, str]  # why each measure its runs leave undefined is undefined
    small: dict[str, tuple[int, int]]  # groups below the audits' minimum: least, most test rows
    flags: pd.DataFrame  # each cell's flag (flags.cell_flags): "" where there is none
    algorithms: tuple[str, ...]  # every algorithm of the study, which sets the styles
    adjustment: str  # which of a run's permutation tests are adjusted together
    off_front: tuple[str, ...]  # runs whose accuracy or DIbinary is flagged: off a Pareto front

    @property
    def name(self) -> str:
        return slug(*self.where)

    @property
    def label(self) -> str:
        return ", ".join(self.where)

    @cached_property
    def summary(self) -> pd.DataFrame:
        return tidy.stability(self.chosen, tables.KEY_MEASURES, test_to_train=compare.TEST_TO_TRAIN)

    @cached_property
    def study(self) -> StudyFrames:
        """The configuration's frames, as the figure kinds read them."""
        empty = self.measures.iloc[:0]
        return StudyFrames(
            self.measures, empty, self.audits, self.algorithms, self.chosen, self.family
        )


def _measures_table(writer: Writer, c: _Configuration) -> None:
    undefined = c.summary.loc[c.summary["mean"].isna(), "measure"].unique()
    why = "; ".join(
        f"{measure} is undefined {c.undefined[measure]}"
        for measure in sorted(undefined)
        if measure in c.undefined
    )
    small = _groups_text(c.small, c.where)
    numbers = c.summary.merge(c.flags, on=[*tidy.CONFIGURATION, "measure"], how="left")
    writer.table(
        tables.measure_table(numbers, c.where[1], c.family, interval=True),
        f"measures-{c.name}",
        f"Measures, mean [95 % interval] over splits, the interval corrected for the overlap of "
        f"the training sets (Nadeau and Bengio; the mean alone where one split defines it): "
        f"{c.label}. {_FLAGS}"
        + (f". 'undefined': no split defines it ({why})" if why else "")
        + (
            f". Groups with fewer than {MIN_GROUP_ROWS} test rows on a split, whose own measures "
            f"(and the group-conditioned ones that read them) rest on a handful of people and "
            f"which no audit tests: {small}"
            if small
            else ""
        ),
        numbers=numbers,
    )


# What a flagged cell of a table says, once for every table (analysis.flags)
_FLAGS = (
    f"A flagged cell is not a result to compare, and is left out of the comparisons and "
    f"rankings: '{flags.ONE_CLASS}', a run predicts one class for every test row; "
    f"'{flags.FEW_EVENTS}', a rate it reads rests in a group on fewer than {MIN_RATE_EVENTS} "
    f"rows of its denominator, or a ratio of rates on fewer than {MIN_RATE_EVENTS} events of a "
    "numerator (a denominator near zero); 'defined on k of n splits', fewer splits than the rest"
)


def _groups_text(small: dict[str, tuple[int, int]], where: tuple[str, str, str]) -> str:
    """Name the groups below the audits' minimum with their test rows.

    A coded group is named by its value too: ``0 (not White): 14 to 18 rows``
    (:func:`~faircompare.analysis.tidy.group_names`).
    """
    names = tidy.group_names(*where)
    return ", ".join(
        f"{group}{f' ({names[group]})' if group in names else ''}: "
        + (f"{low} rows" if low == high else f"{low} to {high} rows")
        for group, (low, high) in small.items()
    )


def _small_groups(store: ResultStore, measures: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """Return the groups of a configuration below the audits' minimum on some split.

    Every run of a split has the same test rows: one run per split is read.

    Returns
    -------
    dict
        ``{group: (least, most test rows over the splits)}``, for the groups with fewer than
        :data:`~faircompare.audits.protocol.MIN_GROUP_ROWS` test rows on some split.
    """
    sizes = [
        pd.Series(store.predictions(key).sensitive_features).astype(str).value_counts()
        for key in measures.drop_duplicates("split_id")["key"]
    ]
    counts = pd.concat(sizes, axis=1).fillna(0).astype(int)
    small = counts[(counts < MIN_GROUP_ROWS).any(axis=1)]
    return {str(g): (int(row.min()), int(row.max())) for g, row in small.iterrows()}


def _audit_outcomes(writer: Writer, c: _Configuration) -> None:
    settings = c.chosen.drop_duplicates("key").set_index("key")["setting"]
    chosen_audits = c.audits[c.audits["key"].isin(settings.index)]
    if chosen_audits.empty:
        return
    chosen_audits = chosen_audits.assign(setting=chosen_audits["key"].map(settings))
    outcomes = tidy.audit_outcomes(chosen_audits, adjustment=c.adjustment)
    table = tables.audit_table(outcomes)
    constant = _one_class(c.flags)
    if constant:  # a constant's tests compare constant predictions: they never reject parity
        table.insert(0, "flag", [constant.get(name, "") for name in table.index])
    together = (
        "Holm-adjusted across the run's pooled tests"
        if c.adjustment == "family"
        else "every permutation test of a run adjusted together, Bonferroni over its families"
    )
    if table.empty:  # every run's groups below the minimum: said where the table would be
        small = _groups_text(c.small, c.where)
        writer.text(
            f"Audits of {c.label}: no run was audited, each audit needing at least "
            f"{MIN_GROUP_ROWS} test rows in the privileged group and in the rest"
            + (f" (the groups' test rows over the splits: {small})" if small else "")
        )
    else:
        writer.table(
            table,
            f"audits-{c.name}",
            f"Audits: share of splits rejecting ({together}), among the verdicts their Monte "
            f"Carlo error leaves decided (undecided: the share of each audit's verdicts it "
            f"leaves open; FlipTest: mean rates; n/a: no split gives one, the test not run "
            f"where a metric is undefined in a group or a group has fewer than "
            f"{MIN_GROUP_ROWS} test rows, the stored rows say which)"
            + (
                "; flag: the algorithm predicts one class for every test row on some splits, "
                "where its tests compare constant predictions, no result"
                if constant
                else ""
            )
            + f": {c.label}",
            numbers=outcomes,
        )
    groups = tidy.group_outcomes(chosen_audits, adjustment=c.adjustment)
    if len(groups):
        over = (
            "max-T adjusted over the groups of each metric: read it metric by metric"
            if c.adjustment == "family"
            else "adjusted with every test of its run"
        )
        writer.table(
            tables.group_table(groups),
            f"audits-groups-{c.name}",
            "Each group against the privileged one: share of splits where the permutation test "
            f"({over}) rejects, per metric: {c.label}",
            numbers=groups,
        )
    heatmap = kind.audits.shares(outcomes)
    if heatmap.size:  # no row where no run was tested (every group below the minimum)
        shown = kind.audits.AuditFrames({"": heatmap}, list(heatmap.index))
        figure = kind.audits.draw(shown, REPORT)
        writer.figure(
            figure,
            f"audits-{c.name}",
            f"Share of splits rejecting, per test, among the decided verdicts; the last columns: "
            f"the shares left undecided; n/a: no split ran the test: {c.label}",
        )


def _one_class(cells: pd.DataFrame) -> dict[str, str]:
    """Return the flag of each algorithm (its label) that predicts one class on some split."""
    found = cells[(cells["measure"] == "accuracy") & cells["flag"].str.contains(flags.ONE_CLASS)]
    named = zip(found["algorithm"], found["setting"], found["flag"], strict=True)
    return {tidy.label(algorithm, setting): flag for algorithm, setting, flag in named}


def _stability(writer: Writer, c: _Configuration) -> None:
    shown = kind.stability.frames(c.study, Selection())
    figure = kind.stability.draw(shown, REPORT)
    spread = "" if c.chosen["split_id"].nunique() > 1 else " (one split: no spread to show)"
    caption = (
        f"Stability over splits (Fig. 7){spread}: {c.label}; each algorithm with its defaults, "
        "or tuned for accuracy on validation data (named -accuracy) where it ran over a grid"
    )
    writer.figure(figure, f"stability-{c.name}", caption)


#: The tradeoff figure's measures: a run flagged on either is kept off its Pareto front.
_TRADED = ("accuracy", "DIbinary")


def _tradeoff(writer: Writer, c: _Configuration) -> None:
    shown = kind.tradeoff.frames(c.study, Selection(), x="DIbinary", excluded=c.off_front)
    figure = kind.tradeoff.draw(shown, REPORT)
    many = len(c.off_front)
    off = (
        f"; kept off the front, as the measures table flags them: {many} "
        f"{'run' if many == 1 else 'runs'} predicting one class, or whose DIbinary rests on "
        "few events"
        if many
        else ""
    )
    caption = (
        f"Tradeoff and Pareto front, every run (each grid value and split): accuracy against "
        f"the DIbinary gap 1 - min(DI, 1/DI); filled: the run's demographic-parity test "
        f"rejects after Holm's correction{off}: {c.label}"
    )
    writer.figure(figure, f"tradeoff-{c.name}", caption)


def _calibration(writer: Writer, c: _Configuration) -> None:
    """Fig. 5: sensitive-calibration- against sensitive-TPR, a point per run shown."""
    x, y = kind.runs.AXES
    measured = c.chosen.loc[(c.chosen["group"] == "") & c.chosen["value"].notna(), "measure"]
    if not {x, y} <= set(measured):  # undefined in every run (a group without positives, say)
        return
    shown = kind.runs.frames(c.study, Selection(), x, y)
    caption = (
        f"Calibration against TPR, conditioned on the groups (Fig. 5), each algorithm as the "
        f"tables show it, a point per split (past eight algorithms, a panel per family, the "
        f"others' runs in grey): {c.label}"
    )
    writer.figure(kind.runs.draw(shown, REPORT), f"calibration-{c.name}", caption)


def _which_is_better(writer: Writer, c: _Configuration) -> None:
    """Pairwise comparisons of the interventions over the shared splits, and their intervals.

    A flagged cell (:mod:`.flags`) is not compared: its algorithm is left out of that
    measure's pairs and interval, and named.
    """
    name, label = c.name, c.label
    interventions = equal_fairness.without_frontiers(c.chosen)  # rankings, pairs
    apart = _frontiers_apart(c.chosen)  # said under each table and figure below
    chosen, left_out = _comparable(interventions, c.flags)
    if chosen["split_id"].nunique() < 2:
        writer.text(f"One split: comparing interventions needs two splits or more ({label}).")
        return
    if left_out:
        every = tidy.labelled(interventions)["algorithm"].nunique()
        writer.text(f"Not compared, their cells flagged in the measures table ({label}): "
                    f"{_left_out_text(left_out, every)}.")  # fmt: skip
    compared = []
    for measure in COMPARED:
        if not (chosen["measure"] == measure).any():  # every cell flagged
            continue
        pairs = compare.pairwise(chosen, measure, rope=ROPE)
        if pairs.empty:
            continue
        half = pairs["ci_high"] - pairs["mean_difference"]
        detectable = np.nanmedian(compare.detectable_difference(half, pairs["splits"]))
        told = int((pairs["holm_pvalue"] < 0.05).sum())
        writer.table(
            pairs.sort_values("holm_pvalue", kind="stable").set_index(["a", "b"]),
            f"pairs-{slug(measure)}-{name}",
            f"Which intervention is better? {measure} score (higher is better), A - B over the "
            f"shared splits: corrected t-test with Holm, correlated Bayesian t-test with rope "
            f"{ROPE}: {label}. {told} of {len(pairs)} pairs differ (Holm p < 0.05), listed "
            f"first. Over {int(pairs['splits'].max())} splits the test finds a "
            f"difference of {detectable:.3f} 80 % of the time (the median over the pairs, "
            f"before Holm's adjustment), a smaller one seldom.{apart}",
            numbers=pairs,
        )
        compared.append(measure)
    if compared:
        study = replace(c.study, chosen=chosen)
        shown = kind.intervals.frames(study, Selection(), measures=tuple(compared))
        figure = kind.intervals.draw(shown, REPORT)
        caption = (
            f"Means with corrected 95% intervals over splits; filled: not significantly worse "
            f"than the best (Holm, 5 %); a row empty in a panel: its cell is flagged in the "
            f"measures table, and not compared: {label}.{apart}"
        )
        writer.figure(figure, f"intervals-{name}", caption)


def _frontiers_apart(chosen: pd.DataFrame) -> str:
    """Say that the frontiers among ``chosen`` are no interventions; nothing where none ran."""
    if not chosen["algorithm"].str.startswith(equal_fairness.FRONTIER_PREFIX).any():
        return ""
    return (
        f" The frontiers ({equal_fairness.FRONTIER_PREFIX}*: a baseline post-processed to each "
        "of its tolerances) are the yardstick of the equal-fairness section, not compared here"
    )


def _comparable(
    chosen: pd.DataFrame, cells: pd.DataFrame
) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Leave out the measures of the flagged cells; return what is left and who left, by measure.

    Parameters
    ----------
    chosen
        The runs shown, long (a row per measure and group).
    cells
        Their cells' flags (:func:`.flags.cell_flags`).

    Returns
    -------
    tuple
        The rows of the cells not flagged, and ``{measure: [labels left out]}`` for the
        compared measures (:data:`COMPARED`).
    """
    marked = flags.flagged_rows(chosen, cells)
    out = chosen[marked]
    left_out = {
        measure: sorted(set(tidy.labelled(out[out["measure"] == measure])["algorithm"]))
        for measure in COMPARED
        if (out["measure"] == measure).any()
    }
    return chosen[~marked], left_out


def _left_out_text(left_out: dict[str, list[str]], every: int) -> str:
    """``accuracy: a, b; DIbinary: every one of the 31``, of ``every`` algorithms shown."""
    return "; ".join(
        f"{measure}: {f'every one of the {every}' if len(names) == every else ', '.join(names)}"
        for measure, names in left_out.items()
    )


# Each part of a configuration, and the frames it reads (besides its name, styles and families).
_CONFIGURATION_PARTS: dict[
    str, tuple[Callable[[Writer, _Configuration], None], tuple[str, ...]]
] = {
    "measures": (_measures_table, ("chosen", "undefined", "small", "flags")),
    "audit outcomes": (_audit_outcomes, ("chosen", "audits", "adjustment", "small", "flags")),
    "stability": (_stability, ("chosen",)),
    "tradeoff": (_tradeoff, ("measures", "audits", "off_front")),
    "calibration": (_calibration, ("chosen",)),
    "comparisons": (_which_is_better, ("chosen", "flags")),
}


def _rankings(
    writer: Writer, chosen: pd.DataFrame, cells: pd.DataFrame, test_rows: pd.Series
) -> None:
    """Friedman ranks over the datasets and attributes of each variant, with the CD diagram.

    An algorithm is ranked by its mean score over splits in the setting the report shows for
    it (tuned in one dataset, defaults in another), from ``chosen``, the representative runs of
    every configuration. A flagged cell (``cells``: :func:`.flags.cell_flags`) is not ranked:
    a dataset where most cells of the measure are flagged is left out of its ranking, then an
    algorithm missing from one of the variant's datasets left (flagged or not run there), as
    the test needs complete blocks; the text names both. The same blocks and algorithms are
    then compared with the best-ranked, each dataset weighed by its test rows (``test_rows``,
    by dataset and attribute: :func:`.compare.against_datasets`).
    """
    writer.section("Which intervention is better? Ranks across datasets (Demšar 2006)")
    shown = equal_fairness.without_frontiers(chosen)
    apart = _frontiers_apart(chosen)  # said under each diagram below
    comparable, _ = _comparable(shown, cells)
    for measure, (variant, part) in itertools.product(COMPARED, shown.groupby("variant")):
        every = _block_scores(part, measure)  # every block and algorithm, flagged or not
        kept = _block_scores(comparable[comparable["variant"] == variant], measure)
        table = kept.reindex(index=every.index, columns=every.columns)
        sparse = table.notna().mean(axis=1) < 0.5  # most of the block's cells flagged
        complete = table[~sparse].dropna(axis=1)
        names = [", ".join(block) for block in table.index[sparse]]
        missing = sorted(set(table.columns) - set(complete.columns))
        reasons = []
        if names:
            reasons.append(f"the datasets where most cells are flagged: {' and '.join(names)}")
        if missing:
            reasons.append(f"the algorithms flagged or missing in a dataset kept: "
                           f"{', '.join(missing)}")  # fmt: skip
        if reasons:
            writer.text(f"Left out of the ranks of {measure} ({variant}), flagged in the measures "
                        f"tables or not run: {'; '.join(reasons)}.")  # fmt: skip
        try:
            test = compare.friedman(complete)
        except ValueError as reason:
            writer.text(f"No ranking of {measure} ({variant}) across datasets: {reason}.")
            continue
        title = kind.critical_difference.ranked(measure, str(variant))
        shown = kind.critical_difference.CriticalDifferenceFrames(test, title)
        figure = kind.critical_difference.draw(shown, REPORT)
        writer.figure(
            figure,
            f"critical-difference-{slug(measure, variant)}",
            f"Average ranks of {measure} ({variant}) over {test.datasets} datasets and "
            "attributes (1 best); a bar joins algorithms the Nemenyi test cannot tell apart. "
            f"Friedman's p = {test.pvalue:.2g}, Iman and Davenport's p = "
            f"{test.iman_davenport[1]:.2g} (whether any ranks differ); with "
            f"{test.datasets} datasets, two algorithms differ only where their average ranks "
            f"are {test.critical_difference:.1f} or more apart, of {len(test.ranks)} ranks."
            f"{apart}",
        )
        ranked = comparable[comparable["variant"] == variant]
        in_blocks = ranked.set_index(["dataset", "sensitive_attribute"]).index.isin(complete.index)
        ranked = ranked[in_blocks & ranked["algorithm"].isin(complete.columns)]
        _weighed(writer, ranked, measure, str(variant), str(test.ranks.idxmin()), test_rows)


def _weighed(
    writer: Writer,
    ranked: pd.DataFrame,
    measure: str,
    variant: str,
    best: str,
    test_rows: pd.Series,
) -> None:
    """Write every ranked algorithm against the best-ranked, each dataset weighed by its rows."""
    table = compare.against_datasets(ranked, measure, best, test_rows)
    if table.empty:
        return
    keys = ranked[["dataset", "sensitive_attribute"]].drop_duplicates()
    dataset, attribute = test_rows.loc[list(keys.itertuples(index=False, name=None))].idxmax()
    shown = (
        table.set_index("algorithm")[["mean", "better", "worse", "pvalue", "holm_pvalue"]]
        .sort_values("mean", ascending=False)
        .rename(columns={"mean": "score - best's", "better": "datasets better",
                         "worse": "datasets worse", "pvalue": "combined p",
                         "holm_pvalue": "Holm"})
    )  # fmt: skip
    writer.text(
        f"Each algorithm against the best-ranked ({best}) on {measure} ({variant}), over the "
        f"same {int(table['datasets'].max())} datasets and attributes, each weighed by its test "
        f"rows where ranks weigh them alike: the difference of mean scores, averaged with "
        f"weights proportional to the test rows; the datasets where its own corrected t-test "
        f"finds it better or worse (0.05); and the datasets' one-sided tests combined by "
        f"Stouffer's Z weighted by the square roots of their test rows, Holm over the "
        f"algorithms. A combined p below 0.05 says it differs on these datasets, not on "
        f"datasets in general; {dataset} ({attribute}) carries {table['weight'].max():.0%} of "
        f"the weight."
    )
    writer.table(
        shown,
        f"against-best-{slug(measure, variant)}",
        f"{measure} ({variant}) against {best} across datasets weighed by their test rows",
        numbers=table,
    )


def _block_scores(chosen: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Each algorithm's mean score (columns) in each dataset and attribute (rows)."""
    if not (chosen["measure"] == measure).any():
        return pd.DataFrame()
    return compare.scores(chosen, measure).pivot_table(
        index=["dataset", "sensitive_attribute"], columns="algorithm", values="score"
    )


def _at_equal_fairness(
    writer: Writer,
    measures: pd.DataFrame,
    validation: pd.DataFrame,
    algorithms: tuple[str, ...],
    constant: tuple[str, ...],
) -> None:
    """Every intervention against the post-processed best model at its own unfairness.

    A figure and a table per dataset, attribute and variant with a frontier
    (:mod:`~faircompare.analysis.equal_fairness`), then how many algorithms beat it. A method
    with a constant run (``constant``: those runs' keys) is left out, as the findings leave it.
    """
    points = equal_fairness.frontier_points(measures)
    if points.empty:
        return
    measures, no_result = _without_constant(measures, constant)
    writer.section("At equal fairness (Cruz & Hardt 2024)")
    writer.text(
        "Each intervention against the frontier of the most accurate unconstrained model "
        "(unprocessed-*): without a constraint, the baseline itself, fitted on every training "
        "row; with one, the baseline cross-fitted on every training row and post-processed by "
        "group thresholds at each tolerance of demographic parity and of equalized odds. The "
        "difference is the intervention's test accuracy minus the frontier's at the "
        "intervention's own test violation of the constraint. Positive: it beats the "
        "post-processed model at its level of unfairness."
        + _constant_text(no_result, list(algorithms))
    )
    found: list[pd.DataFrame] = []
    where = tidy.WHERE
    for configuration, part in measures.groupby(where):
        mine = points[(points[where] == pd.Series(configuration, index=where)).all(axis=1)]
        if mine.empty:
            continue
        keys = part["key"].unique()  # the part is keyed on these runs' validation rows
        tuning = validation[validation["key"].isin(keys)]
        label = ", ".join(configuration)
        table = writer.attempt(
            f"equal fairness: {label}", _equal_fairness_part, configuration, part, tuning,
            algorithms,
        )  # fmt: skip
        if table is not None:
            found.append(table)
    if found:
        summary = equal_fairness.equal_fairness_summary(pd.concat(found, ignore_index=True))
        writer.table(
            summary,
            "equal-fairness-summary",
            "Algorithms significantly above, on and below the post-processed frontier "
            "(corrected t-test, Holm over each table's algorithms, p < 0.05), per constraint; "
            "untested: fewer than two splits where the constraint's measure is defined",
        )
        _above_in_every_split(writer, pd.concat(found, ignore_index=True))


def _above_in_every_split(writer: Writer, tables: pd.DataFrame) -> None:
    """Name the interventions above the frontier in every split, a finding whatever its test."""
    above = equal_fairness.above_in_every_split(tables)
    if above.empty:
        writer.text("No intervention is above the frontier in every split.")
        return
    where = above[tidy.WHERE].agg(", ".join, axis=1)
    shown = above.assign(where=where).set_index(["where", "constraint", "algorithm"])
    writer.table(
        shown[["splits", "difference", "ci_low", "ci_high", "holm", "verdict"]],
        "equal-fairness-above",
        "Findings: the interventions above the frontier in every split, by how much (mean "
        "accuracy over the frontier's at equal fairness, 95% corrected interval), with the "
        "Holm-adjusted p-value and verdict of their table: a verdict of on means the splits "
        "are too few, or the differences too spread, for the test to tell",
        numbers=above,
    )


def _equal_fairness_part(
    writer: Writer,
    configuration: tuple[str, str, str],
    measures: pd.DataFrame,
    validation: pd.DataFrame,
    algorithms: tuple[str, ...],
) -> pd.DataFrame | None:
    """Write one dataset, attribute and variant's figure and table; return the table."""
    name, label = slug("equal-fairness", *configuration), ", ".join(configuration)
    table = equal_fairness.equal_fairness_table(measures, validation)
    if table.empty:
        writer.text(f"No other algorithm to compare with the frontier: {label}.")
        return None
    frontier = table["frontier"].iloc[0]
    study = StudyFrames(measures, validation, pd.DataFrame(), algorithms)
    figure = kind.equal_fairness.draw(kind.equal_fairness.frames(study, Selection()), REPORT)
    writer.figure(
        figure,
        name,
        f"At equal fairness: the frontier of {frontier} (a thin line per split, their mean "
        f"black) and every other run (grid values pooled): {label}",
    )
    writer.text(
        _yardstick(equal_fairness.frontier_choice(equal_fairness.frontier_points(measures)))
    )
    writer.table(
        table.set_index(["constraint", "algorithm"]),
        name,
        equal_fairness.caption(frontier, label),
        numbers=table,
    )
    return table.assign(**dict(zip(("dataset", "sensitive_attribute", "variant"),
                                   configuration, strict=True)))  # fmt: skip


def _yardstick(choice: pd.DataFrame) -> str:
    """Say which frontier is the yardstick, with the accuracies that chose it."""
    ends = "; ".join(
        f"{frontier} {row.accuracy:.3f}" + ("" if np.isnan(row.se) else f" (se {row.se:.3f})")
        for frontier, row in choice.iterrows()
    )
    baseline = str(choice.index[0]).removeprefix(equal_fairness.FRONTIER_PREFIX)
    return (
        f"The yardstick is {choice.index[0]}: of the frontiers run, the one whose unconstrained "
        f"end (its baseline's own predictions) has the highest test accuracy, mean over "
        f"{int(choice['splits'].max())} splits: {ends}. That end is its baseline, "
        f"{baseline}, whose row below reads 0 by construction."
    )


def _correlations(writer: Writer, measures: pd.DataFrame, store: ResultStore) -> None:
    writer.section("Measure correlations (§6.3)")
    samples = {"all": measures, "balanced": tidy.balanced_measures(store)}
    if samples["balanced"].empty:
        del samples["balanced"]
        writer.text(
            "No balanced sample: it draws from each test split's four cells (both labels in the "
            "privileged group and in the rest), and no stored run's test split has all four."
        )
    frames = []
    for sample, source in samples.items():
        for method in ("pearson", "spearman"):
            correlations = tidy.measure_correlations(source, method=method, by=("variant",))
            frames.append(correlations.assign(sample=sample, method=method))
        for variant, part in frames[-2].groupby("variant"):  # Pearson of this sample
            matrix, title = tidy.correlation_matrix(part), f"{variant}, {sample} runs"
            if not _correlated(matrix):
                writer.text(
                    f"No correlations for {variant} ({sample} sample): no two measures vary "
                    "together over its runs (too few runs)."
                )
                continue
            caption = f"Pearson correlations across runs, {variant} ({sample} sample)"
            name = slug("correlation", sample, variant)
            writer.drawn(name, caption, _correlation_figure, matrix, title)
    by_dataset = tidy.measure_correlations(measures, method="pearson", by=("dataset", "variant"))
    for (dataset, variant), part in by_dataset.groupby(["dataset", "variant"]):
        matrix = tidy.correlation_matrix(part)
        if _correlated(matrix):
            caption = f"Pearson correlations across the runs of {dataset}, {variant}"
            name, title = slug("correlation", dataset, variant), f"{dataset}, {variant}"
            writer.drawn(name, caption, _correlation_figure, matrix, title)
    frames.append(by_dataset.assign(sample="all, per dataset", method="pearson"))
    pooled = pd.concat(frames, ignore_index=True)
    path = writer.out / "tables" / "correlations.csv"
    with replaced(path, writer.root) as temporary:
        pooled.to_csv(temporary, index=False)
    writer.wrote(path)
    writer.text("All correlations, Pearson and Spearman: tables/correlations.csv.")


def _correlation_figure(matrix: pd.DataFrame, title: str) -> Figure:
    """Draw a correlation matrix as the correlations kind does, as wide as its measures need."""
    shown = kind.correlations.CorrelationFrames(kind.correlations.ordered(matrix), title)
    return kind.correlations.draw(shown, kind.correlations.widened(shown, REPORT))


def _correlated(matrix: pd.DataFrame) -> bool:
    """Whether a correlation matrix holds a correlation besides its diagonal's."""
    return bool(matrix.notna().to_numpy().sum() > len(matrix))


def _measure_pairs(writer: Writer, study: StudyFrames) -> None:
    """Fig. 4: CV against comparative TPR and TNR, every dataset, the interventions."""
    ran = study.measures.groupby("variant")["algorithm"].unique()
    aware = {v: [a for a in sorted(names) if _intervention(a, study.families)]
             for v, names in ran.items()}  # fmt: skip
    shown = _drawable(kind.pairs, study, {v: Selection(variants=[v], algorithms=names)
                                          for v, names in aware.items() if names})  # fmt: skip
    if shown:
        writer.section("Measure pairs (Fig. 4)")
    for variant, frames in shown.items():
        caption = (
            f"CV against comparative-sensitive-TPR and -TNR (Fig. 4), a point per split of each "
            f"dataset and attribute, the interventions as the tables show them (past eight, a "
            f"panel per family, the others' runs in grey): {variant}"
        )
        writer.drawn(
            slug("measure-pairs", variant),
            caption,
            kind.pairs.draw,
            frames,
            replace(REPORT, legend="below"),
        )  # a row of families per measure: page-wide


def _intervention(algorithm: str, families: Mapping[str, str]) -> bool:
    """Whether an algorithm is a fairness intervention: no baseline, and no yardstick's frontier."""
    frontier = algorithm.startswith(equal_fairness.FRONTIER_PREFIX)
    return families.get(algorithm) != "baseline" and not frontier


def _drawable(
    module: ModuleType, study: StudyFrames, selections: Mapping[Any, Selection], *x: str
) -> dict[Any, Any]:
    """Return a kind's frames of each selection that holds what it draws (others left out)."""
    shown = {}
    for name, selection in selections.items():
        try:
            shown[name] = module.frames(study, selection, *x)
        except ValueError:  # the selection holds nothing this kind draws
            continue
    return shown


def _tuning(writer: Writer, measures: pd.DataFrame, study: StudyFrames, store: ResultStore) -> None:
    """Write what survives equal tuning: the verdicts at each budget, and the ranking by budget.

    Only for a study with tuned runs (:attr:`~faircompare.config.BenchmarkConfig.
    tuning_budgets`): each method's verdict against the yardstick at its defaults and tuned
    with each budget, the yardstick tuned alike (:func:`.budgets.verdicts_by_budget`), and the
    ranking-by-budget figure (:mod:`.kinds.budget`).
    """
    if not tidy.budgets_run(measures):
        return
    writer.section("Tuning at an equal budget")
    verdicts = budgets.verdicts_by_budget(measures)
    spent = store.trials().groupby("key")["number"].size()
    budgeted = store.runs().dropna(subset="budget")
    writer.text(
        budgets.surviving(verdicts) + " Every method, and the yardstick's baseline, is tuned "
        "with the same budget: that many trials of a seeded search of its parameters, each "
        "fitted on the training rows less a validation third and scored on that third; the "
        "chosen setting is fitted on every training row and tested once. "
        + _budgets_spent(budgeted, spent)
    )
    writer.table(
        verdicts.set_index([*tidy.WHERE, "algorithm", "constraint"]),
        "verdicts-by-budget",
        "Each method's verdict against the yardstick at equal fairness (above, on or below the "
        "frontier tuned with the same budget; corrected t-test over splits, Holm-adjusted over "
        "the configuration's methods at that budget), at its defaults and tuned with each "
        f"budget ({equal_fairness.OWN_BASELINE}: the baseline the frontier post-processes, no "
        "verdict); survives: the verdict at the defaults holds at every budget",
        numbers=verdicts,
    )
    frames = kind.budget.frames(study, Selection())
    caption = (
        "Ranking by budget: each method's mean test accuracy and DIbinary gap over splits, with "
        "its corrected 95% interval, at its defaults and tuned with each budget (the yardstick "
        "is not drawn); where two lines cross, the budget changed their order"
    )
    writer.drawn("ranking-by-budget", caption, kind.budget.draw, frames, REPORT)


def _budgets_spent(runs: pd.DataFrame, spent: pd.Series) -> str:
    """Say how many trials each tuned run's search made, from the store: its budget, or fewer."""
    made = runs["key"].map(spent).fillna(0).astype(int)
    exact = int((made == runs["budget"].astype(int)).sum())
    whole = len(runs) - exact
    said = f"Of {len(runs):,} tuned runs, {exact:,} made exactly their budget's trials"
    if whole:
        said += (f"; {whole:,} searched a space smaller than their budget whole (a few "
                 "discrete values, or nothing to tune), each setting once")  # fmt: skip
    return said + "."


def _preprocessing(writer: Writer, study: StudyFrames) -> None:
    """Fig. 2: each measure under both numerical variants, a panel per dataset and attribute."""
    shown: dict[str, Any] = {}
    for measure in PREPROCESSING_MEASURES:
        shown |= _drawable(kind.preprocessing, study, {measure: Selection()}, measure)
    if not shown:
        return
    writer.section("Preprocessing: numerical vs numerical+binary (§5.1)")
    writer.text(
        "Where an attribute has two values, the privileged one sorting last (such as sex in Adult, "
        "German and ProPublica), the two variants are the same data with other group names: an "
        "algorithm that reads the groups by their order alone (the baselines, Feldman's repair) "
        "gives one run for both, on the diagonal."
    )
    for measure, frames in shown.items():
        caption = (
            f"{measure} under numerical (across) and numerical+binary (up), a point per split of "
            "each algorithm as the tables show it (Fig. 2), a panel per dataset and attribute"
        )
        writer.drawn(slug("preprocessing", measure), caption, kind.preprocessing.draw, frames,
                     REPORT)  # fmt: skip


def _sweeps(writer: Writer, study: StudyFrames) -> None:
    """Fig. 8: each algorithm over its grid (a frontier's tolerances have their own section)."""
    swept = study.measures.loc[study.measures["variant"] == SWEEP_VARIANT, tidy.WHERE[:2]]
    pairs = sorted(set(swept.itertuples(index=False, name=None)))
    shown = _drawable(kind.sweep, study, {(d, a): Selection([d], [a], [SWEEP_VARIANT])
                                          for d, a in pairs})  # fmt: skip
    if shown:
        writer.section("Parameter sweeps (§7.2)")
    for (dataset, attribute), frames in shown.items():
        caption = (
            f"Each algorithm over its parameter's grid (Fig. 8), every grid value and every "
            f"split, coloured by the value: {dataset}, {attribute}, {SWEEP_VARIANT}"
        )
        writer.drawn(slug("sweep", dataset, attribute), caption, kind.sweep.draw, frames, REPORT)


def _attributes(writer: Writer, study: StudyFrames) -> None:
    """Fig. 9: CV per sensitive attribute of each algorithm as the report shows it.

    Its defaults, or tuned for accuracy where it ran over a grid: the fairness-aware algorithms
    too, not only the baselines (the only ones with default-parameter runs in the paper study).
    """
    datasets = sorted(study.measures["dataset"].unique())
    shown = _drawable(kind.attributes, study, {d: Selection([d], variants=[SWEEP_VARIANT])
                                               for d in datasets})  # fmt: skip
    if shown:
        writer.section("Several sensitive attributes (§7.3)")
    for dataset, frames in shown.items():
        caption = (
            f"CV by sensitive attribute (Fig. 9), each algorithm with its defaults or tuned for "
            f"accuracy, a point per split: {dataset}, {SWEEP_VARIANT}"
        )
        writer.drawn(slug("attributes", dataset), caption, kind.attributes.draw, frames, REPORT)


def _audit_figures(writer: Writer, store: ResultStore, study: StudyFrames) -> None:
    """Write the audits' section: Monte Carlo errors, individual statistics, p-values, a headline.

    ``study`` holds the runs as the report shows them; the store (passed apart from it, for a
    worker process opens its own) is read for the runs' scores and sizes.
    """
    audits = study.audits
    if audits.empty:
        return
    study = replace(study, store=store)
    writer.section("Audits")
    errors = tidy.monte_carlo_errors(audits)
    caption = (
        "Monte Carlo errors of the audits' numbers, as half-widths: a permutation p-value's "
        "interval after Holm's adjustment (a sequential test's confidence sequence, which "
        "holds its p-value at every batch but for a risk of 1e-3 per run; a fixed test's 95% "
        "Clopper-Pearson interval); a derivative-free individual statistic's attacks and a "
        "FlipTest rate on a map fitted to samples of a large group, 95%; the individual "
        "statistic is each run's as read (T_n, or T~_n where T_n is not defined). 'stored': "
        "the numbers (a run's tests, or its statistic); 'with an error': those that are "
        "random, summarised by their median and 95th percentile, the largest named by its "
        "run; "
        "'undecided': the verdicts still open at 0.05 after the tests drew to their cap "
        "(faircompare audit --undecided draws them further)"
    )
    if len(errors):
        writer.table(errors.round(4), "audit-monte-carlo-errors", caption)
    statistics = tidy.individual_statistics(audits)
    if len(statistics):  # runs with an individual test (not only groups too small for one)
        caption = (
            "Individual-fairness test of every run (Maity et al. §3), a panel per dataset, "
            "attribute and variant, a row per algorithm: the loss ratio's T_n (circles), or the "
            "error-rate ratio's T~_n (squares) where more than 5% of the audit points are "
            "near-certain and the loss ratio is not defined; a run attacked without gradients "
            "has its Monte Carlo interval (+-1.96 errors, a line) and is filled where that "
            "interval holds delta (undecided); right of delta (dashed) the test rejects, and "
            "each row's share of decided runs rejecting is written at its end. Feldman's "
            "pipelines are attacked along the gradient of their repair's smoothing where their "
            "classifier has one (the repair itself has none; the methods page)"
        )
        shown = kind.individual.arranged(statistics, study.styles)
        writer.drawn("individual-statistics", caption, kind.individual.draw, shown, REPORT)
    pooled = tidy.pooled_audits(audits)
    for pvalues in _drawable(kind.pvalues, study, {"every run": Selection()}).values():
        caption = (
            f"Demographic-parity permutation p-values of every run ({len(pvalues.pvalues)}, each "
            "grid value and split; DiCiccio et al. Fig. 1), against the uniform a valid test "
            "gives under the null"
        )
        writer.drawn("pvalues-demographic-parity", caption, kind.pvalues.draw, pvalues, REPORT)
        writer.attempt("threshold curve", _threshold_curve, study)
    flips = pooled[(pooled["audit"] == "fliptest") & (pooled["metric"] == "F+")]
    if len(flips):
        writer.attempt("transparency report", _transparency_report, study)


def _transparency_report(writer: Writer, study: StudyFrames) -> None:
    """Black et al.'s transparency report of the headline F+ (:mod:`.kinds.flipset`)."""
    try:
        shown = kind.flipset.frames(study, Selection())
    except ValueError:
        writer.text(
            f"No FlipTest transparency report: no run predicting both classes in every group, "
            f"its measures unflagged, has {FLIPSET_MIN_ROWS} test rows or more."
        )
        return
    verdict = "rejects" if shown.significant else "does not reject (no run of this size does)"
    caption = (
        f"Transparency report of the largest F+ ({shown.rate_text}) among runs with at least "
        f"{FLIPSET_MIN_ROWS} test rows, predicting both classes in every group and no "
        f"measure flagged, whose demographic-parity test {verdict}: {shown.run}; on a map "
        "fitted to samples, the rate and each mean carry their 95% sampling interval"
    )
    writer.drawn("fliptest-largest-flipset", caption, kind.flipset.draw, shown, REPORT)


def _threshold_curve(writer: Writer, study: StudyFrames) -> None:
    """DiCiccio et al. Fig. 2 for the scored run with the smallest demographic-parity p-value."""
    try:
        shown = kind.threshold.frames(study, Selection())
    except ValueError:  # no run with scores
        return
    caption = (
        f"Positive-rate gap across thresholds against the permutation 95th percentile: {shown.run}"
    )
    writer.drawn("threshold-curve", caption, kind.threshold.draw, shown, REPORT)


def _page(sections: list[Section], results: Path, named: dict[str, str]) -> str:
    """Render the page from its template (``templates/report.html``), escaping every text.

    ``named``: the algorithm each name in a table names, which the chart's highlight marks.
    """
    anchors = [slug(s.title) or f"section-{i}" for i, s in enumerate(sections)]
    shown = [
        {"anchor": anchor, "title": s.title, "parts": s.parts}
        for anchor, s in zip(anchors, sections, strict=True)
    ]
    return _TEMPLATES.get_template("report.html").render(
        results=str(results), sections=shown, first_rows=TABLE_FIRST_ROWS, named=named
    )


_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("faircompare.analysis", "templates"),
    autoescape=True,
    keep_trailing_newline=True,
)
