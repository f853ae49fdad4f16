"""Executing plans: results, failures, time limits, resuming, and the Dask backend."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from faircompare.benchmark import make_plan, run_plan
from faircompare.benchmark.execute import execute_run
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.measures import evaluate
from faircompare.preprocessing import make_split, prepare
from faircompare.results import ResultStore, audit_details

pytestmark = pytest.mark.data

FAILING = """
    import time
    import numpy as np
    from faircompare.algorithms import FairEstimator

    class Raises(FairEstimator):
        name = "raises"

        def fit(self, X, y, *, sensitive_features):
            raise RuntimeError("broken on purpose")

    class Hangs(FairEstimator):
        name = "hangs"

        def fit(self, X, y, *, sensitive_features):
            time.sleep(600)

    class NotANumber(FairEstimator):
        name = "not-a-number"

        def fit(self, X, y, *, sensitive_features):
            self.classes_ = np.array([0, 1])
            return self

        def predict(self, X, *, sensitive_features=None):
            return np.where(np.arange(len(X)) % 3 == 0, np.nan, 1.0)

    class OutOfRange(NotANumber):
        name = "out-of-range"

        def predict(self, X, *, sensitive_features=None):
            return np.ones(len(X))

        def predict_proba(self, X, *, sensitive_features=None):
            p = np.linspace(-2, 3, len(X))
            return np.column_stack([1 - p, p])
"""


def small_plan(**changes):
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("decision-tree", "calders", "zafar-fairness"), splits=2
    )
    return make_plan(config.overridden(**changes)).runs


def audited_plan(**changes):
    """A small plan on German credit: Ricci's 40 test rows hold fewer than 30 of each group,
    which no audit tests (#64)."""
    return small_plan(datasets=("german",), **changes)


@pytest.mark.filterwarnings("ignore::faircompare.measures.UndefinedMeasureWarning")
def test_a_run_stores_predictions_and_the_measures_they_give(load):
    spec = small_plan()[0]
    result = execute_run(spec, BenchmarkConfig())
    assert result.status == "done", result.traceback
    split = make_split(
        prepare(load("ricci"), spec.variant, spec.sensitive_attribute), spec.split_id
    )
    predictions = result.predictions
    np.testing.assert_array_equal(predictions.test_index, split.test_index)
    np.testing.assert_array_equal(predictions.sensitive_features, split.sensitive_features_test)
    expected = evaluate(
        split.y_test,
        predictions.y_pred,
        split.sensitive_features_test,
        privileged=1,
        scores=predictions.scores,
    )
    stored = pd.DataFrame(
        [row[1:] for row in result.measures], columns=["measure", "group", "value"]
    )
    pd.testing.assert_frame_equal(stored, expected)
    assert result.timings["fit"] > 0 and result.n_test == len(split.y_test)


def test_failures_and_hangs_are_recorded_while_other_runs_complete(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "failing.py").write_text(textwrap.dedent(FAILING))
    specs = small_plan(algorithms=("decision-tree", "raises", "hangs"), plugins=str(plugins))
    # No audits, and a limit of 5 s: the decision tree's runs take milliseconds, far from the
    # limit on a loaded machine (audited, with a 2 s limit, they timed out at a load of 6).
    options = BenchmarkConfig(timeout=5, plugins=str(plugins), audits=False)
    with ResultStore(tmp_path / "results") as store:
        summary = run_plan(specs, store, options.overridden(jobs=2))
        runs = store.runs().set_index("algorithm")
    assert (summary.done, summary.failed) == (2, 4)
    assert set(runs.loc["decision-tree", "status"]) == {"done"}
    assert set(runs.loc["raises", "error"]) == {"RuntimeError: broken on purpose"}
    assert set(runs.loc["hangs", "error"]) == {"RunTimeoutError: stopped at the time limit of 5 s"}
    assert "Traceback" in runs.loc["raises", "traceback"].iloc[0]


def test_predictions_that_are_not_labels_fail_the_run_with_their_count(tmp_path):
    # stored on the main of issue #28 as a successful run: NaN cast to 0, accuracy 0.487
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "failing.py").write_text(textwrap.dedent(FAILING))
    specs = small_plan(algorithms=("not-a-number",), splits=1, plugins=str(plugins))
    with ResultStore(tmp_path / "results") as store:
        summary = run_plan(specs, store, BenchmarkConfig(plugins=str(plugins)))
        runs, measures = store.runs(), store.measures()
    assert (summary.done, summary.failed) == (0, 1) and measures.empty
    # Ricci's test part: 39 of its 118 rows; every third prediction is NaN: rows 0, 3, ..., 36.
    assert runs["error"].iloc[0] == (
        "BadPredictionsError: not-a-number: predict returned 13 of 39 predictions that are not "
        "0 or 1: nan"
    )


