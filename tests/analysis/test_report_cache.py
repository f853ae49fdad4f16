"""A report reuses the parts whose inputs did not change, and draws the others (#50)."""

import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest

from faircompare.analysis.report import write_report
from faircompare.analysis.report_cache import PartCache
from faircompare.analysis.report_writer import Writer
from faircompare.results.store import DATABASE


@pytest.fixture
def study(results, tmp_path):
    """A copy of the session's small study (Ricci and German, three algorithms, audited)."""
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(results / DATABASE, folder / DATABASE)
    return folder


@pytest.fixture
def saved(monkeypatch):
    """The names of the figures each report draws."""
    names: list[str] = []
    put = Writer.figure

    def recorded(writer, figure, name, caption):
        names.append(name)
        return put(writer, figure, name, caption)

    monkeypatch.setattr(Writer, "figure", recorded)
    return names


def report(study) -> tuple[bytes, str]:
    lines: list[str] = []
    page = write_report(study, say=lines.append).read_bytes()
    return page, next(line for line in lines if "unchanged since" in line)


def test_a_report_written_again_draws_nothing_and_is_the_same_page(study, saved):
    first, counted = report(study)
    drawn = len(saved)
    assert drawn > 10 and ", 0 unchanged" in counted
    again, counted = report(study)
    assert again == first and len(saved) == drawn  # not one figure drawn the second time
    assert counted.startswith("report: 0 parts drawn")
    redrawn = write_report(study, reuse=False).read_bytes()
    assert redrawn == first and len(saved) == 2 * drawn  # the recorded page is the drawn one


def test_a_changed_number_redraws_the_parts_that_read_it_and_no_other(study, saved):
    report(study)
    saved.clear()
    with sqlite3.connect(study / DATABASE) as connection:  # Ricci's tree: another accuracy
        connection.execute(
            "UPDATE measures SET value = value - 0.05 WHERE measure = 'accuracy' AND key IN "
            "(SELECT key FROM runs WHERE dataset = 'ricci' AND algorithm = 'decision-tree')"
        )
    _, counted = report(study)
    assert saved and not any("german" in name for name in saved)  # German's parts reused
    assert any("ricci" in name for name in saved)
    assert "unchanged since the last report" in counted and not counted.startswith("report: 0")


def test_parts_drawn_in_parallel_make_the_same_report(study):
    lines: list[str] = []
    first = write_report(study, say=lines.append).read_bytes()
    files = sorted(p.name for p in (study / "report").rglob("*") if p.is_file())
    counted = lines[-1]
    lines.clear()
    # every part drawn again, in two worker processes: the page and files of one process
    again = write_report(study, say=lines.append, reuse=False, jobs=2).read_bytes()
    assert any(line.startswith("report: drawing") and "in 2 processes" in line for line in lines)
    assert not any("drawing in parallel stopped" in line for line in lines)
    assert again == first and lines[-1] == counted  # as many parts drawn
    assert sorted(p.name for p in (study / "report").rglob("*") if p.is_file()) == files
    with pytest.raises(ValueError, match="jobs must be a whole number of at least 1, got 0"):
        write_report(study, jobs=0)


def test_a_part_whose_file_is_gone_is_drawn_again(study, saved):
    report(study)
    name = next(n for n in saved if n.startswith("stability-german"))
    (study / "report" / "figures" / f"{name}.png").unlink()
    saved.clear()
    report(study)
    assert name in saved and (study / "report" / "figures" / f"{name}.png").is_file()
    assert not any(n.startswith("stability-ricci") for n in saved)


def test_the_cache_keeps_one_reports_worth(study):
    report(study)
    cache = study / "report" / ".cache"
    entries = set(cache.glob("*.json"))
    (cache / "stale.json").write_text("{}")
    report(study)
    assert set(cache.glob("*.json")) == entries


def test_inputs_are_digested_by_value_and_a_list_is_never_assumed_unchanged(tmp_path):
    cache = PartCache(tmp_path, tmp_path)
    frame = pd.DataFrame({"a": [1.0, 2.0], "details": [{"x": 1, "y": [2]}, {"y": [2], "x": 1}]})
    same = pd.DataFrame({"a": np.array([1.0, 2.0]), "details": [{"x": 1, "y": [2]}, {"x": 1,
                                                                                  "y": [2]}]})  # fmt: skip
    assert cache.key("part", print, (frame,)) == cache.key("part", print, (same,))
    # a rerun stores its rows anew: their order is not what a part reads
    assert cache.key("part", print, (frame,)) == cache.key("part", print, (frame.iloc[::-1],))
    changed = same.assign(a=[1.0, 2.5])
    assert cache.key("part", print, (frame,)) != cache.key("part", print, (changed,))
    assert cache.key("part", print, (frame,)) != cache.key("other", print, (frame,))
    assert cache.key("part", print, (frame, [])) is None  # a list the part may append to
