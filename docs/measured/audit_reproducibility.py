"""Write ``audit_reproducibility.csv`` beside this file: how far each verdict repeats itself.

The permutation audit's p-values, the individual audit's derivative-free attack and FlipTest's
maps of samples are random: run again with another seed, a verdict or a rate may change. Runs
of the ``default`` profile (every ``--every``-th planned run, the runs of
``sequential_audits.py``) are fitted once each and audited under ``--seeds`` seeds, as they are
audited now. Written per audit and reading:

- ``agree``: of the pairs of seeds of one run whose verdicts are both decided, the share whose
  verdicts (every test of the audit) are the same: how often a user rerunning the audit would
  read the same verdict (an interval for it is Clopper-Pearson's over the pairs, which share
  seeds: a guide, not an exact interval); FlipTest gives rates, not verdicts: two seeds agree
  when their F+ and F- rates differ by at most 1.96 standard errors of the difference (exactly
  equal, for rates stated without an error);
- ``undecided``: the share of (run, seed) audits with a verdict left open by its Monte Carlo
  error;
- the CPU seconds of one audit of one run (the permutation audit's two readings share it;
  FlipTest's include its maps, fitted once per split and seed, shared by the split's runs).

The readings: the permutation audit's verdicts with their Monte Carlo error (the report's) and
from the adjusted p-value alone; the individual audit's verdict as the report reads it (T_n, or
T~_n for a near-certain model), for the models attacked without a gradient (a model with an
exact gradient is attacked the same way under any seed); FlipTest's maps drawn from the seed,
with the parts that give a sampled map's error and without them. ::

    FAIRCOMPARE_MIRROR=../shared/data python docs/measured/audit_reproducibility.py [--seeds 4]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd
from audit_error_rates import Figure, rate, write  # the scripts beside this one
from scipy.stats import binomtest
from sequential_audits import fitted, planned
from threadpoolctl import threadpool_limits

from faircompare.analysis import tidy
from faircompare.audits import AuditedRun, AuditOptions
from faircompare.audits.fliptest import FlipTestAudit, FlipTestSetup, split_transport
from faircompare.audits.individual import IndividualAudit, audit_oracle
from faircompare.audits.permutation import PermutationAudit
from faircompare.records import AuditRow
from faircompare.stats.fliptest import MAX_POINTS, PARTS
from faircompare.stats.individual import MONTE_CARLO_Z

OPTIONS = AuditOptions()  # the default profile's: sequential tests, cap 300,000, 32 attacks
PERMUTATION = ("permutation, with its Monte Carlo error", "permutation, adjusted p-value alone")


def _frame(rows: list[AuditRow]) -> pd.DataFrame:
    return pd.DataFrame([row._asdict() for row in rows]).assign(key="run")


def permutation_readings(run: AuditedRun) -> dict[str, str]:
    """Read the permutation audit's pooled verdicts with and without their Monte Carlo error."""
    pooled = _frame(PermutationAudit()(run, OPTIONS)).query("scope == 'rest'")
    alone = np.where(pooled["adjusted_pvalue"].astype(float) < 0.05, "reject", "accept")
    with_error = tidy.permutation_verdicts(pooled)
    return dict(zip(PERMUTATION, ("/".join(with_error), "/".join(alone)), strict=True))


def individual_reading(run: AuditedRun, *, audit: IndividualAudit) -> dict[str, str]:
    """Read the individual audit's verdict as the report reads it, undecided included."""
    read = tidy.individual_statistics(_frame(audit(run, OPTIONS)))
    if read.empty:  # a group below the audits' minimum: no test
        return {}
    row = read.iloc[0]
    verdict = "undecided" if row["undecided"] else ("reject" if row["reject"] else "accept")
    return {"individual, as the report reads it": verdict}


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


def fliptest_reading(run: AuditedRun, *, audits: dict[int, SeededFlipTest]) -> dict[str, str]:
    """Read the pooled F+ and F- rates, with their sampling error where the audit maps parts."""
    audit = audits[run.seed]
    rows = [
        r
        for r in audit(run, OPTIONS)
        if r.scope == "unprivileged" and "monte_carlo_error" in r.details
    ]  # a group below the audits' minimum has rows that say so, and no rates
    if not rows:
        return {}
    privileged = run.split.sensitive_features_test == run.split.privileged
    sampled = max(privileged.sum(), (~privileged).sum()) > MAX_POINTS
    where = "map of samples" if sampled else "map of every row"
    scheme = "with their sampling error" if audit.parts else "rates alone"
    reading = "/".join(f"{r.statistic!r}:{r.details['monte_carlo_error']!r}" for r in rows)
    return {f"fliptest, {where}, {scheme}": reading}


