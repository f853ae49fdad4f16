"""Reading the original benchmark's result files: names mapped, rows that cannot be rerun said so."""

import json

import numpy as np
import pandas as pd
import pytest

from faircompare.reproduction import read_published
from faircompare.reproduction.published import PublishedFilesError
from tests.conftest import SHARED

RESULTS = SHARED / "fairness-comparison-results"
MEASURES = ["accuracy", "TPR", "TNR", "BCR", "MCC", "DIbinary", "DIavgall", "CV"]


def write_results(folder, name, rows):
    """A result file as the original writes it: algorithm, params, run-id, then its measures."""
    frame = pd.DataFrame(rows, columns=["algorithm", "params", "run-id", *MEASURES])
    frame.to_csv(folder / name, index=False)


def test_the_originals_names_and_parameters_are_mapped_and_defaults_left_out(tmp_path):
    write_results(
        tmp_path,
        "german_sex_numerical-binsensitive.csv",
        [
            ["SVM", None, 0, *np.linspace(0.1, 0.8, 8)],
            ["Feldman-LR", "lambda=1.0", 0, *np.linspace(0.2, 0.9, 8)],
            ["Kamishima", "eta=30.0", 1, *np.linspace(0.3, 1.0, 8)],
            ["Feldman-SVM-DIavgall", "lambda=0.65", 0, *np.linspace(0.3, 1.0, 8)],
            ["ZafarBaseline", None, 0, *np.linspace(0.3, 1.0, 8)],
        ],
    )
    rows = read_published(tmp_path)
    accuracy = rows[rows["measure"] == "accuracy"].set_index("original")
    assert accuracy.loc["SVM", "algorithm"] == "svm" and accuracy.loc["SVM", "params"] == "{}"
    # lambda = 1 is the repair's default: the run is the default one, shared with any study
    assert accuracy.loc["Feldman-LR", "algorithm"] == "feldman-logistic-regression"
    assert accuracy.loc["Feldman-LR", "params"] == "{}"
    assert json.loads(accuracy.loc["Kamishima", "params"]) == {"eta": 30.0}
    assert accuracy.loc["Kamishima", "split"] == 1 and accuracy.loc["Kamishima", "value"] == 0.3
    assert "on the test split" in accuracy.loc["Feldman-SVM-DIavgall", "note"]
    assert "no counterpart" in accuracy.loc["ZafarBaseline", "note"]
    assert set(rows["variant"]) == {"numerical+binary"}
    assert sorted(rows["measure"].unique()) == ["CV", "DIbinary", "TNR", "TPR", "accuracy"]


def test_a_sweeps_rows_are_its_grid_and_unknown_datasets_are_said(tmp_path):
    (tmp_path / "sweeps").mkdir()
    write_results(
        tmp_path / "sweeps",
        "Kamishima-accuracy_adult_race_numerical-binsensitive.csv",
        [["Kamishima-accuracy", f"eta={eta}", 0, *[0.5] * 8] for eta in (0.0, 1.0, 300.0)],
    )
    write_results(tmp_path, "mydata_race_numerical.csv", [["LR", None, 0, *[0.5] * 8]])
    rows = read_published(tmp_path)
    sweep = rows[rows["sweep"] & (rows["measure"] == "CV")]
    assert sweep["params"].tolist() == ['{"eta": 0.0}', "{}", '{"eta": 300.0}']
    assert (
        sweep["file"] == "sweeps/Kamishima-accuracy_adult_race_numerical-binsensitive.csv"
    ).all()
    mine = rows[rows["dataset"] == "mydata"]
    assert (mine["note"] == "dataset 'mydata' is not a built-in dataset here").all()
    assert read_published(tmp_path, datasets=["adult"])["dataset"].unique().tolist() == ["adult"]


def test_a_folder_without_result_files_or_a_foreign_csv_is_refused(tmp_path):
    with pytest.raises(PublishedFilesError, match="no result file of the original benchmark"):
        read_published(tmp_path)
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "german_sex_numerical.csv", index=False)
    with pytest.raises(PublishedFilesError, match="no column 'algorithm'"):
        read_published(tmp_path)


@pytest.mark.skipif(not RESULTS.is_dir(), reason="the original's published results are not here")
def test_the_shared_files_read_whole_with_their_own_numbers():
    rows = read_published(RESULTS)
    # every file, every published run: the six files hold 1,132 runs, the 18 sweeps 3,523
    assert rows["file"].nunique() == 24
    runs = rows.drop_duplicates(["file", "original", "original_params", "split"])
    assert runs.groupby("sweep").size().tolist() == [1132, 3523]
    svm = rows[
        (rows["file"] == "adult_race_numerical-binsensitive.csv") & (rows["original"] == "SVM")
    ]
    raw = pd.read_csv(RESULTS / "adult_race_numerical-binsensitive.csv")
    expected = raw.loc[raw["algorithm"] == "SVM", "accuracy"].to_numpy()
    np.testing.assert_array_equal(svm.loc[svm["measure"] == "accuracy", "value"], expected)
