"""Degenerate runs (one class predicted for every test row, overall or in a group) are named in
the store and on the page, with the measures they leave undefined (#64)."""

import html
import json

import numpy as np
import pandas as pd
import pytest

from faircompare.analysis.report import _groups_text, write_report
from faircompare.analysis.tidy import degenerate_runs
from faircompare.benchmark import run_benchmark
from faircompare.benchmark.execute import constant_predictions
from faircompare.config import PROFILES
from faircompare.datasets import get_spec
from faircompare.results import ResultStore


def test_constant_predictions_are_said_overall_and_per_group():
    groups = np.array(["a", "a", "b", "b", "b"])
    assert constant_predictions(np.zeros(5, int), groups) == (
        "one class for every test row: 0 (5 rows)"
    )
    # group b always predicted 1, group a both classes
    assert constant_predictions(np.array([0, 1, 1, 1, 1]), groups) == (
        "one class for every test row of group b: 1 (3 rows)"
    )
    assert constant_predictions(np.array([0, 1, 1, 0, 1]), groups) is None


def test_a_coded_group_is_named_by_its_value():
    # numerical+binary codes German's privileged sex (male) 1 and the rest 0 (#81: the page
    # named the groups 0 and 1)
    warning = "DegeneratePredictionsWarning: one class for every test row of group 0: 0 (9 rows)"
    runs = pd.DataFrame(
        {"key": ["k", "j"], "dataset": "german", "sensitive_attribute": "sex",
         "variant": ["numerical+binary", "numerical"], "algorithm": "never", "params": "{}",
         "split_id": 0, "status": "done", "warnings": json.dumps([warning])}
    )  # fmt: skip
    measures = pd.DataFrame(columns=["key", "measure", "group", "value"])
    found = degenerate_runs(runs, measures)
    assert found["predicts"].tolist() == [
        "one class for every test row of group 0 (not male): 0 (9 rows)",
        "one class for every test row of group 0: 0 (9 rows)",  # its values name themselves
    ]


CONSTANT = """
import numpy as np
from faircompare.algorithms import FairEstimator

class Never(FairEstimator):
    '''Predict 0 for every row.'''

    name = "never"
    family = "post-processing"
    library = "a-lab"
    version = "1.2"

    def fit(self, X, y, *, sensitive_features):
        return self

    def predict(self, X, *, sensitive_features=None):
        return np.zeros(len(X), dtype=int)
"""


@pytest.mark.data
def test_a_constant_classifier_is_named_with_the_measures_it_leaves_undefined(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "never.py").write_text(CONSTANT)
    config = PROFILES["default"].overridden(
        datasets=("german",), algorithms=("never", "logistic-regression"), splits=2,
        plugins=str(plugins), audits=False,
    )  # fmt: skip
    run_benchmark(config, tmp_path / "results", report=False)
    with ResultStore(tmp_path / "results", readonly=True) as store:
        runs, measures = store.runs(), store.measures()
    never = runs[(runs["algorithm"] == "never") & (runs["split_id"] == 0)]
    rows = never["n_test"].item()
    stored = json.loads(never["warnings"].item())
    # said once, before the measures it leaves undefined say so each
    assert (
        stored[0]
        == f"DegeneratePredictionsWarning: one class for every test row: 0 ({rows:,} rows)"
    )
    assert all(note.startswith("UndefinedMeasureWarning: ") for note in stored[1:])
    found = degenerate_runs(runs, measures)
    assert found["algorithm"].tolist() == ["never", "never"]  # the regression predicts both
    # no positive prediction: the ratios of positive rates are 0/0 (DIbinary, DIavgall)
    assert {"DIbinary", "DIavgall"} <= set(found["undefined"].iloc[0].split(", "))
    page = html.unescape(write_report(tmp_path / "results").read_text())
    assert "(2 of them degenerate: one class predicted for every test row" in page
    assert "2 algorithms on 1 dataset, 2 splits." in page  # it said "1 datasets"
    assert f"one class for every test row: 0 ({rows:,} rows)" in page
    # the measures table says "undefined", never "nan ± nan", and its caption says why; the
    # constant's cells are flagged, never given an interval, and left out of the comparisons
    # (#81: a broken number is no result)
    assert "nan ± nan" not in page
    assert "'undefined': no split defines it (DIbinary is undefined for group" in page
    assert "<td>undefined (flag: one class on 2 of 2 splits; defined on 0 of 2 splits)</td>" in page
    accuracy = measures.query("algorithm == 'never' and measure == 'accuracy' and group == ''")
    assert f"<td>{accuracy['value'].mean():.3f} (flag: one class on 2 of 2 splits)</td>" in page
    assert "Not compared, their cells flagged in the measures table (german, sex, " in page
    assert "DIbinary: never; accuracy: never" not in page  # the measures in their order
    assert "accuracy: never; DIbinary: never." in page
    # issue #63: the report, written without the plugin at hand, said its family was
    # "unspecified"; the store keeps each algorithm's description
    with ResultStore(tmp_path / "results", readonly=True) as store:
        assert store.algorithms()["never"] == {
            "family": "post-processing", "library": "a-lab", "version": "1.2",
            "description": "Predict 0 for every row.", "references": [],
        }  # fmt: skip
    families = pd.read_csv(tmp_path / "results" / "report" / "tables" / "algorithms.csv",
                           index_col=0)  # fmt: skip
    assert families.loc["post-processing", "algorithms"] == "never"


@pytest.mark.data
def test_groups_too_small_to_audit_are_named_beside_their_measures(tmp_path):
    # COMPAS's numerical race keeps every race: Native Americans and Asians are a few test
    # rows of a split, and the measures table says so
    config = PROFILES["default"].overridden(
        datasets=("propublica-recidivism",), algorithms=("logistic-regression",), splits=1,
        sensitive_attributes=("race",), variants=("numerical",), audits=False,
    )  # fmt: skip
    run_benchmark(config, tmp_path / "results", report=False)
    with ResultStore(tmp_path / "results", readonly=True) as store:
        [key] = store.runs()["key"]
        groups = pd.Series(store.predictions(key).sensitive_features).value_counts()
    small = groups[groups < 30]
    assert "Native American" in small.index  # the case the caption must name
    page = html.unescape(write_report(tmp_path / "results").read_text())
    assert "Groups with fewer than 30 test rows on a split" in page
    for group, rows in small.items():
        assert f"{group}: {rows} rows" in page


def test_a_coded_group_too_small_to_audit_is_named_by_its_value():
    # #81: Ricci's numerical+binary groups were "1 (21 to 25 rows), 0 (14 to 18 rows)": codes
    # a reader cannot read; the privileged value is Ricci's declared one
    where = ("ricci", "Race", "numerical+binary")
    assert get_spec("ricci").privileged_value("Race") == "W"
    assert _groups_text({"1": (21, 25), "0": (14, 14)}, where) == (
        "1 (W): 21 to 25 rows, 0 (not W): 14 rows"
    )
    assert _groups_text({"1": (21, 25)}, ("ricci", "Race", "numerical")) == "1: 21 to 25 rows"
