"""Measure an alternative solver for the RBF SVM: scikit-learn-intelex's SVC against libsvm.

The SVM baseline is fitted by libsvm (scikit-learn's SVC); on Adult a fit takes about 25 CPU
seconds, and the paper profile fits it some 2,500 times there (every Feldman repair level, with
tuning fits). scikit-learn-intelex's SVC solves the same dual problem (same C, gamma, stopping
tolerance 1e-3) with another SMO implementation. This script fits both on split 0 of each
dataset (numerical+binary, standardised features, as the baseline does) and prints CPU time,
its ratio, the share of test predictions on which they agree and the largest difference of
decision values. faircompare does not use intelex: it is not installed by the project, so this
script needs ``pip install scikit-learn-intelex`` and says so otherwise.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/svm_solvers.py
"""

import argparse
import time

import numpy as np
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["propublica-recidivism", "adult"])
    args = parser.parse_args()
    try:
        from sklearnex.svm import SVC as IntelSVC
    except ImportError:
        print("scikit-learn-intelex is not installed: pip install scikit-learn-intelex")
        return
    for name in args.datasets:
        split = make_split(prepare(load_dataset(name)), 0)
        scaler = StandardScaler().fit(split.X_train.to_numpy(float))
        train = scaler.transform(split.X_train.to_numpy(float))
        test = scaler.transform(split.X_test.to_numpy(float))
        decisions, seconds = [], []
        for solver in (SVC(cache_size=500), IntelSVC()):
            with threadpool_limits(1):
                start = time.process_time()
                solver.fit(train, split.y_train)
                seconds.append(time.process_time() - start)
            decisions.append(solver.decision_function(test))
        agree = np.mean((decisions[0] > 0) == (decisions[1] > 0))
        print(f"{name} ({len(train):,} training rows): libsvm {seconds[0]:.1f} CPU s; intelex "
              f"{seconds[1]:.1f} CPU s; ratio {seconds[0] / seconds[1]:.1f}x; test predictions "
              f"agree on {agree:.3%}; largest decision difference "
              f"{np.abs(decisions[0] - decisions[1]).max():.1e}")  # fmt: skip


if __name__ == "__main__":
    main()
