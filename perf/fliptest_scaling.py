"""FlipTest on ACSIncome: the sampled map against the exact one, and its cost up to 10^5 rows.

On ACSIncome's two-state sample (numerical+binary, SEX, split 0, test rows standardised as the
audit does) and a logistic regression's test predictions:

1. at 10,000 test rows (a random subset), where the exact map still runs: the exact map over
   every row against the map on samples of 3,000 per group (the audit's), with their times,
   the cost gap, the F+ and F- rates of both with the sampled rates' binomial standard error,
   and Proposition 2 on the sample (|F+| - |F-| equals the difference of positive predictions
   between the sample and its counterparts, zero under demographic parity);
2. the audit's whole per-split setup (``split_transport``) at 10^4 and all ~82,000 test rows,
   and on the numerical variant's nine race groups (a map per group).

    FAIRCOMPARE_MIRROR=../shared/data python perf/fliptest_scaling.py
"""

import time

import numpy as np

from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.audits.fliptest import split_transport
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare, standardisation
from faircompare.stats.fliptest import exact_transport, fliptest, transport


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    dataset = load_dataset("acsincome")
    split = make_split(prepare(dataset, "numerical+binary", "SEX"), 0)
    X = split.X_test.to_numpy(float)
    groups = split.sensitive_features_test
    model = LogisticRegressionBaseline().fit(split.X_train, split.y_train)
    predictions = model.predict(split.X_test)
    print(f"ACSIncome test split: {len(X):,} rows x {X.shape[1]} features", flush=True)

    rows = np.sort(np.random.default_rng(0).choice(len(X), 10_000, replace=False))
    mean, scale = standardisation(X[rows])
    Z, s, h = (X[rows] - mean) / scale, groups[rows], predictions[rows]
    source, target = Z[s == 0], Z[s == 1]
    h_source, h_target = h[s == 0], h[s == 1]
    exact, exact_seconds = timed(exact_transport, source, target, rng=0)
    sampled, sampled_seconds = timed(transport, source, target, rng=0)
    full = fliptest(source, target, h_source, h_target, exact)
    part = fliptest(source, target, h_source, h_target, sampled)
    se = 0.5 / np.sqrt(len(part.positive))
    print(
        f"10,000 rows ({len(source):,} and {len(target):,} per group): exact map "
        f"{exact_seconds:.1f} s, sampled map {sampled_seconds:.1f} s "
        f"(ratio {exact_seconds / sampled_seconds:.1f}x); mean cost {exact.mean_cost:.2f} exact, "
        f"{sampled.mean_cost:.2f} sampled (+{sampled.mean_cost / exact.mean_cost - 1:.0%})"
    )
    for name, a, b in zip(("F+", "F-"), full.rates, part.rates, strict=True):
        print(f"  {name}: exact {a:.4f}, sampled {b:.4f}, difference {b - a:+.4f} (se <= {se:.4f})")
    surplus = h_source[sampled.source_rows].sum() - h_target[sampled.counterparts].sum()
    print(f"  Proposition 2 on the sample: |F+| - |F-| = {part.sizes[0] - part.sizes[1]}, "
          f"positives of the sample minus its counterparts' = {surplus}")  # fmt: skip

    for n in (10_000, len(X)):
        chosen = rows if n == 10_000 else np.arange(len(X))
        _, seconds = timed(split_transport, X[chosen], groups[chosen], 1, rng=0)
        print(f"split setup, SEX, {n:,} test rows: {seconds:.1f} s", flush=True)
    races = make_split(prepare(dataset, "numerical", "RAC1P"), 0)
    setup, seconds = timed(
        split_transport,
        races.X_test.to_numpy(float),
        races.sensitive_features_test,
        races.privileged,
        rng=0,
    )
    print(
        f"split setup, RAC1P's nine groups, {len(races.X_test):,} test rows: {seconds:.1f} s "
        f"({len(setup.maps)} maps; too small: {setup.small})"
    )


if __name__ == "__main__":
    main()
