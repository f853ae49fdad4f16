"""Tuned runs at an equal budget (#82): planned per budget, searched once per split, the chosen
setting fitted on every training row and tested once, stored with every trial, resumed from
the journal of an interrupted search, and priced by the trials they make."""

import html
import json
import re
import sqlite3
from collections import Counter
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from faircompare.analysis import paper
from faircompare.analysis.equal_fairness import equal_fairness, frontier_points
from faircompare.analysis.lint import lint_figure
from faircompare.analysis.report import write_report
from faircompare.analysis.tidy import budget_of, label, representative
from faircompare.benchmark import execute, make_plan, run_plan
from faircompare.benchmark.costs import CostModel
from faircompare.benchmark.execute import execute_runs, fit_model, predict_rows, run_split
from faircompare.benchmark.schedule import shared_fits
from faircompare.benchmark.tuned import Journal, chosen_spec
from faircompare.config import BenchmarkConfig, load_config
from faircompare.exceptions import ChoiceError, ConfigError
from faircompare.results import ResultStore
from faircompare.results.store import DATABASE

TUNED = BenchmarkConfig(
    datasets=("ricci",),
    algorithms=("logistic-regression", "unprocessed-logistic-regression"),
    splits=1,
    tuning_budgets=(3, 12),
    audits=False,
)


def shown(trials):
    """The trials as text, an undefined gap (NaN) equal to another."""
    return [repr(trial) for trial in trials]


def groups(config):
    return {
        (g[0].algorithm, g[0].budget is not None): g for g in shared_fits(make_plan(config).runs)
    }


def test_a_budget_plans_a_tuned_run_per_setting_and_leaves_the_other_runs_keys_as_they_were():
    untuned = make_plan(replace(TUNED, tuning_budgets=())).runs
    runs = make_plan(TUNED).runs
    plain = [r for r in runs if r.budget is None]
    assert [r.key for r in plain] == [r.key for r in untuned]  # a budget adds runs, moves none
    tuned = [r for r in runs if r.budget is not None]
    # logistic regression once per budget; the frontier at its unconstrained end and 12 points
    assert sorted(Counter((r.algorithm, r.budget) for r in tuned).items()) == [
        (("logistic-regression", 3), 1), (("logistic-regression", 12), 1),
        (("unprocessed-logistic-regression", 3), 13), (("unprocessed-logistic-regression", 12), 13),
    ]  # fmt: skip
    assert len({r.key for r in tuned}) == len(tuned)  # the budget is in the key
    assert {dict(r.inputs)["tuning"] for r in tuned} == {"tpe, accuracy"}
    # a search's budgets and points are one group: searched once
    assert {len(g) for (_, t), g in groups(TUNED).items() if t} == {2, 26}


@pytest.mark.data
def test_each_budget_spends_its_trials_and_tests_the_setting_its_objective_chooses():
    group = groups(TUNED)["logistic-regression", True]
    small, large = execute_runs(group, TUNED)
    assert (small.spec.budget, large.spec.budget) == (3, 12)
    assert len(small.trials) == 3 and len(large.trials) == 12  # exactly the budget
    assert large.trials[:3] == small.trials  # a smaller budget's search is the larger's start
    for record in (small, large):  # the objective (accuracy): the most accurate, first drawn
        best = max(record.trials, key=lambda t: (t.accuracy, -t.number))
        assert record.chosen == best.number
        # tested: the chosen setting fitted on every training row, its test predictions stored
        spec = chosen_spec(record.spec, record.trials[record.chosen].params)
        _, split = run_split(spec, TUNED)
        model, _ = fit_model(spec, TUNED, split, {})
        assert record.n_train == len(split.y_train)
        np.testing.assert_array_equal(predict_rows(spec.algorithm, model, split)[0],
                                      record.predictions.y_pred)  # fmt: skip
    again = execute_runs(group, TUNED)  # same seed, same trials, same choice
    assert [shown(r.trials) for r in again] == [shown(small.trials), shown(large.trials)]
    assert [r.chosen for r in again] == [small.chosen, large.chosen]


