"""Write ``undecided_verdicts.csv`` beside this file: the undecided verdicts of a study's audits.

A verdict is undecided when its Monte Carlo error leaves it on both sides of the level: a
permutation test's Holm-adjusted interval holds 0.05
(:func:`~faircompare.analysis.tidy.permutation_verdicts`), an individual statistic lies within
1.96 Monte Carlo errors of delta after its last attack. Counted on a results folder of the
``default`` study (``python benchmark.py`` from a fresh clone, its ``results``), as the
report counts them: the permutation verdicts of the runs' pooled tests, read per family and
run-wide, the individual statistic the report reads of each run (T_n, or T~_n where T_n is not
defined), every error-ratio test, and the loss-ratio tests apart where their assumption A3
holds (T_n defined) and where the model is near-certain (T_n not read, and not attacked for).
Each count has its Clopper-Pearson 95% interval; its ``quoted`` column (``15 of 500``) is the
text the docs print, which ``tests/test_measured_figures.py`` finds in its ``page``.

    python docs/measured/undecided_verdicts.py --results results
"""

from __future__ import annotations

import argparse
from pathlib import Path

from audit_error_rates import Figure, counted, write  # the script beside this one

from faircompare.analysis import tidy
from faircompare.results import ResultStore
from faircompare.stats.individual import NEAR_CERTAIN_SHARE

FAQ = "docs/faq.md"


def undecided(results: Path) -> list[Figure]:
    """Count each audit's undecided verdicts on a stored study."""
    with ResultStore(results, readonly=True) as store:
        audits = store.audits()
    pooled = tidy.pooled_audits(audits)
    permutation = pooled[pooled["audit"] == "permutation"]
    individual = tidy.audit_details(pooled, "individual")
    tested = individual[individual["statistic"].notna()]
    error, loss = (tested[tested["metric"] == metric] for metric in ("error-ratio", "loss-ratio"))
    near = loss["near_certain"] > NEAR_CERTAIN_SHARE  # T_n is not read: T~_n is
    counts = [
        *(
            (f"permutation verdicts, read {reading}", verdicts == "undecided")
            for reading, verdicts in (
                ("per family", tidy.permutation_verdicts(permutation)),
                ("run-wide", tidy.permutation_verdicts(permutation, adjustment="run")),
            )
        ),
        ("individual verdicts read", tidy.individual_statistics(pooled)["undecided"]),
        ("individual error-ratio tests", error["undecided"]),
        ("individual loss-ratio tests where assumption A3 holds", loss.loc[~near, "undecided"]),
        ("individual loss-ratio tests of near-certain models", loss.loc[near, "undecided"]),
    ]
    design = f"the default study in {results.name}"
    return [counted(f"{what} undecided", design, flags, FAQ) for what, flags in counts]


def main() -> None:
    """Count, then write the figures with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="a default study's folder")
    args = parser.parse_args()
    command = f"python docs/measured/undecided_verdicts.py --results {args.results.name}"
    write(undecided(args.results), "undecided_verdicts.csv", command)


if __name__ == "__main__":
    main()
