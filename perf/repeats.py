"""Time a numerical+binary run that repeats its numerical twin, against computing it again.

Where the two numeric variants give the same data but for the groups' names (the sex of Adult,
German and both ProPublica sets) and the algorithm reads the groups by their order alone, the
``numerical+binary`` run repeats its ``numerical`` twin (:attr:`faircompare.records.RunSpec.
repeats`): it measures the twin's predictions and takes its audits. For each such cell of the
paper profile (one split, the repair at ``--levels``, tuned and audited as the profile runs
them) the script executes the two runs as the benchmark now does, one group of a worker, and as
it did before, the ``numerical+binary`` run computed in full with seeds of its own. It prints
the CPU seconds of each pair and the ratio (one thread), and checks that the repeating run's
record is the twin's audits with measures of its own groups' names.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/repeats.py
"""

from __future__ import annotations

import argparse
import time
import warnings
from dataclasses import replace

from threadpoolctl import threadpool_limits

from faircompare.audits import registered_audits
from faircompare.audits.cache import SharedSetupAudit
from faircompare.benchmark import make_plan
from faircompare.benchmark.execute import execute_runs
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.datasets import load_dataset
from faircompare.records import RunRecord, RunSpec

DATASETS = ("adult", "german", "propublica-recidivism", "propublica-violent-recidivism")
ALGORITHMS = ("feldman-svm", "feldman-logistic-regression", "feldman-decision-tree",
              "feldman-gaussian-nb")  # fmt: skip


def cpu(runs: list[RunSpec], settings: BenchmarkConfig) -> tuple[list[RunRecord], float]:
    """The records of runs executed as one worker's group, and their CPU seconds.

    The audits' setups of a split are built anew (each pair pays for its own).
    """
    for audit in registered_audits().values():
        if isinstance(audit, SharedSetupAudit):
            audit.setups.clear()
    start = time.process_time()
    records = execute_runs(runs, settings)
    return records, time.process_time() - start


def as_before(run: RunSpec) -> RunSpec:
    """The run as planned before it repeated its twin: its own fit and seeds."""
    return replace(run, repeats=None, inputs=tuple(p for p in run.inputs if p[0] != "repeats"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--algorithms", nargs="+", default=ALGORITHMS)
    parser.add_argument("--levels", nargs="+", type=float, default=[0.5])
    args = parser.parse_args()
    config = PROFILES["paper"].overridden(
        datasets=tuple(args.datasets), algorithms=tuple(args.algorithms), splits=1,
        sensitive_attributes=("sex",),
    )  # fmt: skip
    plan = make_plan(config).with_repeats({name: load_dataset(name) for name in args.datasets})
    repeating = [r for r in plan.runs if r.repeats and r.parameters["repair_level"] in args.levels]
    twins = {r.key: r for r in plan.runs}
    before_total = now_total = 0.0
    print(f"{'cell (sex, one split)':52s} {'before':>8s} {'now':>8s} {'ratio':>6s}")
    for run in repeating:
        twin = twins[run.repeated_key]
        before = cpu([twin], config)[1] + cpu([as_before(run)], config)[1]
        (twin_record, record), now = cpu([twin, run], config)
        assert record.status == twin_record.status == "done"
        assert record.audits == twin_record.audits and (record.timings or {})["fit"] == 0.0
        assert {m.group for m in record.measures} - {""} == {"0", "1"}
        before_total, now_total = before_total + before, now_total + now
        cell = f"{run.dataset} {run.algorithm} level {run.parameters['repair_level']}"
        print(f"{cell:52s} {before:8.2f} {now:8.2f} {before / now:5.2f}x", flush=True)
    print(f"\n{len(repeating)} pairs: {before_total:.1f} CPU s before, {now_total:.1f} now "
          f"({before_total / now_total:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # the measures' undefined-value warnings, said per run
    with threadpool_limits(1):
        main()
