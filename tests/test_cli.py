"""The command line, run as a user runs it: the installed entry point and benchmark.py."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import joblib
import pytest

from faircompare.measures import MEASURES
from faircompare.results import ResultStore
from tests.datasets.test_builtin import PAPER_ROWS
from tests.datasets.test_spec import CSV, write

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=os.environ, capture_output=True, text=True)


@pytest.mark.data
def test_list_datasets_json_reports_the_nine_datasets_with_their_row_counts():
    result = run("faircompare", "list", "datasets", "--json")
    assert result.returncode == 0, result.stderr
    listed = {d["name"]: d for d in json.loads(result.stdout)}
    # the paper's five at the paper's counts, then the modern four at their files' (FairGround)
    modern = {"acsincome": 245_673, "law-school": 18_692, "bank": 45_211, "credit-default": 30_000}
    assert {name: d["rows"] for name, d in listed.items()} == {**PAPER_ROWS, **modern}
    assert len(listed["acsincome"]["sensitive"]["RAC1P"]["groups"]) == 9
    adult = listed["adult"]
    assert adult["label"] == "income-per-year" and adult["positive_label"] == ">50K"
    privileged = {a: info["privileged"] for a, info in adult["sensitive"].items()}
    assert privileged == {"race": "White", "sex": "Male", "race-sex": "White-Male"}


@pytest.mark.data
def test_benchmark_py_runs_fits_scores_and_stores_a_real_benchmark(tmp_path):
    """End to end on real data: plan, fit, score, store, status and export."""
    result = run(
        sys.executable, "benchmark.py", "--dataset", "german", "--algorithm", "kamishima",
        "--algorithm", "feldman-svm", "--splits", "2", "--results", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "4 runs planned, 4 not yet stored" in result.stderr  # a note: stdout keeps the results
    assert "4 runs done and 0 failed in this session" in result.stdout
    report = tmp_path / "report" / "report.html"
    assert f"report: {report}" in result.stdout and report.stat().st_size > 10_000
    with ResultStore(tmp_path) as store:
        runs, measures = store.runs(), store.measures()
    assert set(runs["status"]) == {"done"} and set(runs["n_test"]) == {333}  # German: 1000 - 667
    assert set(measures["measure"]) >= {"accuracy", "DIbinary", "AUC", "sensitive-TPR"}
    status = run("faircompare", "status", "--results", str(tmp_path))
    assert re.search(r"german\s+feldman-svm\s+2\s+0\s+0\n", status.stdout)
    exported = run(
        "faircompare", "export", "--results", str(tmp_path), "--out", str(tmp_path / "csv")
    )
    assert exported.returncode == 0
    assert len((tmp_path / "csv" / "runs.csv").read_text().splitlines()) == 5


def test_user_dataset_is_listed_from_its_spec(tmp_path):
    result = run("faircompare", "list", "datasets", "--spec", str(write(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert "loans" in result.stdout and "sex (male; 2)" in result.stdout
    assert "1 rows: missing values (income 1)" in result.stdout  # the driver's "?" income


def test_a_run_prints_and_records_the_rows_cleaning_removed(tmp_path):
    results = tmp_path / "results"
    result = run(
        "faircompare", "run", "--spec", str(write(tmp_path)), "--algorithm", "gaussian-nb",
        "--splits", "1", "--no-audits", "--no-report", "--results", str(results), "--jobs", "1000",
    )  # fmt: skip
    assert "loans: cleaning removed 1 rows: missing values (income 1)" in result.stderr
    cores = joblib.cpu_count()
    assert f"--jobs 1000 is more than this machine's {cores} cores: using {cores}" in result.stderr
    with ResultStore(results, readonly=True) as store:
        assert store.cleaning() == {"loans": {"missing values (income 1)": 1}}


def test_a_refused_stale_run_changes_nothing_in_the_store(tmp_path):
    # on the main of issue #38 the refused run rewrote the cleaning record: runs computed on
    # the rows left after removing one said no row was removed
    results = tmp_path / "results"
    args = ("faircompare", "run", "--spec", str(write(tmp_path)), "--algorithm", "gaussian-nb",
            "--splits", "1", "--no-audits", "--no-report", "--results", str(results))  # fmt: skip
    assert run(*args).returncode == 0
    write(tmp_path, csv=CSV.replace("driver,?", "driver,11"))  # no missing value now
    refused = run(*args)
    assert refused.returncode == 1 and "were computed from other inputs" in refused.stderr
    with ResultStore(results, readonly=True) as store:
        assert store.cleaning() == {"loans": {"missing values (income 1)": 1}}


def test_a_bad_user_dataset_is_an_error_message_not_a_traceback(tmp_path):
    path = write(tmp_path, csv=(tmp_path / "x").name + ",sex,repaid\n1,male,yes\n")
    result = run("faircompare", "run", "--spec", str(path), "--results", str(tmp_path / "out"))
    assert result.returncode == 1
    # unavailable optional algorithms (no torch, say) are listed first, then the one error
    assert re.search(r"^error: dataset 'loans'", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr


def test_fetch_data_reports_each_verified_dataset(tmp_path):
    if "FAIRCOMPARE_MIRROR" not in os.environ:
        pytest.skip("needs a local mirror: this test must not download")
    result = run("faircompare", "fetch-data", "--dataset", "ricci", "--cache", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "fetched ricci.csv from" in result.stderr
    assert "ricci: verified, 118 rows after cleaning" in result.stdout
    assert (tmp_path / "ricci.csv").is_file()


def test_the_former_names_of_the_data_options_work_with_a_warning(tmp_path):
    if "FAIRCOMPARE_MIRROR" not in os.environ:
        pytest.skip("needs a local mirror: this test must not download")
    mirror = os.environ["FAIRCOMPARE_MIRROR"]
    result = run(
        "faircompare", "fetch-data", "--dataset", "ricci", "--cache-dir", str(tmp_path),
        "--data-dir", mirror,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (
        "warning: --cache-dir is deprecated and will be removed in faircompare 0.4.0; use --cache"
    ) in result.stderr
    assert "warning: --data-dir is deprecated and will be removed" in result.stderr
    assert (tmp_path / "ricci.csv").is_file()


def test_an_unknown_dataset_lists_the_choices():
    result = run("faircompare", "run", "--dataset", "adlt")
    assert result.returncode == 2
    assert "'adlt' is not one of 'ricci', 'adult'" in result.stderr


def test_list_measures_json_gives_every_measure_with_its_paper_name():
    result = run("faircompare", "list", "measures", "--json")
    assert result.returncode == 0, result.stderr
    listed = {m["measure"]: m for m in json.loads(result.stdout)}
    assert set(listed) == set(MEASURES)
    assert listed["comparative-sensitive-TPR-diff"]["paper name"] == "{attribute}-TPRDiff"
    assert listed["AUC"]["needs scores"] is True
    assert listed["demographic_parity_difference"]["ideal"] == 0


def test_list_measures_prints_a_table():
    result = run("faircompare", "list", "measures")
    assert result.returncode == 0, result.stderr
    assert "DIbinary" in result.stdout and "sensitive-calibration-" in result.stdout


def test_run_options_become_the_configuration_in_one_place(tmp_path):
    from faircompare.cli.running import _configuration

    config_file = tmp_path / "c.toml"
    config_file.write_text('profile = "quick"\nseed = 7\ngrid = true\nsplits = 3\n')
    given = {
        "datasets": (), "dataset_specs": (), "algorithms": ("svm",), "splits": None, "seed": 0,
        "grid": False, "timeout": None, "audits": None, "permutations": 50, "plugins": None,
    }  # fmt: skip
    config = _configuration(None, config_file, given)
    # falsy values given on the command line win over the file; options not given keep it
    assert (config.seed, config.grid, config.tune, config.splits) == (0, False, False, 3)
    assert (config.algorithms, config.permutations) == (("svm",), 50)
    spec_only = _configuration(None, None, given | {"dataset_specs": (tmp_path / "d.toml",)})
    assert spec_only.datasets == () and spec_only.dataset_specs == (str(tmp_path / "d.toml"),)


def test_a_dry_run_prints_the_plan_and_its_cost_and_runs_nothing(tmp_path):
    result = run(
        "faircompare", "run", "--profile", "paper", "--dry-run", "--jobs", "2",
        "--results", str(tmp_path / "results"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    hours = re.search(
        r"27,820 runs, about ([\d.]+) CPU-hours: about ([\d.]+) hours on 2", result.stdout
    )
    assert hours and float(hours[2]) == pytest.approx(float(hours[1]) / 2, abs=0.06)
    assert re.search(r"adult\s+svm\s+60\s", result.stdout)  # 3 attributes x 2 variants x 10
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # an OverflowError traceback from SQLite on the main of issue #38
        (
            ("--seed", "9223372036854775808"),
            "Error: Invalid value for '--seed': 9223372036854775808 is not in the range "
            "0<=x<=9223372036854775807.",
        ),
        # accepted on the main of issue #38, then every run failed
        (
            ("--timeout", "nan"),
            "error: timeout must be a number of seconds, more than 0 and at most 2,592,000 (30 "
            "days), got nan",
        ),
        # accepted, then "Unable to allocate 29.8 GiB" in every audit
        (
            ("--permutations", "1000000000"),
            "Error: Invalid value for '--permutations': 1000000000 is not in the range "
            "1<=x<=1000000.",
        ),
        # planned a trillion splits in memory, printing nothing, on the main of issue #83
        (
            ("--splits", "1000000000000", "--dry-run"),
            "Error: Invalid value for '--splits': 1000000000000 is not in the range 1<=x<=1000.",
        ),
        # a 10 MB value (from a configuration file) printed whole
        (
            ("--config", "huge.toml"),
            "error: unknown algorithm '"
            + "x" * 99
            + "... (10,000,002 characters); valid choices: ",
        ),
    ],
)
def test_out_of_range_options_are_one_line_before_anything_runs(tmp_path, args, message):
    (tmp_path / "huge.toml").write_text('algorithms = ["' + "x" * 10_000_000 + '"]\n')
    result = run(
        "faircompare", "run", "--dataset", "ricci", *args, "--results", str(tmp_path / "results"),
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith(message)
    assert len(result.stderr) < 5_000
    assert not (tmp_path / "results").exists()


def test_a_name_given_twice_is_planned_once_and_said_once(tmp_path):
    # three times on the main of issue #83: "300 % of the expected work", one run stored
    result = run(
        "faircompare", "run", "--dataset", "ricci", "--dataset", "ricci", "--dry-run",
        *("--algorithm", "logistic-regression") * 3, "--results", str(tmp_path / "r"),
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        "warning: datasets: 'ricci' given more than once, planned once",
        "warning: algorithms: 'logistic-regression' given more than once, planned once",
    ]
    assert re.search(r"^ricci\s+logistic-regression\s+5\s", result.stdout, re.MULTILINE)


def test_a_usage_error_quoting_a_huge_value_is_cut_after_click_formats_it(tmp_path):
    # click 8.5 declares ClickException.message final: the cut happens on click's rendering
    result = run("faircompare", "export", "--format", "y" * 50_000, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0] == "Usage: faircompare export [OPTIONS]"
    assert lines[-1].startswith("Error: Invalid value for '--format': 'yyy")
    assert lines[-1].endswith("characters)") and "message cut" in lines[-1]
    assert len(result.stderr) < 5_000


@pytest.mark.parametrize(
    "where",
    [
        lambda tmp: tmp / ("r" * 300),  # a folder name past the file system's 255
        lambda tmp: tmp / "a-file" / "results",  # under a file, as under an unwritable folder
    ],
    ids=["long-name", "under-a-file"],
)
def test_a_results_folder_that_cannot_be_made_is_one_line_naming_it(tmp_path, where):
    # OSError and PermissionError tracebacks on the main of issue #38
    (tmp_path / "a-file").write_text("in the way")
    folder = where(tmp_path)
    result = run(
        "faircompare", "run", "--dataset", "ricci", "--algorithm", "decision-tree",
        "--splits", "1", "--no-audits", "--results", str(folder),
    )  # fmt: skip
    assert result.returncode == 1 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: cannot write {folder}")
    assert ("the name is too long" in last) or ("Not a directory" in last)


@pytest.mark.data
def test_run_takes_the_sensitive_attributes_on_the_command_line(tmp_path):
    # issue #63: a user wanting Adult by sex wrote a TOML file; `run` had no --attribute
    from faircompare import cli

    cli.main([
        "run", "--dataset", "german", "--dataset", "ricci", "--attribute", "age",
        "--attribute", "sex-age", "--algorithm", "logistic-regression", "--splits", "1",
        "--no-audits", "--no-report", "--backend", "inline", "--results", str(tmp_path),
    ])  # fmt: skip
    with ResultStore(tmp_path, readonly=True) as store:
        runs = store.runs()
    # each attribute where a dataset has it: German's two, none of Ricci's (Race)
    assert sorted(zip(runs["dataset"], runs["sensitive_attribute"], strict=True)) == [
        ("german", "age"),
        ("german", "sex-age"),
    ]
