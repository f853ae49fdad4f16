"""The cost model, longest-first scheduling and the time left, by hand."""

import io
import json
import math
from collections import Counter
from dataclasses import replace

import pandas as pd
import pytest

from faircompare.benchmark import Study, make_plan, plan_study, run_plan
from faircompare.benchmark.costs import (
    REPEAT_SECONDS,
    SEQUENTIAL,
    SETUP,
    SIDE_BY_SIDE,
    CostModel,
    Pricing,
    cost_model,
    describe_plan,
    duration,
    plan_table,
    side_by_side,
    write_costs,
)
from faircompare.benchmark.execute import execute_run, execute_runs
from faircompare.benchmark.progress import progress_printer
from faircompare.benchmark.schedule import Summary, longest_first, shared_fits
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.records import RunRecord, RunSpec, SharedFit
from faircompare.results import ResultStore

MODEL = CostModel(
    {
        ("small", "svm"): {"run": 2.0},
        ("large", "svm"): {"run": 40.0},
        ("small", "tree"): {"run": 1.0},
    },
    {"small": 100, "large": 1000},
)
AUDITED = CostModel(
    {("small", "svm"): {"run": 2.0, "permutation": 0.5, "individual": 3.0}},
    {"small": 100},
    {"small": {"individual": 0.8, "fliptest": 1.6}},
)


def test_a_measured_cell_costs_what_was_measured():
    assert MODEL.run_seconds("large", "svm") == 40.0


def test_a_cell_not_measured_scales_the_algorithms_seconds_per_row():
    # svm: 2 s / 100 rows and 40 s / 1,000 rows, median 0.03 s per row; 500 rows -> 15 s
    assert MODEL.run_seconds("medium", "svm", rows=500) == pytest.approx(15.0)
    # tree measured on "small" only: 0.01 s per row, so 10 s on "large"'s 1,000 rows
    assert MODEL.run_seconds("large", "tree") == pytest.approx(10.0)


def test_an_algorithm_never_measured_takes_the_median_of_every_cell():
    # per row: 0.02, 0.04, 0.01 -> median 0.02; 200 rows -> 4 s
    assert MODEL.run_seconds("mine", "plugin", rows=200) == pytest.approx(4.0)


def test_without_measurements_every_run_counts_one():
    assert CostModel({}, {}).run_seconds("any", "svm", rows=10) == 1.0


# run 2 + permutation 0.5 (1,000 permutations, times the sequential tests' measured factor)
# + individual 3; fliptest not measured: 0
PRICED = 2 + 0.5 * SEQUENTIAL + 3


def test_a_run_is_priced_by_the_audits_enabled_whatever_the_cap():
    assert AUDITED.run_seconds("small", "svm") == pytest.approx(PRICED)
    assert AUDITED.run_seconds("small", "svm", pricing=Pricing(())) == pytest.approx(2.0)
    # a sequential test draws what its p-value needs: the cap hardly changes its cost
    assert AUDITED.run_seconds("small", "svm", pricing=Pricing(permutations=200)) == (
        pytest.approx(PRICED)
    )
    only = Pricing(("permutation", "my-plugin-audit"))  # an audit never measured costs nothing
    assert AUDITED.run_seconds("small", "svm", pricing=only) == pytest.approx(2 + 0.5 * SEQUENTIAL)


def test_a_cell_not_measured_scales_each_part_by_rows():
    # 300 rows: three times small's run 2, permutation 0.5 and individual 3
    assert AUDITED.run_seconds("big", "svm", rows=300) == pytest.approx(3 * PRICED)
    assert AUDITED.run_seconds("big", "svm", rows=300, pricing=Pricing(())) == pytest.approx(6.0)


