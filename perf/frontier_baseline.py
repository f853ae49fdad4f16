"""The frontier against its own baseline: its unconstrained end and its fits, before and after.

The yardstick of the comparison at equal fairness is ``unprocessed-<baseline>``
(:mod:`faircompare.algorithms.unprocessed`). Its first version (``before``) fitted the
baseline on two thirds of the training rows and each group's thresholds on the third left;
today's (``after``) is the baseline itself without a constraint, and with one the baseline
cross-fitted on every training row. On each dataset of the ``default`` profile
(numerical+binary, its first attribute, the benchmark's splits), for gradient boosting and
logistic regression, this prints:

1. the frontier's unconstrained end against the baseline fitted on every training row (test
   accuracy, mean over splits), before and after: the mean difference, its standard error over
   splits, and the splits in which the end is lower;
2. at tolerances 0 and 0.02 of both constraints, the test accuracy and the constraint's test
   violation, each in expectation over the thresholds' randomisation (from each row's
   probability of label 1, so the draw adds no noise), for three schemes: ``third`` (before),
   ``full`` (thresholds on out-of-fold scores, applied to the baseline fitted on every row)
   and ``fold mean`` (the same thresholds applied to the fold models' mean score: after);
3. the seconds of the fits: the baseline alone, the frontier before (one fit on two thirds),
   and after (the baseline and its folds, :data:`~faircompare.algorithms.unprocessed.FOLDS`
   + 1 fits, shared by all the frontier's points of a split), with the ratio after/before.

The ``before`` scheme is written out here, from the library's thresholds, as the first version
ran it. ::

    FAIRCOMPARE_MIRROR=../shared/data python perf/frontier_baseline.py [--splits 5]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone

from faircompare.algorithms.baselines import GradientBoosting, LogisticRegressionBaseline
from faircompare.algorithms.thresholds import fit_group_thresholds
from faircompare.algorithms.unprocessed import UnprocessedClassifier
from faircompare.config import PROFILES
from faircompare.datasets import get_spec, load_dataset
from faircompare.preprocessing import make_split, prepare

BASELINES = {
    "gradient-boosting": GradientBoosting,
    "logistic-regression": LogisticRegressionBaseline,
}
TOLERANCES = (0.0, 0.02)
CONSTRAINTS = ("demographic_parity", "equalized_odds")


def one_split(dataset: str, split_id: int) -> tuple[list[dict], list[dict]]:
    """Return the split's unconstrained ends and constrained points, per baseline."""
    spec = get_spec(dataset)
    prepared = prepare(load_dataset(dataset), "numerical+binary", spec.sensitive[0])
    split = make_split(prepared, split_id)
    X, y = split.X_train.to_numpy(float), np.asarray(split.y_train)
    s = np.asarray(split.sensitive_features_train)
    X_test, y_test = split.X_test.to_numpy(float), np.asarray(split.y_test)
    s_test = np.asarray(split.sensitive_features_test)
    ends, points = [], []
    for name, make in BASELINES.items():
        seconds = {}
        start = time.perf_counter()
        baseline = _seeded(make(), split_id).fit(X, y)
        seconds["baseline"] = time.perf_counter() - start
        start = time.perf_counter()
        third = _third(make(), X, y, s, split_id)
        seconds["before"] = time.perf_counter() - start
        start = time.perf_counter()
        frontier = UnprocessedClassifier(make(), "demographic_parity", 0.0, random_state=split_id)
        frontier.fit(X, y, sensitive_features=s)
        seconds["after"] = time.perf_counter() - start
        at_end = frontier.refitted(constraint=None).predict(X_test, sensitive_features=s_test)
        ends.append({
            "dataset": dataset, "baseline": name, "split": split_id,
            "baseline accuracy": np.mean(baseline.predict(X_test) == y_test),
            "before": _expected(third(None, 0.0, X_test, s_test), y_test, s_test, None)[0],
            "after": np.mean(at_end == y_test),
            **{f"{part} s": value for part, value in seconds.items()},
        })  # fmt: skip
        scored = {
            "full": (frontier.out_of_fold_, _score(frontier.estimator_, X_test)),
            "fold mean": (frontier.out_of_fold_, frontier.cross_fitted_scores(X_test)),
        }
        for constraint in CONSTRAINTS:
            for tolerance in TOLERANCES:
                probabilities = {"third": third(constraint, tolerance, X_test, s_test)}
                for scheme, ((scores, labels, groups), test_scores) in scored.items():
                    fitted = fit_group_thresholds(scores, labels, groups, constraint, tolerance)
                    probabilities[scheme] = fitted.positive_probability(test_scores, s_test)
                for scheme, probability in probabilities.items():
                    accuracy, violation = _expected(probability, y_test, s_test, constraint)
                    points.append({
                        "dataset": dataset, "baseline": name, "split": split_id,
                        "constraint": constraint, "tolerance": tolerance, "scheme": scheme,
                        "accuracy": accuracy, "violation": violation,
                    })  # fmt: skip
    return ends, points


