"""
A plugin from scratch
=====================

An algorithm is a scikit-learn classifier that takes the sensitive attribute by keyword:
a subclass of :class:`~faircompare.algorithms.FairEstimator` with a ``name``. This one is a
pre-processing method, Kamiran and Calders' reweighing: each (group, label) cell of the
training data is weighted so that group and label look independent, w(g, y) = P(g) P(y) /
P(g, y), and a logistic regression is fitted with those weights. We check its contract, try it
on one split, then run a plugin in a study beside the baseline.
"""

# %%
# The class
# ---------
# ``validate_fit`` runs scikit-learn's input checks and returns the labels as 0/1;
# ``fitted_features`` checks a fitted model's input, and ``to_labels`` maps 0/1 back to the
# labels seen in ``fit`` (the plugin reference, :doc:`/guide/plugins`, lists every helper). The
# class attributes tell the benchmark what the method is: its version (change it when its
# results change), the library whose code runs, its family, the preprocessing variants it
# accepts and its parameter grid. It reads the sensitive attribute in ``fit`` only, which the
# contract checks, and only as a partition of the rows, so the groups' names do not matter.
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from faircompare.algorithms import FairEstimator


class ReweighedLogisticRegression(FairEstimator):
    """Logistic regression on training rows reweighed so that group and label are independent.

    Parameters
    ----------
    C
        Inverse regularisation strength of the logistic regression.
    """

    name: ClassVar[str] = "reweighed-logistic-regression"
    version: ClassVar[str] = "1"
    library: ClassVar[str] = "scikit-learn"
    family: ClassVar[str] = "pre-processing"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical", "numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {"C": [0.1, 1.0, 10.0]}
    groups_by_order: ClassVar[bool] = True  # the weights read the groups as a partition

    def __init__(self, C: float = 1.0) -> None:
        self.C = C

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> "ReweighedLogisticRegression":
        """Weigh each (group, label) cell by P(g) P(y) / P(g, y), then fit."""
        features, y = self.validate_fit(X, y)
        cells = pd.DataFrame({"group": np.asarray(sensitive_features), "label": y})
        p_group = cells["group"].map(cells["group"].value_counts(normalize=True))
        p_label = cells["label"].map(cells["label"].value_counts(normalize=True))
        p_cell = cells.groupby(["group", "label"])["label"].transform("size") / len(cells)
        weights = (p_group * p_label / p_cell).to_numpy()
        self.model_ = make_pipeline(StandardScaler(), LogisticRegression(C=self.C, max_iter=1000))
        self.model_.fit(features, y, logisticregression__sample_weight=weights)
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict with the reweighed model; the sensitive attribute is not read."""
        return self.to_labels(self.model_.predict(self.fitted_features(X)))


# %%
# Its contract
# ------------
# ``faircompare check-plugin FILE`` runs these checks on a file; here they run on the class:
# valid variants, family and grid, a ``clone`` round trip, well-formed outputs, determinism, no
# undeclared use of the sensitive attribute at prediction time, and well-formed audit hooks.
from faircompare.algorithms.contract import check_contract

for check in check_contract(ReweighedLogisticRegression):
    print("passed" if check.passed else "FAILED", check.name, check.detail)

# %%
# One split of German credit
# --------------------------
# The prepared data and the split are those every algorithm of a study gets.
from faircompare.datasets import load_dataset
from faircompare.measures import evaluate
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import get_algorithm

split = make_split(prepare(load_dataset("german"), "numerical+binary", "sex"), 0)
for model in (get_algorithm("logistic-regression").create(), ReweighedLogisticRegression()):
    model.fit(split.X_train, split.y_train, sensitive_features=split.sensitive_features_train)
    predicted = model.predict(split.X_test, sensitive_features=split.sensitive_features_test)
    scores = evaluate(
        split.y_test,
        predicted,
        split.sensitive_features_test,
        privileged=split.privileged,
        measures=["accuracy", "DIbinary"],
    )
    print(type(model).__name__, dict(zip(scores["measure"], scores["value"].round(3), strict=True)))

# %%
# In a study
# ----------
# A study finds plugins in a folder of Python files (``plugins=``, or ``--plugins DIR`` on the
# command line) or through the entry-point group ``faircompare.algorithms``.
# The repository's ``examples/plugins`` folder holds one, ``group-quantile-threshold``
# (``group_threshold.py``: logistic regression's scores with a threshold per group, a
# post-processing method); saved in such a folder, the class above runs the same way. A study of
# the plugin beside the baseline, each over its grid, two splits:
import tempfile
from dataclasses import replace

from faircompare.benchmark import run_benchmark
from faircompare.config import PROFILES
from faircompare.results import ResultStore

config = replace(
    PROFILES["quick"],
    datasets=("german",),
    algorithms=("logistic-regression", "group-quantile-threshold"),
    plugins="../../examples/plugins",
    audits=False,
)
with tempfile.TemporaryDirectory() as folder:
    run_benchmark(config.overridden(jobs=2), folder, report=False)
    with ResultStore(folder) as store:
        measures = store.measures()
chosen = measures[measures["measure"].isin(["accuracy", "DIbinary"]) & (measures["group"] == "")]
print(chosen.pivot_table("value", "algorithm", "measure").round(3))