@pytest.mark.data
def test_the_trials_predict_validation_rows_and_each_run_its_test_rows_once(monkeypatch):
    predicted = []

    def recorded(name, model, split):
        predicted.append((split.holdout, frozenset(split.test_index)))
        return predict_rows(name, model, split)

    monkeypatch.setattr(execute, "predict_rows", recorded)
    spec = groups(TUNED)["logistic-regression", True][0]
    execute_runs(groups(TUNED)["logistic-regression", True], TUNED)
    _, split = run_split(spec, TUNED)
    parts = Counter(holdout for holdout, _ in predicted)
    assert parts == {"validation": 12, "test": 2}  # 12 trials of one search, 2 runs tested
    validation = {rows for holdout, rows in predicted if holdout == "validation"}
    assert len(validation) == 1  # every trial on the same validation rows ...
    assert not next(iter(validation)) & set(split.test_index)  # ... none of them a test row


@pytest.mark.data
def test_a_frontiers_points_post_process_one_tuned_baseline_at_each_budget():
    records = execute_runs(groups(TUNED)["unprocessed-logistic-regression", True], TUNED)
    for budget in (3, 12):
        mine = [r for r in records if r.spec.budget == budget]
        assert len(mine) == 13 and len({r.chosen for r in mine}) == 1  # one search, one choice
        assert all(r.trials == mine[0].trials for r in mine)
        searched = {name for t in mine[0].trials for name in t.params}
        assert searched == {"estimator__C"}  # the baseline's space; the points are kept
        unconstrained = next(r for r in mine if not r.spec.params)
        # the unconstrained end is the tuned baseline's own predictions, not a refitted point's
        spec = chosen_spec(unconstrained.spec, mine[0].trials[mine[0].chosen].params)
        _, split = run_split(spec, TUNED)
        model, _ = fit_model(spec, TUNED, split, {})
        np.testing.assert_array_equal(predict_rows(spec.algorithm, model, split)[0],
                                      unconstrained.predictions.y_pred)  # fmt: skip


@pytest.mark.data
def test_an_interrupted_search_resumes_from_its_journal_at_its_next_trial(tmp_path, monkeypatch):
    spec = groups(TUNED)["logistic-regression", True][1]  # budget 12
    whole = execute_runs([spec], TUNED)[0]
    journaled = replace(spec, journal=str(tmp_path))
    journal = Journal(journaled)
    for trial in whole.trials[:4]:  # four trials journaled before a crash cut the fifth's line
        journal.add(trial)
    with journal.path.open("a") as cut:
        cut.write('{"number": 4, "params": {"C"')
    assert shown(journal.read()) == shown(whole.trials[:4])
    fitted = []
    monkeypatch.setattr(execute, "predict_rows", lambda name, model, split: (
        fitted.append(split.holdout) or predict_rows(name, model, split)))  # fmt: skip
    resumed = execute_runs([journaled], TUNED)[0]
    assert shown(resumed.trials) == shown(whole.trials)  # as if it had never stopped ...
    assert Counter(fitted) == {"validation": 8, "test": 1}  # ... the first four not fitted again
    assert shown(Journal(journaled).read()) == shown(whole.trials)  # the rest journaled


@pytest.mark.data
def test_a_tuned_study_stores_every_trial_and_its_choice_and_removes_its_journals(tmp_path):
    with ResultStore(tmp_path) as store:
        summary = run_plan(make_plan(TUNED).runs, store, TUNED.overridden(backend="inline"))
        assert summary.failed == 0
        trials, runs = store.trials(), store.runs()
        measures = store.measures()
    assert not (tmp_path / "searches").exists()
    tuned = runs[runs["budget"].notna()]
    per_run = trials.groupby("key").agg(trials=("number", "size"), chosen=("chosen", "sum"))
    assert per_run.loc[tuned["key"], "chosen"].eq(1).all()  # one chosen trial per tuned run
    budgets = tuned.set_index("key")["budget"]
    assert (per_run.loc[budgets.index, "trials"] == budgets.astype(int)).all()
    assert set(measures.loc[measures["key"].isin(tuned["key"]), "setting"].map(budget_of)) == {
        3,
        12,
    }


