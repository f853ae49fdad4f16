"""Estimate the CPU time of a whole profile (the paper's by default) from a sample of its runs.

For every (dataset, algorithm) cell of the plan, ``--sample`` of its runs are executed here,
part by part, on one thread: the fit, the predictions, the tuning fit (the training data less
its validation part), and each audit; the per-split setups of the audits (the FlipTest map,
the fair metric) are timed apart, since a worker builds them once per split for every
algorithm. Each part's mean is multiplied by the cell's number of runs (setups by the number
of splits), and the script prints where the time goes and the costliest cells, so the estimate
is a command, not a note.

    FAIRCOMPARE_DATA_MIRROR=../shared/data/fairness-comparison-raw \
        python perf/paper_estimate.py [--datasets ricci german] [--algorithms svm] [--sample 1]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from functools import cache

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare.audits import AuditedRun, AuditOptions, registered_audits
from faircompare.benchmark import Options, RunSpec, execute, make_plan
from faircompare.config import PROFILES
from faircompare.datasets import load_dataset
from faircompare.preprocessing import Prepared, make_split, prepare, validation_split

OPTIONS = Options()  # built-in algorithms, default data locations


@cache
def prepared(dataset: str, variant: str, attribute: str) -> Prepared:
    return prepare(load_dataset(dataset), variant, attribute)


def cpu(function, *args, **kwargs):
    start = time.process_time()
    result = function(*args, **kwargs)
    return result, time.process_time() - start


def time_run(spec: RunSpec, options: AuditOptions) -> tuple[dict[str, float], dict[str, float]]:
    """CPU seconds of one run's parts, and of its split's audit setups.

    A run that fails (as the benchmark would store it: a failed run) counts the time it took
    until it failed, as "failed runs", and is reported.
    """
    parts: dict[str, float] = {}
    setups: dict[str, float] = {}
    start = time.process_time()
    try:
        time_parts(spec, options, parts, setups)
    except Exception as error:  # the benchmark stores any error as a failed run
        parts["failed runs"] = time.process_time() - start - sum(parts.values())
        where = f"{spec.dataset} {spec.sensitive_attribute} {spec.variant} {spec.algorithm}"
        print(f"  (failed: {where} split {spec.split_id}: {type(error).__name__}: {error})")
    return parts, setups


def time_parts(
    spec: RunSpec, options: AuditOptions, parts: dict[str, float], setups: dict[str, float]
) -> None:
    """Fill ``parts`` and ``setups`` with the CPU seconds of one run's parts."""
    split = make_split(
        prepared(spec.dataset, spec.variant, spec.sensitive_attribute),
        spec.split_id,
        base_seed=spec.base_seed,
    )
    # the harness's own fit and predict, so the estimate times what a run does
    (model, _), parts["fits"] = cpu(execute._fit, spec, OPTIONS, split)
    (y_pred, scores), parts["predictions"] = cpu(execute._predict, model, split)
    if spec.tune:
        tuning = validation_split(split)
        _, parts["tuning fits"] = cpu(execute._fit, spec, OPTIONS, tuning)
    run = AuditedRun(split, model, y_pred, scores, seed=spec.seed)
    for name, audit in registered_audits().items():
        if not audit.applies(run):
            continue
        if hasattr(audit, "setups"):  # built once per split, for every algorithm
            audit.setups.clear()
            _, setups[f"{name} setup (once per split)"] = cpu(audit.setups, run)
        _, parts[f"{name} audits"] = cpu(audit, run, options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="paper", choices=list(PROFILES))
    parser.add_argument("--datasets", nargs="+", help="the profile's datasets by default")
    parser.add_argument("--algorithms", nargs="+", help="the profile's algorithms by default")
    parser.add_argument("--sample", type=int, default=1, help="runs timed per cell")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    config = PROFILES[args.profile]
    if args.datasets:
        config = config.overridden(datasets=tuple(args.datasets))
    if args.algorithms:
        config = config.overridden(algorithms=tuple(args.algorithms))
    plan = make_plan(config)
    options = AuditOptions(permutations=config.permutations)
    frame = pd.DataFrame({"spec": plan.runs, "dataset": [r.dataset for r in plan.runs],
                          "algorithm": [r.algorithm for r in plan.runs]})  # fmt: skip
    rng = np.random.default_rng(args.seed)
    totals: dict[str, float] = defaultdict(float)
    setups_by_dataset: dict[tuple[str, str], float] = defaultdict(float)
    cells = []
    for (dataset, algorithm), part in frame.groupby(["dataset", "algorithm"], sort=False):
        chosen = rng.choice(len(part), min(args.sample, len(part)), replace=False)
        timed = [time_run(part["spec"].iloc[i], options) for i in chosen]
        cell = 0.0
        for name in {key for parts, _ in timed for key in parts}:
            seconds = np.mean([parts.get(name, 0.0) for parts, _ in timed]) * len(part)
            totals[name] += seconds
            cell += seconds
        splits = {(r.variant, r.sensitive_attribute, r.split_id) for r in part["spec"]}
        for _, setups in timed[:1]:  # once per split of the dataset, whatever the algorithm
            for name, seconds in setups.items():
                key = (dataset, name)
                setups_by_dataset[key] = max(setups_by_dataset[key], seconds * len(splits))
        cells.append((dataset, algorithm, len(part), cell / len(part), cell))
        print(f"{dataset:30s} {algorithm:28s} {len(part):6,d} runs x "
              f"{cell / len(part):7.2f} s = {cell / 3600:7.2f} CPU-h", flush=True)  # fmt: skip
    for (_, name), seconds in setups_by_dataset.items():
        totals[name] += seconds
    grand = sum(totals.values())
    print(f"\n{args.profile} profile: {len(plan.runs):,} runs, estimated {grand / 3600:.1f} "
          f"CPU-hours ({args.sample} run(s) timed per cell, one thread)\n")  # fmt: skip
    print(f"{'where the time goes':34s} {'CPU-hours':>10s} {'share':>6s}")
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"{name:34s} {seconds / 3600:10.2f} {seconds / grand:6.0%}")
    print("\ncostliest cells:")
    for dataset, algorithm, runs, each, total in sorted(cells, key=lambda c: -c[4])[:8]:
        print(f"  {dataset} {algorithm}: {runs:,} runs x {each:.1f} s = {total / 3600:.2f} CPU-h")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
