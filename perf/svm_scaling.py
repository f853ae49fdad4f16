"""Accuracy of the RBF SVM baseline with and without standardised inputs, on the same splits.

The `svm` baseline standardises its features (fitted on training data); the paper's benchmark ran
an unscaled RBF SVC. This script measures both on every dataset (numerical+binary, first
sensitive attribute, the benchmark's splits) and prints mean +/- sd test accuracy, the base rate
(the accuracy of predicting the majority class) and the share of positive predictions:

    python perf/svm_scaling.py [--splits 5] [--datasets ricci german ...]
"""

import argparse
import time

import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from faircompare.datasets import BUILTIN, load_dataset
from faircompare.preprocessing import make_split, prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--datasets", nargs="+", default=list(BUILTIN))
    args = parser.parse_args()
    print(f"{'dataset':<30} {'majority':>8} {'scaled':>15} {'unscaled':>15} {'positives s/u':>14}")
    for name in args.datasets:
        prepared = prepare(load_dataset(name), "numerical+binary")
        accuracy = {"scaled": [], "unscaled": []}
        positives = {"scaled": [], "unscaled": []}
        majority = []
        start = time.perf_counter()
        for split_id in range(args.splits):
            split = make_split(prepared, split_id)
            X_train, X_test = split.X_train.to_numpy(float), split.X_test.to_numpy(float)
            models = {
                "scaled": make_pipeline(StandardScaler(), SVC(cache_size=500)),
                "unscaled": SVC(cache_size=500),
            }
            for kind, model in models.items():
                predicted = model.fit(X_train, split.y_train).predict(X_test)
                accuracy[kind].append(np.mean(predicted == split.y_test))
                positives[kind].append(np.mean(predicted))
            base = split.y_test.mean()
            majority.append(max(base, 1 - base))
        cells = {k: f"{np.mean(v):.3f} +/- {np.std(v, ddof=1):.3f}" for k, v in accuracy.items()}
        shares = f"{np.mean(positives['scaled']):.2f}/{np.mean(positives['unscaled']):.2f}"
        print(
            f"{name:<30} {np.mean(majority):>8.3f} {cells['scaled']:>15} {cells['unscaled']:>15} "
            f"{shares:>14}   ({time.perf_counter() - start:.0f} s, {args.splits} splits)"
        )


if __name__ == "__main__":
    main()
