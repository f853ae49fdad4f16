"""Stored runs are reused only when computed from the same inputs; the plan takes what it is told.

Each test here failed on the main of issue #16: a rerun after the data changed planned nothing
and kept the old results, and so on.
"""

import json
import os
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

from faircompare.benchmark import StaleResultsError, make_plan, run_plan
from faircompare.config import BenchmarkConfig, ConfigError
from faircompare.exceptions import ChoiceError
from faircompare.results import ResultStore
from tests.benchmark.test_resume import wait_for_runs
from tests.test_registry import write_plugin

SPEC = """\
name = "{name}"
file = "loans.csv"
label = "repaid"
positive_label = "yes"
sensitive = ["{attribute}"]
categorical = ["job"]

[privileged]
{attribute} = "male"
"""


def write_loans(
    folder: Path, rows: int = 300, *, flip: bool = False, name: str = "loans", attribute="sex"
) -> Path:
    """A synthetic user dataset: income and job drive repayment, a little more for men."""
    rng = np.random.default_rng(0)
    sex = rng.choice(["male", "female"], rows)
    income = rng.normal(10, 3, rows)
    repaid = income + (sex == "male") + rng.normal(0, 2, rows) > 10.5
    frame = pd.DataFrame(
        {
            "job": rng.choice(["clerk", "nurse", "driver"], rows),
            "income": income.round(2),
            attribute: sex,
            "repaid": np.where(repaid != flip, "yes", "no"),
        }
    )
    frame.to_csv(folder / "loans.csv", index=False)
    path = folder / "loans.toml"
    path.write_text(SPEC.format(name=name, attribute=attribute))
    return path


def config(spec: Path, **changes) -> BenchmarkConfig:
    fields = dict(datasets=(), dataset_specs=(str(spec),), algorithms=("logistic-regression",),
                  splits=2, audits=False) | changes  # fmt: skip
    return BenchmarkConfig(**fields)


def run(store: ResultStore, config: BenchmarkConfig, force: bool = False):
    return run_plan(make_plan(config).runs, store, config.overridden(force=force))


def test_changed_data_is_never_reused_silently(tmp_path):
    spec = write_loans(tmp_path)
    with ResultStore(tmp_path / "results") as store:
        assert run(store, config(spec)).done == 2
        write_loans(tmp_path, rows=200, flip=True)  # the user cut and relabelled the CSV
        with pytest.raises(StaleResultsError) as raised:
            run(store, config(spec))
        message = str(raised.value)
        assert "2 planned runs are stored" in message
        assert "data of dataset 'loans'" in message and "(2 runs)" in message
        assert "--force" in message and "--algorithm" not in message  # not the algorithm's fault
        assert set(store.runs()["n_test"]) == {100}  # nothing was run: 300 rows, 1/3 test
        summary = run(store, config(spec), force=True)
        assert summary.done == 2 and set(store.runs()["n_test"]) == {67}  # 200 rows now


def test_a_run_records_the_data_it_read_when_the_file_changed_after_planning(tmp_path):
    # on the main of issue #38, runs computed from the new content were stored under the old
    # content's fingerprint, and reused once the old file was back
    spec = write_loans(tmp_path)
    planned = make_plan(config(spec)).runs
    old = dict(planned[0].inputs)["data"]
    write_loans(tmp_path, rows=200, flip=True)  # replaced after "runs planned"
    new = dict(make_plan(config(spec)).runs[0].inputs)["data"]
    with ResultStore(tmp_path / "results") as store:
        summary = run_plan(planned, store, BenchmarkConfig(audits=False))
        assert summary.changed_data == {"loans"}
        assert {inputs["data"] for inputs in store.inputs().values()} == {new}
        assert set(store.runs()["n_test"]) == {67}  # computed from the 200 rows it read
        write_loans(tmp_path)  # the old content back: the stored runs are not its runs
        with pytest.raises(StaleResultsError, match=f"data of dataset 'loans': {new} -> {old}"):
            run(store, config(spec))


PLUGIN = """
import numpy as np
from faircompare.algorithms import FairEstimator


class Constant(FairEstimator):
    name = "constant"

    def fit(self, X, y, *, sensitive_features):
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X, *, sensitive_features=None):
        return np.full(len(X), {label})
"""


