"""Sequential audits against fixed ones: undecided verdicts and audit cost, on the same models.

Runs of the ``default`` profile (every ``--every``-th planned run, all splits, numeric and
original variants as planned) are fitted once each and audited three times, in the same
process:

- **fixed**: as the audits ran before (permutation version 4, individual version 4): every
  permutation test draws B = 1,000 permutations; a model without gradients is attacked twice;
- **8 attacks**: the sequential tests, with the individual test's attacks capped at 8 (its
  cap before version 8);
- **sequential**: as they run now: each run's permutation tests draw in doubling batches until
  their Holm-adjusted verdicts at 0.05 (and at 0.05 / F for a run of F families) are decided
  with a resampling risk of 1e-3, up to ``--cap`` permutations; an undecided individual
  verdict is attacked again, the attacks doubling, up to 32.

Printed per scheme: the verdicts stored (a run's pooled permutation tests; its individual
statistic, T_n or T~_n as the report reads it), the share left undecided (a permutation test's
Holm-adjusted Monte Carlo interval holds 0.05, :func:`~faircompare.analysis.tidy.
permutation_verdicts`; an individual statistic within 1.96 Monte Carlo errors of delta; and
every loss ratio), the mean permutations per test, and the CPU seconds of each audit and of
all three (FlipTest is the same in each; every split's setups are built before the timing,
once for every scheme), with the ratios of the sequential scheme's to the others'. ::

    FAIRCOMPARE_MIRROR=../shared/data python perf/sequential_audits.py [--every 5] [--cap N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare.analysis.tidy import permutation_verdicts
from faircompare.audits import AuditedRun, AuditOptions, SharedSetupAudit, registered_audits
from faircompare.audits import individual as individual_audit
from faircompare.benchmark import execute, make_plan
from faircompare.benchmark.settings import BenchmarkConfig
from faircompare.config import PROFILES
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.records import AuditRow, RunSpec
from faircompare.stats.individual import NEAR_CERTAIN_SHARE

FIXED = AuditOptions(permutations=1000, sequential=False, attacks=individual_audit.REPLICATES)
BEFORE_ATTACKS = 8  # the individual test's cap of attacks before its version 8


def planned(every: int) -> list[RunSpec]:
    """Every ``every``-th run of the default profile, audited ones only."""
    runs = [run for run in make_plan(PROFILES["default"]).runs if run.audited]
    return runs[::every]


def fitted(spec: RunSpec, datasets: dict) -> AuditedRun:
    """The run's split and model, fitted as a benchmark worker fits it."""
    if spec.dataset not in datasets:
        datasets[spec.dataset] = load_dataset(spec.dataset)
    prepared = prepare(datasets[spec.dataset], spec.variant, spec.sensitive_attribute)
    split = make_split(prepared, spec.split_id, base_seed=spec.base_seed)
    model, _ = execute._fit(spec, BenchmarkConfig(), split, {})
    y_pred, scores = execute._predict(spec.algorithm, model, split)
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
    """A run's pooled permutation verdicts and individual verdict, and the open ones."""
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
    with threadpool_limits(limits=1):
        for i, spec in enumerate(runs, 1):
            run = fitted(spec, datasets)
            for scheme, options in schemes.items():
                rows, seconds = audited(run, options)
                records.append(
                    {"scheme": scheme, "dataset": spec.dataset, **undecided(rows, spec.key),
                     **{f"{name} s": s for name, s in seconds.items()}}
                )  # fmt: skip
            if i % 25 == 0:
                print(f"  {i}/{len(runs)} runs", flush=True)
    frame = pd.DataFrame(records).fillna(0.0)
    totals = frame.groupby("scheme").sum(numeric_only=True)
    cost = [c for c in totals.columns if c.endswith(" s")]
    totals["all audits s"] = totals[cost].sum(axis=1)
    table = pd.DataFrame(
        {
            "permutation tests": totals["tests"].astype(int),
            "undecided": totals["tests undecided"] / totals["tests"],
            "permutations per test": totals["permutations"] / totals["tests"],
            "individual verdicts": totals["individual"].astype(int),
            "individual undecided": totals["individual undecided"] / totals["individual"],
            "loss ratios undecided": totals["loss ratios undecided"] / totals["individual"],
            **{column: totals[column] for column in [*cost, "all audits s"]},
        }
    )
    print(table.T.to_string(float_format=lambda x: f"{x:,.4f}"))
    for other in list(schemes)[:-1]:
        for column in [*cost, "all audits s"]:
            part = totals.loc["sequential", column] / max(totals.loc[other, column], 1e-12)
            print(f"sequential / {other}, {column[:-2]}: {part:.2f}")


if __name__ == "__main__":
    main()
