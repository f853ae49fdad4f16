"""The frontier's thresholds against error-parity's in small groups: accuracy and test violation.

On Adult with its race attribute in the ``numerical`` variant (five groups; "Other" has twelve
to fourteen positives among its 150 training rows), ``unprocessed-gradient-boosting`` is fitted
once per split and post-processed to equalized odds at tolerances 0, 0.01 and 0.02. The scores
are given to error-parity's ``RelaxedThresholdOptimizer`` (Cruz & Hardt's package, the peer):
it is fitted on the training rows' out-of-fold scores, as the frontier's thresholds are, and
asked for the test predictions from the fold models' mean score, which the frontier's
thresholds decide. Printed per tolerance, as mean and standard deviation over the splits:

- the accuracy on the fitting (out-of-fold) scores, which the two programs maximise;
- the equalized-odds violation on the test rows (fairlearn's ``equalized_odds_difference``, the
  largest spread of TPR or FPR over groups), the measure the frontier is read by: as one draw
  of the randomised thresholds gives it (``test violation``, what the benchmark stores), and in
  expectation over their randomisation (``expected``: ours from each row's probability of label
  1, error-parity's as the mean of 200 draws);
- the mean difference between the splits' violations, ours minus error-parity's, and its
  standard error: "within sampling error" means within two standard errors of 0 or lower.

In a group of seven test positives a rate moves in steps of 1/7, so one draw's violation is
mostly the draw's: the expected violation compares the thresholds themselves.

error-parity pins its own dependencies (cvxpy), so it runs in an environment of its own, never
as a dependency of faircompare::

    python -m venv /tmp/epenv && /tmp/epenv/bin/pip install -e . error-parity==0.3.11 ecos
    FAIRCOMPARE_MIRROR=../shared/data /tmp/epenv/bin/python perf/frontier_error_parity.py

error-parity's tolerance bounds the distance between any two groups' ROC points (l-infinity), as
the frontier's does between any two groups' rates, so one number means the same for both.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pandas as pd
from error_parity import RelaxedThresholdOptimizer

from faircompare.datasets import load_dataset
from faircompare.measures import MEASURES
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import get_algorithm

TOLERANCES = (0.0, 0.01, 0.02)
VIOLATION = "equalized_odds_difference"
DRAWS = 200  # of error-parity's randomised predictions, for its expected rates


def compare(splits: int) -> pd.DataFrame:
    """Fit both on every split's validation scores; return one row per split and tolerance."""
    prepared = prepare(load_dataset("adult"), "numerical", "race")
    rows = []
    for split_id in range(splits):
        split = make_split(prepared, split_id)
        model = get_algorithm("unprocessed-gradient-boosting").create(random_state=split_id)
        model.fit(split.X_train, split.y_train, sensitive_features=split.sensitive_features_train)
        scores, labels, groups = model.out_of_fold_
        test_scores = model.cross_fitted_scores(split.X_test)
        s, y = split.sensitive_features_test, split.y_test
        names, codes = np.unique(groups, return_inverse=True)
        for tolerance in TOLERANCES:
            ours = model.refitted(constraint="equalized_odds", tolerance=tolerance)
            predicted = ours.predict(split.X_test, sensitive_features=s)
            assert ours.thresholds_ is not None and len(ours.thresholds_.groups) == len(names)
            probability = ours.thresholds_.positive_probability(test_scores, s)
            peer = RelaxedThresholdOptimizer(
                predictor=lambda column: column[:, 0], tolerance=tolerance, seed=split_id
            ).fit(scores[:, None], labels, group=codes)  # it takes groups 0..k-1
            fitted = peer(scores[:, None], group=codes)
            test_codes = np.searchsorted(names, s)
            theirs = peer(test_scores[:, None], group=test_codes)
            their_probability = np.mean(
                [peer(test_scores[:, None], group=test_codes) for _ in range(DRAWS)], axis=0
            )
            rows.append({
                "split": split_id,
                "tolerance": tolerance,
                "fitting accuracy (ours)": ours.thresholds_.accuracy,
                "fitting accuracy (error-parity)": float(np.mean(fitted == labels)),
                "test violation (ours)": _violation(y, predicted, s, split.privileged),
                "test violation (error-parity)": _violation(y, theirs, s, split.privileged),
                "expected (ours)": _expected_violation(y, probability, s),
                "expected (error-parity)": _expected_violation(y, their_probability, s),
            })  # fmt: skip
        print(f"split {split_id} done", flush=True)
    return pd.DataFrame(rows)


def _violation(y: np.ndarray, predicted: np.ndarray, s: np.ndarray, privileged: str) -> float:
    return float(MEASURES[VIOLATION](y, np.asarray(predicted, int), s, privileged=privileged))


def _expected_violation(y: np.ndarray, probability: np.ndarray, s: np.ndarray) -> float:
    """The largest spread over groups of the expected TPR or FPR (equalized odds difference)."""
    spreads = []
    for label in (1, 0):  # TPR, then FPR
        rates = [probability[(s == group) & (y == label)].mean() for group in np.unique(s)]
        spreads.append(max(rates) - min(rates))
    return float(max(spreads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=10)
    args = parser.parse_args()
    table = compare(args.splits)
    summary = table.drop(columns="split").groupby("tolerance").agg(["mean", "std"])
    with pd.option_context("display.width", 120):
        print(summary.T.round(4))  # a row per quantity and statistic, a column per tolerance
    for what in ("test violation", "expected"):
        difference = table[f"{what} (ours)"] - table[f"{what} (error-parity)"]
        for tolerance, values in difference.groupby(table["tolerance"]):
            error = values.std(ddof=1) / np.sqrt(len(values))
            verdict = "within sampling error or lower" if values.mean() <= 2 * error else "higher"
            print(f"{what}, tolerance {tolerance}: ours minus error-parity {values.mean():+.4f} "
                  f"(standard error {error:.4f}): {verdict}")  # fmt: skip
    print(f"(load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
