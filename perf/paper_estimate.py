"""Estimate the CPU time of a whole profile (the paper's by default) from a sample of its runs.

For every (dataset, algorithm) cell of the plan, ``--sample`` of its runs are executed here,
part by part, on one thread: the split and the measures, the fit, the predictions, the tuning
fit (the training data less its validation part) with its predictions, a refit where the runs
of a fit share it, and each audit (the permutation tests at a fixed 1,000 permutations, which
the cost model, and the total here, weigh by its ``SEQUENTIAL``); the
per-split setups of the audits (the FlipTest map,
the fair metric) are timed apart, since a worker builds them once per split for every
algorithm. The sample is drawn across the cell's sensitive attributes and variants, whose runs
cost most differently; each part's mean over a stratum's timed runs is multiplied by the
stratum's number of runs (a stratum left out takes the sample's mean; setups count once per
split), and the script prints where the time goes and the costliest cells, so the estimate is a
command, not a note. Runs that share one fit (:func:`faircompare.benchmark.schedule.shared_fits`)
fit it once: the script prints the total with and without that reuse. A run that repeats its
numerical twin (:attr:`faircompare.records.RunSpec.repeats`) is not timed but counted at the
cost model's price of one. ``--write-costs`` keeps each cell's seconds per run for the
runner's cost model, by part (``run``: the run without its fit and audits; ``fit``: one fit,
which the runner shares among the runs of a fit key; one column per audit), with each dataset's
audit setups of one split and this machine's calibration time
(:mod:`faircompare.benchmark.calibration`). One run
per cell is a rough estimate (a cell's strata differ up to 3x); ``--sample`` of a cell's number
of strata (up to 6) times each once.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw \
        python perf/paper_estimate.py [--datasets ricci german] [--algorithms svm] [--sample 1]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare.audits import AuditedRun, AuditOptions, registered_audits
from faircompare.benchmark import RunSpec, execute, make_plan
from faircompare.benchmark.calibration import calibration_seconds
from faircompare.benchmark.costs import (
    CALIBRATION,
    COSTS,
    FIT,
    MEASURED_PERMUTATIONS,
    REFIT,
    REPEAT_SECONDS,
    RUN,
    SEQUENTIAL,
    SETUP,
    TUNING,
    TUNING_REFIT,
    write_costs,
)
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.datasets import cache_dir, load_dataset
from faircompare.preprocessing import Prepared, make_split, prepare, validation_split

SETTINGS = BenchmarkConfig()  # built-in algorithms, default data locations


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
    split, parts["measures"] = cpu(
        make_split,
        prepared(spec.dataset, spec.variant, spec.sensitive_attribute),
        spec.split_id,
        base_seed=spec.base_seed,
    )
    # the harness's own fit, predict and measures, so the estimate times what a run does
    # a run that shares its fit refits its last step, as every run of the fit but the first
    fits: execute.Fits = {}
    (model, _), parts["fits"] = cpu(execute.fit_model, spec, SETTINGS, split, fits)
    if spec.refits:
        (model, _), parts["refits"] = cpu(execute.fit_model, spec, SETTINGS, split, fits)
    (y_pred, scores), parts["predictions"] = cpu(execute.predict_rows, spec.algorithm, model, split)
    parts["measures"] += cpu(execute._measure_rows, split, y_pred, scores)[1]
    if spec.tune:
        tuning = validation_split(split)
        fit = (execute.fit_model, spec, SETTINGS, tuning, fits)
        (tuned, _), parts["tuning fits"] = cpu(*fit)
        if spec.refits:
            (tuned, _), parts["tuning refits"] = cpu(*fit)
        predicted, parts["tuning predictions"] = cpu(
            execute.predict_rows, spec.algorithm, tuned, tuning
        )
        parts["tuning predictions"] += cpu(execute._measure_rows, tuning, *predicted)[1]
    run = AuditedRun(split, model, y_pred, scores, seed=spec.seed)
    for name, audit in registered_audits().items():
        if not audit.applies(run):
            continue
        if hasattr(audit, "setups"):  # built once per split, for every algorithm
            audit.setups.clear()
            _, setups[f"{name} setup (once per split)"] = cpu(audit.setups, run)
        _, parts[f"{name} audits"] = cpu(audit, run, options)


RUN_PARTS = ("predictions", "measures", "failed runs")


def cost_parts(seconds: dict[str, float], fitted: float, runs: int) -> dict[str, float]:
    """A cell's seconds per run by part of the cost model: the run, one fit, its tuning, its
    refits, each audit.

    ``fitted``: the share of the cell's fits made (runs sharing one fit make it once). The fit
    and the refits are kept whole, as one run makes them: the runner's model shares the fit
    among the runs of the plan it prices, and charges the refits to all of them but one.
    """
    parts = {
        RUN: sum(seconds.get(name, 0.0) for name in RUN_PARTS),
        FIT: seconds.get("fits", 0.0),
        TUNING: seconds.get("tuning fits", 0.0) * fitted + seconds.get("tuning predictions", 0.0),
        REFIT: seconds.get("refits", 0.0),
        TUNING_REFIT: seconds.get("tuning refits", 0.0),
    }
    for name, total in seconds.items():
        if name.endswith(" audits"):
            parts[name.removesuffix(" audits")] = total
    return {part: total / runs for part, total in parts.items()}


def estimate_cell(
    specs: pd.Series, options: AuditOptions, sample: int, rng: np.random.Generator
) -> tuple[dict[str, float], dict[str, float]]:
    """CPU seconds of a cell's runs by part, from a stratified sample; one run's setups."""
    strata = _strata(specs)
    timed = {key: [time_run(spec, options) for spec in chosen]
             for key, chosen in _stratified_sample(strata, sample, rng).items()}  # fmt: skip
    every = [run for runs in timed.values() for run in runs]
    seconds: dict[str, float] = {}
    for name in {key for parts, _ in every for key in parts}:

        def mean(runs: list, name: str = name) -> float:
            return float(np.mean([parts.get(name, 0.0) for parts, _ in runs]))

        # each stratum's mean times its runs; a stratum not sampled takes the sample's mean
        seconds[name] = sum(
            len(runs) * mean(timed.get(key) or every) for key, runs in strata.items()
        )
    return seconds, every[0][1]


def _strata(specs: pd.Series) -> dict[tuple[str, str], list[RunSpec]]:
    """A cell's runs by sensitive attribute and variant.

    Their costs differ most between these (the number of groups, the width of the features:
    ProPublica's ``feldman-logistic-regression`` at one split and level costs 4 to 14 CPU s),
    so the sample is drawn across them and each is weighted by its runs.
    """
    strata: dict[tuple[str, str], list[RunSpec]] = defaultdict(list)
    for spec in specs:
        strata[spec.sensitive_attribute, spec.variant].append(spec)
    return strata


def _stratified_sample(
    strata: dict[tuple[str, str], list[RunSpec]], size: int, rng: np.random.Generator
) -> dict[tuple[str, str], list[RunSpec]]:
    """Draw ``size`` runs, one from each stratum in a random order, then round again."""
    keys = list(strata)
    rng.shuffle(keys)
    pools = {key: [strata[key][i] for i in rng.permutation(len(strata[key]))] for key in keys}
    chosen: dict[tuple[str, str], list[RunSpec]] = defaultdict(list)
    while size > 0 and any(pools.values()):
        for key in keys:
            if pools[key] and size > 0:
                chosen[key].append(pools[key].pop())
                size -= 1
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="paper", choices=list(PROFILES))
    parser.add_argument("--datasets", nargs="+", help="the profile's datasets by default")
    parser.add_argument("--algorithms", nargs="+", help="the profile's algorithms by default")
    parser.add_argument(
        "--sample", type=int, default=1, help="runs timed per cell, across attributes and variants"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--write-costs",
        action="store_true",
        help="write each cell's CPU seconds per run to --costs (the runner's cost model)",
    )
    parser.add_argument("--costs", type=Path, default=COSTS, help=f"default {COSTS}")
    args = parser.parse_args()
    config = PROFILES[args.profile]
    if args.datasets:
        config = config.overridden(datasets=tuple(args.datasets))
    if args.algorithms:
        config = config.overridden(algorithms=tuple(args.algorithms))
    plan = make_plan(config)
    plan = plan.with_repeats({name: load_dataset(name) for name in {r.dataset for r in plan.runs}})
    own = [run for run in plan.runs if not run.repeats]  # a repeating run measures its twin's
    # the table's permutation column is at a fixed number of permutations, which the runner's
    # model weighs by SEQUENTIAL for the sequential tests a run makes; so is the total here
    options = AuditOptions(permutations=MEASURED_PERMUTATIONS, sequential=False)
    frame = pd.DataFrame({"spec": own, "dataset": [r.dataset for r in own],
                          "algorithm": [r.algorithm for r in own]})  # fmt: skip
    rng = np.random.default_rng(args.seed)
    totals: dict[str, float] = defaultdict(float)
    rows: dict[str, int] = {}
    reused = 0.0  # CPU seconds of the fits that runs sharing one fit do not repeat
    setups_by_dataset: dict[tuple[str, str], float] = defaultdict(float)
    cells = []
    table_rows: list[dict] = []
    setup_per_split: dict[tuple[str, str], float] = defaultdict(float)
    for (dataset, algorithm), part in frame.groupby(["dataset", "algorithm"], sort=False):
        seconds_by_part, setups_once = estimate_cell(part["spec"], options, args.sample, rng)
        for name, seconds in seconds_by_part.items():
            totals[name] += seconds * (SEQUENTIAL if name == "permutation audits" else 1)
        splits = {(r.variant, r.sensitive_attribute, r.split_id) for r in part["spec"]}
        for name, seconds in setups_once.items():  # per split, whatever the algorithm
            key = (dataset, name)
            setups_by_dataset[key] = max(setups_by_dataset[key], seconds * len(splits))
            setup_per_split[dataset, name] = max(setup_per_split[dataset, name], seconds)
        # runs sharing a fit (a baseline's attributes and numeric variants) fit it once
        fitted = len({run.fit_key for run in part["spec"]}) / len(part)
        fits = seconds_by_part.get("fits", 0.0) + seconds_by_part.get("tuning fits", 0.0)
        reused += fits * (1 - fitted)
        each = cost_parts(seconds_by_part, fitted, len(part))
        # as the runner runs: the fits shared, the refits made by every run of a fit but one
        priced = each | {"permutation": each.get("permutation", 0.0) * SEQUENTIAL}
        shared = each[FIT] * (1 - fitted) + (each[REFIT] + each[TUNING_REFIT]) * fitted
        cell = (sum(priced.values()) - shared) * len(part)
        cells.append((dataset, algorithm, len(part), cell / len(part), cell))
        table_rows.append(
            {"dataset": dataset, "algorithm": algorithm}
            | {name: round(seconds, 4) for name, seconds in each.items()}
        )
        rows[dataset] = len(load_dataset(dataset).frame)
        print(f"{dataset:30s} {algorithm:28s} {len(part):6,d} runs x "
              f"{cell / len(part):7.2f} s = {cell / 3600:7.2f} CPU-h", flush=True)  # fmt: skip
    for (_, name), seconds in setups_by_dataset.items():
        totals[name] += seconds
    repeating = len(plan.runs) - len(own)
    totals["repeating runs"] = repeating * REPEAT_SECONDS
    grand = sum(totals.values())
    print(f"\n{args.profile} profile: {len(plan.runs):,} runs, estimated {grand / 3600:.1f} "
          f"CPU-hours ({args.sample} run(s) timed per cell, one thread); {repeating:,} of them "
          f"repeat their numerical twin at {REPEAT_SECONDS} s each\n")  # fmt: skip
    print(f"reusing identical fits: {grand / 3600:.2f} -> {(grand - reused) / 3600:.2f} CPU-hours "
          f"(ratio {grand / (grand - reused):.3f}x, {reused / 3600:.2f} CPU-hours of fits not "
          "repeated)\n")  # fmt: skip
    print(f"{'where the time goes':34s} {'CPU-hours':>10s} {'share':>6s}")
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"{name:34s} {seconds / 3600:10.2f} {seconds / grand:6.0%}")
    if args.write_costs:
        setups = defaultdict(dict)
        for (dataset, name), seconds in setup_per_split.items():
            setups[dataset][name.split(" setup")[0]] = round(seconds, 4)
        table = pd.DataFrame(
            table_rows + [{"dataset": d, "algorithm": SETUP, **s} for d, s in setups.items()]
        )
        table.insert(2, "rows", table["dataset"].map(rows))
        table[CALIBRATION] = round(calibration_seconds(cache_dir()), 4)  # this machine's speed
        write_costs(table, args.costs)
        print(f"\nwrote {args.costs} ({len(table)} cells)")
    print("\ncostliest cells:")
    for dataset, algorithm, runs, each, total in sorted(cells, key=lambda c: -c[4])[:8]:
        print(f"  {dataset} {algorithm}: {runs:,} runs x {each:.1f} s = {total / 3600:.2f} CPU-h")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
