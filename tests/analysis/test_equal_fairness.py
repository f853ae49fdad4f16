"""At equal fairness: the frontier read by hand, the differences, the table, the report section."""

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from scipy import stats

from faircompare.analysis import equal_fairness as ef
from faircompare.analysis import flags, kinds
from faircompare.analysis.budgets import by_budget, surviving, verdicts_by_budget
from faircompare.analysis.canvas import REPORT
from faircompare.analysis.lint import lint_figure
from faircompare.analysis.report import write_report
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.tidy import label
from faircompare.benchmark import make_plan, run_plan
from faircompare.config import BenchmarkConfig
from faircompare.records import DEFAULTS, TRIALS
from faircompare.results import ResultStore


def long_frame(runs):
    """The store's long measures frame from (algorithm, setting, split, {measure: value}) rows."""
    rows = []
    for i, (algorithm, setting, split, values) in enumerate(runs):
        for measure, value in values.items():
            rows.append({
                "key": f"run{i}", "dataset": "d", "sensitive_attribute": "s", "variant": "v",
                "algorithm": algorithm, "params": "{}" if setting == DEFAULTS else setting,
                "setting": setting, "split_id": split, "measure": measure, "group": "",
                "value": value,
            })  # fmt: skip
    return pd.DataFrame(rows)


def frontier_runs(split, points):
    """A frontier's runs: the unconstrained one, then (constraint, tolerance) -> (dp, eo, acc)."""
    runs = []
    for (constraint, tolerance), (dp, eo, accuracy) in points.items():
        setting = (
            DEFAULTS
            if constraint is None
            else json.dumps({"constraint": constraint, "tolerance": tolerance})
        )
        values = {"accuracy": accuracy, "demographic_parity_difference": dp,
                  "equalized_odds_difference": eo}  # fmt: skip
        runs.append(("unprocessed-b", setting, split, values))
    return runs


FRONTIER = {  # on the split: dp, eo, accuracy
    (None, None): (0.30, 0.40, 0.85),
    ("demographic_parity", 0.0): (0.00, 0.20, 0.70),
    ("demographic_parity", 0.1): (0.10, 0.30, 0.80),
    ("equalized_odds", 0.0): (0.10, 0.00, 0.75),
    ("equalized_odds", 0.1): (0.20, 0.10, 0.81),
}


def test_the_frontier_is_its_points_joined_by_straight_lines_and_flat_beyond_them():
    points = ef.frontier_points(long_frame(frontier_runs(0, FRONTIER)))
    dp = points[points["constraint"] == "demographic_parity"]
    # by hand: (0, .70) - (.1, .80) - (.3, .85); the unconstrained run ends both frontiers
    corners = sorted(zip(dp["violation"], dp["accuracy"], strict=True))
    assert corners == [(0.0, 0.7), (0.1, 0.8), (0.3, 0.85)]
    assert np.isinf(dp.loc[dp["accuracy"] == 0.85, "tolerance"]).all()
    np.testing.assert_allclose(
        ef.frontier_accuracy(dp, np.array([0.05, 0.2, 0.5, np.nan])), [0.75, 0.825, 0.85, np.nan]
    )
    tied = pd.DataFrame({"violation": [0.1, 0.1, 0.0], "accuracy": [0.8, 0.82, 0.7]})
    assert ef.frontier_accuracy(tied, 0.1) == pytest.approx(0.81)  # equal violations: the mean


