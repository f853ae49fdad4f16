"""Time the project's permutation tests against the naive loop, n = 10^3 ... 10^6, B = 1000.

The naive loop shuffles the group labels of the rows and recomputes the metric with pandas for
every permutation (for AUC, scikit-learn's roc_auc_score per group). Where it would take more
than a few seconds it is timed on fewer permutations and scaled to B (the line says so); its
cost is linear in B. Ours: a false-negative-rate test (hypergeometric draws of the confusion
counts) and an AUC test (one sort, vectorized ranks and DeLong variances), both studentized.
Groups are coded 1 / 0, as the benchmark's numerical+binary variant gives them; text labels
add the time to hash them (about 40 ms for 10^6 rows).

    python perf/permutation_test.py [--sizes 1000 10000 100000 1000000] [--budget 5]
"""

import argparse
import time

import numpy as np
import pandas as pd
from scipy.stats import binomtest
from sklearn.metrics import roc_auc_score

from faircompare.audits import permutation_test
from faircompare.audits.permutation import clopper_pearson

B = 1000


def data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    group = (rng.random(n) < 0.6).astype(np.int8)  # 1: group a
    y = (rng.random(n) < np.where(group == 1, 0.5, 0.3)).astype(int)
    score = np.clip(0.35 * y + rng.normal(0.35, 0.2, n), 0, 1)
    return pd.DataFrame({"group": group, "y": y, "yhat": (score > 0.5).astype(int), "score": score})


def naive_fnr(frame: pd.DataFrame, rng: np.random.Generator) -> float:
    shuffled = frame.assign(group=rng.permutation(frame["group"].to_numpy()))
    positives = shuffled[shuffled["y"] == 1]
    fnr = 1 - positives.groupby("group")["yhat"].mean()
    return fnr[1] - fnr[0]


def naive_auc(frame: pd.DataFrame, rng: np.random.Generator) -> float:
    shuffled = frame.assign(group=rng.permutation(frame["group"].to_numpy()))
    by_group = shuffled.groupby("group")[["y", "score"]]
    auc = by_group.apply(lambda f: roc_auc_score(f["y"], f["score"]))
    return auc[1] - auc[0]


def time_naive(step, frame: pd.DataFrame, budget: float) -> tuple[float, int]:
    """Seconds for B naive permutations, timing at most ``budget`` seconds' worth."""
    rng = np.random.default_rng(1)
    start, done = time.perf_counter(), 0
    while done < B and (done < 3 or time.perf_counter() - start < budget):
        step(frame, rng)
        done += 1
    return (time.perf_counter() - start) * B / done, done


def time_ours(frame: pd.DataFrame, metric: str) -> float:
    start = time.perf_counter()
    permutation_test(
        frame["y"], frame["yhat"], frame["group"], metric=metric, group_a=1,
        scores=frame["score"], permutations=B, rng=0,
    )  # fmt: skip
    return time.perf_counter() - start


def time_interval(repeats: int = 200) -> None:
    """The p-value's Monte Carlo interval: scipy's exact binomial interval against ours."""
    start = time.perf_counter()
    for _ in range(repeats):
        binomtest(37, B).proportion_ci(confidence_level=0.95, method="exact")
    scipy_seconds = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    for _ in range(repeats):
        clopper_pearson(37, B)
    ours = (time.perf_counter() - start) / repeats
    print(
        f"p-value interval (k=37, B={B}): scipy binomtest {scipy_seconds * 1e3:.2f} ms; "
        f"ours {ours * 1e6:.1f} us; ratio {scipy_seconds / ours:.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**3, 10**4, 10**5, 10**6])
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per naive timing")
    args = parser.parse_args()
    time_interval()
    for n in args.sizes:
        frame = data(n)
        for metric, naive in (("FNR", naive_fnr), ("AUC", naive_auc)):
            ours = time_ours(frame, metric)
            slow, timed = time_naive(naive, frame, args.budget)
            how = "" if timed == B else f" (timed on {timed} permutations, scaled to {B})"
            print(
                f"{metric:<4} n={n:>9,}  B={B}: naive {slow:9.2f} s{how}; "
                f"ours {ours * 1e3:8.1f} ms; ratio {slow / ours:8.0f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
