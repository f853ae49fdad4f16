"""The analyses and the report, built from a small real benchmark run."""

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle
from scipy import stats

from faircompare.analysis import compare, figures, kinds, tables, tidy
from faircompare.analysis.canvas import REPORT
from faircompare.analysis.compare import FriedmanTest
from faircompare.analysis.report import _frontiers_apart, slug
from faircompare.results import ResultStore

pytestmark = pytest.mark.data


def test_report_writes_every_expected_file(report, frames):
    measures, _ = frames
    out = report.parent
    expected = ["report.html", "tables/correlations.csv", "figures/pvalues-demographic-parity.png",
                "figures/threshold-curve.png", "figures/individual-statistics.png",
                "figures/fliptest-largest-flipset.png"]  # fmt: skip
    for dataset, attribute in (("ricci", "Race"), ("german", "sex")):
        for variant in ("numerical", "numerical+binary"):
            name = slug(dataset, attribute, variant)
            # Ricci's groups are below the audits' minimum: a line says so, no empty table
            expected += [
                f"tables/{kind}-{name}.{ext}"
                for kind in ("measures", "audits")
                for ext in ("csv", "tex")
                if not (kind == "audits" and dataset == "ricci")
            ]
            assert (dataset == "ricci") == (not (out / f"tables/audits-{name}.csv").exists())
            # the page's PNG (a paper's PDF comes from `faircompare figure`); Ricci's groups are
            # below the audits' minimum of test rows: no audit share to draw
            kinds_drawn = ("stability", "tradeoff", "calibration", "audits")
            expected += [
                f"figures/{kind}-{name}.png"
                for kind in kinds_drawn
                if not (kind == "audits" and dataset == "ricci")
            ]
        # each dataset and attribute's algorithms over their grids, a panel each (Fig. 8)
        expected.append(f"figures/{slug('sweep', dataset, attribute)}.png")
    # a measure under both variants, a panel per dataset and attribute (Fig. 2)
    expected += [f"figures/{slug('preprocessing', m)}.png" for m in ("accuracy", "DIbinary")]
    expected.append(f"tables/audits-groups-{slug('ricci', 'Race', 'numerical')}.csv")
    # Fig. 4 shows the fairness-aware algorithms: zafar-fairness runs on numerical+binary only
    expected.append("figures/measure-pairs-numerical-binary.png")
    for sample in ("all", "balanced", "ricci", "german"):  # pooled, then per dataset
        expected += [
            f"figures/{slug('correlation', sample, v)}.png"
            for v in ("numerical", "numerical+binary")
        ]
    missing = [
        name for name in expected if not (out / name).is_file() or (out / name).stat().st_size == 0
    ]
    assert missing == []
    assert not list((out / "figures").glob("*.pdf")) and not list((out / "figures").glob("*.svg"))
    assert not (out / "tables" / "report-failures.csv").exists()  # every part was drawn
    page = report.read_text()
    assert page.count('<img src="data:image/png;base64,') == len(
        list((out / "figures").glob("*.png"))
    )
    # every file the page names is a link to a file written (issue #81: captions named
    # figures/*.pdf|svg, which the report does not write)
    linked = re.findall(r'href="((?:figures|tables)/[^"]+)"', page)
    assert len(linked) > 60 and [name for name in linked if not (out / name).is_file()] == []
    assert ".pdf" not in page and "|" not in "".join(re.findall(r"<code>[^<]*</code>", page))
    assert "Audits of ricci, Race, numerical: no run was audited, each audit needing" in page
    # a missing number prints empty (FlipTest's undecided, which gives rates: it read "<NA>")
    assert "&lt;NA&gt;" not in page and "FlipTest F+ rate" in page


def test_correlation_matrix_equals_pandas(report, frames):
    # One row per run, one column per aggregate measure, then DataFrame.corr: computed directly.
    measures, _ = frames
    written = pd.read_csv(report.parent / "tables" / "correlations.csv")
    for variant in ("numerical", "numerical+binary"):
        aggregate = measures[(measures["group"] == "") & (measures["variant"] == variant)]
        direct = aggregate.pivot_table(
            index="key", columns="measure", values="value", dropna=False
        ).corr()
        ours = tidy.correlation_matrix(
            tidy.measure_correlations(measures, by=("variant",)).query("variant == @variant")
        )
        pd.testing.assert_frame_equal(
            ours.loc[direct.index, direct.columns], direct, check_names=False
        )
        stored = written.query("variant == @variant and sample == 'all' and method == 'pearson'")
        stored = stored.pivot(index="measure_a", columns="measure_b", values="correlation")
        pd.testing.assert_frame_equal(
            stored.loc[direct.index, direct.columns], direct, check_names=False
        )


