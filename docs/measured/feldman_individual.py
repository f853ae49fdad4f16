"""Write ``feldman_individual.csv`` beside this file: the individual test's rejections of Feldman.

Counted on a results folder of the ``default`` study (``python benchmark.py`` from a fresh
clone, its ``results``): the loss-ratio tests of the individual-fairness audit (Maity et al.
2021, Algorithm 2) that reject at the run's level: of the Feldman pipelines attacked without a
gradient (over trees, naive Bayes and gradient boosting) together and over each estimator, of
those attacked along their surrogate's gradient (over the SVM and logistic regression), and of
every other model attacked without a gradient. The methods page, which
``docs/method_reference.py`` writes, quotes them (``5 of the 60``);
``tests/test_measured_figures.py`` finds each quoted text there.

    python docs/measured/feldman_individual.py --results results
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from audit_error_rates import Figure, counted, write  # the script beside this one

from faircompare.analysis import tidy
from faircompare.results import ResultStore

METHODS = "docs/method_reference.py"  # writes the methods page
FELDMAN = "feldman-"
WITHOUT_GRADIENT = "derivative-free"
SURROGATE = "surrogate"


def loss_ratio_tests(results: Path) -> pd.DataFrame:
    """Return a stored study's loss-ratio tests, one row per run, with their attack."""
    with ResultStore(results, readonly=True) as store:
        audits = store.audits()
    details = tidy.audit_details(tidy.pooled_audits(audits), "individual")
    return details[details["metric"] == "loss-ratio"]


def rejections(tests: pd.DataFrame, design: str) -> list[Figure]:
    """Count the rejections of the Feldman pipelines and of the other models, by attack."""
    feldman = tests["algorithm"].str.startswith(FELDMAN)
    without, surrogate = (tests["gradient"] == kind for kind in (WITHOUT_GRADIENT, SURROGATE))
    groups = [
        ("Feldman pipelines attacked without a gradient", tests[feldman & without], " of the "),
        ("Feldman pipelines attacked along a surrogate", tests[feldman & surrogate], " of the "),
        ("other models attacked without a gradient", tests[~feldman & without], " of the "),
    ]
    for algorithm, part in tests[feldman & without].groupby("algorithm"):
        groups.append((f"{algorithm} attacked without a gradient", part, " of its "))
    return [
        counted(f"{what}: loss-ratio rejections", design, part["reject"], METHODS, joint)
        for what, part, joint in groups
    ]


def main() -> None:
    """Count, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="a default study's folder")
    args = parser.parse_args()
    tests = loss_ratio_tests(args.results)
    if tests.empty:
        parser.error(f"{args.results} holds no loss-ratio test of the individual audit")
    figures = rejections(tests, f"the default study in {args.results.name}")
    command = f"python docs/measured/feldman_individual.py --results {args.results.name}"
    write(figures, "feldman_individual.csv", command)


if __name__ == "__main__":
    main()
