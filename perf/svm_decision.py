"""Time the SVM's decision values: our BLAS evaluation against scikit-learn's libsvm.

The RBF SVM of the benchmark on Adult (split 0, race, numerical+binary): decision values of the
10,054 test rows by ``SVC.decision_function`` (libsvm, one row at a time) and by the support
vectors in BLAS blocks (``faircompare.algorithms.baselines.SVM``), with the largest difference.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/svm_decision.py
"""

import argparse
import time

import numpy as np

from faircompare.algorithms.baselines import SVM
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    split = make_split(prepare(load_dataset("adult"), "numerical+binary", "race"), 0)
    model = SVM().fit(split.X_train, split.y_train)
    X = split.X_test.to_numpy(float)
    start = time.perf_counter()
    libsvm = model.model_.decision_function(X)
    libsvm_seconds = time.perf_counter() - start
    start = time.perf_counter()
    ours = model.decision_function(X)
    ours_seconds = time.perf_counter() - start
    print(
        f"{len(X):,} rows, {len(model.model_[-1].support_vectors_):,} support vectors: "
        f"libsvm {libsvm_seconds:.2f} s, ours {ours_seconds:.2f} s "
        f"({libsvm_seconds / ours_seconds:.1f}x), largest difference "
        f"{np.abs(libsvm - ours).max():.1e}"
    )


if __name__ == "__main__":
    main()
