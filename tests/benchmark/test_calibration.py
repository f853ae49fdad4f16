"""The machine's calibration time: measured once, kept, and measured again when the machine changes."""

import json

import pytest

from faircompare.benchmark import calibration


@pytest.fixture
def workloads(monkeypatch):
    """Count the workload's runs instead of doing them."""
    calls = []
    monkeypatch.setattr(calibration, "calibration_workload", lambda: calls.append(1))
    return calls


def test_the_time_is_measured_once_then_read_from_the_cache(tmp_path, workloads):
    said = []
    first = calibration.calibration_seconds(tmp_path, say=said.append)
    assert len(workloads) == 4  # one to warm up, the fastest of three
    assert len(said) == 1 and "cost model" in said[0]
    assert calibration.calibration_seconds(tmp_path, say=said.append) == first
    assert len(workloads) == 4 and len(said) == 1  # read back: nothing run, nothing said
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
    assert len(workloads) == 8


def test_an_unreadable_cache_file_is_measured_again(tmp_path, workloads):
    (tmp_path / "calibration.json").write_text("{not json")
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert len(workloads) == 4


def test_the_workload_runs_the_benchmarks_libraries():
    calibration.calibration_workload()  # the real one: a second or so, no error


def test_a_cache_that_cannot_be_written_measures_again_next_time(tmp_path, workloads):
    (tmp_path / "calibration.json").mkdir()  # a folder where the file would go
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert calibration.calibration_seconds(tmp_path) >= 0
    assert len(workloads) == 8  # nothing kept: measured both times, no error