def test_a_plugin_whose_code_changed_is_stale_though_its_version_did_not(tmp_path):
    # reused on the main of issue #28: accuracy stayed 0.627 after the code changed
    spec, plugins = write_loans(tmp_path), tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "constant.py").write_text(PLUGIN.format(label=1))
    planned = config(spec, algorithms=("constant",), plugins=str(plugins))
    with ResultStore(tmp_path / "results") as store:
        assert (
            run_plan(make_plan(planned).runs, store, BenchmarkConfig(plugins=str(plugins))).done
            == 2
        )
        (plugins / "constant.py").write_text(PLUGIN.format(label=0))  # version "1" still
        with pytest.raises(StaleResultsError, match=r"version of constant: 1, code \w+ -> 1, co"):
            run(store, planned)
        with pytest.raises(StaleResultsError, match="with --algorithm constant to recompute only"):
            run(store, planned)
        (plugins / "constant.py").write_text(PLUGIN.format(label=1))
        assert run(store, planned).skipped == 2  # the same code again: reused
        (plugins / "helpers.py").write_text("OFFSET = 1\n")  # a file the plugin may import
        with pytest.raises(StaleResultsError, match="version of constant"):
            run(store, planned)


HELPED = """
import os
import sys

import numpy as np
from faircompare.algorithms import FairEstimator

sys.path.insert(0, os.path.dirname(__file__))
from lib.answer import LABEL


class Helped(FairEstimator):
    name = "helped"

    def fit(self, X, y, *, sensitive_features):
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X, *, sensitive_features=None):
        return np.full(len(X), LABEL)
"""


def test_editing_a_helper_module_in_a_plugins_subfolder_makes_its_runs_stale(tmp_path):
    # reused on the main of issue #38: accuracy 0.974 stored where 0.897 was fresh
    spec, plugins = write_loans(tmp_path), tmp_path / "plugins"
    (plugins / "lib").mkdir(parents=True)
    (plugins / "helped.py").write_text(HELPED)
    (plugins / "lib" / "answer.py").write_text("LABEL = 1\n")
    planned = config(spec, algorithms=("helped",), plugins=str(plugins))
    with ResultStore(tmp_path / "results") as store:
        assert (
            run_plan(make_plan(planned).runs, store, BenchmarkConfig(plugins=str(plugins))).done
            == 2
        )
        (plugins / "lib" / "answer.py").write_text("LABEL = 0\n")
        with pytest.raises(StaleResultsError, match="version of helped"):
            run(store, planned)


