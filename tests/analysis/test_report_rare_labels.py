"""A report is written whatever the groups lack: a label missing from a group, a group of one row.

Issue #49's probes: on its main, ``run`` stored the runs, then exited 1 with ``ValueError: No
objects to concatenate`` from the balanced re-samples, computed outside the report writer's guard,
and ``faircompare report`` failed the same way every time.
"""

import numpy as np
import pandas as pd
import pytest

from faircompare.benchmark import run_benchmark
from faircompare.config import BenchmarkConfig


def write_dataset(folder, name, frame, attribute, privileged):
    frame.to_csv(folder / f"{name}.csv", index=False)
    (folder / f"{name}.toml").write_text(
        f'name = "{name}"\nfile = "{name}.csv"\nlabel = "label"\npositive_label = "yes"\n'
        f'sensitive = ["{attribute}"]\n\n[privileged]\n{attribute} = "{privileged}"\n'
    )
    return folder / f"{name}.toml"


def rare_positives(folder):
    """300 rows, 3 positive labels, all of them in the privileged group."""
    rng = np.random.default_rng(0)
    sex = np.where(rng.random(300) < 0.5, "male", "female")
    label = np.full(300, "no", dtype=object)
    label[np.flatnonzero(sex == "male")[:3]] = "yes"
    frame = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300), "sex": sex})
    return write_dataset(folder, "rare", frame.assign(label=label), "sex", "male")


def one_row_group(folder):
    """300 rows, a third group of one row."""
    rng = np.random.default_rng(1)
    race = np.where(rng.random(300) < 0.5, "white", "black")
    race[7] = "other"
    x = rng.normal(size=300)
    label = np.where(x + rng.normal(size=300) > 0, "yes", "no")
    frame = pd.DataFrame({"x": x, "z": rng.normal(size=300), "race": race, "label": label})
    return write_dataset(folder, "one", frame, "race", "white")


@pytest.mark.parametrize("dataset", [rare_positives, one_row_group])
def test_the_report_is_written_with_every_section_that_can_be_computed(tmp_path, dataset):
    config = BenchmarkConfig(
        datasets=(), dataset_specs=(str(dataset(tmp_path)),), splits=2, permutations=50,
        algorithms=("logistic-regression", "decision-tree", "kamishima"), variants="supported",
    )  # fmt: skip
    summary = run_benchmark(config.overridden(jobs=1, backend="inline"), tmp_path / "results")
    assert summary.done == summary.planned and not summary.failures
    html = summary.report.read_text()
    assert "Parts of this report that failed" not in html
    for section in ("Summary", "Measure correlations", "Audits"):
        assert section in html
    if dataset is rare_positives:  # no test split has a positive label in both groups
        assert "No balanced sample: it draws from each test split" in html
