"""A plugin's plausible mistakes are handled by the harness and named by ``check-plugin``.

Issue #49's probes, as a user writes them: ``predict`` returning a per-group ``pd.concat`` (rows
grouped, each with its index label), and ``predict`` overwriting ``sensitive_features`` in place.
On the main of issue #49 both were stored as done with wrong measures (Ricci, 2 splits: accuracy
0.590 and 0.462 where the same plugin ending in ``.reindex(F.index)`` gives 0.949 and 0.974; the
mutating one with DIbinary and CV NULL), and ``check-plugin`` passed both.
"""

import os
import subprocess

import numpy as np
import pandas as pd
import pytest

from faircompare.algorithms.outputs import BadPredictionsError, checked_predictions
from faircompare.results import ResultStore

PER_GROUP = '''
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

from faircompare.algorithms import FairEstimator


class PerGroup(FairEstimator):
    """One logistic regression per group."""

    name: ClassVar[str] = "{name}"
    version: ClassVar[str] = "1"
    library: ClassVar[str] = "scikit-learn"
    family: ClassVar[str] = "in-processing"
    uses_sensitive_at_predict: ClassVar[bool] = True

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> "PerGroup":
        F, y = pd.DataFrame(X), np.asarray(y)
        s = np.asarray(sensitive_features)
        self.classes_ = np.unique(y)
        self.models_ = {{
            g: LogisticRegression(max_iter=1000).fit(F[s == g], y[s == g]) for g in np.unique(s)
        }}
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> Any:
        F, s = pd.DataFrame(X), np.asarray(sensitive_features)
        {body}
'''
GROUPED = """return pd.concat(
            pd.Series(m.predict(F[s == g]), index=F.index[s == g]) for g, m in self.models_.items()
        )"""
MUTATING = """predicted = np.zeros(len(F), dtype=int)
        for g, m in self.models_.items():
            predicted[s == g] = m.predict(F[s == g])
        sensitive_features[:] = sensitive_features[0]
        return predicted"""
PLUGINS = {
    "grouped": GROUPED,
    "reindexed": GROUPED + ".reindex(F.index)",
    "mutating": MUTATING,
}


@pytest.fixture(scope="module")
def plugins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugins")
    for name, body in PLUGINS.items():
        (folder / f"{name}.py").write_text(PER_GROUP.format(name=name, body=body))
    return folder


def faircompare(*args, cwd):
    return subprocess.run(
        ["faircompare", *args], cwd=cwd, env=os.environ, capture_output=True, text=True
    )


@pytest.mark.data
def test_a_grouped_series_is_measured_in_the_rows_order_and_a_mutation_reaches_nothing(
    plugins, tmp_path
):
    result = faircompare(
        "run", "--dataset", "ricci", "--plugins", str(plugins), "--splits", "2", "--no-audits",
        "--no-report", *(f"--algorithm={name}" for name in PLUGINS), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    with ResultStore(tmp_path / "results", readonly=True) as store:
        measures = store.measures()
    pooled = measures[measures["group"] == ""]  # the measures of all rows, not of one group
    accuracy = (
        pooled[pooled["measure"] == "accuracy"]
        .set_index(["algorithm", "split_id"])["value"]
        .sort_index()
    )
    # the grouped Series, aligned on its index, is the reindexed plugin: same model, same rows
    assert accuracy["grouped"].tolist() == pytest.approx(accuracy["reindexed"].tolist())
    assert min(accuracy["reindexed"]) > 0.9  # Ricci's two splits, as the issue measured
    # predict overwrote its copy of the sensitive attribute; the measures read the split's own
    fairness = pooled[pooled["measure"].isin(["DIbinary", "CV"])]
    mutating = fairness[fairness["algorithm"] == "mutating"]
    assert len(mutating) == 4 and mutating["value"].notna().all()
    assert set(measures.loc[measures["algorithm"] == "mutating", "group"]) == {"", "0", "1"}


@pytest.mark.parametrize(
    ("name", "failed"),
    [
        ("grouped", "FAIL  grouped: rows in the order asked (numerical)"),
        ("mutating", "FAIL  mutating: leaves its inputs unchanged (numerical)"),
    ],
)
def test_check_plugin_fails_both_mistakes_naming_them(plugins, tmp_path, name, failed):
    result = faircompare("check-plugin", str(plugins / f"{name}.py"), cwd=tmp_path)
    assert result.returncode == 1 and failed in result.stdout
    if name == "grouped":
        assert "whose rows are not in the order asked (its index is not X.index)" in result.stdout
    else:
        assert "predict changed its argument sensitive_features in place" in result.stdout
    reindexed = faircompare("check-plugin", str(plugins / "reindexed.py"), cwd=tmp_path)
    assert reindexed.returncode == 0, reindexed.stdout


def test_predictions_are_aligned_on_their_index_and_refused_on_another_one():
    rows = pd.Index([30, 10, 20])
    # hand-made: the rows were asked as 30, 10, 20; the Series comes back sorted by label
    assert checked_predictions("p", pd.Series([1, 0, 1], index=[10, 20, 30]), 3, rows=rows)\
        .tolist() == [1, 1, 0]  # fmt: skip
    assert checked_predictions("p", [1, 0, 1], 3, rows=rows).tolist() == [1, 0, 1]  # by position
    assert checked_predictions("p", np.array([True, False, True]), 3, rows=rows).tolist() == [
        1, 0, 1
    ]  # fmt: skip
    with pytest.raises(BadPredictionsError, match=r"rows \[10, 20, 30\] missing"):
        checked_predictions("p", pd.Series([1, 0, 1]), 3, rows=rows)  # a fresh RangeIndex
    with pytest.raises(BadPredictionsError, match="index is not the rows' labels"):
        checked_predictions("p", pd.Series([1, 0, 1], index=[10, 10, 30]), 3, rows=rows)


HUGE_ERROR = '''
from typing import Any, ClassVar

from faircompare.algorithms import FairEstimator


class Huge(FairEstimator):
    """Fails with a 3 MB message."""

    name: ClassVar[str] = "huge-error"

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> "Huge":
        raise ValueError("x" * 3_000_000)
'''


@pytest.mark.data
def test_a_huge_error_message_is_cut_in_the_terminal_the_store_and_the_report(tmp_path):
    # issue #49: a 30 MB message over 2 splits printed 63 MB to the terminal, made a 63 MB
    # report.html and a 126 MB store
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "huge.py").write_text(HUGE_ERROR)
    result = faircompare(
        "run", "--dataset", "ricci", "--algorithm", "huge-error", "--plugins", "plugins",
        "--splits", "2", "--no-audits", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1 and "2 planned runs have failed" in result.stderr
    assert len(result.stdout) + len(result.stderr) < 20_000
    assert "(message cut: 3,000,012 characters)" in result.stderr  # "ValueError: " and the x's
    with ResultStore(tmp_path / "results", readonly=True) as store:
        runs = store.runs()
    assert runs["error"].str.len().max() <= 2_000 and runs["traceback"].str.len().max() <= 100_000
    assert runs["traceback"].str.contains("ValueError: xxx").all()  # its last line is kept
    assert (tmp_path / "results" / "report" / "report.html").stat().st_size < 500_000
    assert sum(path.stat().st_size for path in (tmp_path / "results").glob("*.sqlite*")) < 2e6
