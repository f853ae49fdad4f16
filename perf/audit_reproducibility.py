"""How far each audit's verdict belongs to the model and not to the seed: agreement across seeds.

The permutation audit's p-values, the individual audit's derivative-free attack and FlipTest's
maps of samples are random: run again with another seed, a verdict or a rate may change. On
sampled runs of the ``paper`` profile (``--runs`` per dataset and algorithm, split 0, numeric
variants) and of one modern dataset (``--modern``, its profile's algorithms), each run's model
is fitted once and audited under ``--seeds`` seeds (``--audits`` chooses the audits). Printed
per audit and scheme:

- ``agree``: of the pairs of seeds of one run whose verdicts are both decided, the share whose
  verdicts (every test of the audit) are the same: how often a user rerunning the audit would
  read the same verdict; FlipTest gives rates, not verdicts: two seeds agree when their F+ and
  F- rates differ by at most 1.96 standard errors of the difference (exactly equal, for rates
  stated without an error);
- ``undecided``: the share of (run, seed) audits with a verdict left open by its Monte Carlo
  error (none before the audits recorded it);
- the CPU seconds of one audit of one run (the permutation audit's two readings share it;
  FlipTest's include its maps, fitted once per split and seed, shared by the split's runs).

The schemes: the permutation audit as it runs (1,000 permutations, verdicts with their Monte
Carlo error, :func:`faircompare.analysis.tidy.permutation_verdicts`) and read as before (the
adjusted p-value alone); the individual audit's version 3 (one attack, 2 antithetic pairs in
every direction, for a model without gradients) and version 4 (two attacks of 1 pair within the
metric's free directions, undecided within 1.96 Monte Carlo errors of delta); FlipTest's maps
drawn from the seed, with the parts that give a sampled map's error and without them. Models
with an exact gradient are attacked deterministically: the script counts them apart. ::

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
from faircompare.audits.fliptest import FlipTestAudit, FlipTestSetup, split_transport
from faircompare.audits.individual import INDIVIDUAL_ATTACK, IndividualAudit, audit_oracle
from faircompare.audits.permutation import PermutationAudit
from faircompare.config import PROFILES
from faircompare.records import AuditRow
from faircompare.stats.fliptest import MAX_POINTS, PARTS
from faircompare.stats.individual import MONTE_CARLO_Z, individual_fairness_test

# version 4's fixed B = 1,000 (perf/sequential_audits.py compares the sequential tests with it)
OPTIONS = AuditOptions(permutations=1000, sequential=False)
AUDITS = ["permutation", "individual", "fliptest"]


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


class SeededFlipTest(FlipTestAudit):
    """FlipTest with its maps drawn from the run's seed, not the split's (one per seed)."""

    def __init__(self, parts: int) -> None:
        super().__init__()
        self.parts = parts

    def setup(self, run: AuditedRun) -> FlipTestSetup:
        """Fit the split's maps with the run's seed, and ``parts`` parts of a sampled map."""
        split = run.split
        groups, privileged = split.sensitive_features_test, split.privileged
        return split_transport(
            run.test_features, groups, privileged, rng=run.seed, parts=self.parts
        )


def fliptest_scheme(run: AuditedRun, *, audits: dict[int, SeededFlipTest]) -> dict[str, str]:
    """The pooled F+ and F- rates, with their sampling error where the audit maps parts."""
    audit = audits[run.seed]
    rows = [r for r in audit(run, OPTIONS) if r.scope == "unprivileged"]
    privileged = run.split.sensitive_features_test == run.split.privileged
    sampled = max(privileged.sum(), (~privileged).sum()) > MAX_POINTS
    where = "map of samples" if sampled else "map of every row"
    scheme = "with their sampling error" if audit.parts else "rates alone"
    reading = "/".join(f"{r.statistic!r}:{r.details['monte_carlo_error']!r}" for r in rows)
    return {f"fliptest, {scheme}, {where}": reading}


def same(a: str, b: str) -> bool:
    """Whether two seeds' readings agree: equal verdicts, or rates within their errors.

    A FlipTest reading is ``rate:error`` per flipset; two rates agree when they differ by at
    most 1.96 times the standard error of their difference (exactly equal without an error).
    """
    if ":" not in a:
        return a == b
    pairs = zip(a.split("/"), b.split("/"), strict=True)
    readings = [(*map(float, x.split(":")), *map(float, y.split(":"))) for x, y in pairs]
    return all(abs(r1 - r2) <= MONTE_CARLO_Z * np.hypot(e1, e2) for r1, e1, r2, e2 in readings)


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
    agreeing = sum(same(a, b) for a, b in pairs)
    undecided = 1 - len(decided) / len(verdicts)
    return (agreeing / len(pairs) if pairs else np.nan), len(pairs), undecided


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(PROFILES["paper"].datasets))
    parser.add_argument("--modern", default="bank", help="one dataset of the modern profile")
    parser.add_argument("--runs", type=int, default=1, help="runs sampled per cell")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument(
        "--audits", nargs="+", default=AUDITS, choices=AUDITS, help="the audits to study"
    )
    args = parser.parse_args()
    specs = sampled_runs(tuple(args.datasets), args.runs, seed=0)
    specs += sampled_runs((args.modern,), args.runs, seed=0, profile="modern")
    individual = IndividualAudit()
    # the audit's maps per seed, kept per split: with the parts of a sampled map, and without
    flips = {
        parts: {1000 + seed: SeededFlipTest(parts) for seed in range(args.seeds)}
        for parts in (PARTS, 0)
    }
    rows = []
    for spec in specs:
        run = audited(spec)
        where = f"{spec.dataset}/{spec.sensitive_attribute}/{spec.variant}/{spec.algorithm}"
        kind = "n/a"
        if "individual" in args.audits:
            kind = audit_oracle(run, individual.setups(run)).kind
        schemes = []
        if "permutation" in args.audits:  # both readings of one audit: its time counts once
            schemes.append(permutation_schemes)
        if "fliptest" in args.audits and FlipTestAudit().applies(run):
            schemes += [partial(fliptest_scheme, audits=audits) for audits in flips.values()]
        # an exact gradient's attack is the same under any seed
        if "individual" in args.audits and kind == "derivative-free":
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