def test_every_run_is_compared_at_its_own_violation_and_the_frontier_against_itself_is_zero():
    other = {"accuracy": 0.83, "demographic_parity_difference": 0.2,
             "equalized_odds_difference": 0.05}  # fmt: skip
    runs = frontier_runs(0, FRONTIER) + [("kamishima", DEFAULTS, 0, other)]
    # the frontier's own runs under another name: each sits on a point of the frontier
    runs += [
        ("copy", setting, split, values) for _, setting, split, values in frontier_runs(0, FRONTIER)
    ]
    differences = ef.equal_fairness(long_frame(runs)).set_index(["algorithm", "constraint"])
    kamishima = differences.loc["kamishima"]
    # dp 0.2: halfway from (.1, .80) to (.3, .85) -> 0.825; eo 0.05: halfway (0, .75)-(.1, .81)
    assert kamishima.loc["demographic_parity", "frontier_accuracy"] == pytest.approx(0.825)
    assert kamishima.loc["demographic_parity", "difference"] == pytest.approx(0.005)
    assert kamishima.loc["equalized_odds", "difference"] == pytest.approx(0.83 - 0.78)
    copy = differences.loc["copy"]
    # each copied run sits on a point of its own constraint's frontier; a run of the other
    # constraint is compared like any run (the unconstrained one is on both frontiers)
    own = copy[[s == DEFAULTS or json.loads(s)["constraint"] == c for c, s in
                zip(copy.index, copy["setting"], strict=True)]]  # fmt: skip
    assert len(own) == 6
    assert (own["difference"] == 0).all()


def test_the_table_averages_per_split_with_the_corrected_interval_by_hand():
    runs = []
    for split, gain in enumerate((0.02, 0.04, 0.06)):
        runs += frontier_runs(split, FRONTIER)
        values = {"accuracy": 0.80 + gain, "demographic_parity_difference": 0.1,
                  "equalized_odds_difference": 0.1}  # fmt: skip
        runs.append(("kamishima", DEFAULTS, split, values))
    table = ef.equal_fairness_table(long_frame(runs)).set_index("constraint")
    row = table.loc["demographic_parity"]
    # differences .02, .04, .06 against the frontier's .80: mean .04, sd .02, corrected se
    # .02 sqrt(1/3 + 1/2) = .018257, t(.975, 2) = 4.3027: half-width .078556
    assert row["algorithm"] == label("kamishima", DEFAULTS)
    assert row["difference"] == pytest.approx(0.04)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        (0.04 - 0.078556, 0.04 + 0.078556), abs=1e-5
    )
    assert row["above"] == 1.0 and row["verdict"] == "on"  # three splits cannot tell
    summary = ef.equal_fairness_summary(
        table.reset_index().assign(dataset="d", sensitive_attribute="s", variant="v")
    )
    assert summary.loc[("demographic_parity", "d", "s", "v")].tolist() == [1, 0, 1, 0, 0]
    # above the frontier in each of its three splits: a finding, though the test reads "on"
    found = ef.above_in_every_split(table.reset_index())
    assert found["algorithm"].tolist() == [label("kamishima", DEFAULTS)] * 2


def test_the_frontiers_own_baseline_is_its_unconstrained_end_so_neither_tested_nor_counted():
    # the default page read gradient-boosting "0.000 [0.000, 0.000], p 1.000, on" against
    # unprocessed-gradient-boosting, and the p-value of 1 sat in Holm's family (#81)
    end = dict(zip(["demographic_parity_difference", "equalized_odds_difference", "accuracy"],
                   FRONTIER[(None, None)], strict=True))  # fmt: skip
    runs = []
    for split, gain in enumerate((0.02, 0.04, 0.06)):
        runs += frontier_runs(split, FRONTIER) + [("b", DEFAULTS, split, end)]
        values = {"accuracy": 0.80 + gain, "demographic_parity_difference": 0.1,
                  "equalized_odds_difference": 0.1}  # fmt: skip
        runs.append(("kamishima", DEFAULTS, split, values))
    table = ef.equal_fairness_table(long_frame(runs))
    table = table[table["constraint"] == "demographic_parity"].set_index("algorithm")
    own = table.loc[label("b", DEFAULTS)]
    assert own["verdict"] == ef.OWN_BASELINE and own["difference"] == 0
    assert own[["ci_low", "ci_high", "pvalue", "holm"]].isna().all()
    kamishima = table.loc[label("kamishima", DEFAULTS)]
    assert kamishima["holm"] == kamishima["pvalue"]  # a family of one: the baseline is out
    summary = ef.equal_fairness_summary(
        table.reset_index().assign(dataset="d", sensitive_attribute="s", variant="v")
    )
    assert summary.loc[("demographic_parity", "d", "s", "v")].tolist() == [1, 0, 1, 0, 0]


