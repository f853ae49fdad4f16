"""Time the RBF SVM baseline's fit: standardised dense features against ours, scaled and sparse.

The RBF kernel depends on differences of rows only, so ``faircompare.algorithms.baselines.SVM``
fits libsvm on features divided by their standard deviations without centring, passed as a
sparse matrix where mostly zero (one-hot columns): the same problem as scikit-learn's
``make_pipeline(StandardScaler(), SVC())``, the previous fit, which runs here as the baseline.
For each case (split 0, first sensitive attribute, numerical+binary; and the features Feldman's
repair gives the ``feldman-svm`` pipeline) the script prints both fits' CPU seconds and their
ratio, whether the support vectors are the same rows, the agreement of test predictions and
the largest difference of decision values; then the time of the decision values and gradients
at the batch the individual-fairness attack evaluates at every step (800 rows), the previous
evaluation (scikit-learn's ``rbf_kernel`` on the standardised rows) against ours. One thread.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/svm_fit.py
"""

import argparse
import time
from collections.abc import Callable

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from faircompare.algorithms.baselines import SVM
from faircompare.algorithms.feldman import DisparateImpactRepair
from faircompare.datasets import load_dataset
from faircompare.preprocessing import Split, make_split, prepare

ATTACK_BATCH = 800  # 200 audit points x 2 antithetic pairs x 2 signs


def previous_decision(model: Pipeline, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Decision values and gradients in z as computed before: rbf_kernel on standardised z."""
    scaler, svc = model[0], model[-1]
    Z = scaler.transform(X)
    weighted = rbf_kernel(Z, svc.support_vectors_, gamma=svc._gamma) * svc.dual_coef_[0]
    pull = weighted.sum(1)[:, None] * Z - weighted @ svc.support_vectors_
    return weighted.sum(1) + svc.intercept_[0], -2 * svc._gamma * pull


def cpu(function: Callable[[], object]) -> tuple[object, float]:
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def best_of(function: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def features(dataset: str, repair_level: float | None) -> tuple[np.ndarray, ...]:
    data = load_dataset(dataset)
    split: Split = make_split(prepare(data, "numerical+binary", data.spec.sensitive[0]), 0)
    X, X_test = split.X_train.to_numpy(float), split.X_test.to_numpy(float)
    if repair_level is not None:
        repair = DisparateImpactRepair(repair_level).fit(
            X, sensitive_features=split.sensitive_features_train
        )
        X, X_test = (
            repair.transform(X, sensitive_features=split.sensitive_features_train),
            repair.transform(X_test, sensitive_features=split.sensitive_features_test),
        )
    return X, np.asarray(split.y_train), X_test


def compare(dataset: str, repair_level: float | None, repeats: int) -> None:
    X, y, X_test = features(dataset, repair_level)
    previous, previous_seconds = cpu(
        lambda: make_pipeline(StandardScaler(), SVC(cache_size=500)).fit(X, y)
    )
    ours, ours_seconds = cpu(lambda: SVM().fit(X, y))
    svc = ours.model_[-1]
    same_support = np.array_equal(previous[-1].support_, svc.support_)
    before, after = previous.decision_function(X_test), ours.decision_function(X_test)
    name = dataset if repair_level is None else f"{dataset}, repaired at level {repair_level}"
    print(
        f"{name}: {X.shape[0]:,} x {X.shape[1]} features, {np.count_nonzero(X) / X.size:.0%} "
        f"nonzero: fit previous {previous_seconds:.2f} CPU s, ours {ours_seconds:.2f} CPU s, "
        f"ratio {previous_seconds / ours_seconds:.2f}x; support vectors {len(svc.support_):,}, "
        f"same rows: {same_support}; test predictions agree on "
        f"{np.mean((before > 0) == (after > 0)):.4%}, largest decision difference "
        f"{np.abs(before - after).max():.1e}"
    )
    batch = X_test[np.arange(ATTACK_BATCH) % len(X_test)]
    batch = batch + np.random.default_rng(0).normal(scale=0.05, size=batch.shape)  # moved
    old_values = previous_decision(previous, batch)
    new_values = ours._decision(ours.model_[0].transform(batch), slope=True)
    old = best_of(lambda: previous_decision(previous, batch), repeats)
    new = best_of(lambda: ours._decision(ours.model_[0].transform(batch), slope=True), repeats)
    differences = [
        np.abs(a - b).max() / np.abs(a).max() for a, b in zip(old_values, new_values, strict=True)
    ]
    print(
        f"  attack batch ({ATTACK_BATCH} rows, values and gradients): previous {old * 1e3:.1f} ms, "
        f"ours {new * 1e3:.1f} ms, ratio {old / new:.1f}x; largest relative differences "
        f"{differences[0]:.1e} (values), {differences[1]:.1e} (gradients)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets", nargs="+", default=["german", "propublica-recidivism", "adult"]
    )
    parser.add_argument("--repair-level", type=float, default=0.5,
                        help="Feldman's repair level of the repaired cases")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    with threadpool_limits(1):
        for dataset in args.datasets:
            for level in (None, args.repair_level):
                compare(dataset, level, args.repeats)


if __name__ == "__main__":
    main()
