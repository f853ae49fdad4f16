"""Fit every algorithm once per dataset (numerical+binary, split 0) and print the time.

Where the issue tracker recorded the peer benchmark's per-fit medians (fairness-comparison's
wrappers of the authors' code, measured on this kind of machine), the line shows them and the
ratio to the fastest of them, so the ratio never flatters us:

    Kamishima 43-79 s on ProPublica / Adult; ZafarFairness 112 s on ProPublica;
    Calders did not finish ProPublica in 600 s.

    python perf/algorithms_fit.py [--datasets german adult propublica-recidivism]
"""

import argparse
import time

from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import algorithms

PEER_SECONDS = {  # (dataset, algorithm): the lower end of the peer's recorded per-fit medians
    ("propublica-recidivism", "kamishima"): 43.0,
    ("adult", "kamishima"): 43.0,
    ("propublica-recidivism", "zafar-fairness"): 112.0,
    ("propublica-recidivism", "calders"): 600.0,  # did not finish: a lower bound
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = ["german", "adult", "propublica-recidivism"]
    parser.add_argument("--datasets", nargs="+", default=default)
    args = parser.parse_args()
    registry = {name: a for name, a in algorithms().items() if a.make is not None}
    for dataset in args.datasets:
        split = make_split(prepare(load_dataset(dataset), "numerical+binary"), 0)
        for name, algorithm in registry.items():
            estimator = algorithm.make()
            start = time.perf_counter()
            estimator.fit(
                split.X_train, split.y_train, sensitive_features=split.sensitive_features_train
            )
            seconds = time.perf_counter() - start
            line = f"{dataset:<24} {name:<30} fit {seconds:8.2f} s"
            if (peer := PEER_SECONDS.get((dataset, name))) is not None:
                line += f"   peer >= {peer:5.0f} s   ratio {peer / seconds:6.0f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
