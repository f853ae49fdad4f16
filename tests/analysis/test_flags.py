"""A cell that is not a result is flagged with its reason, by hand-built counts (#81)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from faircompare.analysis import compare, flags, tables, tidy
from faircompare.choices import MIN_RATE_EVENTS
from faircompare.measures import MEASURES
from faircompare.measures.group_stats import GroupStats
from faircompare.stats.rates import RATES


def group_stats(rows: dict[str, tuple[int, int, int, int]]) -> GroupStats:
    """Predictions with each group's (TN, FP, FN, TP) counts; group "a" privileged."""
    y_true, y_pred, groups = [], [], []
    for group, cells in rows.items():
        for (label, predicted), count in zip(((0, 0), (0, 1), (1, 0), (1, 1)), cells, strict=True):
            y_true += [label] * count
            y_pred += [predicted] * count
            groups += [group] * count
    return GroupStats.from_predictions(
        np.array(y_true), np.array(y_pred), np.array(groups), privileged="a"
    )


def test_every_rate_a_measure_reads_is_a_rate_and_every_group_measure_reads_one():
    for measure in MEASURES.values():
        assert set(measure.rates) <= set(RATES), measure.name
    per_group = [m for m in MEASURES.values() if m.paper_group or "sensitive" in m.name]
    assert all(m.rates for m in per_group)
    # an overall measure reads no group's rate, and is never flagged for one
    assert not MEASURES["accuracy"].rates and not MEASURES["MCC"].rates


def test_a_ratio_over_few_events_is_flagged_and_a_difference_over_the_same_is_not():
    # group a (privileged): 100 rows, 5 predicted positives; group b: 100 rows, 50
    few = group_stats({"a": (45, 3, 50, 2), "b": (25, 25, 25, 25)})
    # DI = 0.5 / 0.05 = 10: a denominator from 5 events, a relative error near 1/sqrt(5)
    assert MEASURES["DIbinary"](
        np.repeat([0, 0, 1, 1, 0, 0, 1, 1], [45, 3, 50, 2, 25, 25, 25, 25]),
        np.repeat([0, 1, 0, 1, 0, 1, 0, 1], [45, 3, 50, 2, 25, 25, 25, 25]),
        np.repeat(["a", "b"], [100, 100]),
        privileged="a",
    ) == pytest.approx(10)
    assert flags.few_events(few, MEASURES["DIbinary"])
    assert flags.few_events(few, MEASURES["comparative-sensitive-TPR-ratio"])  # TP of a: 2
    # CV reads the same rates as a difference: its denominators are 100 rows each
    assert not flags.few_events(few, MEASURES["CV"])
    assert not flags.few_events(few, MEASURES["accuracy"])
    # calibration+ of a rests on its 5 predicted positives
    assert flags.few_events(few, MEASURES["sensitive-calibration+"])
    assert not flags.few_events(few, MEASURES["sensitive-TNR"])  # 48 negatives in a


def test_the_threshold_is_the_stated_number_of_events():
    at = group_stats({"a": (40, 0, 40, MIN_RATE_EVENTS), "b": (25, 25, 25, 25)})
    below = group_stats({"a": (40, 0, 40, MIN_RATE_EVENTS - 1), "b": (25, 25, 25, 25)})
    assert not flags.few_events(at, MEASURES["DIbinary"])
    assert flags.few_events(below, MEASURES["DIbinary"])


def test_a_pooled_measure_reads_the_other_groups_together():
    # groups b and c predict 6 positives each: 12 together, the pooled rate DIbinary reads
    pooled = group_stats({"a": (25, 25, 25, 25), "b": (44, 3, 50, 3), "c": (44, 3, 50, 3)})
    assert not flags.few_events(pooled, MEASURES["DIbinary"])
    assert flags.few_events(pooled, MEASURES["DIavgall"])  # b / a and c / a, each from 6


