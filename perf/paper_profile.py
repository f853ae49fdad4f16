"""Run the ``paper`` profile on Ricci and German and print wall time, CPU time and peak memory.

Every algorithm with its whole parameter grid, every sensitive attribute and supported variant,
10 splits, with tuning runs: the same work as Friedler et al.'s benchmark on these two datasets.
The peer benchmark needed several minutes per split for the Ricci grids alone.

    python perf/paper_profile.py [--jobs 2] [--results DIR]
"""

import argparse
import resource
import tempfile
import time

from joblib.externals.loky import get_reusable_executor

from faircompare.benchmark import make_plan, run_plan
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.results import ResultStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: every core)")
    parser.add_argument("--results", default=None, help="results folder (default: a temporary one)")
    args = parser.parse_args()
    plan = make_plan(PROFILES["paper"].overridden(datasets=("ricci", "german")))
    folder = args.results or tempfile.mkdtemp(prefix="faircompare-perf-")
    wall, cpu = time.perf_counter(), _cpu_seconds()
    with ResultStore(folder) as store:
        summary = run_plan(plan.runs, store, BenchmarkConfig(jobs=args.jobs, force=True))
    get_reusable_executor().shutdown(wait=True)  # reap the workers, so their usage is counted
    wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
    peak = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    per_split = wall / PROFILES["paper"].splits
    print(
        f"paper profile, Ricci + German: {summary.done} runs done, {summary.failed} failed, "
        f"{args.jobs} jobs; wall {wall:.1f} s ({per_split:.1f} s per split for both datasets), "
        f"CPU {cpu:.1f} s, peak memory of one process {peak / 1024:.0f} MiB"
    )


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the workers)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
