"""Validation of the unprocessed frontier (Cruz & Hardt 2024) behind the equal-fairness comparison.

Three checks, each printed:

1. Closed form. Two equal groups, scores uniform on (0, 1) and (0, 0.6) and calibrated
   (P(y = 1 | s) = s). Demographic parity at tolerance 0 puts the accuracy-optimal thresholds at
   0.625 and 0.375 (the derivative of the accuracy in the common rate r is
   sum_g w_g (2 t_g - 1), zero at (1 - r)(0.5 + 0.3) = 1/2), and no constraint at 0.5 in each
   group. The program's thresholds are printed beside them; the population is laid out on a grid
   of 200 scores per group, so they agree within a grid step.
2. Tolerance on test. On Adult and ACSIncome (numerical+binary, each dataset's first attribute,
   the benchmark's splits), ``unprocessed-gradient-boosting`` is fitted once per split and
   post-processed to every tolerance of both constraints; the test violation's mean and
   standard deviation over splits are printed beside the tolerance, and beside them the mean
   and standard deviation the violation would show from sampling alone (``sampling_mean``,
   ``sampling_sd``): a tolerance met exactly on the training rows' out-of-fold scores, seen on
   test through the sampling error of both parts (each group's rates drawn as binomials of its
   training and its test size). The violation is an absolute difference, so even at tolerance
   0 its mean is above 0.
3. Itself. The frontier's runs compared with their own frontier: every difference at equal
   fairness is exactly 0, but where two points of a constraint share a violation (the frontier
   there is their mean accuracy).

    FAIRCOMPARE_MIRROR=../shared/data python perf/equal_fairness.py [--splits 5]
"""

import argparse
import json
import time

import numpy as np
import pandas as pd

from faircompare.algorithms.thresholds import fit_group_thresholds
from faircompare.algorithms.unprocessed import TOLERANCES
from faircompare.analysis import equal_fairness
from faircompare.datasets import get_spec, load_dataset
from faircompare.measures import MEASURES
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import get_algorithm


def closed_form() -> None:
    print("1. closed form: scores uniform on (0, 1) and (0, 0.6), calibrated, equal groups")
    s, y, g = [], [], []
    for group, high in enumerate((1.0, 0.6)):
        for value in high * (np.arange(200) + 0.5) / 200:
            positives = round(400 * value)
            s += [value] * 400
            y += [1] * positives + [0] * (400 - positives)
            g += [group] * 400
    s, y, g = np.array(s), np.array(y), np.array(g)
    for constraint, expected in ((None, (0.5, 0.5)), ("demographic_parity", (0.625, 0.375))):
        fitted = fit_group_thresholds(s, y, g, constraint, 0.0)
        found = [float(t @ w) for t, w in zip(fitted.thresholds, fitted.weights, strict=True)]
        print(
            f"   {constraint or 'no constraint':>20}: thresholds {found[0]:.4f}, {found[1]:.4f} "
            f"(closed form {expected[0]}, {expected[1]}; grid step {1 / 200:.4f} x the range)"
        )


def on_test(dataset: str, splits: int) -> pd.DataFrame:
    spec = get_spec(dataset)
    prepared = prepare(load_dataset(dataset), "numerical+binary", spec.sensitive[0])
    rows = []
    for split_id in range(splits):
        split = make_split(prepared, split_id)
        start = time.perf_counter()
        model = get_algorithm("unprocessed-gradient-boosting").create(random_state=split_id)
        model.fit(split.X_train, split.y_train, sensitive_features=split.sensitive_features_train)
        fitted = time.perf_counter() - start
        for constraint, measure in equal_fairness.CONSTRAINT_MEASURES.items():
            for tolerance in TOLERANCES:
                refit = model.refitted(constraint=constraint, tolerance=tolerance)
                s = split.sensitive_features_test
                predicted = refit.predict(split.X_test, sensitive_features=s)
                value = MEASURES[measure](split.y_test, predicted, s, privileged=split.privileged)
                accuracy = float(np.mean(predicted == split.y_test))
                rows.append((split_id, constraint, tolerance, value, accuracy,
                             *_resampled(refit, split, measure)))  # fmt: skip
        print(f"   {dataset} split {split_id}: baseline fitted in {fitted:.1f} s")
    return pd.DataFrame(rows, columns=["split", "constraint", "tolerance", "violation",
                                       "accuracy", "sampling_mean", "sampling_sd"])  # fmt: skip


