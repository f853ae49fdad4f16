"""Validate the individual audit's cheaper derivative-free gradient against the previous one.

A study of the audit's version 3 (its directions in every dimension); the audit's version 4 and
its agreement across seeds: ``docs/measured/audit_reproducibility.py``.

Models without an input gradient (trees, naive Bayes, Feldman's pipelines, Calders-Verwer) are
attacked with a Gaussian-smoothing estimate of their loss's gradient
(:func:`faircompare.stats.individual.smoothed_gradient`). Until audit version 3 the benchmark
estimated it at each of the attack's 100 steps from 2 antithetic pairs of directions: 400
predictions of every audit point. A candidate estimates it less often (``gradient_every``: held
for the steps between, while the metric's term is still taken at every step) or from fewer
pairs. On sampled runs of every derivative-free cell of the paper profile (across attributes,
variants and parameters; one split), each scheme audits the run's model with ``--seeds`` seeds
of its random directions. The script prints, per run, T_n and T~_n over the seeds (mean and
standard deviation) for the previous scheme and each candidate, and for each candidate:

- the runs whose mean T_n (and mean T~_n) lie within the previous scheme's Monte Carlo spread,
  its mean +- 2 standard deviations over seeds (+- 0.01 where it hardly varies);
- the share of (run, seed) audits whose accept/reject decisions (of both tests) are the
  previous scheme's with the same seed;
- the CPU seconds of the attacks against the previous scheme's, and the ratio.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw \\
        python perf/individual_gradient.py [--runs 3] [--seeds 5] [--datasets german]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare.algorithms.loss_oracle import model_oracle
from faircompare.audits import AuditedRun
from faircompare.audits.individual import INDIVIDUAL_ATTACK, IndividualAudit, audit_oracle
from faircompare.benchmark import RunSpec, execute, make_plan
from faircompare.config import PROFILES, BenchmarkConfig
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.stats.individual import individual_fairness_test


@dataclass(frozen=True)
class Scheme:
    """How the smoothed gradient is estimated: antithetic pairs, and every how many steps."""

    pairs: int
    every: int
    seeds_from: int = 0  # the first seed of its directions

    @property
    def name(self) -> str:
        other = ", other seeds" if self.seeds_from else ""
        return f"{self.pairs} pair(s), every {self.every} step(s){other}"


PREVIOUS = Scheme(pairs=2, every=1)  # audit version 3
# The previous scheme with other seeds: how far the previous scheme agrees with itself.
REFERENCE = Scheme(pairs=2, every=1, seeds_from=1000)
SPREAD_FLOOR = 0.01  # the spread of a statistic that hardly varies over seeds


def sampled_runs(
    datasets: tuple[str, ...], per_cell: int, seed: int, profile: str = "paper"
) -> list[RunSpec]:
    """``per_cell`` runs of every (dataset, algorithm) cell of a profile at split 0."""
    config = PROFILES[profile].overridden(datasets=datasets, splits=1)
    runs = [r for r in make_plan(config).runs if r.variant != "original"]
    rng = np.random.default_rng(seed)
    chosen: list[RunSpec] = []
    for cell in dict.fromkeys((r.dataset, r.algorithm) for r in runs):
        pool = [r for r in runs if (r.dataset, r.algorithm) == cell]
        chosen += [pool[i] for i in rng.choice(len(pool), min(per_cell, len(pool)), False)]
    return chosen


def audited(spec: RunSpec) -> AuditedRun:
    """The run's split and fitted model, as a benchmark worker has them."""
    prepared = prepare(load_dataset(spec.dataset), spec.variant, spec.sensitive_attribute)
    split = make_split(prepared, spec.split_id, base_seed=spec.base_seed)
    model, _ = execute.fit_model(spec, BenchmarkConfig(), split, {})
    y_pred, scores = execute.predict_rows(spec.algorithm, model, split)
    return AuditedRun(split, model, y_pred, scores, seed=spec.seed)