def test_the_yardsticks_own_baseline_has_no_verdict_to_hold_at_any_budget():
    # the tuned study counted gradient-boosting's "on" against its own frontier's end among
    # the verdicts that hold at every budget (10 of 160 of them, #81)
    one_trial = json.dumps({TRIALS: 1})
    runs = []
    for split, gain in enumerate((0.02, 0.04, 0.06)):
        for frontier, *rest in frontier_runs(split, FRONTIER):
            settings = {} if rest[0] == DEFAULTS else json.loads(rest[0])
            runs += [(frontier, *rest), (frontier, json.dumps(settings | {TRIALS: 1}), *rest[1:])]
        end = dict(zip(["demographic_parity_difference", "equalized_odds_difference",
                        "accuracy"], FRONTIER[(None, None)], strict=True))  # fmt: skip
        values = {"accuracy": 0.80 + gain, "demographic_parity_difference": 0.1,
                  "equalized_odds_difference": 0.1}  # fmt: skip
        runs += [(name, setting, split, v) for name, v in (("b", end), ("kamishima", values))
                 for setting in (DEFAULTS, one_trial)]  # fmt: skip
    verdicts = verdicts_by_budget(long_frame(runs)).set_index(["algorithm", "constraint"])
    own = verdicts.loc[("b", "demographic_parity")]
    assert (own["defaults"], own["1 trial"]) == (ef.OWN_BASELINE, ef.OWN_BASELINE)
    assert pd.isna(own["survives"])
    assert verdicts.loc["kamishima", "survives"].tolist() == [True, True]
    said = surviving(verdicts.reset_index())
    assert said.startswith("Of 2 verdicts against the yardstick at the defaults, 2 hold at every "
                           "budget (2 at 1 trial)")  # fmt: skip


def test_a_budgets_interval_is_cut_where_the_measure_ends_by_hand():
    # two splits: t(.975, 1) = 12.706, half = 12.706 sd sqrt(1/2 + 1/2) (Nadeau and Bengio)
    one_trial = json.dumps({TRIALS: 1})
    runs = [("kamishima", setting, split, {"accuracy": accuracy, "demographic_parity_difference":
                                           dp})
            for setting in (DEFAULTS, one_trial)
            for split, accuracy, dp in ((0, 0.90, 0.01), (1, 0.99, 0.05))]  # fmt: skip
    measures = long_frame(runs)
    accuracy = by_budget(measures, "accuracy").iloc[0]
    sd = np.std([0.90, 0.99], ddof=1)
    assert accuracy["ci_low"] == pytest.approx(0.945 - 12.7062 * sd, abs=1e-4)  # 0.136
    assert accuracy["ci_high"] == 1.0  # 1.754, past what an accuracy can be
    gap = by_budget(measures, "demographic_parity_difference").iloc[0]
    assert gap["ci_low"] == 0.0  # -0.329: a gap is at least 0
    assert gap["ci_high"] == pytest.approx(0.03 + 12.7062 * np.std([0.01, 0.05], ddof=1), abs=1e-4)