def test_probabilities_outside_zero_and_one_fail_the_run(tmp_path):
    # stored as done on the main of issue #38; only check-plugin objected
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "failing.py").write_text(textwrap.dedent(FAILING))
    specs = small_plan(algorithms=("out-of-range",), splits=1, plugins=str(plugins))
    result = execute_run(specs[0], BenchmarkConfig(plugins=str(plugins)))
    # 39 test rows from -2 to 3 in steps of 5/38: 16 below 0 (-2 ... -0.03), 16 above 1 (1.03 ...)
    assert result.status == "failed"
    assert result.error.startswith(
        "BadPredictionsError: out-of-range: predict_proba returned 32 of 39 probabilities "
        "outside [0, 1]: -2.0, "
    )


def test_a_rerun_skips_stored_runs_and_force_and_retry_redo_them(tmp_path):
    specs = small_plan()
    with ResultStore(tmp_path) as store:
        first = run_plan(specs, store, BenchmarkConfig())
        again = run_plan(specs, store, BenchmarkConfig())
        assert (first.done, again.done, again.skipped) == (len(specs), 0, len(specs))
        assert run_plan(specs, store, BenchmarkConfig(force=True)).done == len(specs)
        assert run_plan(specs, store, BenchmarkConfig(retry_failed=True)).done == 0
        assert len(store.runs()) == len(specs)


def test_dask_local_cluster_stores_the_same_results_as_worker_processes(tmp_path):
    specs = small_plan()
    tables = []
    for backend in ("processes", "dask"):
        with ResultStore(tmp_path / backend) as store:
            assert run_plan(specs, store, BenchmarkConfig(jobs=2, backend=backend)).done == len(
                specs
            )
            measures = store.measures().sort_values(["key", "measure", "group"])
            tables.append(measures.reset_index(drop=True))
    pd.testing.assert_frame_equal(tables[0], tables[1])


@pytest.mark.slow
def test_paper_profile_ricci_part_on_two_dask_workers_stores_what_worker_processes_store(tmp_path):
    # The extended profile's Ricci part, one split (343 runs: every algorithm and grid value,
    # tuning runs, all three audits) on a LocalCluster of two worker processes; about 6 minutes.
    pytest.importorskip("dask.distributed")
    specs = make_plan(PROFILES["extended"].overridden(datasets=("ricci",), splits=1)).runs
    tables = []
    for backend in ("processes", "dask"):
        with ResultStore(tmp_path / backend) as store:
            summary = run_plan(specs, store, BenchmarkConfig(jobs=2, backend=backend))
            assert (summary.done, summary.failed) == (len(specs), 0)
            tables.append(
                store.measures().sort_values(["key", "measure", "group"], ignore_index=True)
            )
    pd.testing.assert_frame_equal(tables[0], tables[1])


