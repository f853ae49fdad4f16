"""Check the cost model on a real run: the dry run's total and the time left against the clock.

Runs a profile into a fresh results folder (outside the repository) as ``faircompare run`` does,
and compares:

- the dry run's total (the expected CPU seconds of every planned run, as ``--dry-run`` prints)
  with the measured run time, the sum of the stored runs' seconds (goal: within 20 %);
- the progress line's time left, read when 25, 50 and 75 % of the expected work is done, with
  the time the run then actually took to finish (goal: within 30 %).

It prints the load average beside the timings: on a 2-core machine, work besides the run
slows it. With ``--measured DIR`` it runs nothing and compares the dry run with the run time a
store already holds, a study run as a user runs it (``python benchmark.py``, whose report is
timed too) ::

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/cost_model.py \\
        --profile paper --splits 1 --no-audits --jobs 2 --results /tmp/cost-paper-bare
    python perf/cost_model.py --profile default --measured /tmp/clone/results
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from faircompare.benchmark import Summary, plan_study, run_benchmark
from faircompare.config import PROFILES
from faircompare.records import RunRecord
from faircompare.results import ResultStore

CHECKPOINTS = (0.25, 0.50, 0.75)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="default", choices=list(PROFILES))
    parser.add_argument("--splits", type=int)
    parser.add_argument("--dataset", action="append", help="the profile's datasets by default")
    parser.add_argument("--no-audits", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--results", type=Path, help="a folder not yet used")
    where.add_argument("--measured", type=Path, help="a results folder of the same plan, run")
    args = parser.parse_args()
    config = PROFILES[args.profile]
    if args.splits:
        config = config.overridden(splits=args.splits)
    if args.dataset:
        config = config.overridden(datasets=tuple(args.dataset))
    if args.no_audits:
        config = config.overridden(audits=False)
    expected = plan_study(config).expected_seconds(args.jobs)
    if args.measured:
        compare(expected, _run_time(args.measured), f"{args.profile}, stored in {args.measured}")
        return
    if args.results.exists():
        parser.error(f"{args.results} exists: the check needs a fresh results folder")
    readings: dict[float, tuple[float, float]] = {}  # share -> (elapsed, time left said)
    start = time.monotonic()

    def progress(record: RunRecord, summary: Summary) -> None:
        share = summary.expected_finished / summary.expected
        elapsed = time.monotonic() - start
        for checkpoint in CHECKPOINTS:
            if share >= checkpoint and checkpoint not in readings:
                readings[checkpoint] = (elapsed, summary.seconds_left(elapsed))
                print(f"{share:.0%} of the expected work at {elapsed:.0f} s: time left said "
                      f"{readings[checkpoint][1]:.0f} s (load {os.getloadavg()[0]:.1f})",
                      flush=True)  # fmt: skip

    summary = run_benchmark(
        config.overridden(jobs=args.jobs), args.results, progress=progress, report=False
    )
    wall = time.monotonic() - start
    where = f"{args.profile} {' '.join(args.dataset or [])}".strip()
    print(f"\n{where}, splits {config.splits}, audits {'on' if config.audits else 'off'}, "
          f"--jobs {args.jobs}: {summary.done} runs done, {summary.failed} failed in "
          f"{wall:.0f} s wall (load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")  # fmt: skip
    compare(expected, _run_time(args.results), where)
    for checkpoint, (elapsed, said) in sorted(readings.items()):
        actual = wall - elapsed
        error = said / actual - 1
        print(f"at {checkpoint:.0%}: time left said {said:.0f} s, took {actual:.0f} s: "
              f"{error:+.0%} ({'within' if abs(error) <= 0.3 else 'outside'} 30 %)")  # fmt: skip


def _run_time(results: Path) -> float:
    """The stored runs' seconds, summed: the run time the dry run's total is compared with."""
    with ResultStore(results) as store:
        return float(store.runs()["total_seconds"].sum())


def compare(expected: float, measured: float, where: str) -> None:
    """Print the dry run's total beside the measured run time, and whether within 20 %."""
    error = expected / measured - 1
    verdict = "within" if abs(error) <= 0.2 else "outside"
    print(f"{where}: dry run {expected / 3600:.3f} CPU-h, measured {measured / 3600:.3f} CPU-h "
          f"of run time: {error:+.0%} ({verdict} 20 %)")  # fmt: skip


if __name__ == "__main__":
    main()