def _third(model, X, y, s, seed):
    """Fit the first version: the baseline on two thirds, thresholds on the third left."""
    strata = 2 * np.unique(s, return_inverse=True)[1] + y
    rng = np.random.default_rng(seed)
    held = np.zeros(len(y), dtype=bool)
    for stratum in np.unique(strata):
        rows = np.flatnonzero(strata == stratum)
        held[rng.permutation(rows)[: round(len(rows) / 3)]] = True
    fitted = _seeded(model, seed).fit(X[~held], y[~held])
    scores = _score(fitted, X[held])

    def probability(constraint, tolerance, X_test, s_test):
        thresholds = fit_group_thresholds(scores, y[held], s[held], constraint, tolerance)
        return thresholds.positive_probability(_score(fitted, X_test), s_test)

    return probability


def _seeded(model, seed):
    model = clone(model)
    return model.set_params(random_state=seed) if "random_state" in model.get_params() else model


def _score(model, X):
    return np.asarray(model.predict_proba(X))[:, 1]


def _expected(probability, y, s, constraint):
    """Expected accuracy and violation of predictions drawn with ``probability`` of label 1."""
    accuracy = float(np.mean(np.where(y == 1, probability, 1 - probability)))
    if constraint is None:
        return accuracy, np.nan
    labels = (None,) if constraint == "demographic_parity" else (1, 0)
    spreads = []
    for label in labels:
        rows = np.ones(len(y), dtype=bool) if label is None else y == label
        rates = [
            probability[rows & (s == g)].mean() for g in np.unique(s) if (rows & (s == g)).any()
        ]
        spreads.append(max(rates) - min(rates))
    return accuracy, float(max(spreads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--dataset", action="append", help="default: the default profile's")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # a group's single label on one split is reported by counts
    ends, points = [], []
    for dataset in args.dataset or PROFILES["default"].datasets:
        for split_id in range(args.splits):
            more_ends, more_points = one_split(dataset, split_id)
            ends += more_ends
            points += more_points
        print(f"{dataset}: {args.splits} splits done", flush=True)
    ends, points = pd.DataFrame(ends), pd.DataFrame(points)
    pd.set_option("display.width", 160)
    print("\n1. the unconstrained end against its baseline (test accuracy)")
    rows = []
    for (dataset, name), part in ends.groupby(["dataset", "baseline"]):
        row = {
            "dataset": dataset,
            "baseline": name,
            "baseline accuracy": part["baseline accuracy"].mean(),
        }
        for when in ("before", "after"):
            difference = part[when] - part["baseline accuracy"]
            row[when] = part[when].mean()
            row[f"{when} - baseline (se)"] = (
                f"{difference.mean():+.4f} ({difference.std(ddof=1) / np.sqrt(len(part)):.4f})"
            )
            row[f"{when} lower in"] = f"{int((difference < 0).sum())} of {len(part)}"
        rows.append(row)
    print(pd.DataFrame(rows).round(4).to_string(index=False))
    print("\n2. constrained points: test accuracy and violation in expectation, mean over splits")
    table = (
        points.groupby(["dataset", "baseline", "constraint", "tolerance", "scheme"])[
            ["accuracy", "violation"]
        ]
        .mean()
        .unstack("scheme")
    )
    print(table.round(3).to_string())
    print("\n3. seconds of the fits, mean per split (after: shared by the frontier's 12 points)")
    cost = ends.groupby(["dataset", "baseline"])[["baseline s", "before s", "after s"]].mean()
    print(
        cost.assign(**{"after / before": cost["after s"] / cost["before s"]}).round(3).to_string()
    )
    print(f"(load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
