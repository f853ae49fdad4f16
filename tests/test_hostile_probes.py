"""Issue #83's probes: a hostile or careless user's faults get one line, and nothing is written
outside the results folder and the run's own folder.

On the main of issue #83 each of these was a traceback, a wrong run, or a change to a folder
that was not faircompare's. (The escaping of a plugin's references: ``tests/test_escaping.py``.)
"""

import os

import pytest

from faircompare._timeout import time_limit
from faircompare.benchmark.execute import remove_folder
from faircompare.config import PROFILES, ConfigError
from faircompare.datasets import load_dataset, read_spec
from faircompare.exceptions import SpecError
from faircompare.plugin_check import check_plugin
from faircompare.records import RunRecord, RunSpec
from faircompare.registry import algorithms, load_plugin_file
from faircompare.results import ResultStore
from tests.test_small_probes import SPEC


def test_a_run_folder_replaced_by_a_link_is_unlinked_and_its_target_left_alone(tmp_path):
    # a plugin that swaps its working folder for a link to another folder: the cleanup chmodded
    # that folder and every folder below it to 0700, and left the link
    target = tmp_path / "theirs"
    (target / "inside").mkdir(parents=True)
    for folder in (target, target / "inside"):
        folder.chmod(0o751)
    run_folder = tmp_path / "faircompare-run-x"
    run_folder.symlink_to(target, target_is_directory=True)
    remove_folder(run_folder)
    assert not os.path.lexists(run_folder)
    assert [oct(f.stat().st_mode & 0o777) for f in (target, target / "inside")] == ["0o751"] * 2


def test_a_sensitive_column_without_a_value_is_named(tmp_path):
    # "no row is left after filtering and dropping missing values", and no column named
    (tmp_path / "loans.csv").write_text("repaid,sex,income\n" + "yes,,3\nno,,4\n" * 20)
    (tmp_path / "loans.toml").write_text(SPEC.format(file="loans.csv"))
    with pytest.raises(SpecError, match=r"no row is left .* \(column\(s\) 'sex' hold no value\)"):
        load_dataset(read_spec(tmp_path / "loans.toml"))


@pytest.mark.slow
def test_a_csv_of_99_990_columns_is_read_in_time_linear_in_its_columns(tmp_path):
    # on the main of issue #83 more than 300 s at 900 MB with no output: a membership test in a
    # list per column, and a column set at a time; linear now (20,000 columns: 55 s -> 17 s on
    # a loaded 2-core machine), so the whole file loads well within the limit
    names = [f"c{i}" for i in range(99_987)]
    row = ",".join(["1"] * len(names))
    rows = "".join(
        f"{row},{sex},{label}\n" for sex, label in [("male", "yes"), ("female", "no")] * 30
    )
    (tmp_path / "loans.csv").write_text(",".join([*names, "sex", "repaid"]) + "\n" + rows)
    (tmp_path / "loans.toml").write_text(SPEC.format(file="loans.csv"))
    with time_limit(240):
        dataset = load_dataset(read_spec(tmp_path / "loans.toml"))
    assert dataset.frame.shape == (60, 99_989)


def test_a_store_that_is_a_link_is_read_without_writing_beside_its_target(tmp_path):
    # status and report made SQLite create x.sqlite-wal and -shm beside the link's target
    # (run refuses the link; a reading command reads a private copy)
    made = tmp_path / "made"
    with ResultStore(made) as store:
        store.write(RunRecord(RunSpec("ricci", "Race", "original", "svm", (), 0, 0), "failed",
                              error="on purpose"))  # fmt: skip
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (made / "results.sqlite").rename(theirs / "x.sqlite")
    results = tmp_path / "results"
    results.mkdir()
    (results / "results.sqlite").symlink_to(theirs / "x.sqlite")
    with ResultStore(results, readonly=True) as store:
        assert len(store.runs()) == 1
    assert os.listdir(theirs) == ["x.sqlite"]


def test_a_plan_too_large_to_hold_is_refused_before_a_run_is_built(monkeypatch):
    # --splits 1000000000000 --dry-run printed nothing while its memory grew; splits are now
    # at most 1,000, and a plan is counted before it is built
    from faircompare.benchmark import plan as planning

    built = []
    monkeypatch.setattr(planning, "RunSpec", lambda **fields: built.append(fields))
    config = PROFILES["paper"].overridden(splits=1000)  # 27,820 runs at ten splits
    with pytest.raises(ConfigError, match=r"plans 2,782,000 runs \(13 dataset attributes x 1,000 "
                       r"splits x 214 .*more than the 1,000,000 a study may hold"):  # fmt: skip
        planning.make_plan(config)
    assert built == []


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("raise SystemExit(0)\n", "it ends the process at import (SystemExit 0)"),
        ("import sys\nsys.exit(3)\n", "it ends the process at import (SystemExit 3)"),
        ("while True:\n    pass\n", "its import did not finish within 2 s"),
        # ended where no exception reaches, or hung where no timer does: the child process
        ("import os\nos._exit(0)\n", "it ends the process at import (exit status 0)"),
        (
            "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
            "it ends the process at import (signal SIGKILL)",
        ),
        (
            "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass\n",
            "its import did not finish within 2 s",
        ),
        ("raise KeyboardInterrupt\n", "KeyboardInterrupt: "),
    ],
)
def test_a_plugin_file_that_ends_or_hangs_at_import_is_reported_and_the_rest_goes_on(
    tmp_path, code, reason
):
    # run, list algorithms and check-plugin exited 0 with no output (SystemExit), and
    # check-plugin --timeout 5 never returned (a loop at import)
    plugin = tmp_path / "plugins" / "bad.py"
    plugin.parent.mkdir()
    plugin.write_text(code)
    (loaded,) = load_plugin_file(plugin, timeout=2)
    assert (loaded.name, loaded.make, loaded.unavailable) == ("bad", None, reason)
    if "ends the process" in reason:  # the registry of a study lists it, and the study goes on
        assert algorithms(plugin.parent)["bad"].unavailable == reason
    checked = check_plugin(plugin, timeout=2)
    details = [check.detail for _, checks in checked.outcomes for check in checks]
    assert checked.failed == 1 and reason in details