def test_an_entry_point_plugin_is_fingerprinted_with_every_module_of_its_package(
    tmp_path, monkeypatch
):
    from faircompare.plugin_source import source_fingerprint

    package = tmp_path / "fairplug"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("SCALE = 1\n")
    (package / "audit.py").write_text("from fairplug.helper import SCALE\nclass Audit:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from fairplug.audit import Audit

    before = source_fingerprint(Audit)
    (package / "helper.py").write_text("SCALE = 2\n")
    assert source_fingerprint(Audit) != before


def test_runs_stored_without_audits_are_not_taken_as_audited(tmp_path):
    spec = write_loans(tmp_path)
    with ResultStore(tmp_path / "results") as store:
        run(store, config(spec))
        with pytest.raises(StaleResultsError, match="audits: off -> on, 300000 permutations"):
            run(store, config(spec, audits=True))
        run(store, config(spec, audits=True), force=True)
        assert store.audits()["key"].nunique() == 2
        assert run(store, config(spec, audits=True)).skipped == 2  # same inputs: reused


@pytest.mark.data
def test_a_user_dataset_named_like_a_built_in_does_not_reuse_its_runs(tmp_path):
    results = tmp_path / "results"
    builtin = BenchmarkConfig(datasets=("ricci",), algorithms=("decision-tree",), splits=1,
                              audits=False)  # fmt: skip
    with ResultStore(results) as store:
        run(store, builtin)
        spec = write_loans(tmp_path, name="ricci", attribute="Race")
        mine = config(spec, splits=1, algorithms=("decision-tree",))
        with pytest.raises(StaleResultsError, match="data of dataset 'ricci'"):
            run(store, mine)
    with pytest.raises(ConfigError, match="two datasets are called 'ricci'"):
        make_plan(mine.overridden(datasets=("ricci",)))


def test_two_datasets_whose_names_differ_in_case_only_are_refused_naming_both(tmp_path):
    # on the main of issue #38, 'Ricci' overwrote the tables and figures of 'ricci'
    spec = write_loans(tmp_path, name="Ricci", attribute="Race")
    both = config(spec, splits=1).overridden(datasets=("ricci",))
    with pytest.raises(ConfigError) as refused:
        make_plan(both)
    assert str(refused.value) == (
        f"two datasets, 'ricci' (from the built-in datasets) and 'Ricci' (from {spec}), would "
        "share the report's and the export's file names ('ricci-...'): give your dataset spec "
        "another 'name'"
    )


def test_a_misspelt_sensitive_attribute_is_an_error_listing_the_valid_ones(tmp_path):
    spec = write_loans(tmp_path)
    with pytest.raises(ChoiceError, match="unknown sensitive attribute 'sexx'.*valid choices: sex"):
        make_plan(config(spec, sensitive_attributes=("sex", "sexx")))
    with pytest.raises(ChoiceError, match="'agee' \\(did you mean 'age'\\?\\)"):
        make_plan(BenchmarkConfig(datasets=("german",), sensitive_attributes=("sex", "agee")))


def test_run_with_a_spec_and_no_dataset_runs_only_the_users_data(tmp_path):
    spec = write_loans(tmp_path)
    result = subprocess.run(
        ["faircompare", "run", "--spec", str(spec), "--algorithm", "logistic-regression",
         "--splits", "2", "--no-audits", "--no-report", "--results", str(tmp_path / "results")],
        capture_output=True, text=True, env=os.environ,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "2 runs planned, 2 not yet stored" in result.stderr  # today's main planned 12


def test_one_writer_per_results_folder(tmp_path):
    spec = write_loans(tmp_path)
    with ResultStore(tmp_path) as first, ResultStore(tmp_path) as second, first.claim():
        with pytest.raises(Exception, match=f"another faircompare run \\(process {os.getpid()}\\)"):
            run(second, config(spec))
        assert second.statuses() == {}


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path):
    spec = write_loans(tmp_path, rows=3000)
    (tmp_path / "slow.toml").write_text(
        textwrap.dedent(f"""
        dataset_specs = ["{spec}"]
        datasets = []
        algorithms = ["svm", "kamishima"]
        grid = true
        splits = 10
        """)
    )
    process = subprocess.Popen(
        ["faircompare", "run", "--config", str(tmp_path / "slow.toml"), "--jobs", "2",
         "--results", str(tmp_path / "results")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for_runs(tmp_path / "results", 2, process)
    workers = psutil.Process(process.pid).children(recursive=True)
    assert workers  # the worker processes
    process.terminate()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143  # 128 + SIGTERM, as a shell reports it (#65; was 130)
    assert "interrupted: every finished run is stored; run again to resume" in err
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == []  # today's main left them running for minutes


def test_an_audit_that_fails_keeps_the_runs_measures_and_records_its_error(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    write_plugin(
        plugins,
        "opaque",
        """
        from sklearn.linear_model import LogisticRegression
        from faircompare.algorithms import FairEstimator

        class Opaque(FairEstimator):
            name = "opaque"

            def fit(self, X, y, *, sensitive_features):
                self.model_ = LogisticRegression().fit(X, y)
                return self

            def predict(self, X, *, sensitive_features=None):
                return self.model_.predict(X)

            def logit_coefficients(self):
                raise RuntimeError("coefficients withheld")
    """,
    )
    spec = write_loans(tmp_path)
    chosen = config(spec, algorithms=("opaque",), splits=1, audits=True, plugins=str(plugins),
                    permutations=99)  # fmt: skip
    options = BenchmarkConfig(plugins=str(plugins), permutations=99)
    with ResultStore(tmp_path / "results") as store:
        summary = run_plan(make_plan(chosen).runs, store, options)
        runs, measures, audits = store.runs(), store.measures(), store.audits()
    assert summary.done == 1 and summary.failed == 0  # today's main stored a failed run
    assert measures["measure"].eq("accuracy").any()
    assert set(audits["audit"]) == {"permutation", "fliptest"}
    errors = json.loads(runs["audit_errors"].iloc[0])
    assert errors == {"individual": "RuntimeError: coefficients withheld"}