def same(a: str, b: str) -> bool:
    """Say whether two seeds' readings agree: equal verdicts, or rates within their errors.

    A FlipTest reading is ``rate:error`` per flipset; two rates agree when they differ by at
    most 1.96 times the standard error of their difference (exactly equal without an error).
    """
    if ":" not in a:
        return a == b
    pairs = zip(a.split("/"), b.split("/"), strict=True)
    readings = [(*map(float, x.split(":")), *map(float, y.split(":"))) for x, y in pairs]
    return all(abs(r1 - r2) <= MONTE_CARLO_Z * np.hypot(e1, e2) for r1, e1, r2, e2 in readings)


def timed(reading: Callable[[AuditedRun], dict[str, str]], run: AuditedRun) -> tuple[dict, float]:
    """Return a reading of one run's audit and the audit's CPU seconds."""
    start = time.process_time()
    return reading(run), time.process_time() - start


def readings(run: AuditedRun, flips: dict) -> list[Callable[[AuditedRun], dict[str, str]]]:
    """Return the readings that apply to a run (the individual one without a gradient only)."""
    chosen: list[Callable[[AuditedRun], dict[str, str]]] = [permutation_readings]
    if FlipTestAudit().applies(run):
        chosen += [partial(fliptest_reading, audits=audits) for audits in flips.values()]
    individual = IndividualAudit()
    if (
        individual.applies(run)
        and audit_oracle(run, individual.setups(run)).kind == "derivative-free"
    ):
        chosen.append(partial(individual_reading, audit=individual))
    return chosen


def figures(frame: pd.DataFrame) -> list[Figure]:
    """Return each reading's runs, agreement over pairs of decided seeds, undecided share, cost."""
    found = []
    for reading, part in frame.groupby("reading", sort=False):
        pairs = agreeing = undecided = 0
        for _, verdicts in part.groupby("run")["verdict"]:
            decided = [v for v in verdicts if "undecided" not in v]
            undecided += len(verdicts) - len(decided)
            for a, b in itertools.combinations(decided, 2):
                pairs, agreeing = pairs + 1, agreeing + same(a, b)
        runs = part["run"].nunique()
        found.append(Figure("runs", reading, runs, runs, quoted=f"{reading} | {runs} |"))
        low, high = binomtest(agreeing, pairs).proportion_ci() if pairs else (np.nan, np.nan)
        found.append(Figure("decided seed pairs agreeing", reading, pairs, agreeing / pairs,
                            low, high, quoted=f"| {100 * agreeing / pairs:.1f} % |"))  # fmt: skip
        if not reading.startswith("fliptest"):
            share = rate("(run, seed) audits undecided", reading, undecided, len(part))
            found.append(replace(share, quoted=f"{100 * share.value:.1f} %"))
        seconds = part["seconds"].mean()
        found.append(
            Figure("CPU s per audit", reading, len(part), seconds, quoted=f"{seconds:.3f}")
        )
    return found


def main() -> None:
    """Audit every sampled run under each seed, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=10, help="audit every n-th planned run")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    # the audit's maps per seed, kept per split: with the parts of a sampled map, and without
    flips = {
        parts: {1000 + seed: SeededFlipTest(parts) for seed in range(args.seeds)}
        for parts in (PARTS, 0)
    }
    runs, datasets, rows = planned(args.every), {}, []
    start = time.perf_counter()
    for i, spec in enumerate(runs, 1):
        run = fitted(spec, datasets)
        chosen = readings(run, flips)  # what applies depends on the run, not on the seed
        for seed in range(args.seeds):
            seeded = AuditedRun(run.split, run.model, run.y_pred, run.scores, seed=1000 + seed)
            for reading in chosen:
                verdicts, seconds = timed(reading, seeded)
                rows += [{"run": spec.key, "reading": name, "seed": seed, "verdict": verdict,
                          "seconds": seconds} for name, verdict in verdicts.items()]  # fmt: skip
        if i % 10 == 0:
            print(f"  {i}/{len(runs)} runs", flush=True)
    command = (
        f"python docs/measured/audit_reproducibility.py --every {args.every} --seeds "
        f"{args.seeds}, {time.perf_counter() - start:,.0f} s"
    )
    write(figures(pd.DataFrame(rows)), "audit_reproducibility.csv", command)


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