def long_runs(values: dict[str, list[float]]) -> pd.DataFrame:
    """One configuration's DIbinary of each algorithm, a run per split."""
    rows = [
        ("german", "sex", "numerical+binary", algorithm, "{}", "defaults", split,
         "DIbinary", "", value, f"{algorithm}-{split}")
        for algorithm, column in values.items()
        for split, value in enumerate(column)
    ]  # fmt: skip
    columns = [*tidy.CONFIGURATION[:3], "algorithm", "params", "setting", "split_id", "measure",
               "group", "value", "key"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def test_a_cell_says_each_reason_with_its_splits():
    chosen = long_runs({"lr": [0.8, 0.9, 1.0], "op": [400.0, np.nan, 500.0]})
    run_flags = pd.DataFrame(
        [("op-0", "DIbinary", flags.FEW_EVENTS), ("op-2", "DIbinary", flags.FEW_EVENTS)],
        columns=["key", "measure", "reason"],
    )
    cells = flags.cell_flags(chosen, run_flags).set_index("algorithm")["flag"]
    assert cells["lr"] == ""
    assert cells["op"] == "few events on 2 of 3 splits; defined on 2 of 3 splits"


def test_a_figure_for_a_paper_leaves_out_a_flagged_cell_as_the_report_does():
    # #81: `faircompare figure intervals` and `table intervals` drew Adult's one-class
    # optimized-preprocessing-logistic-regression at 0.751 [0.742, 0.760], a result; the
    # report had left it out. A run predicting one class is flagged from its predictions.
    from types import SimpleNamespace

    from faircompare.analysis.selection import StudyFrames

    chosen = long_runs({"lr": [0.8, 0.9], "op": [0.7, 0.75]})
    rng = np.random.default_rng(0)
    y_true, groups = rng.integers(0, 2, 200), np.repeat(["a", "b"], 100)

    class Store:  # the store's predictions, by key: op predicts 1 for every row
        def predictions(self, key: str) -> SimpleNamespace:
            y_pred = np.ones(200, int) if key.startswith("op") else 1 - y_true
            return SimpleNamespace(y_true=y_true, y_pred=y_pred, sensitive_features=groups,
                                   privileged="a")  # fmt: skip

    empty = pd.DataFrame()
    kept = StudyFrames(chosen, empty, empty, store=Store()).comparable(chosen, ["DIbinary"])
    assert sorted(kept["key"]) == ["lr-0", "lr-1"]
    assert StudyFrames(chosen, empty, empty).comparable(chosen, ["DIbinary"]) is chosen
    cells = flags.cell_flags(chosen, flags.run_flags(Store(), chosen["key"], ["DIbinary"]))
    assert flags.flagged_rows(chosen, cells).tolist() == [False, False, True, True]


def test_a_flagged_cell_shows_its_reasons_and_an_unflagged_one_its_interval():
    chosen = long_runs({"lr": [0.8, 0.9, 1.0], "op": [400.0, 450.0, 500.0]})
    summary = tidy.stability(chosen, ("DIbinary",)).assign(flag=["", "few events on 3 of 3"])
    table = tables.measure_table(summary, interval=True)
    half = stats.t.ppf(0.975, 2) * 0.1 / np.sqrt(3)  # the plain t interval, by hand
    assert table.loc["lr", "DIbinary"] == f"0.900 [{0.9 - half:.3f}, {0.9 + half:.3f}]"
    assert table.loc["op", "DIbinary"] == "450.000 (flag: few events on 3 of 3)"


def test_the_corrected_interval_widens_by_nadeau_and_bengios_factor():
    chosen = long_runs({"lr": [0.8, 0.9, 1.0]})
    summary = tidy.stability(chosen, ("DIbinary",), test_to_train=0.5).iloc[0]
    # sd 0.1 over J = 3 splits: half-width t(2) * 0.1 * sqrt(1/3 + 1/2)
    half = stats.t.ppf(0.975, 2) * 0.1 * np.sqrt(1 / 3 + 0.5)
    assert summary["ci_high"] - summary["mean"] == pytest.approx(half)
    assert summary["mean"] - summary["ci_low"] == pytest.approx(half)


def test_an_interval_stops_at_the_measure_s_bounds_and_only_there():
    # DIbinary is in [0, inf): .02, .5, .98 has mean .5, sd .48, half-width t(2) .48 / sqrt(3)
    # = 1.19 by hand, so the interval is cut at 0 and not above
    chosen = long_runs({"lr": [0.02, 0.5, 0.98]})
    summary = tidy.stability(chosen, ("DIbinary",)).iloc[0]
    half = stats.t.ppf(0.975, 2) * 0.48 / np.sqrt(3)
    assert (summary["ci_low"], summary["ci_high"]) == pytest.approx((0.0, 0.5 + half))
    # an accuracy of .98, .99, 1.0 (in [0, 1]): .99 + .025 would pass 1
    accuracy = chosen.assign(measure="accuracy", value=[0.98, 0.99, 1.0])
    summary = tidy.stability(accuracy, ("accuracy",)).iloc[0]
    assert summary["ci_high"] == 1.0 and summary["ci_low"] < 0.98


def test_the_intervals_figure_s_scores_stop_at_their_bounds():
    accuracy = long_runs({"lr": [0.98, 0.99, 1.0], "op": [0.5, 0.6, 0.7]})
    table = compare.intervals(accuracy.assign(measure="accuracy"), "accuracy")
    assert table.loc["lr", "ci_high"] == 1.0 and table.loc["op", "ci_high"] < 1.0
    # a fairness score is minus a gap: at most 0 (CV's ideal 1, in [0, 2]: at least -1)
    near = long_runs({"lr": [0.99, 1.0, 1.01]}).assign(measure="CV")
    assert compare.intervals(near, "CV").loc["lr", "ci_high"] == 0.0
    assert compare.score_bounds("CV") == (-1.0, 0.0)
