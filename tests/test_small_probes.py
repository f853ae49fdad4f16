"""Issue #49's smaller probes: each bad input is one line naming it, and nothing else changes.

On the main of issue #49 each of these was a raw traceback, a misleading message, or a change
to a file that was not faircompare's.
"""

import signal
import sqlite3
import textwrap

import numpy as np
import pytest

from faircompare.algorithms.outputs import BadPredictionsError, checked_predictions
from faircompare.benchmark import make_plan, run_plan
from faircompare.benchmark.workers import _death
from faircompare.config import BenchmarkConfig, ConfigError, load_config
from faircompare.datasets import load_dataset, read_spec
from faircompare.datasets.clean import MOST_COLUMNS, read_raw
from faircompare.datasets.fetch import cache_dir, fetch_file
from faircompare.exceptions import DataFetchError, SpecError
from faircompare.results import ResultStore, StoreError

SPEC = """\
name = "loans"
file = "{file}"
label = "repaid"
positive_label = "yes"
sensitive = ["sex"]

[privileged]
sex = "male"
"""


def test_a_toml_file_that_is_not_utf_8_is_one_error_naming_it(tmp_path):
    (tmp_path / "bench.toml").write_bytes(b'profile = "quick"\n# caf\xe9\n')
    with pytest.raises(ConfigError, match=r"cannot read configuration .*bench\.toml: 'utf-8'"):
        load_config(tmp_path / "bench.toml")
    (tmp_path / "loans.toml").write_bytes(SPEC.format(file="x.csv").encode() + b"# caf\xe9\n")
    with pytest.raises(SpecError, match=r"cannot read dataset spec .*loans\.toml: 'utf-8'"):
        read_spec(tmp_path / "loans.toml")


def test_a_cache_that_cannot_be_made_or_written_is_named_not_the_mirror(tmp_path):
    (tmp_path / "a-file").write_text("")
    with pytest.raises(DataFetchError, match=r"cannot write to the data cache .*a-file/cache"):
        cache_dir(tmp_path / "a-file" / "cache")  # under a file: it cannot be made
    # /proc exists and takes no file, even as root; on the main of #49 every source was blamed
    with pytest.raises(DataFetchError, match=r"^cannot write to the data cache /proc: "):
        fetch_file("ricci.csv", "0" * 64, None, cache="/proc", mirror=tmp_path)


def test_a_spec_file_that_is_a_folder_is_said_to_be_one(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "loans.toml").write_text(SPEC.format(file="folder"))
    with pytest.raises(SpecError, match="is not a regular file .a folder, device, pipe"):
        load_dataset(read_spec(tmp_path / "loans.toml"))


def test_a_spec_error_quotes_no_content_of_a_file_that_is_not_a_table(tmp_path):
    (tmp_path / "notes.txt").write_text("FAIRCOMPARE_TEST_SECRET=do-not-print-me\nmore\n")
    (tmp_path / "loans.toml").write_text(SPEC.format(file=tmp_path / "notes.txt"))
    with pytest.raises(SpecError) as error:
        load_dataset(read_spec(tmp_path / "loans.toml"))
    assert "do-not-print-me" not in str(error.value)
    assert "it reads as a single column: is it a comma-separated table" in str(error.value)


def test_no_content_of_the_system_s_files_or_of_a_binary_file_reaches_a_message(
    tmp_path, monkeypatch
):
    # issue #65: a variable holding a comma split /proc/self/environ into columns, and the error
    # listed them ("its columns are: SHELL=/bin/bash..., tok-hunter2-zz, b")
    monkeypatch.setenv("FAIRCOMPARE_TEST_SECRET", "tok-hunter2-zz,b")
    (tmp_path / "environ").write_bytes(open("/proc/self/environ", "rb").read())  # a copy
    for file, reason in [
        ("/proc/self/environ", "is not a regular file (a folder, device, pipe, or a file of the "
                               "system's /proc, /sys or /dev)"),
        (tmp_path / "environ", "it holds NUL bytes, so it is not text"),
    ]:  # fmt: skip
        (tmp_path / "loans.toml").write_text(SPEC.format(file=file))
        with pytest.raises(SpecError) as error:
            load_dataset(read_spec(tmp_path / "loans.toml"))
        assert reason in str(error.value)
        assert "hunter2" not in str(error.value) and "SHELL" not in str(error.value)


