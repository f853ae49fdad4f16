"""Write ``audit_error_rates.csv`` beside this file: the audits' error rates the docs quote.

Each row is one number the audits guide (and the FAQ) states, with its design, its
replications and a 95% interval where it is a rate; its ``quoted`` column is the text the docs
print, which ``tests/test_measured_figures.py`` finds in its ``page``. Designs:

- **Permutation audit, global null**: the audit of the ``default`` profile (sequential tests,
  cap 300,000, resampling risk 1e-3; :class:`~faircompare.audits.permutation.PermutationAudit`)
  on runs of 1,000 test rows whose labels (base rate 0.4) and predictions (positive rate 0.5)
  are drawn independently of the groups: two groups (shares 0.6, 0.4) or five (0.4, then 0.15
  each; the pooled tests and each metric's comparisons of the groups). A run *rejects* when any
  of its verdicts is a decided rejection, read per family (the report's default) or run-wide
  (``--adjust run``); the mean and median permutations are over its pooled tests.
- **Permutation audit, a real effect**: the five-group design, but group e's predictions
  positive at 0.2 (strong) or 0.38 (moderate) against 0.5 for the others; a run *detects* the
  effect when any verdict is a decided rejection.
- **Individual test at its null's boundary**: Maity et al.'s App. E model theta = (1.6, 0),
  attacked as App. E.3 says, on fresh audit sets of n points; delta is the model's audit value
  itself (the mean ratio over 400,000 fresh points), so that the loss-ratio test's null holds
  with equality, and each calibration's rejection rate at 0.05 is the test's level.
The undecided verdicts of a study are measured by ``undecided_verdicts.py``. The file's first
line says when, on what machine and under what load it was made.

    python docs/measured/audit_error_rates.py [--runs 4000] [--audits 4000]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from faircompare import __version__
from faircompare.analysis import tidy
from faircompare.audits import AuditedRun, AuditOptions
from faircompare.audits.permutation import PermutationAudit
from faircompare.datasets.synthetic import maity_two_groups
from faircompare.preprocessing.splits import Split
from faircompare.stats.individual import explicit_metric, logistic_loss_ratios, loss_ratio_test

HERE = Path(__file__).parent
ROWS = 1_000  # test rows of a simulated run
FIVE_GROUPS = (0.4, 0.15, 0.15, 0.15, 0.15)
TWO_GROUPS = (0.6, 0.4)
ATTACK = {"lam": 100.0, "steps": 400, "step_size": 0.02, "decay": 2 / 3}  # App. E.3
MODEL = (1.6, 0.0)  # an unfair model of App. E: its audit value is delta at the boundary
AUDITS_GUIDE = "docs/guide/audits.md"


@dataclass(frozen=True)
class Figure:
    """One measured number, as the CSV holds it."""

    quantity: str
    design: str
    replications: int
    value: float
    low: float = np.nan
    high: float = np.nan
    quoted: str = ""
    page: str = AUDITS_GUIDE


def rate(quantity: str, design: str, hits: int, n: int, page: str = AUDITS_GUIDE) -> Figure:
    """Return a rate with its Clopper-Pearson 95% interval, quoted ``0.170 [0.135, 0.211]``."""
    low, high = binomtest(hits, n).proportion_ci()
    quoted = f"{hits / n:.3f} [{low:.3f}, {high:.3f}]"
    return Figure(quantity, design, n, hits / n, low, high, quoted, page)


def counted(quantity: str, design: str, hits: pd.Series, page: str, joint: str = " of ") -> Figure:
    """Return the share of ``hits`` that are true, quoted as a count: ``5 of 60``."""
    k, n = int(hits.astype(bool).sum()), len(hits)
    return replace(rate(quantity, design, k, n, page), quoted=f"{k:,}{joint}{n:,}")


def provenance(command: str) -> str:
    """Return the first line: faircompare, date, machine, load at the end, the command."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"# faircompare {__version__}, {date.today()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} cores, load {load} at the end; {command}\n"
    )


