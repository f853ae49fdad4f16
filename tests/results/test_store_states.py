"""Every command on an empty, damaged, foreign or read-only store: one line naming the problem.

Issue #65's probes. On its main, with 4 KB of random bytes in the middle of ``results.sqlite``,
``status`` printed a normal table (exit 0), ``export`` wrote the tables, and ``run`` wrote into
the damaged file and exited 0; on a store without runs ``figure tradeoff`` ended in a 39-line
traceback, and ``status`` printed pandas' "Empty DataFrame"; a read-only store was "disk may
be full".
"""

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from faircompare import cli
from faircompare.records import RunRecord, RunSpec
from faircompare.results import ResultStore, StoreError
from faircompare.results import store as store_module

READING = {
    "status": ("status",),
    "export": ("export", "--out", "{tmp}/export"),
    "report": ("report", "--out", "{tmp}/report", "--jobs", "1"),
    "figure": ("figure", "tradeoff", "--out", "{tmp}/tradeoff.pdf"),
    "table": ("table", "intervals", "--out", "{tmp}/intervals.tex"),
}
RUN = ("run", "--dataset", "ricci", "--algorithm", "gaussian-nb", "--splits", "1",
       "--no-audits", "--no-report", "--backend", "inline")  # fmt: skip
COMMANDS = {**READING, "run": RUN}


def command_line(name: str, results: Path, tmp: Path) -> list[str]:
    return [part.format(tmp=tmp) for part in COMMANDS[name]] + ["--results", str(results)]


def answer(argv: list[str], capsys) -> tuple[int, list[str], str]:
    """Run the command line in this process: its exit status, its error lines and its output."""
    try:
        cli.main(argv)
        code = 0
    except SystemExit as exited:
        code = exited.code
    captured = capsys.readouterr()
    return code, captured.err.strip().splitlines(), captured.out


def with_runs(folder: Path, runs: int = 60) -> Path:
    """A store of failed runs with long tracebacks: many pages, so damage lands inside a table."""
    with ResultStore(folder) as store:
        for split in range(runs):
            spec = RunSpec("ricci", "Race", "original", "svm", (), split, 0)
            store.write(RunRecord(spec, "failed", error="on purpose", traceback="x" * 3000))
    return folder


