"""The benchmark in one call: run_benchmark stores what ``faircompare run`` stores."""

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from faircompare.benchmark import plan_study, run_benchmark
from faircompare.benchmark.study import EXTRAS, dry_run, skipped
from faircompare.config import PROFILES
from faircompare.registry import Algorithm
from faircompare.results import ResultStore

pytestmark = pytest.mark.data

ALGORITHMS = ("decision-tree", "calders", "zafar-fairness")


def stored(folder):
    """Every stored table of a results folder, in a fixed order, without timings."""
    with ResultStore(folder, readonly=True) as store:
        runs = store.runs().drop(
            columns=[
                "fit_seconds",
                "predict_seconds",
                "total_seconds",
                "started_at",
                "finished_at",
                "versions",
                "warnings",
            ]  # fmt: skip
        )
        return (
            runs.sort_values("key", ignore_index=True),
            store.measures().sort_values(["key", "measure", "group"], ignore_index=True),
            store.audits().sort_values(["key", "audit", "metric", "scope"], ignore_index=True),
            store.cleaning(),
        )


def test_run_benchmark_stores_what_the_command_line_stores(tmp_path):
    command = ["faircompare", "run", "--dataset", "german", "--splits", "2", "--permutations",
               "50", "--jobs", "2", "--results", str(tmp_path / "cli")]  # fmt: skip
    for name in ALGORITHMS:
        command += ["--algorithm", name]
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    config = PROFILES["default"].overridden(
        datasets=("german",), algorithms=ALGORITHMS, splits=2, permutations=50
    )
    notes = []
    summary = run_benchmark(config.overridden(jobs=2), tmp_path / "python", say=notes.append)
    assert (summary.done, summary.failed, summary.failures) == (6, 0, ())
    assert summary.report == tmp_path / "python" / "report" / "report.html"
    assert summary.report.is_file()
    assert f"6 runs planned, 6 not yet stored; results in {tmp_path / 'python'}" in "\n".join(notes)
    for cli, python in zip(stored(tmp_path / "cli"), stored(tmp_path / "python"), strict=True):
        if isinstance(cli, pd.DataFrame):
            pd.testing.assert_frame_equal(cli, python)
        else:
            assert cli == python


def raising_plugin(folder):
    """Return a plugins folder holding ``raises``, an algorithm whose every fit fails."""
    plugins = folder / "plugins"
    plugins.mkdir()
    (plugins / "raises.py").write_text(
        "from faircompare.algorithms import FairEstimator\n\n"
        "class Raises(FairEstimator):\n"
        "    name = 'raises'\n\n"
        "    def fit(self, X, y, *, sensitive_features):\n"
        "        raise RuntimeError('broken on purpose')\n"
    )
    return str(plugins)


def test_run_benchmark_lists_the_planned_runs_that_failed(tmp_path):
    config = PROFILES["default"].overridden(
        datasets=("ricci",), algorithms=("raises",), splits=1, plugins=raising_plugin(tmp_path),
        audits=False,
    )  # fmt: skip
    summary = run_benchmark(config, tmp_path / "results", report=False)
    assert summary.report is None
    assert summary.failures == (
        ("ricci/Race/numerical+binary/raises {} split 0", "RuntimeError: broken on purpose"),
    )
    again = run_benchmark(config, tmp_path / "results", report=False)  # failures stay listed
    assert (again.skipped, again.failures) == (1, summary.failures)


def test_a_dry_run_prices_only_the_runs_a_run_would_do_and_says_where_it_would_refuse(tmp_path):
    # a dry run on a half-done results folder priced every planned run (5,564 where 147 were
    # stored); it now counts the stored ones as the run does, says where the run would refuse,
    # and writes nothing
    results = tmp_path / "results"
    config = PROFILES["default"].overridden(
        datasets=("ricci",), algorithms=("decision-tree", "raises"), splits=1, audits=False,
        plugins=raising_plugin(tmp_path),
    )  # fmt: skip
    run_benchmark(config, results, report=False)  # one run done, one failed
    before = (results / "results.sqlite").read_bytes()
    wider = config.overridden(splits=2)
    said = dry_run(wider, results)
    assert f"4 runs planned, 2 not yet stored in {results / 'results.sqlite'}" in said
    assert re.search(r"^2 runs to do, about", said, re.MULTILINE)
    retried = dry_run(wider.overridden(retry_failed=True), results)
    assert "1 failed ones redone (--retry-failed)" in retried and "\n3 runs to do" in retried
    assert dry_run(config, results).endswith("nothing to run: every planned run is stored")
    audited = dry_run(config.overridden(audits=True), results)  # the run would refuse: said
    assert "\n2 runs, about" in audited  # priced as --force would run them
    assert re.search(r"warning: the run would stop here, running nothing: 2 planned runs are "
                     "stored .* but were computed from other inputs", audited)  # fmt: skip
    assert (results / "results.sqlite").read_bytes() == before
    assert not (results / "report").exists()
    fresh = dry_run(config, tmp_path / "none")  # no folder: every run priced, none made
    assert "\n2 runs, about" in fresh and not (tmp_path / "none").exists()


def test_a_dry_plan_fetches_only_the_datasets_the_cost_table_lacks(tmp_path, monkeypatch):
    from faircompare.benchmark import study

    loaded = []
    real = study.load_dataset
    monkeypatch.setattr(
        study, "load_dataset", lambda spec, **kw: loaded.append(spec.name) or real(spec, **kw)
    )
    config = PROFILES["default"].overridden(datasets=("ricci", "german"), splits=1, cache=tmp_path)
    planned = plan_study(config, fetch=False)  # an empty cache: none at hand
    assert loaded == [] and planned.cleaning == {}  # both are in the measured cost table
    assert len(planned.costs) == len(planned.runs) > 0
    fetched = plan_study(config)
    assert sorted(loaded) == ["german", "ricci"] and set(fetched.cleaning) == {"german", "ricci"}
    said = []  # now cached, a dry plan reads them (for the runs that repeat), fetching nothing
    again = plan_study(config, fetch=False, say=said.append)
    assert sorted(loaded) == ["german", "german", "ricci", "ricci"]
    assert not [line for line in said if line.startswith("fetched")]
    assert again.costs == fetched.costs


def test_the_algorithms_an_extra_would_install_are_said_in_one_line_with_its_command():
    # issue #85: a bare install's `python benchmark.py` printed eleven lines, one per algorithm
    needs = "ModuleNotFoundError: No module named '{}'"
    missing = [
        Algorithm(f"net-{i}", None, "built-in", needs.format("torch"), "torch") for i in range(4)
    ]
    missing.append(
        Algorithm("aif", None, "entry point", needs.format("aif360.algorithms"), "aif360")
    )
    broken = Algorithm("mine", None, "plugins/mine.py", "ValueError: bad")
    assert skipped([*missing, broken]) == [
        "skipping 5 algorithms that need an optional package (1 needs aif360, 4 need torch; "
        '`faircompare list algorithms` names them): python -m pip install "faircompare[aif360,'
        'torch]" installs them (from a clone: -e ".[aif360,torch]")',
        "skipping unavailable algorithm mine: ValueError: bad",
    ]


def test_every_extra_named_is_one_the_package_declares():
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS.values()) <= set(declared)
