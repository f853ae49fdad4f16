"""Throughput of a Dask LocalCluster with 1 and 2 workers, against the worker pool, on one plan.

The plan is the ``extended`` profile's part for one dataset and the first ``--splits`` splits
(Ricci and one split by default: every algorithm, grid value, attribute and variant, with
tuning runs and audits). Each backend runs it into its own store; the script prints runs per
second, the speed-up of 2 workers over 1, and whether every stored measure is the same.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw \
        python perf/dask_throughput.py [--dataset ricci] [--splits 1]
"""

import argparse
import tempfile
import time

import pandas as pd

from faircompare.benchmark import make_plan, run_plan
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.results import ResultStore


def timed_run(specs, backend: str, jobs: int) -> tuple[float, pd.DataFrame]:
    """Wall seconds of the plan on one backend, and its stored test measures."""
    with ResultStore(tempfile.mkdtemp(prefix=f"faircompare-{backend}-{jobs}-")) as store:
        start = time.perf_counter()
        summary = run_plan(specs, store, BenchmarkConfig(jobs=jobs, backend=backend))
        wall = time.perf_counter() - start
        assert summary.failed == 0, f"{summary.failed} runs failed on {backend}"
        measures = store.measures().sort_values(["key", "measure", "group"], ignore_index=True)
    return wall, measures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="ricci")
    parser.add_argument("--splits", type=int, default=1)
    args = parser.parse_args()
    config = PROFILES["extended"].overridden(datasets=(args.dataset,), splits=args.splits)
    specs = make_plan(config).runs
    print(f"extended profile, {args.dataset}, {args.splits} split(s): {len(specs)} runs")
    walls, results = {}, {}
    for backend, jobs in (("dask", 1), ("dask", 2), ("processes", 2)):
        walls[backend, jobs], results[backend, jobs] = timed_run(specs, backend, jobs)
        wall = walls[backend, jobs]
        print(f"{backend:9s} {jobs} worker(s): {wall:7.1f} s wall, {len(specs) / wall:6.2f} runs/s")
    print(f"dask, 2 workers over 1: {walls['dask', 1] / walls['dask', 2]:.2f}x")
    for measures in results.values():
        pd.testing.assert_frame_equal(measures, results["processes", 2])
    print("every stored measure is the same on the three runs")


if __name__ == "__main__":
    main()