@pytest.mark.data
def test_a_store_written_before_tuned_runs_is_read_as_it_is_and_gains_them_when_written(tmp_path):
    with ResultStore(tmp_path) as store:
        run_plan(make_plan(BenchmarkConfig(datasets=("ricci",), algorithms=("gaussian-nb",),
                                           splits=1, audits=False)).runs,
                 store, BenchmarkConfig(backend="inline"))  # fmt: skip
    with sqlite3.connect(tmp_path / DATABASE) as db:  # as 0.3.0 wrote it: no budget, no trials
        db.execute("DROP TABLE trials")
        db.execute("ALTER TABLE runs DROP COLUMN budget")
        db.execute("ALTER TABLE plan DROP COLUMN budget")
    with ResultStore(tmp_path, readonly=True) as old:
        assert old.runs()["budget"].isna().all() and old.trials().empty
        assert (old.measures()["setting"] == "defaults").all()
    with ResultStore(tmp_path) as written:  # opened to write: the columns and table added
        assert written.trials().empty and "budget" in written.plan()


def test_the_settings_take_the_tuning_as_a_table_options_or_fields(tmp_path):
    config = tmp_path / "study.toml"
    config.write_text('profile = "quick"\n[tuning]\nbudget = [10, 1]\nobjective = "pareto"\n')
    loaded = load_config(config)
    assert loaded.tuning_budgets == (1, 10) and loaded.tuning_objective == "pareto"
    config.write_text("[tuning]\nbudgets = 10\n")
    with pytest.raises(ChoiceError, match=r"tuning key .*'budgets' \(did you mean 'budget'\?\)"):
        load_config(config)
    config.write_text("tuning_budgets = [5]\n[tuning]\nbudget = 10\n")
    with pytest.raises(ConfigError, match="sets tuning_budgets twice"):
        load_config(config)
    with pytest.raises(ConfigError, match=r"each from 1 to 1,000 .*got \[0, 10\]"):
        BenchmarkConfig(tuning_budgets=[0, 10])
    with pytest.raises(ConfigError, match="tuning_bound must be a number from 0 to 1"):
        BenchmarkConfig(tuning_bound=1.5)
    assert BenchmarkConfig(tuning_budgets=30).tuning_budgets == (30,)


def test_the_dry_run_prices_a_search_once_its_largest_budget_and_a_fit_per_budget():
    model = CostModel({("ricci", "logistic-regression"): {"run": 1.0, "fit": 6.0}},
                      {"ricci": 118})  # fmt: skip
    runs = [r for r in groups(TUNED)["logistic-regression", True]]
    seconds = model.plan_seconds(runs)
    trial = model.trial_seconds("ricci", "logistic-regression")
    assert trial == pytest.approx(6.0 * 2 / 3)  # a fit on two thirds of the training rows
    # twelve trials, two fits (one per budget), two runs' own parts
    assert sum(seconds.values()) == pytest.approx(12 * trial + 2 * 6.0 + 2 * 1.0)