def test_stability_has_a_t_interval_and_one_rectangle_per_algorithm(frames, results):
    measures, _ = frames
    german = measures[measures["dataset"] == "german"]
    defaults = german[german["setting"] == "defaults"]
    with ResultStore(results) as store:
        validation = store.measures("validation")
    # zafar-fairness ran over its grid only: per split, its setting with the best validation
    # accuracy stands for it (labelled as in the paper); without validation runs, its grid pooled.
    summary = tidy.stability(tidy.representative(german, validation), ("accuracy", "CV"))
    settings = summary[["algorithm", "setting"]].drop_duplicates()
    assert set(settings.itertuples(index=False, name=None)) == {
        ("logistic-regression", "defaults"),
        ("decision-tree", "defaults"),
        ("zafar-fairness", "tuned for accuracy"),
    }
    assert set(tidy.labelled(summary)["algorithm"]) == {
        "logistic-regression",
        "decision-tree",
        "zafar-fairness-accuracy",
    }
    pooled = tidy.representative(german)
    assert set(pooled.query("algorithm == 'zafar-fairness'")["setting"]) == {"all grid values"}
    assert pooled["params"].isin(german["params"]).all()  # each run keeps its own parameters
    tuned = tidy.stability(tidy.representative(german, validation), ("accuracy",)).query(
        "setting == 'tuned for accuracy' and variant == 'numerical+binary'"
    )
    assert tuned["splits"].tolist() == [2]  # one chosen setting per split
    row = summary.query(
        "variant == 'numerical+binary' and algorithm == 'decision-tree' and measure == 'accuracy'"
    ).iloc[0]
    values = tidy.runs_wide(defaults).query(
        "variant == 'numerical+binary' and algorithm == 'decision-tree'"
    )["accuracy"]
    half = stats.t.ppf(0.975, len(values) - 1) * values.std() / np.sqrt(len(values))
    assert (row["splits"], row["mean"], row["sd"]) == (
        2,
        pytest.approx(values.mean()),
        pytest.approx(values.std()),
    )
    assert row["ci_high"] - row["mean"] == pytest.approx(half)
    one = summary[summary["variant"] == "numerical+binary"]
    styles = figures.algorithm_styles(one["algorithm"])
    with pytest.warns(DeprecationWarning, match="plot_stability"):  # drawn by its kind (#63)
        figure = figures.plot_stability(one, "CV", "accuracy", styles)
    rectangles = [p for p in figure.axes[0].patches if isinstance(p, Rectangle)]
    assert len(rectangles) == one["algorithm"].nunique() == 3


def test_tradeoff_flags_significance_from_the_audits_and_the_pareto_front(frames):
    measures, audits = frames
    # the small study's parity tests reject nowhere (German's runs; Ricci's groups are too small
    # to audit): half of the tested runs are given a small adjusted p-value, so that the flags
    # have both values to show
    parity_rows = (
        (audits["audit"] == "permutation")
        & (audits["metric"] == "positive_rate")
        & (audits["scope"] == "rest")
        & audits["pvalue"].notna()
    )
    audits = audits.copy()
    audits.loc[audits.index[parity_rows][::2], "adjusted_pvalue"] = 0.001
    frame = tidy.tradeoff(measures, audits)
    parity = audits[parity_rows].set_index("key")
    holm = parity["adjusted_pvalue"].astype(float)
    expected = frame["key"].map(holm < 0.05).fillna(False)
    assert (frame["significant"] == expected).all()
    assert frame["significant"].any() and not frame["significant"].all()
    for _, part in frame.groupby(["dataset", "sensitive_attribute", "variant"]):
        front = part[part["pareto"]]
        assert len(front) >= 1
        for _, other in part.iterrows():  # nothing beats a front run on both counts
            beats = (other["accuracy"] > front["accuracy"]) & (other["gap"] < front["gap"])
            assert not beats.any()
    # a run whose DIbinary rests on few events is no result: kept off the front (#81), and
    # the front is then that of the others
    on_front = frame.loc[frame["pareto"], "key"].tolist()
    without = tidy.tradeoff(measures, audits, excluded=on_front)
    assert not without["key"].isin(on_front)[without["pareto"]].any()
    others = frame[~frame["key"].isin(on_front)]
    for _, part in others.groupby(["dataset", "sensitive_attribute", "variant"]):
        expected = tidy._non_dominated(part).to_numpy()
        assert (without.loc[part.index, "pareto"].to_numpy() == expected).all()


def test_pareto_front_by_hand():
    points = pd.DataFrame({"accuracy": [0.9, 0.8, 0.85, 0.7], "gap": [0.3, 0.1, 0.3, 0.05]})
    # (0.85, 0.3) is beaten by (0.9, 0.3); the other three trade accuracy for gap.
    assert tidy._non_dominated(points).tolist() == [True, True, False, True]


