"""Re-auditing a stored study (``faircompare audit``): from stored predictions, refitting only
what the individual test needs, and leaving the store as a fresh run with the new settings
would have written it."""

import json
import os
import sqlite3
import subprocess
import zlib

import numpy as np
import pandas as pd
import pytest

from faircompare.audits.individual import IndividualAudit
from faircompare.benchmark import StaleResultsError, run_benchmark
from faircompare.benchmark.reaudit import audit_study
from faircompare.config import PROFILES
from faircompare.results import ResultStore, StoreError

pytestmark = pytest.mark.data

# a tree (no gradient: its individual test attacks with random directions) and a linear model
ALGORITHMS = ("decision-tree", "logistic-regression")
# what a stored run's inputs say of the individual test: now, and at an older version
CURRENT = f"individual {IndividualAudit.version}"
OLDER = f"individual {int(IndividualAudit.version) - 1}"


def study(folder, permutations):
    config = PROFILES["default"].overridden(
        datasets=("german",), algorithms=ALGORITHMS, splits=1, permutations=permutations
    )
    summary = run_benchmark(config.overridden(jobs=1, backend="inline"), folder, report=False)
    assert summary.failed == 0
    return config


def audits(folder) -> pd.DataFrame:
    with ResultStore(folder, readonly=True) as store:
        frame = store.audits().sort_values(["key", "audit", "metric", "scope"], ignore_index=True)
    return frame.assign(details=frame["details"].map(json.dumps))


def inputs(folder) -> dict:
    with ResultStore(folder, readonly=True) as store:
        return store.inputs()


def tamper(folder, sql, *parameters):
    with sqlite3.connect(folder / "results.sqlite") as db:
        db.execute(sql, parameters)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """The study run directly with a cap of 3,000 permutations: what a re-audit must give."""
    folder = tmp_path_factory.mktemp("fresh")
    study(folder, 3000)
    return folder


def test_a_new_cap_audits_the_permutation_tests_again_from_the_stored_predictions(tmp_path, fresh):
    config = study(tmp_path, 200)
    # `run` with the new cap refuses the stale runs, and says how to audit them without refits
    with pytest.raises(StaleResultsError) as refused:
        run_benchmark(config.overridden(permutations=3000), tmp_path, report=False)
    assert "  - audits: on, 200 permutations" in str(refused.value)
    assert f"`faircompare audit --results {tmp_path} --permutations 3000`" in str(refused.value)
    summary = audit_study(tmp_path, permutations=3000)
    # both runs' permutation tests again, nothing fitted: they read the stored predictions
    assert (summary.audited, summary.current, summary.refitted, summary.failed) == (2, 0, 0, ())
    pd.testing.assert_frame_equal(audits(tmp_path), audits(fresh))
    assert inputs(tmp_path) == inputs(fresh)
    # the runs are current for `run` with the new cap: nothing to redo, nothing refused
    again = run_benchmark(config.overridden(permutations=3000), tmp_path, report=False)
    assert (again.done, again.skipped) == (0, 2)
    assert audit_study(tmp_path, permutations=3000).current == 2  # and for `audit`


def test_an_audit_of_an_older_version_is_run_again_with_the_model_fitted_again(tmp_path, fresh):
    study(tmp_path, 3000)
    tamper(tmp_path, "UPDATE runs SET inputs = replace(inputs, ?, ?)", CURRENT, OLDER)
    summary = audit_study(tmp_path)
    # the individual test reads the model: each run's fit is repeated, and predicts as stored
    assert (summary.audited, summary.refitted, summary.failed) == (2, 2, ())
    pd.testing.assert_frame_equal(audits(tmp_path), audits(fresh))
    assert inputs(tmp_path) == inputs(fresh)


def test_a_fit_that_predicts_otherwise_leaves_its_run_as_it_was(tmp_path):
    study(tmp_path, 200)
    with ResultStore(tmp_path, readonly=True) as store:
        tree = store.runs().query("algorithm == 'decision-tree'")["key"].item()
        y_pred = store.predictions(tree).y_pred
    flipped = zlib.compress((1 - y_pred).astype("int8").tobytes())
    tamper(tmp_path, "UPDATE predictions SET y_pred = ? WHERE key = ?", flipped, tree)
    tamper(tmp_path, "UPDATE runs SET inputs = replace(inputs, ?, ?)", CURRENT, OLDER)
    before = audits(tmp_path)
    summary = audit_study(tmp_path, audits=["individual"])
    assert summary.audited == 1 and len(summary.failed) == 1
    where, reason = summary.failed[0]
    assert where.startswith("german/") and "decision-tree" in where
    assert f"predicts {len(y_pred):,} of {len(y_pred):,} test rows otherwise" in reason
    mine = audits(tmp_path)
    pd.testing.assert_frame_equal(mine[mine["key"] == tree], before[before["key"] == tree])
    assert OLDER in inputs(tmp_path)[tree]["audits"]  # still stale, for a later audit


