"""The listings of ``list algorithms`` and ``list audits`` are kept between calls, and only while
faircompare's code and the installed packages are the same."""

import json
import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest

from faircompare import described as module
from faircompare.described import algorithm_listing, audit_listing, described


def counting(rows):
    calls = []

    def compute():
        calls.append(1)
        return rows

    return compute, calls


def test_a_listing_is_computed_once_then_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRCOMPARE_CACHE", str(tmp_path))
    compute, calls = counting([{"name": "a", "grid": {"C": [0.1, 1.0]}}])
    first = described("things", "faircompare.algorithms", compute)
    again = described("things", "faircompare.algorithms", compute)
    assert first == again == [{"name": "a", "grid": {"C": [0.1, 1.0]}}]
    assert len(calls) == 1
    assert [p.name.split("-")[0] for p in (tmp_path / "described").iterdir()] == ["things"]


def test_a_change_of_code_or_packages_computes_it_again_and_drops_the_old_file(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("FAIRCOMPARE_CACHE", str(tmp_path))
    compute, calls = counting([{"name": "a"}])
    described("things", "faircompare.algorithms", compute)
    monkeypatch.setattr(module, "environment_key", lambda: "another")
    described("things", "faircompare.algorithms", compute)
    assert len(calls) == 2
    assert [p.name for p in (tmp_path / "described").iterdir()] == ["things-another.json"]


def test_the_key_changes_with_a_source_file_and_with_the_installed_packages(tmp_path, monkeypatch):
    before = module.environment_key()
    (tmp_path / "newpkg-1.0.dist-info").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    installed = module.environment_key()
    assert installed != before
    source = tmp_path / "faircompare"
    source.mkdir()
    (source / "__init__.py").write_text("__version__ = '0.2.0'\n")
    monkeypatch.setattr(module.faircompare, "__file__", str(source / "__init__.py"))
    assert module.environment_key() != installed


def test_an_entry_point_of_another_distribution_is_described_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRCOMPARE_CACHE", str(tmp_path))
    other = EntryPoint("theirs", "their_package:Method", "faircompare.algorithms")
    monkeypatch.setattr(module, "entry_points", lambda group: [other])  # no distribution
    compute, calls = counting([{"name": "theirs"}])
    described("things", "faircompare.algorithms", compute)
    described("things", "faircompare.algorithms", compute)
    assert len(calls) == 2


def test_an_unreadable_file_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRCOMPARE_CACHE", str(tmp_path))
    compute, calls = counting([{"name": "a"}])
    described("things", "faircompare.algorithms", compute)
    (stored,) = (tmp_path / "described").iterdir()
    stored.write_text("{not json")
    assert described("things", "faircompare.algorithms", compute) == [{"name": "a"}]
    assert len(calls) == 2


def test_the_kept_listings_are_those_the_registries_give(tmp_path, monkeypatch):
    from faircompare.audits.registry import registered_audits
    from faircompare.registry import algorithms

    monkeypatch.setenv("FAIRCOMPARE_CACHE", str(tmp_path))
    expected = [a.describe() for a in algorithms().values()]
    assert algorithm_listing() == json.loads(json.dumps(expected))  # computed
    assert algorithm_listing() == json.loads(json.dumps(expected))  # read back
    assert [row["audit"] for row in audit_listing()] == list(registered_audits())


@pytest.mark.cli
def test_a_listing_read_back_loads_no_algorithm(tmp_path):
    code = (
        "import sys\n"
        "from faircompare.described import algorithm_listing\n"
        "rows = algorithm_listing()\n"
        "print(len(rows), 'sklearn' in sys.modules)"
    )
    env = {"FAIRCOMPARE_CACHE": str(tmp_path), "PATH": ""}
    ran = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in ran), ran[0].stderr
    (count, loaded), (count_again, loaded_again) = (r.stdout.split() for r in ran)
    assert count == count_again and (loaded, loaded_again) == ("True", "False")


def test_the_listing_tables_are_made_from_the_records_the_json_prints():
    from faircompare.datasets import get_spec
    from faircompare.described import (
        dataset_rows,
        measure_listing,
        profile_listing,
        profile_rows,
    )

    # a dataset not fetched: its spec alone, its groups unknown until it is
    (german,) = dataset_rows([get_spec("german").describe() | {"rows": None}])
    assert german["rows"] == "not fetched"
    assert german["sensitive (privileged; groups)"] == (
        "sex (male; ?), age (adult; ?), sex-age (male-adult; ?)"
    )
    # a field of many names is counted; the JSON keeps every name
    profiles = profile_listing()
    rows = {row["profile"]: row for row in profile_rows(profiles)}
    assert rows["paper"]["algorithms"] == f"{len(profiles['paper']['algorithms'])} named"
    assert rows["default"]["grid"] == "no" and rows["quick"]["grid"] == "tuned"
    assert rows["tuned"]["budgets"] == "1, 10, 30" and rows["default"]["budgets"] == "-"
    accuracy = measure_listing()[0]
    assert (accuracy["measure"], accuracy["range"], accuracy["needs scores"]) == (
        "accuracy", "[0, 1]", False
    )  # fmt: skip