def test_the_findings_name_who_is_above_and_what_the_splits_could_detect_by_hand():
    tables = pd.DataFrame(
        [("lr", 5, 0.0, 0.0, 0.0, "on"),  # the yardstick's own baseline: not an intervention
         ("kam", 5, 0.03, 0.01, 0.05, "above"),
         ("zaf", 5, -0.02, -0.03, -0.01, "below"),
         ("cal", 5, -0.001, -0.021, 0.019, "on")],
        columns=["algorithm", "splits", "difference", "ci_low", "ci_high", "verdict"],
    ).assign(frontier="unprocessed-lr", constraint="demographic_parity", dataset="d",
             sensitive_attribute="s", variant="v")  # fmt: skip
    [row] = ef.findings(tables).to_dict("records")
    assert (row["compared"], row["above"], row["below"]) == (3, 1, 1)
    assert row["above by"] == "kam +0.030 [0.010, 0.050]"
    assert row["closest"] == "kam +0.030 [0.010, 0.050], above"
    # half-widths .02, .01, .02: se = half / t(.975, 4) = half / 2.7764; detectable at 80 %:
    # (2.7764 + t(.8, 4) = 0.9410) se = 1.33893 half; the median of .02, .01, .02 is .02
    assert row["detectable"] == pytest.approx(1.33893 * 0.02, rel=1e-4)
    # two splits' t interval of an accuracy difference can pass 1: shown within [-1, 1]
    wide = tables.assign(ci_low=[0.0, -1.05, -0.03, -0.021], ci_high=[0.0, 1.11, -0.01, 0.019])
    [row] = ef.findings(wide).to_dict("records")
    assert row["closest"] == "kam +0.030 [-1.000, 1.000], above"