def test_export_writes_every_table_or_says_what_parquet_needs(tmp_path):
    from faircompare.exceptions import FaircompareError
    from faircompare.results.export import export

    with ResultStore(tmp_path / "results") as store:
        run_plan(small_plan(splits=1), store, BenchmarkConfig())
        written = export(store, tmp_path / "csv")
        assert [p.name for p in written] == [
            "runs.csv",
            "measures.csv",
            "measures_validation.csv",
            "audits.csv",
            "trials.csv",  # empty: no tuned run
        ]
        assert len(pd.read_csv(written[0])) == 3
        audits = pd.read_csv(written[3])  # the details as the store's JSON, which reads back
        stored = [json.dumps(details) for details in store.audits()["details"]]
        assert [json.dumps(json.loads(text)) for text in audits["details"]] == stored
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            with pytest.raises(
                FaircompareError, match="Parquet export needs pyarrow: pip install pyarrow"
            ):
                export(store, tmp_path / "parquet", "parquet")
        else:
            assert all(p.exists() for p in export(store, tmp_path / "parquet", "parquet"))


def test_every_run_is_audited_with_studentized_permutation_tests(tmp_path):
    specs = audited_plan(algorithms=("decision-tree", "zafar-fairness"), splits=1)
    with ResultStore(tmp_path) as store:
        run_plan(specs, store, BenchmarkConfig(permutations=200))
        audits = store.audits().query("audit == 'permutation'").reset_index(drop=True)
    # Decision trees and Zafar's model have scores, so AUC is tested too: 5 metrics per run.
    assert (
        audits.groupby("key")["metric"].apply(set).tolist()
        == [{"positive_rate", "TPR", "FPR", "accuracy", "AUC"}] * 2
    )
    details = audit_details(audits, "permutation")
    tested = details["adjusted_pvalue"].notna()
    # sequential: (k + 1) / (B + 1), B from the first batch of 64 to the cap of 200
    assert (audits.loc[tested, "pvalue"] >= 1 / 201).all()
    assert (details.loc[tested, "adjusted_pvalue"] >= details.loc[tested, "pvalue"]).all()
    assert details.loc[tested, "permutations"].between(64, 200).all()
    # a test that stopped before the cap decided; one at the cap may not have
    stopped = details.loc[tested, "permutations"] < 200
    assert details.loc[tested & stopped, "decided"].all()


def test_fliptest_audits_every_run_with_one_map_per_split(tmp_path):
    from faircompare.audits import registered_audits

    setups = registered_audits()["fliptest"].setups
    setups.clear()
    specs = audited_plan(algorithms=("decision-tree", "calders", "zafar-fairness"), splits=1)
    with ResultStore(tmp_path) as store:
        # inline: the cache is visible here
        run_plan(specs, store, BenchmarkConfig(permutations=50, backend="inline"))
        flips = store.audits().query("audit == 'fliptest'")
    assert len(flips) == 2 * len(specs)  # F+ and F- for every run
    assert set(flips["metric"]) == {"F+", "F-"}
    assert flips["statistic"].between(0, 1).all()
    assert (setups.misses, setups.hits) == (1, len(specs) - 1)  # one map, reused by the others


def test_a_run_failing_after_its_split_setups_leaves_them_to_the_next_run(monkeypatch):
    # A run stopped after its audits built the split's FlipTest map and fair metric (at the
    # time limit in its tuning fit, say) fails, but the worker keeps what was built complete:
    # the next run of the split reuses both instead of building them again
    from faircompare.audits import registered_audits
    from faircompare.benchmark import execute

    audits = registered_audits()
    for name in ("fliptest", "individual"):
        audits[name].setups.clear()
    real, calls = execute.audit_run, []

    def audit_then_fail_once(*args, **kwargs):
        outcome = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            raise TimeoutError("the run exceeded its time limit")
        return outcome

    monkeypatch.setattr(execute, "audit_run", audit_then_fail_once)
    first, second = audited_plan(algorithms=("decision-tree", "zafar-fairness"), splits=1)
    assert execute_run(first, BenchmarkConfig(permutations=20)).status == "failed"
    assert execute_run(second, BenchmarkConfig(permutations=20)).status == "done"
    for name in ("fliptest", "individual"):
        assert (audits[name].setups.misses, audits[name].setups.hits) == (1, 1)


