"""Time reject option classification's search: AIF360's fit against ours, on the same scores.

AIF360's ``RejectOptionClassification.fit`` builds its metric objects for each of its 5,000
(threshold, margin) settings; ``reject_option_search`` reads the same counts from sorted scores.
Logistic regression's training scores (split 0, first sensitive attribute, numerical+binary),
for each dataset and each metric AIF360 offers; the chosen settings are compared. One thread.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/reject_option.py
"""

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from aif360.algorithms.postprocessing import RejectOptionClassification
from threadpoolctl import threadpool_limits

from faircompare.algorithms.aif360_data import GROUPS, binary_label_dataset
from faircompare.algorithms.aif360_postprocessing import REJECT_OPTION_METRICS, reject_option_search
from faircompare.algorithms.base import binary_sensitive
from faircompare.algorithms.reductions import logistic_regression
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare

BOUND = 0.05  # the algorithm's default metric bound


def cpu(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    start = time.process_time()
    result = function(*args)
    return result, time.process_time() - start


def compare(dataset: str) -> None:
    data = load_dataset(dataset)
    split = make_split(prepare(data, "numerical+binary", data.spec.sensitive[0]), 0)
    X, y = split.X_train.to_numpy(float), np.asarray(split.y_train)
    s = binary_sensitive(split.sensitive_features_train, len(X), "reject option")
    scores = logistic_regression().fit(X, y).predict_proba(X)[:, 1]
    truth = binary_label_dataset(y, s)
    predicted = binary_label_dataset((scores > 0.5).astype(int), s, scores=scores)
    for metric in REJECT_OPTION_METRICS:
        aif360 = RejectOptionClassification(
            metric_name=metric, metric_ub=BOUND, metric_lb=-BOUND, **GROUPS
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # AIF360's, and ours, when no setting is in bounds
            fitted, theirs = cpu(aif360.fit, truth, predicted)
            chosen, ours = cpu(reject_option_search, scores, y, s, metric, BOUND, 100, 50)
        same = chosen == (fitted.classification_threshold, fitted.ROC_margin)
        print(
            f"{dataset} ({len(X):,} training rows), {metric}: AIF360 {theirs:.2f} CPU s, ours "
            f"{ours * 1e3:.1f} CPU ms, ratio {theirs / ours:,.0f}x; same choice: {same}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets", nargs="+", default=["german", "propublica-recidivism", "adult"]
    )
    args = parser.parse_args()
    with threadpool_limits(1):
        for dataset in args.datasets:
            compare(dataset)


if __name__ == "__main__":
    main()