def test_a_tuned_setting_is_named_by_its_budget_and_compared_with_the_frontier_of_its_budget():
    assert label("kamishima", '{"trials": 10}') == "kamishima (10 trials)"
    assert label("kamishima", '{"trials": 1}') == "kamishima (1 trial)"
    assert budget_of('{"eta": 1.0}') is None and budget_of("defaults") is None
    rows = []
    for budget, frontier, intervention in ((None, 0.70, 0.72), (10, 0.80, 0.78)):
        setting = "defaults" if budget is None else json.dumps({"trials": budget})
        for algorithm, accuracy in (("unprocessed-logistic-regression", frontier),
                                    ("kamishima", intervention)):  # fmt: skip
            key = f"{algorithm}-{budget}"
            for measure, value in (("accuracy", accuracy), ("demographic_parity_difference", 0.1),
                                   ("equalized_odds_difference", 0.1)):  # fmt: skip
                rows.append({"key": key, "dataset": "d", "sensitive_attribute": "s",
                             "variant": "v", "algorithm": algorithm, "setting": setting,
                             "split_id": 0, "measure": measure, "group": "", "value": value})  # fmt: skip
    measures = pd.DataFrame(rows)
    points = frontier_points(measures)
    assert set(points["frontier"]) == {
        "unprocessed-logistic-regression", "unprocessed-logistic-regression (10 trials)"
    }  # fmt: skip
    differences = equal_fairness(measures).set_index("setting")["difference"]
    # each against the frontier of its own budget: +0.02 untuned, -0.02 at ten trials
    assert differences.groupby(level=0).first().round(6).to_dict() == {
        "defaults": 0.02, '{"trials": 10}': -0.02
    }  # fmt: skip
    shown = representative(measures[measures["algorithm"] == "kamishima"])
    assert sorted(shown["setting"].unique()) == ["defaults", '{"trials": 10}']


@pytest.fixture(scope="module")
def tuned_study(tmp_path_factory):
    """German, two methods and the yardstick's frontier, two splits, tuned with 1 and 3 trials."""
    folder = tmp_path_factory.mktemp("tuned-study")
    config = BenchmarkConfig(
        datasets=("german",),
        algorithms=("logistic-regression", "kamishima", "unprocessed-logistic-regression"),
        splits=2,
        tuning_budgets=(1, 3),
        audits=False,
        backend="inline",
    )
    with ResultStore(folder) as store:
        assert run_plan(make_plan(config).runs, store, config).failed == 0
    return folder


@pytest.mark.data
def test_the_budget_kind_draws_each_methods_stored_means_at_each_budget(tuned_study, tmp_path):
    with ResultStore(tuned_study, readonly=True) as store:
        measures = store.measures()
    for width in (paper.COLUMN, paper.PAGE):
        figure = paper.draw("budget", tuned_study, labels={"kamishima": "Ours"}, width=width)
        figure.savefig(tmp_path / "budget.pdf")
        assert b"/FontFile2" in (tmp_path / "budget.pdf").read_bytes()  # TrueType, no Type 3
        assert figure.get_size_inches()[0] == pytest.approx(width)
        assert lint_figure(figure) == []
    accuracy, gap = figure.axes[:2]
    assert [t.get_text() for t in accuracy.get_xticklabels()] == ["0", "1", "3"]
    assert accuracy.get_xlabel() == "trials (0: defaults)"
    lines = {line.get_label(): line.get_ydata() for line in accuracy.get_lines()}
    assert set(lines) == {"Ours", "logistic-regression"}  # the frontier is the yardstick, not drawn
    # each mean by hand: the stored test accuracy of the runs at each setting, over the splits
    mine = measures[(measures["algorithm"] == "kamishima") & (measures["measure"] == "accuracy")
                    & (measures["group"] == "")]  # fmt: skip
    by_hand = [mine.loc[mine["setting"] == s, "value"].mean()
               for s in ("defaults", '{"trials": 1}', '{"trials": 3}')]  # fmt: skip
    np.testing.assert_allclose(lines["Ours"], by_hand)
    assert "DIbinary gap" in gap.get_ylabel()


@pytest.mark.data
def test_the_report_says_which_verdicts_survive_and_the_trials_each_run_made(tuned_study):
    page = write_report(tuned_study, tuned_study / "report").read_text()
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    assert "Tuning at an equal budget" in text
    assert re.search(r"Of \d+ verdicts against the yardstick at the defaults, \d+ hold at every "
                     r"budget \(\d+ at 1 trial, \d+ at 3 trials\)", text)  # fmt: skip
    # 2 methods x 2 budgets x 2 splits, and the frontier's 13 points x 2 x 2: each its trials
    assert "Of 60 tuned runs, 60 made exactly their budget's trials." in text
    assert "kamishima (3 trials)" in text
    assert (tuned_study / "report" / "tables" / "verdicts-by-budget.csv").is_file()
    assert "Parts that could not be drawn" not in text