def test_individual_fairness_audits_every_run_with_one_metric_per_split(tmp_path):
    from faircompare.audits import registered_audits

    setups = registered_audits()["individual"].setups
    setups.clear()
    algorithms = ("decision-tree", "logistic-regression", "zafar-fairness", "feldman-svm")
    specs = audited_plan(algorithms=algorithms, splits=1)
    with ResultStore(tmp_path) as store:
        # inline: the cache is visible here
        run_plan(specs, store, BenchmarkConfig(permutations=50, backend="inline"))
        individual = store.audits().query("audit == 'individual'")
    assert len(individual) == 2 * len(specs)  # T_n and T~_n for every run
    by_algorithm = individual.set_index("algorithm")
    kinds = by_algorithm["details"].map(lambda d: d["gradient"]).groupby(level=0).first()
    assert kinds.to_dict() == {
        "decision-tree": "derivative-free",
        "logistic-regression": "analytic",
        "zafar-fairness": "analytic",
        "feldman-svm": "surrogate",  # one attack, along the repair's smoothing
    }
    loss = individual.query("metric == 'loss-ratio'")
    assert (loss["statistic"].notna() & loss["pvalue"].between(0, 1)).all()
    assert (setups.misses, setups.hits) == (1, len(specs) - 1)  # one metric, reused by the others


@pytest.mark.filterwarnings("ignore::faircompare.measures.UndefinedMeasureWarning")
def test_stored_predictions_give_back_the_measures(tmp_path, load):
    # The store keeps labels, groups and the privileged value with each run's predictions, so
    # the analysis can compute any measure again (the §6.3 balanced re-sample does).
    spec = small_plan()[0]
    with ResultStore(tmp_path / "results") as store:
        store.write(execute_run(spec, BenchmarkConfig()))
        stored = store.predictions(spec.key)
        measures = store.measures().query("key == @spec.key")
    again = evaluate(
        stored.y_true,
        stored.y_pred,
        stored.sensitive_features,
        privileged=stored.privileged,
        scores=stored.scores,
    )
    merged = measures.merge(again, on=["measure", "group"], suffixes=("", "_again"))
    assert len(merged) == len(again)
    np.testing.assert_allclose(merged["value"], merged["value_again"], equal_nan=True)


def test_a_store_of_an_older_schema_is_refused_with_a_clear_message(tmp_path):
    import sqlite3

    from faircompare.exceptions import FaircompareError

    (tmp_path / "old").mkdir()
    with sqlite3.connect(tmp_path / "old" / "results.sqlite") as db:
        db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    with pytest.raises(FaircompareError, match="older faircompare.*another --results folder"):
        ResultStore(tmp_path / "old")


def test_a_run_builds_its_split_once_with_its_audits_and_tuning(monkeypatch):
    from faircompare.benchmark import execute

    calls = []

    def counted(*args, **kwargs):
        calls.append(args[1:])
        return make_split(*args, **kwargs)

    monkeypatch.setattr(execute, "make_split", counted)
    spec = next(
        s
        for s in small_plan(algorithms=("feldman-decision-tree",), grid=True, tune=True, splits=1)
        if s.tune
    )
    result = execute_run(spec, BenchmarkConfig(permutations=20))
    assert result.status == "done", result.traceback
    assert {row.audit for row in result.audits} == {"permutation", "fliptest", "individual"}
    assert {row.part for row in result.measures} == {"test", "validation"}
    assert calls == [(spec.split_id,)]


class ToyAudit:
    """A fourth audit, as a plugin author writes one: the rows reach the store untouched."""

    name = "toy"
    version = "1"

    def applies(self, run):
        return run.both_groups

    def __call__(self, run, options):
        from faircompare.records import AuditRow

        share = float(run.y_pred[run.unprivileged].mean())
        return [AuditRow("toy", "positive-share", "unprivileged", share, None, None, {"n": 1})]