def test_a_column_name_quoted_in_a_message_is_escaped_and_cut(tmp_path):
    (tmp_path / "odd.csv").write_text('"a\x1b[31mred",' + "b" * 500 + ",repaid\n1,2,yes\n")
    (tmp_path / "loans.toml").write_text(SPEC.format(file=tmp_path / "odd.csv"))
    with pytest.raises(SpecError, match="are not in the data") as error:
        load_dataset(read_spec(tmp_path / "loans.toml"))
    assert "\x1b" not in str(error.value) and r"'a\x1b[31mred'" in str(error.value)
    assert "b" * 100 not in str(error.value)


def test_a_csv_header_of_a_million_columns_is_refused_before_pandas_reads_it(tmp_path):
    # on the main of #49: MemoryError after 90 s
    header = ",".join(f"c{i}" for i in range(MOST_COLUMNS + 1))
    with pytest.raises(SpecError, match=r"its header names 100,001 columns, more than the 100,000"):
        read_raw(tmp_path / "wide.csv", f"{header}\n".encode())


def test_a_foreign_sqlite_file_is_refused_unchanged(tmp_path):
    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        db.execute("CREATE TABLE theirs (x)")
    with pytest.raises(StoreError, match="is not a faircompare results database"):
        ResultStore(tmp_path)
    with sqlite3.connect(tmp_path / "results.sqlite") as db:  # not switched to WAL
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert not (tmp_path / "results.sqlite-wal").exists()


def test_text_predictions_are_quoted_as_text():
    with pytest.raises(BadPredictionsError) as error:
        checked_predictions("p", np.array(["1", "0", "1"]), 3)
    assert "that are not 0 or 1: '1', '0' (text: return the integers 0 and 1" in str(error.value)


def test_only_a_killed_worker_is_advised_to_use_fewer_jobs():
    exited = _death(0, 0)
    assert "exited with status 0 (the run ended its process" in exited
    assert "fewer --jobs" not in exited
    assert "fewer --jobs it gets more memory" in _death(-signal.SIGKILL, 2**30)


JUNK = """
    import os

    from sklearn.tree import DecisionTreeClassifier

    from faircompare.algorithms import FairEstimator


    class Junk(FairEstimator):
        name = "writes-junk"

        def fit(self, X, y, *, sensitive_features):
            for fd in map(int, os.listdir("/proc/self/fd")):
                if fd > 2:  # a message of 4 bytes that no unpickler reads
                    try:
                        os.write(fd, b"\\x00\\x00\\x00\\x04junk")
                    except OSError:
                        pass
            self.model_ = DecisionTreeClassifier(random_state=0).fit(X, y)
            self.classes_ = self.model_.classes_
            return self

        def predict(self, X, *, sensitive_features=None):
            return self.model_.predict(X)
"""


@pytest.mark.data
def test_junk_on_a_worker_s_pipe_fails_its_run_not_the_study(tmp_path):
    # on the main of #49 the coordinator died with an UnpicklingError
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "junk.py").write_text(textwrap.dedent(JUNK))
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("writes-junk", "decision-tree"), splits=2,
        plugins=str(tmp_path / "plugins"),
    )  # fmt: skip
    with ResultStore(tmp_path / "results") as store:
        options = BenchmarkConfig(plugins=str(tmp_path / "plugins"), audits=False)
        summary = run_plan(make_plan(config).runs, store, options.overridden(jobs=1))
        runs = store.runs().set_index("algorithm")
    assert (runs.loc["decision-tree", "status"] == "done").all()
    junk = runs.loc["writes-junk"]
    assert summary.failed >= 1 and (junk["status"] == "failed").any()
    assert junk["error"].dropna().str.startswith("WorkerPipeError: the worker's message").all()
