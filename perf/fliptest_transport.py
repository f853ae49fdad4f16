"""Time the exact FlipTest transport map and show that one map serves many classifiers.

For 1,000 / 2,000 / 5,000 points per group (d = 10): the time and peak memory of the exact map
(POT's network simplex, iteration limit raised and status checked). Then, at 2,000 per group,
auditing 20 classifiers with one map against fitting a map for each.

    python perf/fliptest_transport.py [--sizes 1000 2000 5000]
"""

import argparse
import time
import tracemalloc

import numpy as np

from faircompare.stats.fliptest import exact_transport, fliptest


def groups(n: int, d: int = 10, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(0.5, 1.2, size=(n, d))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 5000])
    args = parser.parse_args()
    for n in args.sizes:
        source, target = groups(n)
        tracemalloc.start()
        start = time.perf_counter()
        exact_transport(source, target)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"exact map, {n:,} points per group, d = 10: {seconds:6.2f} s, "
            f"peak memory {peak / 2**20:6.0f} MiB",
            flush=True,
        )

    source, target = groups(2000)
    weights = np.random.default_rng(1).normal(size=(20, source.shape[1]))  # 20 linear classifiers
    start = time.perf_counter()
    shared = exact_transport(source, target)
    for w in weights:
        fliptest(source, target, (source @ w > 0).astype(int), (target @ w > 0).astype(int), shared)
    reused = time.perf_counter() - start
    start = time.perf_counter()
    for w in weights:
        own = exact_transport(source, target)
        fliptest(source, target, (source @ w > 0).astype(int), (target @ w > 0).astype(int), own)
    separate = time.perf_counter() - start
    print(
        f"20 classifiers, 2,000 points per group: one shared map {reused:.2f} s, a map each "
        f"{separate:.2f} s, ratio {separate / reused:.0f}x"
    )


if __name__ == "__main__":
    main()
