"""Time Feldman's repair against its authors' code, and the individual audit it dominates.

On a ProPublica split (numerical+binary, 399 features, most of them one-hot; ``--variant
numerical --attribute sex-race`` for the twelve groups of the paper profile's costliest
Feldman runs):

- the repair of the training rows by value (``ties="value"``, the default) against the
  authors' own code, BlackBoxAuditing's repairer (which Friedler et al.'s benchmark and AIF360's
  ``DisparateImpactRemover`` call), value for value: the outputs must be identical;
- the repair of new rows, the attack's batches (its 200 audit rows, twice two antithetic
  copies: 800 perturbed rows) and the test split, by value and with random ties;
- the benchmark's individual audit of the four ``feldman-*`` pipelines of the paper profile,
  with each way of treating ties: its verdict and its cost.

Prints CPU times and ratios (one thread).

    FAIRCOMPARE_MIRROR=../shared/data python perf/feldman_repair.py
"""

import argparse
import time
from typing import Any

import numpy as np
from BlackBoxAuditing.repairers.CategoricRepairer import Repairer
from threadpoolctl import threadpool_limits

from faircompare.algorithms.feldman import TIES, DisparateImpactRepair
from faircompare.algorithms.loss_oracle import model_oracle
from faircompare.audits.individual import INDIVIDUAL_ATTACK, SMOOTHING_PAIRS, split_fair_metric
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import get_algorithm
from faircompare.stats.individual import individual_fairness_test

ALGORITHMS = (
    "feldman-gaussian-nb",
    "feldman-decision-tree",
    "feldman-logistic-regression",
    "feldman-svm",
)


def cpu(function, *args, repeat: int = 1, **kwargs):
    """The result of the last of ``repeat`` calls, and the CPU seconds of one call."""
    start = time.process_time()
    for _ in range(repeat):
        result = function(*args, **kwargs)
    return result, (time.process_time() - start) / repeat


def authors_repair(X: np.ndarray, groups: np.ndarray, level: float) -> np.ndarray:
    """BlackBoxAuditing's repair of the feature columns, each group a category."""
    rows = [[str(g), *row] for g, row in zip(groups, X.tolist(), strict=True)]
    repaired = Repairer(rows, 0, level, False).repair(rows)
    return np.array([row[1:] for row in repaired], dtype=float)


def audit(model: Any, split: Any, setup: Any) -> Any:
    """The suite's individual audit of one model."""
    oracle = model_oracle(
        model,
        sensitive_features=split.sensitive_features_test[setup.rows],
        mean=setup.mean,
        scale=setup.scale,
        pairs=SMOOTHING_PAIRS,
        rng=split.seed,
    )
    y = split.y_test[setup.rows]
    return individual_fairness_test(oracle, setup.Z, y, setup.metric, **INDIVIDUAL_ATTACK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="propublica-recidivism")
    parser.add_argument("--variant", default="numerical+binary")
    parser.add_argument("--attribute", help="the dataset's first sensitive attribute by default")
    args = parser.parse_args()
    data = load_dataset(args.dataset)
    attribute = args.attribute or data.spec.sensitive[0]
    split = make_split(prepare(data, args.variant, attribute), 0)
    X_train, X_test = split.X_train.to_numpy(float), split.X_test.to_numpy(float)
    s_train = split.sensitive_features_train
    setup = split_fair_metric(X_test, split.sensitive_features_test, rng=split.seed)
    rng = np.random.default_rng(0)
    batch = np.tile(X_test[setup.rows], (4, 1))
    batch += rng.normal(scale=0.05, size=batch.shape) * setup.scale
    batch_groups = np.tile(split.sensitive_features_test[setup.rows], 4)
    groups = len(np.unique(s_train))
    print(f"{args.dataset}, {args.variant}, {attribute} ({groups} groups): {X_train.shape[1]} "
          f"features, {len(X_train):,} training rows")  # fmt: skip
    with threadpool_limits(1):
        for level in (0.5, 1.0):
            repair = DisparateImpactRepair(level)
            ours, t_ours = cpu(repair.fit_transform, X_train, sensitive_features=s_train)
            theirs, t_theirs = cpu(authors_repair, X_train, s_train, level)
            assert np.array_equal(ours, theirs)
            print(f"repair level {level}, training rows: ours (by value) {t_ours:.2f} CPU s, "
                  f"BlackBoxAuditing {t_theirs:.2f} CPU s ({t_theirs / t_ours:.0f}x); "
                  "identical")  # fmt: skip
            for name, rows, row_groups in (
                (f"attack batch ({len(batch)} rows)", batch, batch_groups),
                (f"test split ({len(X_test):,} rows)", X_test, split.sensitive_features_test),
            ):
                times = []
                for ties in TIES:
                    fitted = DisparateImpactRepair(level, ties=ties).fit(
                        X_train, sensitive_features=s_train
                    )
                    _, seconds = cpu(fitted.transform, rows, sensitive_features=row_groups)
                    times.append(f"{ties} {seconds * 1e3:.1f} ms")
                print(f"repair level {level}, {name}: {'; '.join(times)}")
        for algorithm in ALGORITHMS:
            outcomes = []
            for ties in TIES:
                model = get_algorithm(algorithm).create(repair_level=0.5, ties=ties)
                model.fit(split.X_train, split.y_train, sensitive_features=s_train)
                result, seconds = cpu(audit, model, split, setup)
                verdict = "rejects" if result.loss.reject else "does not reject"
                outcomes.append(
                    f"{ties}: {seconds:.2f} CPU s, T_n {result.loss.lower_bound:.4f}, {verdict}"
                )
            print(f"individual audit of {algorithm} (repair level 0.5): {'; '.join(outcomes)}")


if __name__ == "__main__":
    main()
