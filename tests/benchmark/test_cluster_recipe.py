"""The cluster page's recipe, run on this machine: a Dask scheduler and two workers as processes
of their own, the coordinator killed mid-study and started again, every run stored once.

docs/guide/cluster.md gives these commands; this test runs them (with ``python -m`` for the
``dask`` and ``faircompare`` commands, so the test's own environment runs them).
"""

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

SCHEDULER = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker", "--no-dashboard", "--nthreads", "1"]
STUDY = ["--profile", "quick", "--dataset", "german", "--splits", "6", "--no-grid"]
STUDY += ["--algorithm", "logistic-regression", "--algorithm", "decision-tree"]
STUDY += ["--algorithm", "kamishima", "--permutations", "200", "--no-report"]


def stored(results: Path) -> list[tuple[str, str]]:
    """The runs stored so far: (key, status)."""
    database = results / "results.sqlite"
    if not database.exists():
        return []
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        try:
            return db.execute("SELECT key, status FROM runs").fetchall()
        except sqlite3.OperationalError:  # the tables are not yet made
            return []


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two one-thread workers, each a process of its own, as on a cluster."""
    address_file = tmp_path / "scheduler.json"  # on a cluster: a file on the shared file system
    started = [
        subprocess.Popen([*SCHEDULER, "--scheduler-file", str(address_file)], **_quiet()),
    ]
    wait_for(address_file.exists, 60, "the scheduler's address file")
    for _ in range(2):
        started.append(
            subprocess.Popen([*WORKER, "--scheduler-file", str(address_file)], **_quiet())
        )
    yield json.loads(address_file.read_text())["address"], address_file
    for process in reversed(started):
        process.send_signal(signal.SIGINT)
    for process in started:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def _quiet() -> dict:
    return {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def coordinator(address: str, results: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "faircompare", "run", *STUDY, "--backend", "dask"]
    command += ["--scheduler", address, "--results", str(results)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_coordinator_killed_mid_study_resumes_and_every_run_is_stored_once(cluster, tmp_path):
    address, address_file = cluster
    results = tmp_path / "results"
    first = coordinator(address, results)
    wait_for(lambda: len(stored(results)) >= 3, 300, "three runs stored")
    first.send_signal(signal.SIGKILL)  # the coordinator's node dies; the cluster lives on
    first.wait(timeout=30)
    before = stored(results)
    again = coordinator(str(address_file), results)  # the scheduler's file names it too (#67)
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err[-3000:]
    runs = stored(results)
    with sqlite3.connect(results / "results.sqlite") as db:
        planned = db.execute("SELECT COUNT(*) FROM plan").fetchone()[0]
    keys = [key for key, _ in runs]
    assert len(keys) == len(set(keys)) == planned  # every planned run, once
    assert {status for _, status in runs} == {"done"}
    assert f"{len(before)} were already stored" in out  # the rerun did only the rest
    assert len(before) < planned  # the kill came mid-study