def test_a_fourth_audit_registered_in_the_audits_package_reaches_the_store(tmp_path, monkeypatch):
    from faircompare.audits import register_audit, registry

    monkeypatch.setattr(registry, "_REGISTERED", {})
    with pytest.raises(TypeError, match="is not an audit"):
        register_audit(object())
    register_audit(ToyAudit())
    specs = small_plan(algorithms=("decision-tree",), splits=1)
    with ResultStore(tmp_path) as store:
        # inline: the registry is visible here
        run_plan(specs, store, BenchmarkConfig(permutations=20, backend="inline"))
        toy = store.audits().query("audit == 'toy'")
        predictions = store.predictions(specs[0].key)
    unprivileged = predictions.sensitive_features != predictions.privileged
    assert toy["statistic"].tolist() == [predictions.y_pred[unprivileged].mean()]
    assert toy["details"].tolist() == [{"n": 1}]


def test_never_more_workers_than_runs_or_cores(monkeypatch):
    # on the main of issue #28, --jobs 1000 started over 460 workers for a one-run plan
    from faircompare.config import settings

    monkeypatch.setattr(settings, "cpu_cores", lambda: 3)  # not this machine's 2
    assert BenchmarkConfig(jobs=1000).workers(1) == 1
    assert BenchmarkConfig(jobs=1000).workers(50) == 3  # capped at the cores
    assert BenchmarkConfig(jobs=1).workers(50) == 1
    assert BenchmarkConfig(jobs=1000, backend="dask").workers(50) == 3  # a local cluster is here
    cluster = BenchmarkConfig(jobs=64, backend="dask", scheduler="tcp://cluster:8786")
    assert cluster.workers(50) == 50  # the cluster's size
    assert BenchmarkConfig().workers(50) == 3  # by default, every core
    assert BenchmarkConfig(jobs=8, backend="inline").workers(50) == 1  # one run at a time
    # the report is drawn on this machine, whatever runs the plan
    assert cluster.local_workers() == 3 and BenchmarkConfig(jobs=1).local_workers() == 1


def test_settings_refuse_what_cannot_run_naming_the_value_and_the_way_out():
    from faircompare.exceptions import ChoiceError, SettingsError

    with pytest.raises(ChoiceError, match="unknown backend 'procesess' .did you mean 'processes'"):
        BenchmarkConfig(backend="procesess")
    for jobs in (0, -1, 1.5, True):
        with pytest.raises(
            SettingsError, match=f"jobs must be a whole number of at least 1, got {jobs!r}"
        ):
            BenchmarkConfig(jobs=jobs)
    with pytest.raises(
        SettingsError, match="pass backend='dask' .--backend dask., not 'processes'"
    ):
        BenchmarkConfig(scheduler="tcp://cluster:8786")
    with pytest.raises(SettingsError, match="mirror must be a folder's path, got 3"):
        BenchmarkConfig(mirror=3)


def test_a_note_says_when_the_workers_asked_for_are_capped_at_the_cores(monkeypatch):
    from faircompare.config import settings

    monkeypatch.setattr(settings, "cpu_cores", lambda: 3)  # not this machine's 2
    capped = "--jobs 8 is more than this machine's 3 cores: using 3"
    assert BenchmarkConfig(jobs=8).capped() == capped
    assert BenchmarkConfig().capped() is None  # the default never warns: it is the cores
    assert BenchmarkConfig(jobs=8, backend="dask", scheduler="tcp://c:8786").capped() is None


def test_workers_start_without_pots_optional_backends():
    # POT imports torch to offer it as a backend, 0.25 GB in every worker that never uses it
    pytest.importorskip("torch")
    from faircompare.benchmark.workers import _worker_environment

    brought = subprocess.run(
        [sys.executable, "-c", "import sys, ot; print('torch' in sys.modules)"],
        env=_worker_environment(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert brought == "False"
    assert "POT_BACKEND_DISABLE_PYTORCH" not in os.environ  # this process's is untouched