def audit(run: AuditedRun, audit: IndividualAudit, scheme: Scheme, seed: int) -> dict:
    """T_n, T~_n and their decisions with one scheme and seed, and the attack's CPU seconds."""
    setup = audit.setups(run)
    rng = scheme.seeds_from + seed  # version 3's directions: in every dimension
    oracle = audit_oracle(run, setup, pairs=scheme.pairs, rng=rng, within_free=False)
    start = time.process_time()
    result = individual_fairness_test(
        oracle,
        setup.Z,
        run.split.y_test[setup.rows],
        setup.metric,
        **INDIVIDUAL_ATTACK,
        gradient_every=scheme.every,
    )
    return {
        "T_n": result.loss.lower_bound,
        "T~_n": result.error.lower_bound,
        "reject T_n": result.loss.reject,
        "reject T~_n": result.error.reject,
        "seconds": time.process_time() - start,
    }


def within_spread(candidate: pd.Series, previous: pd.Series) -> bool:
    """Whether the candidate's mean over seeds lies within the previous mean +- 2 sd."""
    if previous.isna().all() and candidate.isna().all():
        return True
    spread = max(2 * previous.std(), SPREAD_FLOOR)
    return bool(abs(candidate.mean() - previous.mean()) <= spread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(PROFILES["paper"].datasets))
    parser.add_argument("--runs", type=int, default=3, help="runs sampled per cell")
    parser.add_argument("--seeds", type=int, default=5, help="seeds of each scheme per run")
    parser.add_argument(
        "--candidates",
        nargs="+",
        default=["1x2", "2x2", "1x4", "2x4"],
        help="schemes as PAIRSxEVERY",
    )
    args = parser.parse_args()
    candidates = [REFERENCE, *(Scheme(*map(int, c.split("x"))) for c in args.candidates)]
    rows = []
    individual = IndividualAudit()
    for spec in sampled_runs(tuple(args.datasets), args.runs, seed=0):
        run = audited(spec)
        if not individual.applies(run) or model_oracle(run.model).kind != "derivative-free":
            continue
        where = f"{spec.dataset}/{spec.sensitive_attribute}/{spec.variant}/{spec.algorithm}"
        where += "".join(f" {name}={value}" for name, value in spec.params)
        for scheme in [PREVIOUS, *candidates]:
            for seed in range(args.seeds):
                rows.append({"run": where, "scheme": scheme.name, "seed": seed,
                             **audit(run, individual, scheme, seed)})  # fmt: skip
        print(f"audited {where}", flush=True)
    frame = pd.DataFrame(rows)
    summary = frame.groupby(["run", "scheme"], sort=False)[["T_n", "T~_n"]].agg(["mean", "std"])
    with pd.option_context("display.width", 200, "display.max_rows", None):
        print("\nT_n and T~_n over seeds, per run and scheme:\n")
        print(summary.round(3).to_string())
    previous = frame[frame["scheme"] == PREVIOUS.name].set_index(["run", "seed"])
    print(f"\nagainst the previous scheme ({PREVIOUS.name}), {frame['run'].nunique()} runs, "
          f"{args.seeds} seeds each:")  # fmt: skip
    for scheme in candidates:
        mine = frame[frame["scheme"] == scheme.name].set_index(["run", "seed"])
        inside = {
            statistic: sum(
                within_spread(mine.loc[run, statistic], previous.loc[run, statistic])
                for run in mine.index.unique("run")
            )
            for statistic in ("T_n", "T~_n")
        }
        decisions = mine[["reject T_n", "reject T~_n"]] == previous[["reject T_n", "reject T~_n"]]
        same = decisions.all(axis=1).mean()
        ratio = previous["seconds"].sum() / mine["seconds"].sum()
        runs = mine.index.unique("run").size
        print(
            f"  {scheme.name:28s} T_n within spread {inside['T_n']}/{runs}, T~_n "
            f"{inside['T~_n']}/{runs}; same decisions {same:.1%}; attack CPU "
            f"{mine['seconds'].sum():.1f} s vs {previous['seconds'].sum():.1f} s ({ratio:.2f}x)"
        )


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
