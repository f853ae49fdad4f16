"""The machine's calibration time: measured once, kept, and measured again when the machine changes."""

import json

import pytest

from faircompare.benchmark import calibration


@pytest.fixture
def workloads(monkeypatch):
    """Count the workload's runs instead of doing them, on a machine at rest."""
    calls = []
    monkeypatch.setattr(calibration, "calibration_workload", lambda: calls.append(1))
    monkeypatch.setattr(calibration, "_load", lambda: 0.2)
    return calls


def test_the_time_is_measured_once_then_read_from_the_cache(tmp_path, workloads):
    said = []
    first = calibration.calibration_seconds(tmp_path, say=said.append)
    assert len(workloads) == 6  # one to warm up, the fastest of five
    assert len(said) == 1 and "cost model" in said[0]
    assert calibration.calibration_seconds(tmp_path, say=said.append) == first
    assert len(workloads) == 6 and len(said) == 1  # read back: nothing run, nothing said
    stored = json.loads((tmp_path / "calibration.json").read_text())
    assert stored["key"] == calibration.machine_key()


@pytest.mark.parametrize("changed", ["processor", "scikit-learn", "faircompare"])
def test_another_machine_or_version_measures_again(tmp_path, workloads, changed):
    calibration.calibration_seconds(tmp_path)
    path = tmp_path / "calibration.json"
    stored = json.loads(path.read_text())
    stored["key"][changed] = "something else"
    path.write_text(json.dumps(stored))
    calibration.calibration_seconds(tmp_path)
    assert len(workloads) == 12


def test_an_unreadable_cache_file_is_measured_again(tmp_path, workloads):
    (tmp_path / "calibration.json").write_text("{not json")
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert len(workloads) == 6


def test_the_workload_runs_the_benchmarks_libraries():
    calibration.calibration_workload()  # the real one: a second or so, no error


def test_a_cache_that_cannot_be_written_measures_again_next_time(tmp_path, workloads):
    (tmp_path / "calibration.json").mkdir()  # a folder where the file would go
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert len(workloads) == 12  # nothing kept: measured both times, no error


def test_a_time_taken_on_a_busy_machine_is_said_to_be_high_and_replaced_at_rest(
    tmp_path, workloads, monkeypatch
):
    # issue #85: two calibration files of one machine and version held 1.05 s and 2.72 s, the
    # second timed beside other work; every dry-run price moved with it
    monkeypatch.setattr(calibration, "_load", lambda: 3.1)
    said = []
    calibration.calibration_seconds(tmp_path, say=said.append)
    assert "busy when timed for the cost model (load 3.1 on" in said[1]
    calibration.calibration_seconds(tmp_path, say=said.append)  # still busy: the time kept
    assert len(workloads) == 6 and "was busy when timed" in said[2]
    monkeypatch.setattr(calibration, "_load", lambda: 0.2)  # at rest: timed again, and kept
    first = calibration.calibration_seconds(tmp_path)
    assert len(workloads) == 12
    monkeypatch.setattr(calibration, "_load", lambda: 3.1)  # busy again: the time at rest
    assert calibration.calibration_seconds(tmp_path, say=said.append) == first
    assert len(workloads) == 12 and len(said) == 3


def test_the_time_is_cpu_time_not_the_wait_for_a_busy_processor(tmp_path, monkeypatch):
    # a workload that waits (as on a processor shared with other work) costs no CPU time
    import time

    monkeypatch.setattr(calibration, "calibration_workload", lambda: time.sleep(0.05))
    monkeypatch.setattr(calibration, "_load", lambda: 0.2)
    assert calibration.calibration_seconds(tmp_path) < 0.02