def test_a_splits_audit_setups_are_shared_among_its_numeric_runs():
    numeric = [RunSpec("small", "s", v, "svm", (), 0, 0) for v in ("numerical", "numerical+binary")]
    original = RunSpec("small", "s", "original", "svm", (), 0, 0)
    seconds = AUDITED.plan_seconds([*numeric, original])
    # each numeric variant is a split of its own: its setups (0.8 + 1.6) go to its one run
    assert seconds[numeric[0].key] == pytest.approx(PRICED + 2.4)
    assert seconds[original.key] == pytest.approx(PRICED)
    two = [RunSpec("small", "s", "numerical", "svm", (("C", c),), 0, 0) for c in (1, 2)]
    assert [AUDITED.plan_seconds(two)[r.key] for r in two] == pytest.approx([PRICED + 1.2] * 2)
    assert AUDITED.plan_seconds(two, pricing=Pricing(()))[two[0].key] == pytest.approx(2.0)


def test_a_run_not_audited_costs_no_audit_and_no_share_of_the_setups():
    audited = RunSpec(
        "small", "s", "numerical", "svm", (("C", 1),), 0, 0, inputs=(("audits", "on"),)
    )
    frontier = RunSpec(
        "small", "s", "numerical", "svm", (("C", 2),), 0, 0, inputs=(("audits", "off"),)
    )
    seconds = AUDITED.plan_seconds([audited, frontier])
    # by hand: 2 + 0.5 (times SEQUENTIAL) + 3 and every setup (0.8 + 1.6) for the one audited
    # run; 2 for the other
    assert seconds == pytest.approx({audited.key: PRICED + 2.4, frontier.key: 2.0})


def spec(dataset: str, algorithm: str, split: int = 0) -> RunSpec:
    return RunSpec(dataset, "s", "numerical+binary", algorithm, (), split, 0)


def test_the_plan_table_counts_runs_and_cpu_hours_per_cell():
    runs = [spec("large", "svm", 0), spec("large", "svm", 1), spec("small", "tree")]
    table = plan_table(runs, MODEL.plan_seconds(runs))
    assert table.loc[("large", "svm")].tolist() == [2, 80 / 3600]
    assert table.loc[("small", "tree")].tolist() == [1, 1 / 3600]


def test_a_dry_run_prices_runs_side_by_side_slower_than_alone():
    runs = [spec("small", "svm", split) for split in range(40)]  # 2 s each, as measured alone
    seconds = MODEL.plan_seconds(runs)
    alone = describe_plan(runs, seconds, Pricing(()), workers=1)
    assert "40 runs, about 80 CPU-seconds: about 80 seconds on 1 worker" in alone
    # two workers: each run 1.03 times longer (SIDE_BY_SIDE), 82.4 CPU-seconds over 2 workers
    beside = describe_plan(runs, seconds, Pricing(()), workers=2)
    assert "about 82 CPU-seconds: about 41 seconds on 2 workers" in beside
    assert SIDE_BY_SIDE == 1.03 and side_by_side(1) == 1.0


def test_runs_start_longest_first_and_ties_keep_the_plans_order():
    runs = [spec("small", "tree"), spec("small", "svm"), spec("large", "svm"), spec("small", "x")]
    cost = {runs[0].key: 1.0, runs[1].key: 2.0, runs[2].key: 40.0, runs[3].key: 2.0}
    groups = [[run] for run in runs]
    assert longest_first(groups, cost) == [[runs[2]], [runs[1]], [runs[3]], [runs[0]]]
    # a group sharing one fit costs its runs' sum: 1 + 2 = 3 goes before a lone 2
    assert longest_first([[runs[1]], [runs[0], runs[3]]], cost) == [[runs[0], runs[3]], [runs[1]]]


def test_the_time_left_weighs_the_work_by_cost():
    # 100 s of expected work, 25 s of it finished in 50 s: 75 s left at that pace -> 150 s;
    # counting runs instead (1 of 4 done) would say 150 s too only if the runs cost the same.
    summary = Summary(planned=4, skipped=0, done=1, expected=100.0, expected_finished=25.0)
    assert summary.seconds_left(50.0) == pytest.approx(150.0)
    assert math.isnan(Summary(4, 0, expected=100.0).seconds_left(10.0))