def damaged(folder: Path, page: int | None = None, seed: int = 0) -> Path:
    """Seeded random bytes over one 4 KB page of the file, its middle one by default."""
    path = with_runs(folder) / "results.sqlite"
    pages = path.stat().st_size // 4096
    with path.open("r+b") as file:
        file.seek((pages // 2 if page is None else page) * 4096)
        file.write(random.Random(seed).randbytes(4096))
    return folder


def foreign(folder: Path) -> Path:
    folder.mkdir()
    with sqlite3.connect(folder / "results.sqlite") as db:
        db.execute("CREATE TABLE theirs (x)")
    return folder


def empty(folder: Path) -> Path:
    ResultStore(folder).close()
    return folder


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_damaged_store_is_refused_in_one_line_and_left_byte_for_byte(tmp_path, capsys, command):
    results = damaged(tmp_path / "results")
    before = (results / "results.sqlite").read_bytes()
    code, errors, out = answer(command_line(command, results, tmp_path), capsys)
    assert code == 1 and out == ""
    assert errors == [errors[0]] and errors[0].startswith(
        f"error: {results / 'results.sqlite'} is damaged (SQLite's integrity check: "
    )
    assert "another --results folder" in errors[0]
    assert (results / "results.sqlite").read_bytes() == before
    assert not (results / "report").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_foreign_sqlite_file_is_refused_in_one_line_and_left_unchanged(tmp_path, capsys, command):
    results = foreign(tmp_path / "results")
    before = (results / "results.sqlite").read_bytes()
    code, errors, out = answer(command_line(command, results, tmp_path), capsys)
    assert (code, errors, out) == (
        1,
        [
            f"error: {results / 'results.sqlite'} is not a faircompare results database (no meta "
            "table)"
        ],  # fmt: skip
        "",
    )
    assert (results / "results.sqlite").read_bytes() == before


@pytest.mark.parametrize("command", list(READING))
def test_a_store_without_runs_is_one_line_saying_so(tmp_path, capsys, command):
    results = empty(tmp_path / "results")
    code, errors, out = answer(command_line(command, results, tmp_path), capsys)
    assert (code, errors, out) == (
        1,
        [
            f"error: no runs are stored in {results / 'results.sqlite'} yet: run the benchmark "
            f"first (faircompare run --results {results})"
        ],  # fmt: skip
        "",
    )


def test_a_store_with_planned_runs_only_counts_them_and_draws_nothing(tmp_path, capsys):
    results = tmp_path / "results"
    with ResultStore(results) as store:
        store.record_plan(RunSpec("ricci", "Race", "original", "svm", (), s, 0) for s in range(3))
    code, errors, out = answer(command_line("status", results, tmp_path), capsys)
    assert (code, errors) == (0, []) and out.splitlines()[
        -1
    ] == "total: 0 done, 0 failed, 3 pending"
    code, errors, _ = answer(command_line("figure", results, tmp_path), capsys)
    assert code == 1 and errors == [
        f"error: no runs are stored in {results / 'results.sqlite'} yet (3 planned, none "
        f"finished): run the benchmark first (faircompare run --results {results})"
    ]


@pytest.fixture
def read_only(monkeypatch):
    """Make SQLite open every store read-only from now on, as a read-only file makes it.

    Root writes to any folder, so a read-only folder is simulated where SQLite opens files.
    """
    connect = sqlite3.connect

    def opened_read_only(database, *args, **kwargs):
        if "mode=ro" not in str(database):
            database, kwargs["uri"] = f"{Path(database).resolve().as_uri()}?mode=ro", True
        return connect(database, *args, **kwargs)

    return lambda: monkeypatch.setattr(store_module.sqlite3, "connect", opened_read_only)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A small study of Ricci: two algorithms, two splits, not audited."""
    from faircompare.benchmark import make_plan, run_plan
    from faircompare.config import BenchmarkConfig

    folder = tmp_path_factory.mktemp("study")
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("logistic-regression", "gaussian-nb"), splits=2,
        audits=False,
    )  # fmt: skip
    with ResultStore(folder) as store:
        run_plan(make_plan(config).runs, store, BenchmarkConfig(audits=False, jobs=1))
    return folder


@pytest.mark.data
@pytest.mark.parametrize("command", list(READING))
def test_every_reading_command_reads_a_read_only_store(study, tmp_path, capsys, read_only, command):
    before = (study / "results.sqlite").read_bytes()
    read_only()
    code, errors, out = answer(command_line(command, study, tmp_path), capsys)
    assert code == 0 and not [line for line in errors if not line.startswith("report: ")]
    assert out
    assert (study / "results.sqlite").read_bytes() == before


@pytest.mark.data
def test_run_on_a_store_it_cannot_write_says_read_only_not_full_disk(tmp_path, capsys, read_only):
    results = with_runs(tmp_path / "results", runs=2)
    read_only()
    code, errors, _ = answer(command_line("run", results, tmp_path), capsys)
    assert code == 1 and len(errors) == 1
    assert errors[0].startswith(f"error: cannot write {results / 'results.sqlite'}: attempt to ")
    assert "(the file or its folder is read-only for this user)" in errors[0]
    assert "The stored runs are intact (2 runs" in errors[0]
    assert "disk" not in errors[0]


@pytest.mark.parametrize("page", [2, 5, 20, 40, 70])
def test_damage_anywhere_is_said_in_one_line(tmp_path, page):
    # SQLite's findings can span lines (page 2 here: "*** in database main ***\nPage 3:
    # btreeInitPage() returns error code 11"); the terminal gets one
    with pytest.raises(StoreError) as refused:
        ResultStore(damaged(tmp_path / "results", page, seed=1), readonly=True)
    message = str(refused.value)
    assert "\n" not in message and "***" not in message
    assert message.startswith(f"{tmp_path / 'results' / 'results.sqlite'} is ")


def test_the_integrity_check_finds_damage_a_first_read_misses(tmp_path):
    results = damaged(tmp_path / "results")
    uri = f"{(results / 'results.sqlite').as_uri()}?mode=ro"
    with sqlite3.connect(uri, uri=True) as db:  # what opening checked on the main of #65
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
    with pytest.raises(StoreError, match="is damaged"):
        ResultStore(results, readonly=True)


DAMAGED_VALUES = {  # issue #83: each was a traceback (ValueError, JSONDecodeError)
    "schema_version": ("UPDATE meta SET value = 'abc' WHERE name = 'schema_version'",
                       "table meta, row schema_version: its value 'abc' is not a number"),
    "runs.inputs": ("UPDATE runs SET inputs = '{not json' WHERE key = ?",
                    "table runs, row {key}: its inputs is not JSON"),
    "runs.inputs, two values": ("UPDATE runs SET inputs = '{}, {}' WHERE key = ?",
                                "table runs, row {key}: its inputs is not JSON"),
    "meta algorithm": ("UPDATE meta SET value = '{not json' WHERE name = ? || ?",
                       "table meta, row algorithm:{algorithm}: its value is not JSON"),
}  # fmt: skip
#: The commands that read each damaged value (the others do not, and go on).
READ_BY = {
    "schema_version": {*COMMANDS, "cite", "audit"},
    "runs.inputs": {*COMMANDS, "cite", "audit"} - {"figure", "table"},  # measures and audits
    "runs.inputs, two values": {*COMMANDS, "cite", "audit"} - {"figure", "table"},
    "meta algorithm": {"report", "figure", "cite"},  # the families, and the references
}


@pytest.mark.data
@pytest.mark.parametrize("damage", list(DAMAGED_VALUES))
@pytest.mark.parametrize("command", [*COMMANDS, "cite", "audit"])
def test_a_value_faircompare_cannot_have_written_is_one_line_naming_it(
    study, tmp_path, capsys, command, damage
):
    results = tmp_path / "results"
    shutil.copytree(study, results)
    sql, where = DAMAGED_VALUES[damage]
    with sqlite3.connect(results / "results.sqlite") as db:
        key, algorithm = db.execute("SELECT key, algorithm FROM runs LIMIT 1").fetchone()
        db.execute(sql, {"runs.inputs": (key,), "meta algorithm": ("algorithm:", algorithm)}
                   .get(damage.partition(",")[0], ()))  # fmt: skip
    db.close()
    before = (results / "results.sqlite").read_bytes()
    argv = [command] if command in ("cite", "audit") else command_line(command, results, tmp_path)
    code, errors, _ = answer([*argv, "--results", str(results)][: len(argv) + 2], capsys)
    if command not in READ_BY[damage]:
        assert code == 0 and not [line for line in errors if "Traceback" in line]
        return
    assert code == 1 and "Traceback" not in "\n".join(errors), errors
    expected = f"error: {results / 'results.sqlite'}, {where.format(key=key, algorithm=algorithm)}"
    assert errors[-1].startswith(expected)  # run says what it loaded first
    assert errors[-1].endswith(
        "The store is damaged (nothing was changed): move it aside and "
        "run the benchmark again, or pass another --results folder"
    )
    assert (results / "results.sqlite").read_bytes() == before


def test_figures_of_a_store_whose_runs_all_failed_say_so(tmp_path, capsys):
    # a KeyError ("['accuracy', 'DIbinary'] not in index") on the main of issue #83
    results = with_runs(tmp_path / "results", runs=2)
    for command in ("figure", "table"):
        code, errors, _ = answer(command_line(command, results, tmp_path), capsys)
        assert (code, errors) == (1, [
            f"error: no run stored in {results / 'results.sqlite'} is done: all 2 failed "
            f"(faircompare status --results {results} counts them)"
        ])  # fmt: skip
