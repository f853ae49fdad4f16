"""The reproduction table: z by hand, verdicts, and causes found in the numbers."""

import json

import numpy as np
import pandas as pd
import pytest

from faircompare.reproduction import reproduction_table, z_score
from faircompare.reproduction.departures import one_class_everywhere


def test_z_is_the_difference_of_means_over_its_standard_error_by_hand():
    # means 0.7 and 0.8; variances (ddof 1) 0.01 and 0.005 over 3 and 2 values:
    # se = sqrt(0.01 / 3 + 0.005 / 2) = 0.076376, z = 0.1 / 0.076376 = 1.30931
    published, ours = np.array([0.6, 0.7, 0.8]), np.array([0.75, 0.85])
    assert z_score(published, ours) == pytest.approx(1.30931, abs=1e-5)
    assert z_score(np.array([1.0, 1.0]), np.array([1.0])) == 0.0
    assert z_score(np.array([1.0, 1.0]), np.array([0.5, 0.5])) == -np.inf


def published_rows(cells):
    """Published rows in read_published's form: one per cell, split and measure."""
    rows = []
    for original, algorithm, params, measure, values in cells:
        for split, value in enumerate(values):
            rows.append(
                {
                    "file": "german_sex_numerical-binsensitive.csv",
                    "sweep": False,
                    "dataset": "german",
                    "attribute": "sex",
                    "variant": "numerical+binary",
                    "original": original,
                    "original_params": "",
                    "algorithm": algorithm,
                    "params": params,
                    "split": split,
                    "measure": measure,
                    "value": value,
                    "note": "",
                }
            )
    return pd.DataFrame(rows)


def stored(cells):
    """A store's test measures of runs: one row per cell's split."""
    return pd.DataFrame(
        [
            {
                "dataset": "german",
                "sensitive_attribute": "sex",
                "variant": "numerical+binary",
                "algorithm": algorithm,
                "params": json.dumps(params),
                "split_id": split,
                "measure": measure,
                "group": "",
                "value": value,
            }
            for algorithm, params, measure, values in cells
            for split, value in enumerate(values)
        ]
    )


def test_agreeing_differing_and_explained_cells():
    published = published_rows(
        [
            ("LR", "logistic-regression", "{}", "accuracy", [0.75, 0.76, 0.74]),
            ("SVM", "svm", "{}", "accuracy", [0.69, 0.70, 0.68]),
            ("Calders", "calders", "{}", "accuracy", [0.60, 0.61, 0.59]),
            ("DecisionTree", "decision-tree", "{}", "accuracy", [0.60, 0.61, 0.59]),
            ("GaussianNB", "gaussian-nb", "{}", "accuracy", [0.71, 0.72, 0.70]),
        ]
    )
    ours = stored(
        [
            ("logistic-regression", {}, "accuracy", [0.755, 0.745, 0.76]),
            ("svm", {}, "accuracy", [0.76, 0.77, 0.75]),
            ("svm", {"scale": False}, "accuracy", [0.695, 0.685, 0.69]),  # the switch: agrees
            ("calders", {}, "accuracy", [0.73, 0.74, 0.72]),
            ("decision-tree", {}, "accuracy", [0.73, 0.74, 0.72]),
        ]
    )
    table = reproduction_table(published, ours).set_index("original")
    assert table.loc["LR", "verdict"] == "agrees" and table.loc["LR", "cause"] == ""
    assert table.loc["SVM", "verdict"] == "differs" and table.loc["SVM", "cause"] == "unscaled SVM"
    assert table.loc["SVM", "as_published_verdict"] == "agrees"
    assert table.loc["Calders", "cause"] == "not tested: run with --as-published"
    assert table.loc["DecisionTree", "cause"] == "unexplained"  # no departure concerns it
    assert table.loc["DecisionTree", "as_published_z"] == table.loc["DecisionTree", "z"]
    assert table.loc["GaussianNB", "verdict"] == "not run"
    assert table.loc["SVM", "published_mean"] == pytest.approx(0.69)
    assert table.loc["SVM", "ours_n"] == 3


def test_a_cell_the_original_predicted_as_one_class_says_so():
    published = published_rows(
        [
            ("Kamishima", "kamishima", "{}", "accuracy", [0.70, 0.71, 0.69]),
            ("Kamishima", "kamishima", "{}", "TPR", [1.0, 1.0, 1.0]),
            ("Kamishima", "kamishima", "{}", "TNR", [0.0, 0.0, 0.0]),
        ]
    )
    ours = stored([("kamishima", {}, "accuracy", [0.74, 0.75, 0.745])])
    (row,) = reproduction_table(published, ours).query("measure == 'accuracy'").itertuples()
    assert row.verdict == "differs" and row.cause.startswith("the original predicted one class")
    rates = published[published["measure"].isin(["TPR", "TNR"])]
    assert one_class_everywhere(rates)
    assert not one_class_everywhere(rates.assign(value=0.5))