def test_a_log_gets_one_progress_line_per_twentieth_of_the_expected_work():
    stream = io.StringIO()
    show = progress_printer(stream)
    summary = Summary(planned=4, skipped=0, expected=100.0)
    record = RunRecord(spec("small", "svm"), "done")
    # a costly run first, then a small one within the same 5 % step, then two more steps
    for finished_cost in (75.0, 78.0, 90.0, 100.0):
        summary.done += 1
        summary.expected_finished = finished_cost
        show(record, summary)
    lines = stream.getvalue().splitlines()
    assert [line.split("] ")[1].split(" of")[0] for line in lines] == ["75%", "90%", "100%"]
    assert "1/4 runs" in lines[0] and "4/4 runs" in lines[2]


def test_the_time_left_waits_for_five_percent_of_the_expected_work():
    # one run's misjudged cost would set it at first: 1 % done in 554 s reads as 15 hours
    stream = io.StringIO()
    show = progress_printer(stream)
    summary = Summary(planned=100, skipped=0, done=1, expected=100.0, expected_finished=1.0)
    show(RunRecord(spec("small", "svm"), "done"), summary)
    summary.done, summary.expected_finished = 5, 5.0
    show(RunRecord(spec("small", "svm"), "done"), summary)
    first, fifth = stream.getvalue().splitlines()
    assert first.endswith("ETA from 5% done") and "ETA" in fifth and fifth.endswith(" s")


@pytest.mark.data
def test_run_plan_starts_the_costliest_runs_first(tmp_path):
    runs = make_plan(
        BenchmarkConfig(
            datasets=("ricci",),
            algorithms=("logistic-regression", "decision-tree", "gaussian-nb"),
            splits=2,
            audits=False,
        )  # fmt: skip
    ).runs
    costs = {run.key: float(i) for i, run in enumerate(runs)}  # the plan's last run costs most
    with ResultStore(tmp_path) as store:
        study = Study(runs, costs, {}, BenchmarkConfig(audits=False, jobs=1))
        summary = run_plan(study, store, study.config)  # one worker: the runs start in order
        order = store.runs().sort_values("started_at")["key"].tolist()
    assert order == [run.key for run in reversed(runs)]
    assert summary.expected == summary.expected_finished == sum(costs.values())


def test_measured_costs_merge_into_the_table(tmp_path):
    path = tmp_path / "costs.csv"
    first = pd.DataFrame({"dataset": ["a", "b", "a"], "algorithm": ["svm", "svm", SETUP],
                          "rows": [10, 20, 10], "run": [1.0, 2.0, None],
                          "individual": [0.5, 0.5, 0.1]})  # fmt: skip
    write_costs(first, path)
    write_costs(first.iloc[1:2].assign(run=5.0), path)  # b remeasured
    model = cost_model(path)
    assert dict(model.seconds) == {("a", "svm"): {"run": 1.0, "individual": 0.5},
                                   ("b", "svm"): {"run": 5.0, "individual": 0.5}}  # fmt: skip
    assert dict(model.setups) == {"a": {"individual": 0.1}}
    assert dict(model.rows) == {"a": 10, "b": 20}


def test_rows_measured_on_other_machines_are_brought_to_one_speed(tmp_path):
    # Three rows measured where the calibration workload took 1, 1 and 3 seconds: the median
    # machine (1 s) is the reference, and the slow machine's row counts a third of its seconds.
    path = tmp_path / "costs.csv"
    table = pd.DataFrame({"dataset": ["a", "b", "c"], "algorithm": ["svm"] * 3,
                          "rows": [10, 20, 30], "run": [1.0, 2.0, 6.0],
                          "calibration": [1.0, 1.0, 3.0]})  # fmt: skip
    write_costs(table, path)
    model = cost_model(path)
    assert model.reference == 1.0
    assert [model.run_seconds(d, "svm") for d in "abc"] == pytest.approx([1.0, 2.0, 2.0])
    # on a machine where the workload takes 1.5 s, every price is 1.5 times the reference's
    here = model.on_machine(1.5)
    assert [here.run_seconds(d, "svm") for d in "abc"] == pytest.approx([1.5, 3.0, 3.0])
    assert here.speed == 1.5 and model.speed == 1.0


