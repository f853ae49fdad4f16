"""Write ``sequential_audits.csv`` beside this file: the sequential audits' verdicts and cost.

Runs of the ``default`` profile (every ``--every``-th planned run, all splits, numeric and
original variants as planned) are fitted once each and audited three times, in the same
process:

- **fixed**: every permutation test draws B = 1,000 permutations (the permutation audit's
  design before version 5); a model without gradients is attacked twice;
- **8 attacks**: the sequential tests, with the individual test's attacks capped at 8 (its
  cap before version 8);
- **sequential**: as they run now: each run's permutation tests draw in doubling batches until
  their Holm-adjusted verdicts at 0.05 (and at 0.05 / F for a run of F families) are decided
  with a resampling risk of 1e-3, up to ``--cap`` permutations; an undecided individual
  verdict is attacked again, the attacks doubling, up to 32.

Measured per scheme: the verdicts stored (a run's pooled permutation tests; its individual
statistic, T_n or T~_n as the report reads it) and how many are left undecided (a permutation
test's Holm-adjusted Monte Carlo interval holds 0.05, :func:`~faircompare.analysis.tidy.
permutation_verdicts`; an individual statistic within 1.96 Monte Carlo errors of delta), and
the CPU seconds of each audit and of all three (FlipTest is the same in each; every split's
setups are built before the timing, once for every scheme), with the ratios of the sequential
scheme's to the others'. CPU seconds, so the load moves them little; the file's first line
says under what load. The audits guide quotes the figures, and the sequential permutation
tests' ratio is the dry run's (:data:`faircompare.benchmark.costs.SEQUENTIAL`). ::

    FAIRCOMPARE_MIRROR=../shared/data python docs/measured/sequential_audits.py [--every 5]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np
import pandas as pd
from audit_error_rates import Figure, rate, write  # the script beside this one
from threadpoolctl import threadpool_limits

from faircompare.analysis.tidy import permutation_verdicts
from faircompare.audits import AuditedRun, AuditOptions, SharedSetupAudit, registered_audits
from faircompare.audits import individual as individual_audit
from faircompare.benchmark import execute, make_plan
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.records import AuditRow, RunSpec
from faircompare.stats.individual import NEAR_CERTAIN_SHARE

FIXED = AuditOptions(permutations=1000, sequential=False, attacks=individual_audit.REPLICATES)
BEFORE_ATTACKS = 8  # the individual test's cap of attacks before its version 8
COSTS = "faircompare/benchmark/costs.py"


def planned(every: int) -> list[RunSpec]:
    """Every ``every``-th run of the default profile, audited ones only."""
    runs = [run for run in make_plan(PROFILES["default"]).runs if run.audited]
    return runs[::every]


def fitted(spec: RunSpec, datasets: dict) -> AuditedRun:
    """Return the run's split and model, fitted as a benchmark worker fits it."""
    if spec.dataset not in datasets:
        datasets[spec.dataset] = load_dataset(spec.dataset)
    prepared = prepare(datasets[spec.dataset], spec.variant, spec.sensitive_attribute)
    split = make_split(prepared, spec.split_id, base_seed=spec.base_seed)
    model, _ = execute.fit_model(spec, BenchmarkConfig(), split, {})
    y_pred, scores = execute.predict_rows(spec.algorithm, model, split)
    return AuditedRun(split, model, y_pred, scores, seed=spec.seed)


def audited(run: AuditedRun, options: AuditOptions) -> tuple[list[AuditRow], dict]:
    """Every audit's rows and CPU seconds under one scheme."""
    rows, seconds = [], {}
    for name, audit in registered_audits().items():
        if not audit.applies(run):
            continue
        if isinstance(audit, SharedSetupAudit):
            audit.setups(run)  # built once for every scheme, and not timed
        start = time.process_time()
        rows += audit(run, options)
        seconds[name] = time.process_time() - start
    return rows, seconds


def undecided(rows: list[AuditRow], key: str) -> dict:
    """Count a run's pooled permutation verdicts and individual verdict, and the open ones."""
    frame = pd.DataFrame([row._asdict() for row in rows]).assign(key=key)
    pooled = frame[(frame["audit"] == "permutation") & (frame["scope"] == "rest")]
    verdicts = permutation_verdicts(pooled)
    drawn = [r.details.get("permutations", 0) for r in rows if r.audit == "permutation"]
    individual = {
        r.metric: r.details for r in rows if r.audit == "individual" and "error" not in r.details
    }  # a run with a group below the minimum has rows that say so, and no test
    read = None
    if individual:
        loss = individual["loss-ratio"]
        read = individual[
            "error-ratio" if loss["near_certain"] > NEAR_CERTAIN_SHARE else "loss-ratio"
        ]
    return {
        "tests": len(verdicts),
        "tests undecided": int((verdicts == "undecided").sum()),
        "permutations": float(np.sum([d for d in drawn if d])),
        "individual": int(read is not None),
        "individual undecided": int(bool(read and read["undecided"])),
        "loss ratios undecided": int(bool(individual and individual["loss-ratio"]["undecided"])),
    }


