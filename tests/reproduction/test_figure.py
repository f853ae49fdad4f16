"""The sweeps' figure: a row of panels per sweep file, the curves along the swept parameter."""

import numpy as np
import pandas as pd

from faircompare.analysis.lint import lint_figure
from faircompare.reproduction.figure import sweep_figure


def sweep_cells(file, original, algorithm, name, settings, measures=("accuracy", "DIbinary")):
    """Cells of a sweep file as the reproduction table writes them, 10 splits a side."""
    rows = []
    for measure in measures:
        for k, value in enumerate(settings):
            rows.append(
                {
                    "file": file, "sweep": file.startswith("sweeps/"),
                    "dataset": "german", "attribute": "sex",
                    "original": original, "original_params": f"{name}={value}",
                    "algorithm": algorithm, "measure": measure,
                    "published_mean": 0.7 + 0.01 * k, "published_sd": 0.02, "published_n": 10,
                    "ours_mean": 0.72 + 0.01 * k, "ours_sd": 0.02, "ours_n": 10,
                    "as_published_mean": np.nan, "as_published_sd": np.nan, "as_published_n": 0,
                }
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_each_sweep_file_is_a_row_of_panels_with_the_published_and_our_curves():
    table = pd.concat(
        [
            sweep_cells("sweeps/Feldman-SVM-accuracy_german_sex_numerical-binsensitive.csv",
                        "Feldman-SVM-accuracy", "feldman-svm", "lambda", [0.5, 0.0, 1.0]),
            sweep_cells("sweeps/Kamishima-accuracy_german_sex_numerical-binsensitive.csv",
                        "Kamishima-accuracy", "kamishima", "eta", [0.0, 1.0, 300.0]),
            sweep_cells("german_sex_numerical-binsensitive.csv", "SVM", "svm", "", [""]),
        ]
    )  # fmt: skip
    figure = sweep_figure(table)
    panels = [ax for ax in figure.axes if ax.get_title()]
    assert len(panels) == 2 * 2  # two sweep files, two measures; the default file left out
    feldman = panels[0]
    assert feldman.get_title() == "feldman-svm, german (sex): accuracy"
    published, ours = feldman.get_lines()  # no as-published run: two curves
    assert published.get_xdata().tolist() == [0.0, 0.5, 1.0]  # sorted by the setting
    assert ours.get_ydata().tolist() == [0.73, 0.72, 0.74]  # each setting's own mean
    assert panels[2].get_xscale() == "symlog" and panels[2].get_xlabel() == "eta"
    assert lint_figure(figure) == []


def test_a_table_without_sweeps_draws_nothing():
    table = sweep_cells("german_sex_numerical-binsensitive.csv", "SVM", "svm", "", [""])
    assert sweep_figure(table) is None