def test_runs_sharing_one_fit_share_its_price():
    model = CostModel({("small", "svm"): {"run": 1.0, "fit": 6.0}}, {"small": 100})
    # two attributes of a baseline: one fit key, so the 6 s fit is paid once, half by each
    shared = [RunSpec("small", a, "numerical", "svm", (), 0, 0, fit_uses_attribute=False)
              for a in ("sex", "race")]  # fmt: skip
    assert shared[0].fit_key == shared[1].fit_key
    assert model.plan_seconds(shared) == pytest.approx({r.key: 4.0 for r in shared})
    alone = RunSpec("small", "sex", "numerical", "svm", (), 0, 0)
    assert model.plan_seconds([alone]) == pytest.approx({alone.key: 7.0})


def test_a_sweep_sharing_its_fit_pays_it_once_and_a_refit_at_every_other_level():
    parts = {"run": 1.0, "fit": 6.0, "refit": 2.0, "tuning": 1.0, "tuning refit": 0.5}
    model = CostModel({("small", "feldman-svm"): parts}, {"small": 100})
    sweep = [RunSpec("small", "sex", "numerical", "feldman-svm", (("repair_level", level),), 0, 0,
                     tune=True, refit_params=("repair_level",)) for level in (0.2, 0.4, 0.6)]  # fmt: skip
    assert len({r.fit_key for r in sweep}) == 1
    # by hand: run 1, a third of the fit 6, tuning 1, and two thirds of the refits 2 + 0.5
    each = 1 + 6 / 3 + 1 + (2 + 0.5) * 2 / 3
    assert model.plan_seconds(sweep) == pytest.approx({r.key: each for r in sweep})
    alone = sweep[0]
    assert model.plan_seconds([alone]) == pytest.approx({alone.key: 1 + 6 + 1})  # fits, no refit
    untuned = [replace(r, tune=False) for r in sweep[:2]]  # no tuning refit either
    assert model.plan_seconds(untuned) == pytest.approx({r.key: 1 + 6 / 2 + 2 / 2 for r in untuned})


def test_a_baselines_runs_share_one_fit_per_split_and_the_others_do_not():
    config = BenchmarkConfig(
        datasets=("german",), algorithms=("decision-tree", "kamishima"), sensitive_attributes="all",
        variants="supported", splits=2,
    )  # fmt: skip
    runs = make_plan(config).runs
    groups = shared_fits(runs)
    tree = [g for g in groups if g[0].algorithm == "decision-tree"]
    # German: sex, age and sex-age, numerical and numerical+binary: 6 runs per split, one fit
    assert [len(g) for g in tree] == [6, 6]
    assert {(r.sensitive_attribute, r.variant) for r in tree[0]} == {
        (a, v) for a in ("sex", "age", "sex-age") for v in ("numerical", "numerical+binary")
    }
    kamishima = [g for g in groups if g[0].algorithm == "kamishima"]
    assert all(len(g) == 1 and g[0].fit_key == g[0].key for g in kamishima)


