"""How far each audit's verdict belongs to the model and not to the seed: agreement across seeds.

The permutation audit's p-values and the individual audit's derivative-free attack are random:
run again with another seed, a verdict may change. On sampled runs of the ``paper`` profile
(``--runs`` per dataset and algorithm, split 0, numeric variants) and of one modern dataset
(``--modern``, its profile's algorithms), each run's model is fitted once and audited under
``--seeds`` seeds. Printed per audit and scheme:

- ``agree``: of the pairs of seeds of one run whose verdicts are both decided, the share whose
  verdicts (every test of the audit) are the same: how often a user rerunning the audit would
  read the same verdict;
- ``undecided``: the share of (run, seed) audits with a verdict left open by its Monte Carlo
  error (none before the audits recorded it);
- the CPU seconds of one audit of one run (the permutation audit's two readings share it).

The schemes: the permutation audit as it runs (1,000 permutations, verdicts with their Monte
Carlo error, :func:`faircompare.analysis.tidy.permutation_verdicts`) and read as before (the
adjusted p-value alone); the individual audit's version 3 (one attack, 2 antithetic pairs in
every direction, for a model without gradients) and version 4 (two attacks of 1 pair within the
metric's free directions, undecided within 1.96 Monte Carlo errors of delta). Models with an
exact gradient are attacked deterministically: the script counts them apart. ::

    FAIRCOMPARE_MIRROR=../shared/data python perf/audit_reproducibility.py [--runs 1] [--seeds 4]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import pandas as pd
from individual_gradient import audited, sampled_runs  # perf/, the script's own folder
from threadpoolctl import threadpool_limits

from faircompare.analysis.tidy import permutation_verdicts
from faircompare.audits import AuditedRun, AuditOptions
from faircompare.audits.individual import INDIVIDUAL_ATTACK, IndividualAudit, audit_oracle
from faircompare.audits.permutation import PermutationAudit
from faircompare.config import PROFILES
from faircompare.records import AuditRow
from faircompare.stats.individual import individual_fairness_test

OPTIONS = AuditOptions(permutations=1000)


def permutation_schemes(run: AuditedRun) -> dict[str, str]:
    """The permutation audit's verdicts, with and without their Monte Carlo error."""
    frame = _frame(PermutationAudit()(run, OPTIONS))
    pooled = frame[frame["scope"] == "rest"]
    before = np.where(pooled["adjusted_pvalue"].astype(float) < 0.05, "reject", "accept")
    return {
        "permutation, adjusted p-value alone": "/".join(before),
        "permutation, with its Monte Carlo error": "/".join(permutation_verdicts(pooled)),
    }


def version_3(run: AuditedRun, *, audit: IndividualAudit) -> dict[str, str]:
    """The individual audit's verdicts as its version 3 gave them: one attack, 2 pairs."""
    setup = audit.setups(run)
    oracle = audit_oracle(run, setup, pairs=2, within_free=False)
    y = run.split.y_test[setup.rows]
    old = individual_fairness_test(oracle, setup.Z, y, setup.metric, **INDIVIDUAL_ATTACK)
    verdicts = [("reject" if t.reject else "accept") for t in (old.loss, old.error)]
    return {"individual, version 3": "/".join(verdicts)}


def version_4(run: AuditedRun, *, audit: IndividualAudit) -> dict[str, str]:
    """The individual audit's verdicts as it gives them (version 4), undecided included."""
    rows = _frame(audit(run, OPTIONS)).set_index("metric")["details"]
    new = [
        "undecided" if rows[m].get("undecided") else ("reject" if rows[m]["reject"] else "accept")
        for m in ("loss-ratio", "error-ratio")
    ]
    return {"individual, version 4": "/".join(new)}


def _frame(rows: list[AuditRow]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "key": "run",
                "metric": r.metric,
                "scope": r.scope,
                "pvalue": r.pvalue,
                "adjusted_pvalue": r.adjusted_pvalue,
                "details": r.details,
                "audit": r.audit,
            }
            for r in rows
        ]  # fmt: skip
    )


def timed(scheme: Callable[[AuditedRun], dict[str, str]], run: AuditedRun) -> tuple[dict, float]:
    start = time.process_time()
    return scheme(run), time.process_time() - start


def agreement(verdicts: pd.Series) -> tuple[float, int, float]:
    """Agreement over pairs of decided seeds, their number, and the undecided share."""
    decided = [v for v in verdicts if "undecided" not in v]
    pairs = list(itertools.combinations(decided, 2))
    same = sum(a == b for a, b in pairs)
    undecided = 1 - len(decided) / len(verdicts)
    return (same / len(pairs) if pairs else np.nan), len(pairs), undecided


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(PROFILES["paper"].datasets))
    parser.add_argument("--modern", default="bank", help="one dataset of the modern profile")
    parser.add_argument("--runs", type=int, default=1, help="runs sampled per cell")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    specs = sampled_runs(tuple(args.datasets), args.runs, seed=0)
    specs += sampled_runs((args.modern,), args.runs, seed=0, profile="modern")
    individual = IndividualAudit()
    rows = []
    for spec in specs:
        run = audited(spec)
        where = f"{spec.dataset}/{spec.sensitive_attribute}/{spec.variant}/{spec.algorithm}"
        kind = audit_oracle(run, individual.setups(run)).kind
        schemes = [permutation_schemes]  # both readings of one audit: its time counts once
        if kind == "derivative-free":  # an exact gradient's attack is the same under any seed
            schemes += [partial(version_3, audit=individual), partial(version_4, audit=individual)]
        for seed in range(args.seeds):
            seeded = AuditedRun(run.split, run.model, run.y_pred, run.scores, seed=1000 + seed)
            for scheme in schemes:
                verdicts, seconds = timed(scheme, seeded)
                for name, verdict in verdicts.items():
                    rows.append({"run": where, "gradient": kind, "scheme": name, "seed": seed,
                                 "verdict": verdict, "seconds": seconds})  # fmt: skip
        print(f"audited {where} ({kind})", flush=True)
    frame = pd.DataFrame(rows)
    table = []
    for scheme, part in frame.groupby("scheme", sort=False):
        results = [agreement(verdicts) for _, verdicts in part.groupby("run")["verdict"]]
        pairs = sum(n for _, n, _ in results)
        agree = sum(a * n for a, n, _ in results if n) / pairs if pairs else np.nan
        table.append({"scheme": scheme, "runs": part["run"].nunique(), "agree": agree,
                      "undecided": np.mean([u for _, _, u in results]),
                      "CPU s per audit": part["seconds"].mean()})  # fmt: skip
    print(f"\n{args.seeds} seeds per run (load {' '.join(f'{x:.1f}' for x in os.getloadavg())}):")
    print(pd.DataFrame(table).round(4).to_string(index=False))


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