def test_balanced_resample_of_perfect_predictions_has_parity(results):
    # With every prediction right, each of the four (label, group) cells holds 250 rows of the
    # balanced sample, so both groups have positive rate 1/2: DI = 1 and accuracy = 1 (§6.3).
    with ResultStore(results) as store:
        key = store.runs()["key"].iloc[0]
        stored = store.predictions(key)
        perfect = dataclasses.replace(stored, y_pred=stored.y_true, scores=None)
        store.predictions = lambda k: perfect
        store.runs = lambda: pd.DataFrame(
            {"key": [key], "status": ["done"], **{c: ["x"] for c in tidy.RUN[1:]}}
        )
        balanced = tidy.balanced_measures(store, size=1000)
    values = balanced.query("group == ''").set_index("measure")["value"]
    assert values["accuracy"] == 1.0 and values["DIbinary"] == 1.0 and values["CV"] == 1.0


def test_latex_table_uses_booktabs_and_escapes():
    table = pd.DataFrame({"accuracy": ["0.812 ± 0.004"], "DI_binary": [0.5]}, index=["feldman-svm"])
    latex = tables.to_latex(table, caption="50% of runs")
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"feldman-svm & 0.812 $\pm$ 0.004 & 0.500 \\" in latex
    assert r"DI\_binary" in latex and r"50\% of runs" in latex


def test_the_fliptest_example_is_a_named_run_on_a_test_split_of_fair_size(report, results):
    # Ricci's test splits hold 40 people, German's 333: the example must come from German, and
    # its caption and title name the run (dataset, attribute, variant, algorithm, split).
    page = report.read_text()
    caption = page.split("Transparency report of the largest F+")[1].split("</figcaption>")[0]
    assert "at least 300 test rows" in caption
    assert ": german, sex, numerical" in caption and ", split " in caption
    assert "threshold-curve" in page and "Positive-rate gap across thresholds" in page


def test_the_report_says_which_intervention_is_better_and_ranks_them(report, frames):
    from faircompare.analysis import compare

    measures, _ = frames
    folder, page = report.parent, report.read_text()
    assert "Which intervention is better? Ranks across datasets" in page
    # no frontier ran: the findings say there is no yardstick, not that nothing beat it (#81)
    assert "No yardstick ran (unprocessed-*" in page
    # every configuration gets its pairwise tables; the one ranking with three algorithms on
    # two datasets (numerical+binary: Zafar's model needs it) gets its CD diagram
    for dataset, attribute, variant in measures.groupby(
        ["dataset", "sensitive_attribute", "variant"]
    ).groups:
        name = slug(dataset, attribute, variant)
        table = pd.read_csv(folder / "tables" / f"pairs-accuracy-{name}.csv")
        assert table["holm_pvalue"].between(0, 1).all()
        # the caption says what two splits can detect (#81): t(1)'s intervals, so much
        detectable = np.median(compare.detectable_difference(
            table["ci_high"] - table["mean_difference"], table["splits"]))  # fmt: skip
        assert f"Over 2 splits the test finds a difference of {detectable:.3f} 80 %" in page
        probabilities = table[["p_a_better", "p_equivalent", "p_b_better"]].sum(axis=1)
        np.testing.assert_allclose(probabilities, 1)
        assert (folder / "figures" / f"intervals-{name}.png").is_file()
    assert (folder / "figures" / "critical-difference-accuracy-numerical-binary.png").is_file()
    assert "No ranking of accuracy (numerical) across datasets" in page
    # Ricci's 40 test rows: each DIbinary rests on fewer than 10 predicted positives in a group,
    # a flagged cell, so Ricci leaves DIbinary's ranking and German alone cannot rank (#81)
    assert "Not compared, their cells flagged in the measures table (ricci, Race, " in page
    assert (
        "Left out of the ranks of DIbinary (numerical+binary), flagged in the measures tables "
        "or not run: the datasets where most cells are flagged: ricci, Race." in page
    )
    assert not (folder / "figures" / "critical-difference-dibinary-numerical-binary.png").exists()
    # the stored table is the comparison of the representative runs, recomputed here
    german = measures.query("dataset == 'german' and variant == 'numerical+binary'")
    chosen = tidy.representative(german)
    recomputed = compare.pairwise(chosen, "DIbinary")
    assert set(recomputed["a"]) | set(recomputed["b"]) == {
        "decision-tree", "logistic-regression", "zafar-fairness (grid)"
    }  # fmt: skip