@pytest.mark.data
@pytest.mark.filterwarnings("ignore::faircompare.measures.UndefinedMeasureWarning")
def test_reused_fits_store_the_numbers_refitting_stores(tmp_path):
    config = BenchmarkConfig(
        datasets=("german",), algorithms=("decision-tree", "logistic-regression"),
        sensitive_attributes="all", variants="supported", splits=1, permutations=50,
    )  # fmt: skip
    runs = make_plan(config).runs
    frames = []
    for reuse in (True, False):
        with ResultStore(tmp_path / str(reuse)) as store:
            if reuse:
                run_plan(runs, store, BenchmarkConfig(permutations=50))
            else:  # every run alone: its own fit
                for run in runs:
                    store.write(execute_run(run, BenchmarkConfig(permutations=50)))
            measures, audits = store.measures(), store.audits()
            fitted = store.runs().set_index("key")["fit_seconds"]
        audits["details"] = audits["details"].map(json.dumps)
        frames.append((measures.sort_values(["key", "measure", "group"], ignore_index=True),
                       audits.sort_values(["key", "audit", "metric"], ignore_index=True),
                       fitted))  # fmt: skip
    (measures, audits, fitted), (refit_measures, refit_audits, refit_fitted) = frames
    pd.testing.assert_frame_equal(measures, refit_measures)
    pd.testing.assert_frame_equal(audits, refit_audits)
    assert (refit_fitted > 0).all() and (fitted == 0).sum() == len(runs) - 2  # 2 fits made


def test_a_frontiers_points_share_one_fit_per_split_and_its_end_the_baselines():
    config = BenchmarkConfig(datasets=("german",), splits=2, algorithms=(
        "unprocessed-gradient-boosting", "gradient-boosting", "kamishima"))  # fmt: skip
    groups = [
        sorted((r.algorithm, r.params) for r in g) for g in shared_fits(make_plan(config).runs)
    ]
    points = [g for g in groups if g[0][1]]  # 2 constraints x 6 tolerances, one fit
    assert [len(g) for g in points] == [12, 12]
    assert [len(set(g)) for g in points] == [12, 12]
    # the unconstrained end is fitted with the baseline's run, one fit per split
    ends = [g for g in groups if ("unprocessed-gradient-boosting", ()) in g]
    assert ends == [[("gradient-boosting", ()), ("unprocessed-gradient-boosting", ())]] * 2


@pytest.mark.data
def test_refitted_frontier_runs_store_the_numbers_fitting_each_alone_stores(tmp_path):
    config = BenchmarkConfig(datasets=("german",), algorithms=("unprocessed-logistic-regression",),
                             splits=1, audits=False)  # fmt: skip
    runs = make_plan(config).runs
    frames = []
    for reuse in (True, False):
        with ResultStore(tmp_path / str(reuse)) as store:
            if reuse:
                run_plan(runs, store, BenchmarkConfig(audits=False))
            else:
                for run in runs:
                    store.write(execute_run(run, BenchmarkConfig(audits=False)))
            frames.append(store.measures().sort_values(["key", "measure", "group"],
                                                       ignore_index=True))  # fmt: skip
    pd.testing.assert_frame_equal(*frames)
    assert frames[0]["key"].nunique() == 13


def test_a_dry_run_prices_the_audits_only_when_they_run():
    config = PROFILES["paper"].overridden(splits=1, datasets=("german", "ricci"))
    audited = plan_study(config)  # fetched: German's twin variants are found from its data
    bare = plan_study(replace(config, audits=False), fetch=False)
    model = cost_model()
    speed = audited.speed  # this machine's, from its calibration time
    assert bare.speed == speed == model.on_machine(speed * model.reference).speed
    runs = [r for r in audited.runs if not r.repeats]
    repeating = len(audited.runs) - len(runs)  # German's sex: they measure their twin's work
    assert repeating > 0
    sharing = Counter(r.fit_key for r in runs)
    # without audits: each run's measured ``run`` part, its share of the fit it shares with
    # other runs and, where it tunes, its tuning, at this machine's speed
    assert sum(bare.costs.values()) == pytest.approx(
        speed
        * sum(
            model.seconds[r.dataset, r.algorithm]["run"]
            + model.seconds[r.dataset, r.algorithm].get("fit", 0.0) / sharing[r.fit_key]
            + r.tune * model.seconds[r.dataset, r.algorithm].get("tuning", 0.0)
            + (bool(r.refit_params) and r.fit_as is None)
            * (1 - 1 / sharing[r.fit_key])
            * (
                model.seconds[r.dataset, r.algorithm].get("refit", 0.0)
                + r.tune * model.seconds[r.dataset, r.algorithm].get("tuning refit", 0.0)
            )
            for r in runs
        )
        + repeating * REPEAT_SECONDS
    )
    splits = {(r.dataset, r.variant, r.sensitive_attribute, r.split_id) for r in runs
              if r.variant != "original"}  # fmt: skip
    audits = speed * (
        sum(
            seconds * (SEQUENTIAL if part == "permutation" else 1.0)
            for r in runs
            for part, seconds in model.seconds[r.dataset, r.algorithm].items()
            if part not in ("run", "fit", "tuning", "refit", "tuning refit")
        )
        + sum(sum(model.setups[split[0]].values()) for split in splits)
    )
    assert sum(audited.costs.values()) == pytest.approx(sum(bare.costs.values()) + audits)