def _resampled(model, split, measure: str, draws: int = 200) -> tuple[float, float]:
    """The mean and sd of the test violation that sampling alone gives the fitted thresholds.

    Each (group, label) cell's rate of positive predictions on the training rows' out-of-fold
    scores, ``p``, is taken as the cell's rate in the population. The thresholds were fitted
    to that estimate, which missed the population rate by a binomial error: the rate they
    reach is ``2 p - p_fit``, with ``p_fit`` drawn as a binomial of the cell's training size.
    The test predictions are then drawn with that rate for the cell's test rows. (A binomial
    overstates the fitting error a little: the rows' own probabilities vary less than 0/1
    outcomes.)
    """
    rng = np.random.default_rng(0)
    scores, labels, groups = model.out_of_fold_
    s, y = split.sensitive_features_test, split.y_test
    p = model.thresholds_.positive_probability(scores, groups)
    cells = []
    for group in np.unique(s):
        for label in (0, 1):
            own = (groups == group) & (labels == label)
            rows = np.flatnonzero((s == group) & (y == label))
            cells.append((p[own].mean() if own.any() else 0.0, own.sum(), rows))
    values = []
    for _ in range(draws):
        predicted = np.zeros(len(y), dtype=int)
        for rate, size, rows in cells:
            reached = 2 * rate - rng.binomial(size, rate) / size if size else rate
            predicted[rows] = rng.uniform(size=len(rows)) < np.clip(reached, 0, 1)
        values.append(MEASURES[measure](y, predicted, s, privileged=split.privileged))
    return float(np.mean(values)), float(np.std(values))


def itself(table: pd.DataFrame) -> None:
    """The frontier's runs of split 0 against their own frontier: every difference is 0."""
    rows = []
    for i, run in enumerate(table[table["split"] == 0].itertuples()):
        setting = json.dumps({"constraint": run.constraint, "tolerance": run.tolerance})
        violation = equal_fairness.CONSTRAINT_MEASURES[run.constraint]
        for name in ("unprocessed-b", "copy"):
            for measure, value in (("accuracy", run.accuracy), (violation, run.violation)):
                rows.append({"key": f"{name}{i}", "dataset": "d", "sensitive_attribute": "s",
                             "variant": "v", "algorithm": name, "params": setting,
                             "setting": setting, "split_id": 0, "measure": measure,
                             "group": "", "value": value})  # fmt: skip
    differences = equal_fairness.equal_fairness(pd.DataFrame(rows))
    constraints = differences["setting"].map(lambda s: json.loads(s)["constraint"])
    own = differences[constraints == differences["constraint"]]
    # two points of one constraint at the same violation are one point, their mean accuracy
    tied = own.groupby("constraint")["violation"].transform(lambda v: v.duplicated(keep=False))
    print(
        f"3. itself: {len(own)} frontier runs against their own frontier, largest |difference| "
        f"{own.loc[~tied, 'difference'].abs().max():.1e}; {int(tied.sum())} runs share their "
        f"violation with another point (the frontier there is their mean accuracy: largest "
        f"|difference| {own.loc[tied, 'difference'].abs().max() if tied.any() else 0:.1e})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--datasets", nargs="+", default=["adult", "acsincome"])
    args = parser.parse_args()
    closed_form()
    print("2. tolerance on test (unprocessed-gradient-boosting, numerical+binary, first attribute)")
    tables = []
    for dataset in args.datasets:
        table = on_test(dataset, args.splits)
        summary = table.groupby(["constraint", "tolerance"]).agg(
            violation_mean=("violation", "mean"), violation_sd=("violation", "std"),
            sampling_mean=("sampling_mean", "mean"), sampling_sd=("sampling_sd", "mean"),
            accuracy=("accuracy", "mean"),
        )  # fmt: skip
        print(f"   {dataset}, {args.splits} splits:")
        print(summary.round(4).to_string().replace("\n", "\n   "))
        tables.append(table)
    itself(tables[0])


if __name__ == "__main__":
    main()