def main() -> None:
    """Audit under each scheme, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=5, help="audit every n-th planned run")
    parser.add_argument("--cap", type=int, default=PROFILES["default"].permutations)
    args = parser.parse_args()
    schemes = {
        "fixed": FIXED,
        f"{BEFORE_ATTACKS} attacks": AuditOptions(permutations=args.cap, attacks=BEFORE_ATTACKS),
        "sequential": AuditOptions(permutations=args.cap),
    }
    runs, datasets, records = planned(args.every), {}, []
    print(f"{len(runs)} runs of the default profile (every {args.every}th), cap {args.cap:,}")
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        for i, spec in enumerate(runs, 1):
            run = fitted(spec, datasets)
            for scheme, options in schemes.items():
                rows, seconds = audited(run, options)
                records.append(
                    {"scheme": scheme, **undecided(rows, spec.key),
                     **{f"{name} s": s for name, s in seconds.items()}}
                )  # fmt: skip
            if i % 25 == 0:
                print(f"  {i}/{len(runs)} runs", flush=True)
    totals = pd.DataFrame(records).fillna(0.0).groupby("scheme", sort=False).sum()
    command = (
        f"python docs/measured/sequential_audits.py --every {args.every} --cap {args.cap}, "
        f"{time.perf_counter() - start:,.0f} s"
    )
    write(figures(totals, len(runs)), "sequential_audits.csv", command)


def figures(totals: pd.DataFrame, runs: int) -> list[Figure]:
    """Return the runs, each scheme's undecided verdicts and CPU seconds, the cost ratios."""
    design = f"every n-th run of the default profile, {runs} runs"
    audited = int(totals["individual"].iloc[0])
    found = [Figure("runs audited for individual fairness", design, runs, audited,
                    quoted=f"On {runs} runs, {audited} of them")]  # fmt: skip
    seconds = [f"{audit} s" for audit in ("permutation", "fliptest", "individual")]
    totals["all s"] = totals[seconds].sum(axis=1)
    for scheme, total in totals.iterrows():
        for what, k, n in (
            ("permutation tests undecided", total["tests undecided"], total["tests"]),
            ("individual verdicts undecided", total["individual undecided"], total["individual"]),
        ):
            figure = rate(what, f"{design}, {scheme}", int(k), int(n))
            found.append(replace(figure, quoted=f"{int(k):,} of {int(n):,}"))
        cpu = ", ".join(f"{total[c]:.1f}" for c in [*seconds, "all s"])
        found.append(Figure("CPU s: permutation, FlipTest, individual, all", f"{design}, {scheme}",
                            runs, total["all s"], quoted=cpu))  # fmt: skip
    for other, column, what in (
        ("fixed", "all s", "all audits"),
        ("fixed", "permutation s", "permutation tests"),
        (f"{BEFORE_ATTACKS} attacks", "all s", "all audits"),
    ):
        ratio = totals.loc["sequential", column] / totals.loc[other, column]
        found.append(Figure(f"sequential over {other}, {what}", design, runs, ratio,
                            quoted=f"{ratio:.2f} times"))  # fmt: skip
    ratio = totals.loc["sequential", "permutation s"] / totals.loc["fixed", "permutation s"]
    for quoted, page in (
        (f"SEQUENTIAL = {ratio:.1f}", COSTS),
        (f"at {ratio:.1f} times its measured cost", "docs/guide/running.md"),
        (f"cost about {ratio:.1f} times as much", "docs/guide/performance.md"),
    ):
        found.append(Figure("the dry run's sequential factor", design, runs, ratio,
                            quoted=quoted, page=page))  # fmt: skip
    for scheme in ("fixed", "sequential"):
        ms = 1000 * totals.loc[scheme, "permutation s"] / runs
        found.append(Figure(f"permutation CPU ms per run, {scheme}", design, runs, ms,
                            quoted=f"{ms:.0f} ms a run"))  # fmt: skip
    return found


if __name__ == "__main__":
    main()
