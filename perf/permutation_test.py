"""Time the project's permutation tests against the naive loop, n = 10^3 ... 10^6, B = 1000.

1. The per-run permutation audit on Adult's test split (numerical+binary, race, split 0,
   logistic regression's predictions and scores): the five tests (positive rate, TPR, FPR,
   accuracy, AUC) with B = 1000, best of five, and the AUC test's null distribution as the
   previous implementation drew it (each permutation's labels shuffled by ``rng.permuted``,
   placements from per-row cumulative sums), kept here as the baseline. Needs the data set
   (``FAIRCOMPARE_MIRROR`` or the internet); ``--no-adult`` skips it.
2. Synthetic data, n = 10^3 ... 10^6: the naive loop shuffles the group labels of the rows and
   recomputes the metric with pandas for every permutation (for AUC, scikit-learn's
   roc_auc_score per group); for AUC also the previous implementation. Where either would take
   more than a few seconds it is timed on fewer permutations and scaled to B (the line says
   so); its cost is linear in B. Ours: a false-negative-rate test (hypergeometric draws of the
   confusion counts) and an AUC test (drawn memberships, one pass over the rows, sums over
   runs), both studentized. Groups are coded 1 / 0, as the benchmark's numerical+binary
   variant gives them; text labels add the time to hash them (about 40 ms for 10^6 rows).

    python perf/permutation_test.py [--sizes 1000 10000 100000 1000000] [--budget 5] [--no-adult]
"""

import argparse
import time

import numpy as np
import pandas as pd
from scipy.stats import binomtest
from sklearn.metrics import roc_auc_score

from faircompare.audits import permutation_audit
from faircompare.stats import permutation_test
from faircompare.stats.permutation import clopper_pearson

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


def time_previous_auc(frame: pd.DataFrame) -> tuple[float, int]:
    """Seconds of the previous AUC null distribution for B permutations, and how many were timed."""
    b = B if len(frame) <= 100_000 else 100
    y, scores = frame["y"].to_numpy(), frame["score"].to_numpy()
    in_a = frame["group"].to_numpy() == 1
    start = time.perf_counter()
    previous_auc_null(y, scores, in_a, np.random.default_rng(0), b)
    return (time.perf_counter() - start) * B / b, b


def time_ours(frame: pd.DataFrame, metric: str) -> float:
    start = time.perf_counter()
    permutation_test(
        frame["y"], frame["yhat"], frame["group"], metric=metric, group_a=1,
        scores=frame["score"], permutations=B, rng=0,
    )  # fmt: skip
    return time.perf_counter() - start


def previous_auc_null(y, scores, in_a, rng, b: int = B) -> np.ndarray:
    """The AUC test's b studentized differences as the code before #19 computed them.

    Its handling of tied scores (sums over blocks of ties) is left out, which only makes it
    faster.
    """
    order = np.argsort(scores, kind="stable")
    positive, a = y[order] == 1, in_a[order]

    def auc_and_variance(pos, neg):
        n_pos, n_neg = pos.sum(1), neg.sum(1)
        below = np.cumsum(neg, axis=1) - 0.5 * neg
        above = (n_pos[:, None] - np.cumsum(pos, axis=1)) + 0.5 * pos
        auc = np.einsum("ij,ij->i", pos, below) / (n_pos * n_neg)
        s10 = np.einsum("ij,ij,ij->i", pos, below, below) / n_neg**2 - n_pos * auc**2
        s01 = np.einsum("ij,ij,ij->i", neg, above, above) / n_pos**2 - n_neg * auc**2
        return auc, s10 / (n_pos - 1) / n_pos + s01 / (n_neg - 1) / n_neg

    null, chunk = [], max(1, 2_000_000 // len(a))  # scores without ties: one block per row
    for start in range(0, b, chunk):
        member = rng.permuted(np.tile(a, (min(chunk, b - start), 1)), axis=-1)
        pos, neg = (member & positive).astype(np.int32), (member & ~positive).astype(np.int32)
        auc_a, var_a = auc_and_variance(pos, neg)
        auc_b, var_b = auc_and_variance(positive.astype(np.int32) - pos, (~positive) - neg)
        null.append((auc_a - auc_b) / np.sqrt(var_a + var_b))
    return np.concatenate(null)


def best_of(repeats: int, step) -> float:
    """Shortest of ``repeats`` timings of ``step()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def time_adult() -> None:
    """The per-run permutation audit on Adult's test split (see the module notes)."""
    from faircompare.algorithms.baselines import LogisticRegressionBaseline
    from faircompare.datasets import load_dataset
    from faircompare.preprocessing import make_split, prepare

    split = make_split(prepare(load_dataset("adult"), "numerical+binary", "race"), 0)
    model = LogisticRegressionBaseline().fit(split.X_train, split.y_train)
    scores = model.predict_proba(split.X_test)[:, 1]
    y_pred, y, s = model.predict(split.X_test), split.y_test, split.sensitive_features_test
    ours = best_of(5, lambda: permutation_audit(
        y, y_pred, s, privileged=split.privileged, scores=scores, permutations=B, rng=0
    ))  # fmt: skip
    in_a = np.asarray(s) == split.privileged
    previous = best_of(3, lambda: previous_auc_null(y, scores, in_a, np.random.default_rng(0)))
    print(
        f"Adult test split ({len(y):,} rows): permutation audit, five tests, B={B}: "
        f"{ours * 1e3:.1f} ms (goal 50 ms); the previous AUC null distribution alone: "
        f"{previous * 1e3:.0f} ms; ratio {previous / ours:.1f}x",
        flush=True,
    )


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
    parser.add_argument("--no-adult", action="store_true", help="skip the Adult test split")
    args = parser.parse_args()
    if not args.no_adult:
        time_adult()
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
        previous, timed = time_previous_auc(frame)
        how = "" if timed == B else f" (timed on {timed}, scaled to {B})"
        ours_auc = time_ours(frame, "AUC")
        print(
            f"AUC  n={n:>9,}  B={B}: the previous implementation {previous * 1e3:9.1f} ms{how}; "
            f"ours {ours_auc * 1e3:.1f} ms; ratio {previous / ours_auc:.1f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