def test_a_repair_at_level_zero_shares_its_classifiers_fit():
    config = BenchmarkConfig(datasets=("german",), algorithms=("feldman-svm", "svm"), grid=True,
                             sensitive_attributes="all", variants="supported", splits=1)  # fmt: skip
    runs = make_plan(config).runs
    feldman = [r for r in runs if r.algorithm == "feldman-svm"]
    level0 = [r for r in feldman if r.parameters["repair_level"] == 0]
    # German: 3 attributes x 2 numeric variants; the other 20 levels of each share one fit of
    # the repair, and refit the classifier (refit_params)
    assert len(level0) == 6 and {r.fit_as for r in level0} == {SharedFit("svm")}
    assert all(r.fit_as is None for r in feldman if r not in level0)
    svm = [r for r in runs if r.algorithm == "svm"]
    assert {r.fit_key for r in level0} == {r.fit_key for r in svm} and len(svm) == 6
    assert sorted(len(group) for group in shared_fits(runs)) == [12] + [20] * 6
    # only these runs' inputs say so: stored runs of the other levels stay valid
    assert dict(level0[0].inputs)["fit"] == "as svm"
    assert all("fit" not in dict(r.inputs) for r in feldman if r not in level0)


@pytest.mark.data
@pytest.mark.filterwarnings("ignore::faircompare.measures.UndefinedMeasureWarning")
def test_a_repair_at_level_zero_stores_what_fitting_the_repair_stored():
    # logistic regression fits deterministically: the repair at level 0 fitted as before #41
    # (the repair, then its classifier on the unchanged values) gives the shared fit's numbers
    config = BenchmarkConfig(
        datasets=("german",), algorithms=("feldman-logistic-regression", "logistic-regression"),
        splits=1, audits=False, grid=True,
    )  # fmt: skip
    runs = [r for r in make_plan(config).runs if r.parameters.get("repair_level", 0) in (0, 0.5)]
    options = BenchmarkConfig(audits=False)
    together = {
        rec.spec.key: rec for group in shared_fits(runs) for rec in execute_runs(group, options)
    }
    alone = {r.key: execute_run(replace(r, fit_as=None), options) for r in runs}
    assert len(together) == len(alone) == 3
    for key, record in together.items():
        assert record.status == alone[key].status == "done"
        values = [(m.measure, m.group, m.part, m.value) for m in record.measures]
        assert values == [(m.measure, m.group, m.part, m.value) for m in alone[key].measures]
    level0 = next(r for r in runs if r.fit_as is not None)
    shared = [together[r.key].timings["fit"] for r in runs if r.fit_key == level0.fit_key]
    assert len(shared) == 2 and sorted(shared)[0] == 0.0 < sorted(shared)[1]  # fitted once


def test_a_duration_reads_in_the_unit_that_fits_it():
    # by hand: a minute and a half is "90 seconds", never "2 minutes" or "1 minutes" (the
    # quick profile's dry run said "about 1 CPU-minutes" on a machine a little slower)
    assert duration(59) == "59 seconds" and duration(90, cpu=True) == "90 CPU-seconds"
    assert duration(150) == "2 minutes" and duration(14 * 60) == "14 minutes"
    assert duration(1.3 * 3600, cpu=True) == "1.3 CPU-hours"
