"""Write ``zafar_agreement.csv`` beside this file: when Zafar et al.'s two problems agree.

Solved exactly, ``zafar-accuracy`` (gamma = 0.5) is the most accurate model of covariance 0
wherever that model's loss is within (1 + gamma) times the unconstrained optimum's, and then
the same model as ``zafar-fairness`` (c = 0.001) up to c. Counted on the ``default`` study's
datasets, attribute and variant (each dataset's first attribute, numerical+binary) and its five
splits: on how many splits the budget holds the covariance-0 model (the fitted
``covariance_`` is 0), and the share of test rows whose predictions the two models share (the
least over splits). The algorithms guide quotes them, a table row per dataset;
``tests/test_measured_figures.py`` finds each quoted text there.

    python docs/measured/zafar_agreement.py --mirror ../shared/data
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from audit_error_rates import Figure, counted, write  # the script beside this one

from faircompare.algorithms.zafar import ZafarAccuracy, ZafarFairness
from faircompare.config import PROFILES
from faircompare.datasets import get_spec, load_dataset
from faircompare.preprocessing.splits import make_split
from faircompare.preprocessing.variants import prepare

GUIDE = "docs/guide/algorithms.md"
VARIANT = "numerical+binary"
AT_ZERO = 1e-9  # a covariance this small is the hyperplane's 0, to the solver's precision


def agreement(dataset: str, splits: int, mirror: Path | None) -> list[Figure]:
    """Fit both problems on each split of a dataset; count where they coincide."""
    attribute = get_spec(dataset).sensitive_attributes[0]
    prepared = prepare(load_dataset(dataset, mirror=mirror), VARIANT, attribute)
    at_zero, shared = [], []
    for split_id in range(splits):
        split = make_split(prepared, split_id)
        fitted = [
            model.fit(
                split.X_train, split.y_train, sensitive_features=split.sensitive_features_train
            )
            for model in (ZafarAccuracy(), ZafarFairness())
        ]
        at_zero.append(abs(fitted[0].covariance_) < AT_ZERO)
        accuracy, fairness = (
            model.predict(split.X_test, sensitive_features=split.sensitive_features_test)
            for model in fitted
        )
        shared.append(float(np.mean(accuracy == fairness)))
    design = f"{dataset}, {attribute}, {VARIANT}, splits 0-{splits - 1}"
    budget = counted("zafar-accuracy at covariance 0", design, pd.Series(at_zero), GUIDE)
    least = min(shared)
    same = Figure("test predictions the two share (least over splits)", design, splits, least,
                  quoted=f"| {dataset} | {budget.quoted} | {least:.2%} |", page=GUIDE)  # fmt: skip
    return [replace(budget, quoted=""), same]  # quoted together


def main() -> None:
    """Fit, count, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=None, help="the raw data's mirror")
    args = parser.parse_args()
    default = PROFILES["default"]
    figures = [
        figure
        for dataset in default.datasets
        for figure in agreement(dataset, default.splits, args.mirror)
    ]
    command = "python docs/measured/zafar_agreement.py --mirror ../shared/data"
    write(figures, "zafar_agreement.csv", command)


if __name__ == "__main__":
    main()