def simulated_run(seed: int, shares: tuple[float, ...], effect: float | None) -> pd.DataFrame:
    """One run's permutation rows, audited as the ``default`` profile audits."""
    rng = np.random.default_rng(seed)
    names = np.array(list("abcde"[: len(shares)]))
    groups = rng.choice(names, size=ROWS, p=shares)
    y = rng.binomial(1, 0.4, ROWS)
    positive = np.full(ROWS, 0.5)
    if effect is not None:
        positive[groups == "e"] = effect
    y_pred = rng.binomial(1, positive)
    none = np.empty(0)
    split = Split(
        pd.DataFrame(), none, none, pd.DataFrame(index=range(ROWS)), y, groups, "a",
        "simulated", "numerical", "group", 0, seed, none, np.arange(ROWS),
    )  # fmt: skip
    rows = PermutationAudit()(AuditedRun(split, None, y_pred, None, seed=seed), AuditOptions())
    return pd.DataFrame([row._asdict() for row in rows]).assign(key=f"run {seed}")


def rejecting(audits: pd.DataFrame, adjustment: str) -> int:
    """Count the runs with a decided rejection among their verdicts."""
    verdicts = tidy.permutation_verdicts(audits, adjustment=adjustment)
    rejects = (verdicts == "reject").groupby(audits.loc[verdicts.index, "key"]).any()
    return int(rejects.sum())


def permutation_figures(runs: int) -> list[Figure]:
    """Measure the rejection rates, per family and run-wide, and the permutations drawn."""
    figures = []
    for label, shares, effect, n in (
        ("null, 2 groups", TWO_GROUPS, None, runs),
        ("null, 5 groups", FIVE_GROUPS, None, runs),
        ("strong effect, 5 groups", FIVE_GROUPS, 0.2, max(runs // 20, 100)),
        ("moderate effect, 5 groups", FIVE_GROUPS, 0.38, max(runs // 10, 100)),
    ):
        audits = pd.concat([simulated_run(seed, shares, effect) for seed in range(n)])
        audits = audits.reset_index(drop=True)
        what = "runs detecting it" if effect else "runs rejecting anything"
        for adjustment in ("family", "run"):
            design = f"{label}, read {'per family' if adjustment == 'family' else 'run-wide'}"
            figures.append(rate(what, design, rejecting(audits, adjustment), n))
        if effect is None:
            pooled = tidy.audit_details(audits, "permutation").query("scope == 'rest'")
            drawn = pooled["permutations"].dropna()
            for name, value in (("mean", drawn.mean()), ("median", drawn.median())):
                figures.append(Figure(f"permutations per pooled test, {name}", label,
                                      len(drawn), value, quoted=f"{value:,.0f}"))  # fmt: skip
        print(f"  {label}: {n:,} runs", flush=True)
    return figures


def individual_figures(audits: int) -> list[Figure]:
    """Measure the loss-ratio test's level at its null's boundary, n = 200 and 400."""
    metric = explicit_metric([0, 1])

    def drawn(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        data = maity_two_groups(n, seed)
        return data[["x1", "x2"]].to_numpy(), data["y"].to_numpy()

    def ratios(n: int, seed: int) -> np.ndarray:
        return logistic_loss_ratios(MODEL, *drawn(400, 0), *drawn(n, seed), metric, **ATTACK)

    delta = float(ratios(400_000, 1).mean())
    figures = []
    for n in (200, 400):
        audited = ratios(audits * n, n).reshape(audits, n)  # a seed of its own per n
        for calibration in ("bootstrap-t", "normal"):
            hits = sum(
                loss_ratio_test(np.ones(n), r, delta=delta, calibration=calibration).reject
                for r in audited
            )
            design = f"App. E model at the null's boundary, n = {n}, {calibration}"
            figures.append(rate("level at 0.05", design, int(hits), audits))
        print(f"  individual, n = {n}: {audits:,} audits", flush=True)
    return figures


def main() -> None:
    """Measure, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4_000, help="simulated runs per null")
    parser.add_argument("--audits", type=int, default=4_000, help="individual audits per n")
    args = parser.parse_args()
    start = time.perf_counter()
    figures = permutation_figures(args.runs) + individual_figures(args.audits)
    command = (
        f"python docs/measured/audit_error_rates.py --runs {args.runs} --audits {args.audits}, "
        f"{time.perf_counter() - start:,.0f} s"
    )
    write(figures, "audit_error_rates.csv", command)


def write(figures: list[Figure], name: str, command: str) -> None:
    """Write figures to the CSV file ``name`` beside this one, under their provenance line."""
    table = pd.DataFrame(figures)
    target = HERE / name
    target.write_text(
        provenance(command) + table.to_csv(index=False, float_format="%.6g"), encoding="utf-8"
    )
    print(table[["quantity", "design", "quoted"]].to_string(index=False))
    print(f"wrote {target}: {len(table)} figures")


if __name__ == "__main__":
    main()