def test_undecided_draws_on_only_the_runs_with_an_undecided_verdict(tmp_path):
    study(tmp_path, 3000)
    before = audits(tmp_path)
    permutation = before[(before["audit"] == "permutation") & (before["scope"] == "rest")]
    details = permutation["details"].map(json.loads)
    # at a cap of 3,000 the tree's run has a test that stops undecided (German's sex: a
    # positive-rate p-value near Holm's threshold); the linear model's are all decided
    capped = permutation[details.map(lambda d: not d["decided"])]
    assert set(capped["algorithm"]) == {"decision-tree"}
    linear = before.query("algorithm == 'logistic-regression'")["key"].iloc[0]
    assert audit_study(tmp_path).audited == 0  # current: nothing to do without --undecided
    # the linear run's accuracy test made undecided: an interval holding 0.05 after Holm
    tamper(
        tmp_path,
        "UPDATE audits SET details = json_set(details, '$.pvalue_interval', json('[0.001, 0.2]'))"
        " WHERE key = ? AND audit = 'permutation' AND metric = 'accuracy' AND scope = 'rest'",
        linear,
    )
    summary = audit_study(tmp_path, undecided=True)
    assert (summary.audited, summary.current, summary.refitted) == (2, 0, 0)
    # counted before and after, as the report counts them: the tree's capped tests and the
    # linear run's accuracy, then what drawing on left open, of the two runs' 10 pooled tests
    was, now, stored = summary.undecided["permutation p-value (Holm-adjusted)"]
    assert (was, stored) == (len(capped) + 1, 10) and now < was
    after = audits(tmp_path)
    # drawn to ten times the cap, the decided tests are those drawn before (same batches)
    mine, theirs = (frame[frame["key"] == linear] for frame in (after, before))
    pd.testing.assert_frame_equal(mine.reset_index(drop=True), theirs.reset_index(drop=True))
    tree = after.loc[capped.index, "details"].map(json.loads)
    assert all(d["permutations"] > 3000 for d in tree)  # drawn on, past the former cap
    assert all("on, 30000 permutations" in run["audits"] for run in inputs(tmp_path).values())


def test_an_unknown_audit_is_refused_with_the_choices(tmp_path):
    study(tmp_path, 200)
    with pytest.raises(
        ValueError, match="'fliptests' .did you mean 'fliptest'.*permutation, fliptest, individual"
    ):
        audit_study(tmp_path, audits=["fliptests"])


def test_the_command_audits_and_writes_the_report(tmp_path):
    study(tmp_path, 200)
    done = subprocess.run(
        ["faircompare", "audit", "--results", str(tmp_path), "--permutations", "400"],
        capture_output=True, text=True, env=os.environ,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 runs audited again (0 of them fitted again); 0 were current" in done.stdout
    assert (tmp_path / "report" / "report.html").is_file()
    assert all("on, 400 permutations" in run["audits"] for run in inputs(tmp_path).values())
    caps = audits(tmp_path).query("audit == 'permutation'")["details"].map(json.loads)
    assert np.all([d.get("permutations", 0) <= 400 for d in caps])


def test_a_folder_without_a_study_is_refused_and_not_made(tmp_path):
    with pytest.raises(StoreError, match="no results in .*run the benchmark first"):
        audit_study(tmp_path / "none")
    assert not (tmp_path / "none").exists()


def test_an_interrupted_audit_resumes_where_it_stopped(tmp_path, monkeypatch):
    from faircompare.benchmark import reaudit

    study(tmp_path, 200)
    real, calls = reaudit._audit_one, []

    def interrupted_on_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(reaudit, "_audit_one", interrupted_on_the_second)
    with pytest.raises(KeyboardInterrupt):
        audit_study(tmp_path, permutations=400)
    monkeypatch.undo()
    # the first run was stored with its new cap before the interruption: only the second is left
    summary = audit_study(tmp_path, permutations=400)
    assert (summary.audited, summary.current) == (1, 1)
    assert all("on, 400 permutations" in run["audits"] for run in inputs(tmp_path).values())


def test_a_tuned_run_is_fitted_again_at_its_chosen_trial_and_audited_as_it_was(tmp_path):
    config = PROFILES["default"].overridden(
        datasets=("german",), algorithms=("logistic-regression",), splits=1, permutations=200,
        tuning_budgets=(4,),
    )  # fmt: skip
    assert run_benchmark(config.overridden(backend="inline"), tmp_path, report=False).failed == 0
    before = audits(tmp_path)
    tamper(tmp_path, "UPDATE runs SET inputs = replace(inputs, ?, ?)", CURRENT, OLDER)
    summary = audit_study(tmp_path, audits=["individual"])
    # both runs refitted (the tuned one at its chosen C, not at the defaults) and predicting
    # as stored, their individual tests as the study computed them
    assert (summary.audited, summary.refitted, summary.failed) == (2, 2, ())
    pd.testing.assert_frame_equal(audits(tmp_path), before)
