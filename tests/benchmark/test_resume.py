"""The benchmark as a process: killed midway, interrupted, failing runs and the exit status."""

import os
import signal
import sqlite3
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from faircompare.benchmark import make_plan, run_plan
from faircompare.config import BenchmarkConfig, load_config
from faircompare.results import ResultStore

pytestmark = pytest.mark.data

CONFIG = """
    datasets = ["ricci", "german"]
    sensitive_attributes = "first"
    algorithms = ["kamishima", "calders"]
    grid = true
    splits = 4
"""


def start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    config = tmp_path / "bench.toml"
    config.write_text(textwrap.dedent(CONFIG))
    command = [
        "faircompare",
        "run",
        "--config",
        str(config),
        "--results",
        str(tmp_path),
        "--jobs",
        "1",
        *extra,
    ]
    # A shell without job control starts background commands with SIGINT ignored, and Python
    # then installs no Ctrl-C handler: give the benchmark the default, as a terminal would.
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_runs(path: Path, at_least: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if (path / "results.sqlite").exists():
            with sqlite3.connect(path / "results.sqlite") as db:
                try:
                    if db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] >= at_least:
                        return
                except sqlite3.OperationalError:  # tables not created yet
                    pass
        time.sleep(0.05)
    raise AssertionError("the benchmark did not store runs in time")


def stored_runs(path: Path) -> dict[str, float]:
    with ResultStore(path) as store:
        return dict(zip(store.runs()["key"], store.runs()["started_at"], strict=True))


def test_killed_midway_then_resumed_loses_and_repeats_nothing(tmp_path):
    process = start(tmp_path)
    wait_for_runs(tmp_path, 10, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = stored_runs(tmp_path)
    specs = make_plan(load_config(tmp_path / "bench.toml")).runs
    assert 10 <= len(before) < len(specs)  # killed midway

    with ResultStore(tmp_path) as store:
        summary = run_plan(specs, store, BenchmarkConfig())
        after = stored_runs(tmp_path)
        measured = store.measures()["key"].nunique()
    assert summary.done == len(specs) - len(before)  # only the missing runs were computed
    assert set(after) == {s.key for s in specs} and len(after) == len(specs)
    assert all(after[key] == started for key, started in before.items())  # not recomputed
    assert measured == len(specs)


def test_ctrl_c_stops_cleanly_and_keeps_finished_runs(tmp_path):
    process = start(tmp_path)
    wait_for_runs(tmp_path, 5, process)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: every finished run is stored; run again to resume" in err
    assert len(stored_runs(tmp_path)) >= 5


def test_sigterm_stops_a_report_leaving_no_file_half_written(tmp_path):
    # issue #65: the report had no SIGTERM handler (exit -15)
    process = start(tmp_path, "--no-report")
    process.communicate(timeout=300)
    report = tmp_path / "report"
    process = subprocess.Popen(
        ["faircompare", "report", "--results", str(tmp_path), "--jobs", "1"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    first = process.stderr.readline()  # the first section: its parts are being drawn
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert first.startswith("report: ") and process.returncode == 143, first + err
    assert err.splitlines()[-1] == (
        "terminated (SIGTERM): every file written is whole, none is half written"
    )
    assert not (report / "report.html").exists()
    assert [path.name for path in report.rglob(".*") if path.name != ".cache"] == []


def test_failed_runs_make_the_exit_status_non_zero_with_a_summary(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "raises.py").write_text(
        textwrap.dedent("""
        from faircompare.algorithms import FairEstimator

        class Raises(FairEstimator):
            name = "raises"

            def fit(self, X, y, *, sensitive_features):
                raise ValueError("no good")
    """)
    )
    result = subprocess.run(
        ["faircompare", "run", "--dataset", "ricci", "--algorithm", "raises", "--algorithm",
         "decision-tree", "--splits", "2", "--plugins", str(plugins), "--results", str(tmp_path)],
        capture_output=True, text=True, env=os.environ,
    )  # fmt: skip
    assert result.returncode == 1
    assert "2 runs done and 2 failed in this session" in result.stdout
    assert "2 planned runs have failed:" in result.stderr
    assert "ricci/Race/numerical+binary/raises {} split 0: ValueError: no good" in result.stderr


def test_workers_end_when_their_coordinator_is_killed(tmp_path, monkeypatch):
    # on the main of issue #28 two loky workers and two resource trackers lived on, 155 s later;
    # until #81 each worker's temporary folder stayed behind too
    psutil = pytest.importorskip("psutil")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    process = start(tmp_path, "--jobs", "2")
    wait_for_runs(tmp_path, 3, process)
    children = psutil.Process(process.pid).children(recursive=True)
    assert children and list(temporary.glob("faircompare-worker-*"))  # the workers' folders
    process.send_signal(signal.SIGKILL)
    process.wait()
    gone, alive = psutil.wait_procs(children, timeout=20)
    assert alive == [], [p.cmdline()[:3] for p in alive]
    assert list(temporary.glob("faircompare-worker-*")) == []
