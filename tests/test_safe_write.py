"""Files in a results folder: whole or not at all, never through a planted link, a full disk named.

On the main of issue #38 a link at ``results/.faircompare.lock`` had its target truncated and
overwritten with a process id, links at ``export/runs.csv`` and ``report/report.html`` had
their targets overwritten, and a file-size limit reached during a run was reported as a
corrupted database ("Move it aside"), with a truncated ``runs.csv`` left by ``export``.
"""

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from faircompare.results import ResultStore
from faircompare.safe_write import WriteError, replaced, write_error, write_text

pytestmark = pytest.mark.data

RUN = [
    "run",
    "--dataset",
    "ricci",
    "--algorithm",
    "decision-tree",
    "--algorithm",
    "gaussian-nb",
    "--splits",
    "3",
    "--no-audits",
    "--no-report",
    "--jobs",
    "1",
]


def faircompare(*args, cwd, file_size_limit=None):
    """Run the command line as a user would, under ``ulimit -f`` (in KB) when one is given."""
    command = [sys.executable, "-c", "from faircompare.cli import main; main()", *args]
    if file_size_limit:  # set by the shell, not in a preexec_fn: this process has threads
        command = ["bash", "-c", f'ulimit -f {file_size_limit} && exec "$@"', "bash", *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A small results folder, stored once."""
    folder = tmp_path_factory.mktemp("study")
    done = faircompare(*RUN, "--results", str(folder / "results"), cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "results"


def planted(link: Path, tmp_path: Path) -> Path:
    """Plant a link at ``link`` to a file outside the results folder; return the target."""
    target = tmp_path / "precious.txt"
    target.write_text("precious")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.unlink(missing_ok=True)  # the file it stands for
    link.symlink_to(target)
    return target


@pytest.mark.parametrize(
    ("link", "command"),
    [
        (".faircompare.lock", RUN),
        ("results.sqlite-wal", RUN),
        ("export/runs.csv", ["export"]),
        ("report/report.html", ["report"]),
        ("report", ["report"]),  # a linked folder: nothing is written inside it either
    ],
)
def test_no_file_is_written_through_a_link_planted_in_a_results_folder(
    results, tmp_path, link, command
):
    copy = tmp_path / "received"
    subprocess.run(["cp", "-a", str(results), str(copy)], check=True)
    if link == "report":
        (tmp_path / "elsewhere").mkdir()
        (copy / "report").symlink_to(tmp_path / "elsewhere")
        target = tmp_path / "elsewhere"
    else:
        target = planted(copy / link, tmp_path)
    done = faircompare(*command, "--results", str(copy), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"error: {copy / link} is a link (to {target}): faircompare writes no file through a "
        "link in a results folder; remove the link, or use another folder"
    ]
    if target.is_dir():
        assert list(target.iterdir()) == []
    else:
        assert target.read_text() == "precious"


def test_a_full_disk_during_a_run_is_said_as_such_and_the_store_is_kept(results, tmp_path):
    copy = tmp_path / "full"
    subprocess.run(["cp", "-a", str(results), str(copy)], check=True)
    limit = (copy / "results.sqlite").stat().st_size // 1024 + 4  # KB: a few runs' room
    done = faircompare(*RUN, "--force", "--results", str(copy), cwd=tmp_path, file_size_limit=limit)
    assert done.returncode == 1
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith(f"error: cannot write {copy / 'results.sqlite'}: ")
    assert f"file-size limit {limit:.1f} KB" in message
    assert "The stored runs are intact (6 runs" in message
    assert "corrupted" not in message and "Move it aside" not in message
    # following the advice (more room) completes the same command
    again = faircompare(*RUN, "--force", "--results", str(copy), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "6 runs done and 0 failed" in again.stdout


@pytest.mark.parametrize("command", ["export", "report"])
def test_export_and_report_on_a_full_disk_leave_no_half_written_file(results, tmp_path, command):
    # The store is held open here, so that its 32 KB -shm index exists and reading it needs no
    # file to grow; the measures table (31 KB) and the figures then pass the 24 KB limit.
    out, limit = tmp_path / "out", 24  # KB
    with ResultStore(results):
        done = faircompare(
            command, "--results", str(results), "--out", str(out), cwd=tmp_path,
            file_size_limit=limit,
        )  # fmt: skip
    assert done.returncode == 1
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith(f"error: cannot write {out}")
    assert "the file-size limit is reached" in message and "file-size limit 24.0 KB" in message
    left = [path for path in out.rglob("*") if path.is_file()]
    assert not [path for path in left if path.name.startswith(".")]  # no temporary file
    assert all(path.stat().st_size < limit * 1024 for path in left)  # those written are whole
    assert all(path.stat().st_mode & 0o777 == 0o644 for path in left)  # as any file here


def test_a_replaced_file_keeps_its_old_content_when_writing_fails(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("old")
    with pytest.raises(RuntimeError), replaced(path, tmp_path) as temporary:
        temporary.write_text("half")
        raise RuntimeError("the writer failed")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["table.csv"]
    write_text(path, "new", tmp_path)
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["table.csv"]


def test_write_errors_name_the_reason():
    # one line per reason the operating system gives, as the command line prints it
    path = Path("/results/report.html")
    full = write_error(OSError(errno.ENOSPC, "No space left on device"), path)
    assert isinstance(full, WriteError)
    assert str(full).startswith("cannot write /results/report.html: the disk is full")
    assert str(full).endswith("free some space (or raise the limit) and run the command again")
    denied = write_error(PermissionError(errno.EACCES, "Permission denied"), path)
    assert "permission denied" in str(denied) and "choose a folder you can write to" in str(denied)
    long = write_error(OSError(errno.ENAMETOOLONG, "File name too long"), path)
    assert "the name is too long" in str(long)
