"""The results store under faults: corrupted files, other schemas, read-only folders.

Each case ended in a traceback of sqlite3 or pandas on the main of issue #16.
"""

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from faircompare.records import RunRecord, RunSpec
from faircompare.results import ResultStore, StoreError
from faircompare.results.store import SCHEMA_VERSION


def faircompare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["faircompare", *args], capture_output=True, text=True, env=os.environ)


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A results folder whose database holds its tables and one failed run."""
    with ResultStore(tmp_path / "results") as store:
        store.write(RunRecord(RunSpec("ricci", "Race", "original", "svm", (), 0, 0), "failed"))
    return tmp_path / "results"


def garbage(folder: Path) -> None:
    (folder / "results.sqlite").write_bytes(b"this is not a database\n" * 100)


def truncated(folder: Path) -> None:
    path = folder / "results.sqlite"
    path.write_bytes(path.read_bytes()[:3000])


@pytest.mark.parametrize("damage", [garbage, truncated])
@pytest.mark.parametrize(
    "command",
    [("status",), ("export",), ("report",), ("run", "--dataset", "ricci", "--algorithm", "svm")],
)
def test_a_damaged_database_is_one_message_naming_the_file_and_the_way_out(stored, damage, command):
    damage(stored)
    result = faircompare(*command, "--results", str(stored))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: {stored / 'results.sqlite'} is not a")
    assert "another --results folder" in last


def test_a_newer_schema_says_newer(stored):
    with sqlite3.connect(stored / "results.sqlite") as db:
        db.execute("UPDATE meta SET value = ? WHERE name = 'schema_version'", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="written by a newer faircompare.*upgrade faircompare"):
        ResultStore(stored)


def test_reading_never_creates_a_store(tmp_path):
    with pytest.raises(StoreError, match="no results in .*: run the benchmark first"):
        ResultStore(tmp_path / "nothing", readonly=True)
    assert not (tmp_path / "nothing").exists()


def test_reading_commands_leave_the_database_untouched(stored):
    before = (stored / "results.sqlite").read_bytes()
    for command in (("status",), ("export", "--out", str(stored.parent / "csv"))):
        assert faircompare(*command, "--results", str(stored)).returncode == 0
    assert (stored / "results.sqlite").read_bytes() == before


def test_a_folder_where_sqlite_cannot_create_its_shared_memory_file_is_read_as_is(
    stored, monkeypatch
):
    """What a read-only folder does to a WAL database: ``mode=ro`` cannot open, so the store
    falls back to reading the file as immutable (root ignores chmod, so it is simulated)."""
    connect = sqlite3.connect

    def refuse_plain_read_only(database, *args, **kwargs):
        if "mode=ro" in str(database) and "immutable" not in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", refuse_plain_read_only)
    with ResultStore(stored, readonly=True) as store:
        assert len(store.runs()) == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders anyway")
def test_status_export_and_report_work_in_a_read_only_folder(stored, tmp_path):
    stored.chmod(0o555)
    (stored / "results.sqlite").chmod(0o444)
    try:
        assert faircompare("status", "--results", str(stored)).returncode == 0
        out = tmp_path / "elsewhere"
        assert faircompare("report", "--results", str(stored), "--out", str(out)).returncode == 0
        assert (out / "report.html").is_file()
    finally:
        stored.chmod(0o755)


@pytest.mark.parametrize("command", ["export", "report"])
def test_an_output_folder_that_cannot_be_written_is_one_line_naming_it_and_out(stored, command):
    # PermissionError tracebacks on the main of issue #28 (a read-only results folder); as root,
    # a file where the output folder should be fails the same way
    (stored / command).write_text("in the way")
    result = faircompare(command, "--results", str(stored))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        f"error: cannot write {stored / command}: File exists; pass --out with a folder you can "
        "write to"
    )


def test_a_read_only_output_folder_is_one_line(stored, monkeypatch, capsys):
    from faircompare import cli

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(SystemExit) as exited:
        cli.main(["export", "--results", str(stored)])
    assert exited.value.code == 1
    assert capsys.readouterr().err == (
        f"error: cannot write {stored / 'export'}: permission denied; pass --out with a folder "
        "you can write to\n"
    )


def test_a_read_only_copy_with_a_wal_and_no_shm_index_is_read_whole(tmp_path, monkeypatch):
    # On the main of issue #38 such a copy (a folder the reader cannot write, so SQLite cannot
    # build the -shm index) was read as immutable: 2 runs done where there are 8, silently.
    from faircompare.records import RunRecord, RunSpec

    writer = ResultStore(tmp_path / "live")
    for split in range(8):  # committed into the WAL, not yet into the database file
        spec = RunSpec("ricci", "Race", "original", "svm", (), split, 0)
        writer.write(RunRecord(spec, "failed", error="on purpose"))
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("results.sqlite", "results.sqlite-wal"):  # no -shm: as an archive holds it
        (copy / name).write_bytes((tmp_path / "live" / name).read_bytes())
    writer.close()
    connect = sqlite3.connect

    def no_index_can_be_built(database, *args, **kwargs):  # what a read-only folder does
        if str(copy) in str(database) and "mode=ro" in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", no_index_can_be_built)
    with ResultStore(copy, readonly=True) as store:
        assert len(store.statuses()) == 8
        private = store._copy
    assert private is not None and not private.exists()  # the private copy is removed
    assert sorted(os.listdir(copy)) == ["results.sqlite", "results.sqlite-wal"]  # untouched