def test_critical_difference_cliques_join_ranks_closer_than_the_cd():
    ranks = pd.Series([1.0, 1.5, 2.9, 3.2, 4.5], index=list("abcde"))

    def groups(cd):
        return FriedmanTest(ranks, 0.0, 1.0, cd, datasets=5, alpha=0.05).groups()

    # Demšar Fig. 1's bars: maximal runs of sorted ranks within the critical difference
    assert groups(1.0) == [(1.0, 1.5), (2.9, 3.2)]
    assert groups(2.0) == [(1.0, 2.9), (1.5, 3.2), (2.9, 4.5)]


@pytest.mark.parametrize("k", [3, 8, 22])
def test_the_critical_difference_diagram_fits_its_names_without_empty_space(k):
    ranks = pd.Series(np.linspace(1, k, k), index=[f"algorithm-{i}" for i in range(k)])
    test = compare.FriedmanTest(ranks, 30.0, 0.001, 5.0, datasets=5, alpha=0.05)
    frames = kinds.critical_difference.CriticalDifferenceFrames(test, "average rank")
    ax = kinds.critical_difference.draw(frames, REPORT).axes[0]
    levels = [text.get_position()[1] for text in ax.texts if "algorithm-" in text.get_text()]
    bottom = ax.get_ylim()[0]  # inches from the top, downwards
    assert len(levels) == k and max(levels) < bottom
    # the lowest names sit a line above the bottom; before, 22 names left the lower half of the
    # figure empty (the bottom at -13 for names down to -6.6)
    assert bottom - max(levels) == pytest.approx(REPORT.line + 0.1)


def test_a_many_group_attribute_has_a_row_per_group_and_algorithm(report):
    # Ricci's Race in the numerical variant: W (privileged), B and H, about 40 test rows in all,
    # so every group is under the 30 rows a comparison needs: each keeps its row and the reason
    table = pd.read_csv(
        report.parent / "tables" / f"audits-groups-{slug('ricci', 'Race', 'numerical')}.csv"
    )
    assert set(table["group"]) == {"B", "H"}
    assert len(table) == 2 * table["algorithm"].nunique()
    assert table["note"].str.match(r"too few rows").all()


def test_the_audit_tables_read_a_run_adjusted_together_when_asked(results, report, tmp_path):
    # issue #64: `faircompare report --adjust run`; the caption says which adjustment was read,
    # and adjusting more tests together can only lower a share of splits rejecting
    from faircompare.analysis.report import write_report

    with pytest.raises(ValueError, match="unknown adjustment 'runs'"):
        write_report(results, tmp_path / "no", adjustment="runs")
    page = write_report(results, tmp_path / "run", adjustment="run").read_text()
    assert "every permutation test of a run adjusted together" in page
    name = f"audits-{slug('german', 'sex', 'numerical+binary')}.csv"
    together = pd.read_csv(tmp_path / "run" / "tables" / name).set_index("algorithm")
    alone = pd.read_csv(report.parent / "tables" / name).set_index("algorithm")
    shares = [c for c in alone.columns if c.startswith("permutation ") and "undecided" not in c]
    both = alone[shares].notna() & together[shares].notna()
    assert (together[shares][both] <= alone[shares][both]).all().all()


def test_the_frontiers_are_said_apart_only_where_a_study_has_them(report):
    # the paper profile runs no frontier, yet every pairwise table and critical-difference
    # caption said the frontiers "are the yardstick of the equal-fairness section, not
    # compared here", a section that page does not have
    page = report.read_text()
    assert "Which intervention is better?" in page  # the pairwise tables are there
    assert "yardstick of the equal-fairness section" not in page  # no frontier in this study
    with_frontier = pd.DataFrame({"algorithm": ["svm", "unprocessed-logistic-regression"]})
    assert "are the yardstick of the equal-fairness section" in _frontiers_apart(with_frontier)
    assert _frontiers_apart(with_frontier.iloc[:1]) == ""


def test_a_pivoted_table_on_the_page_has_no_empty_column_headed_by_its_columns_name(tmp_path):
    # #81: the equal-fairness summary (a pivot of verdicts) showed an empty first column
    # headed "verdict", pandas's place for the columns' name
    from faircompare.analysis.report_cache import PartCache
    from faircompare.analysis.report_writer import Writer

    pivot = pd.DataFrame({"above": [0], "below": [30]}, index=pd.Index(["adult"], name="dataset"))
    writer = Writer(tmp_path, tmp_path, PartCache(tmp_path, tmp_path))
    writer.section("summary")
    writer.table(pivot.rename_axis(columns="verdict"), "summary", "verdicts")
    html = writer.sections[-1].parts[-1]["table"]
    assert re.findall(r"<th>(.*?)</th>", html) == ["dataset", "above", "below"]