def test_the_most_accurate_at_each_level_of_fairness_by_hand():
    # kamishima: accuracy .80, .82, .84, demographic-parity violation .08; lr: .75 at .03
    runs = []
    for split, (kam, lr) in enumerate(((0.80, 0.75), (0.82, 0.75), (0.84, 0.75))):
        runs += frontier_runs(split, FRONTIER)  # a yardstick, never named
        for name, accuracy, dp in (("kamishima", kam, 0.08), ("lr", lr, 0.03)):
            runs.append(
                (
                    name,
                    DEFAULTS,
                    split,
                    {
                        "accuracy": accuracy,
                        "demographic_parity_difference": dp,
                        "equalized_odds_difference": 0.5,
                    },
                )
            )
    frame = long_frame(runs)
    best = ef.most_accurate(frame, levels=(0.02, 0.05, 0.1)).set_index(["constraint", "level"])
    parity = best.loc["demographic_parity"]
    assert parity["algorithm"].tolist() == ["", "lr", "kamishima"]  # none is within .02
    assert parity["candidates"].tolist() == [0, 1, 2]
    # kamishima - lr: .05, .07, .09, t = .07 / (.02 sqrt(1/3 + 1/2)) = 3.83, p(2 df) = .062
    assert parity["tied"].tolist()[1:] == [0, 1]
    # kamishima's .82 over three splits: sd .02, corrected half-width t(2) .02 sqrt(1/3 + 1/2)
    half = 4.302653 * 0.02 * np.sqrt(1 / 3 + 1 / 2)
    row = parity.loc[0.1]
    assert (row["accuracy"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (0.82, 0.82 - half, 0.82 + half)
    )
    assert (best.loc["equalized_odds", "algorithm"] == "").all()  # no one within .1 of it
    # a run that is no result (a constant classifier, say) is left out
    kamishima = frame.loc[frame["algorithm"] == "kamishima", "key"].unique()
    left = ef.most_accurate(frame, levels=(0.1,), excluded=kamishima)
    assert left.set_index("constraint").loc["demographic_parity", "algorithm"] == "lr"
    # only the algorithms named may be named (the report's interventions, no baseline)
    only = ef.most_accurate(frame, levels=(0.1,), only=["lr"])
    assert only.set_index("constraint").loc["demographic_parity", "algorithm"] == "lr"


def test_the_most_accurate_is_tied_with_the_candidates_the_splits_cannot_tell_apart_by_hand():
    best = np.array([0.80, 0.81, 0.82, 0.83, 0.84])
    differences = {
        "far": [0.10, 0.12, 0.11, 0.13, 0.14],  # t = .12 / (.01581 sqrt(1/5 + 1/2)) = 9.07
        "mid": [0.04, 0.02, 0.06, 0.03, 0.05],  # t = 3.02: p < .05, but not after Holm
        "near": [0.02, -0.01, 0.03, 0.00, 0.01],  # t = 0.76
    }
    rows = {("best", split): a for split, a in enumerate(best)}
    for name, d in differences.items():
        rows |= {(name, split): a for split, a in enumerate(best - np.array(d))}
    rows[("once", 0)] = 0.5  # one split shared: untested, so tied
    accuracy = pd.Series(rows).rename_axis(["name", "split_id"])
    # the corrected t's p-values, by scipy: far .0008, mid .039 (Holm: x 2 = .078), near .49
    se = np.std(differences["mid"], ddof=1) * np.sqrt(1 / 5 + 1 / 2)
    p_mid = 2 * stats.t.sf(0.04 / se, df=4)
    assert p_mid < 0.05 < 2 * p_mid
    assert ef.tied_with(accuracy, "best", ["best", "far", "mid", "near", "once"]) == 3
    assert ef.tied_with(accuracy, "best", ["best", "far"]) == 0  # a test decides it
    assert ef.tied_with(accuracy, "best", ["best", "mid"]) == 0  # alone, no Holm to pay
    assert ef.tied_with(accuracy, "best", ["best"]) == 0


def test_beside_the_most_accurate_stands_the_yardstick_at_the_level_by_hand():
    runs = frontier_runs(0, FRONTIER) + frontier_runs(1, FRONTIER)
    for split in (0, 1):
        runs.append(("lr", DEFAULTS, split, {"accuracy": 0.7, "demographic_parity_difference":
                                             0.01, "equalized_odds_difference": 0.01}))  # fmt: skip
    best = ef.most_accurate(long_frame(runs), levels=(0.02, 0.05, 0.1))
    yardstick = best.set_index(["constraint", "level"])["yardstick"]
    # the frontier read at the level, on each split alike: dp (0, .70)-(.1, .80)-(.3, .85),
    # eo (0, .75)-(.1, .81)-(.4, .85)
    assert yardstick["demographic_parity"].tolist() == pytest.approx([0.72, 0.75, 0.80])
    assert yardstick["equalized_odds"].tolist() == pytest.approx([0.762, 0.78, 0.81])


def test_the_yardstick_at_a_level_is_its_most_accurate_that_fair_so_never_less_at_a_looser():
    # a frontier measured on test rows can dip: dp (0, .70)-(.04, .80)-(.1, .76)-(.3, .85);
    # read at .05 and .1 alone it would be .7933 and .76, looser and less accurate (#81)
    dipping = FRONTIER | {("demographic_parity", 0.05): (0.04, 0.25, 0.80),
                          ("demographic_parity", 0.1): (0.10, 0.30, 0.76)}  # fmt: skip
    runs = frontier_runs(0, dipping) + frontier_runs(1, dipping)
    for split in (0, 1):
        runs.append(("lr", DEFAULTS, split, {"accuracy": 0.7, "demographic_parity_difference":
                                             0.01, "equalized_odds_difference": 0.01}))  # fmt: skip
    best = ef.most_accurate(long_frame(runs), levels=(0.02, 0.05, 0.1))
    yardstick = best.set_index(["constraint", "level"])["yardstick"]["demographic_parity"]
    # by hand: at .02 the line (0, .70)-(.04, .80) reads .75; at .05 and .1 the corner .80
    assert yardstick.tolist() == pytest.approx([0.75, 0.80, 0.80])


def test_an_accuracy_interval_stops_at_one():
    runs = []
    for split, accuracy in enumerate((0.98, 0.99, 1.0)):
        runs.append(("lr", DEFAULTS, split, {"accuracy": accuracy, "demographic_parity_difference":
                                             0.01, "equalized_odds_difference": 0.01}))  # fmt: skip
    row = ef.most_accurate(long_frame(runs), levels=(0.1,)).iloc[0]
    # by hand: .99 +- t(.975, 2) .01 sqrt(1/3 + 1/2) = .99 +- .0393, past 1: cut there
    assert row["ci_low"] == pytest.approx(0.99 - 4.302653 * 0.01 * np.sqrt(1 / 3 + 1 / 2))
    assert row["ci_high"] == 1.0


def test_the_yardstick_is_the_frontier_whose_unconstrained_end_is_the_most_accurate():
    runs = []
    for split, (strong, weak) in enumerate(((0.85, 0.84), (0.87, 0.80), (0.83, 0.83))):
        runs += frontier_runs(split, FRONTIER | {(None, None): (0.3, 0.4, strong)})
        weaker = frontier_runs(split, FRONTIER | {(None, None): (0.3, 0.4, weak)})
        runs += [(name.replace("-b", "-c"), *rest) for name, *rest in weaker]
    choice = ef.frontier_choice(ef.frontier_points(long_frame(runs)))
    assert choice.index.tolist() == ["unprocessed-b", "unprocessed-c"]
    assert choice["chosen"].tolist() == [True, False]
    assert choice["splits"].tolist() == [3, 3]
    # by hand: means .85 and .8233; standard errors sd / sqrt(3): .02 / 1.7321, .02082 / 1.7321
    assert choice["accuracy"].tolist() == pytest.approx([0.85, 0.823333], abs=1e-6)
    assert choice["se"].tolist() == pytest.approx([0.011547, 0.012019], abs=1e-6)
    assert ef.best_frontier(ef.frontier_points(long_frame(runs))) == "unprocessed-b"


def test_a_constraint_undefined_on_test_is_untested_not_on_and_its_panel_says_why():
    # ACSIncome's 18 race-sex groups: some test group has no positives, so the equalized-odds
    # difference is NaN on every split; on the main of issue #40 the table called that "on"
    # and the figure left the panel empty.
    undefined = {key: (dp, np.nan, accuracy) for key, (dp, _, accuracy) in FRONTIER.items()}
    runs = []
    for split, gain in enumerate((0.02, 0.04, 0.06)):
        runs += frontier_runs(split, undefined)
        values = {"accuracy": 0.80 + gain, "demographic_parity_difference": 0.1,
                  "equalized_odds_difference": np.nan}  # fmt: skip
        runs.append(("kamishima", DEFAULTS, split, values))
    measures = long_frame(runs)
    table = ef.equal_fairness_table(measures).set_index("constraint")
    assert table.loc["equalized_odds", "verdict"] == "untested"
    assert table.loc["equalized_odds", "splits"] == 0
    assert table.loc["demographic_parity", "verdict"] == "on"
    summary = ef.equal_fairness_summary(
        table.reset_index().assign(dataset="d", sensitive_attribute="s", variant="v")
    )
    assert summary.loc[("equalized_odds", "d", "s", "v")].tolist() == [1, 0, 0, 0, 1]
    figure = equal_fairness_figure(measures)
    texts = [text.get_text() for text in figure.axes[1].texts]
    assert texts == ["equalized_odds_difference\nis undefined on every split:\na group has no "
                     "positives\nor no negatives in the test part"]  # fmt: skip
    assert [t.get_text() for t in figure.legends[0].get_texts()] == [
        "frontier, per split",
        "frontier, mean",
        "kamishima",
    ]
    assert lint_figure(figure) == []


def equal_fairness_figure(measures: pd.DataFrame) -> Figure:
    """The equal-fairness kind's figure of test measures, at the report's layout."""
    study = StudyFrames(measures, measures.iloc[:0], pd.DataFrame())
    return kinds.equal_fairness.draw(kinds.equal_fairness.frames(study, Selection()), REPORT)


@pytest.mark.data
def test_the_report_has_the_section_with_its_figure_and_tables(tmp_path, monkeypatch):
    config = BenchmarkConfig(
        datasets=("german",), splits=2, audits=False,
        algorithms=("unprocessed-logistic-regression", "logistic-regression", "kamishima"),
    )  # fmt: skip
    with ResultStore(tmp_path) as store:
        assert run_plan(make_plan(config).runs, store, BenchmarkConfig(audits=False)).failed == 0
        measures = store.measures()
    page = write_report(tmp_path).read_text()
    assert "At equal fairness (Cruz &amp; Hardt 2024)" in page
    name = "equal-fairness-german-sex-numerical-binary"
    table = pd.read_csv(tmp_path / "report" / "tables" / f"{name}.csv")
    assert set(table["algorithm"]) == {"logistic-regression", "kamishima"}
    assert set(table["constraint"]) == {"demographic_parity", "equalized_odds"}
    assert (table["splits"] == 2).all()
    # the frontier's unconstrained end is the baseline's own fit: at its violation, exactly it
    baseline = table[table["algorithm"] == "logistic-regression"]
    assert (baseline["difference"].abs() < 1e-12).all()
    assert "The yardstick is unprocessed-logistic-regression" in page
    assert "That end is its baseline, logistic-regression, whose row below reads 0" in page
    # the page opens with the findings: kamishima against the yardstick, per constraint (#81)
    assert page.index("Findings: who beat the yardstick") < page.index("<h2>Summary</h2>")
    findings = pd.read_csv(tmp_path / "report" / "tables" / "findings.csv")
    assert findings["constraint"].tolist() == ["demographic_parity", "equalized_odds"]
    assert (findings["compared"] == 1).all()  # kamishima; the baseline is the yardstick's end
    assert "Of 2 comparisons of an intervention with the yardstick" in page
    most = pd.read_csv(tmp_path / "report" / "tables" / "findings-most-accurate.csv")
    assert len(most) == 2 * len(ef.FAIRNESS_LEVELS)  # each constraint at each level
    assert most["yardstick"].between(0, 1).all()  # the yardstick read at each level
    assert (tmp_path / "report" / "figures" / f"{name}.png").stat().st_size > 0
    assert (tmp_path / "report" / "tables" / "equal-fairness-summary.csv").exists()
    assert lint_figure(equal_fairness_figure(measures)) == []
    # #81: a method constant on a split is no result in the section either, as in the findings
    # (the section compared and Holm-adjusted it, and gave it a verdict the findings did not)
    judged = flags.run_flags
    kamishima = measures.query("algorithm == 'kamishima' and split_id == 0")["key"].iloc[0]

    def kamishima_one_class(store, keys, names):
        found = judged(store, keys, names)
        mine = pd.DataFrame([(kamishima, n, flags.ONE_CLASS) for n in names], columns=found.columns)
        return pd.concat([found, mine], ignore_index=True)

    monkeypatch.setattr(flags, "run_flags", kamishima_one_class)
    page = write_report(tmp_path).read_text()
    table = pd.read_csv(tmp_path / "report" / "tables" / f"{name}.csv")
    assert set(table["algorithm"]) == {"logistic-regression"}
    section = page[page.index("At equal fairness (Cruz") :]
    assert "Left out, as no result" in section and "kamishima on german, sex (1 of 2" in section


def test_a_method_constant_on_one_split_is_no_finding_on_any_and_is_named():
    # #81: optimized preprocessing predicted one class on 2 of 5 violent-recidivism splits; the
    # findings dropped those runs and named the mean of the other 3 the most accurate at 0.05
    from faircompare.analysis.report import _constant_methods, _constant_text

    runs = frontier_runs(0, FRONTIER) + frontier_runs(1, FRONTIER)
    for split in (0, 1):
        for name in ("kamishima", "lr"):
            runs.append((name, DEFAULTS, split, {"accuracy": 0.8}))
    frame = long_frame(runs)
    keys = frame.drop_duplicates("key").set_index(["algorithm", "split_id"])["key"]
    constant = (keys[("kamishima", 0)], keys[("unprocessed-b", 0)].iloc[0], keys[("lr", 1)])
    found = _constant_methods(frame, constant)  # a frontier's constant end: not a method's
    assert found.index.get_level_values("algorithm").tolist() == ["kamishima", "lr"]
    assert found[["constant", "splits"]].to_numpy().tolist() == [[1, 2], [1, 2]]
    said = _constant_text(found, ["kamishima"])  # lr a baseline: left out, but not named
    assert said.endswith("base rate there): kamishima on d, s (1 of 2 splits).")
    assert _constant_text(found.iloc[:0], ["kamishima"]) == ""
