"""Write ``reproduction.csv`` and ``reproduction_sweeps.csv`` beside this file.

From ``faircompare reproduce --as-published`` on the original's published files
(``../shared/data/fairness-comparison-results`` by default), 10 splits, its runs stored in a
results folder outside the repository (resumable; a run that failed is not retried here:
``faircompare reproduce ... --retry-failed`` does it). ``reproduction.csv`` is the table's
default-parameter cells, which the reproducing page shows; ``reproduction_sweeps.csv`` counts
the sweeps' cells that agree, as faircompare runs them and with every departure's switch on,
per algorithm, and those no cause explains, which the page quotes. The files' first lines say
when, on what machine and under what load they were made, and with which faircompare.

    python docs/measured/reproduction.py --results /tmp/reproduction --jobs 2
"""

from __future__ import annotations

import argparse
import os
import platform
from datetime import date
from pathlib import Path

import pandas as pd
from audit_error_rates import Figure, counted, write  # the script beside this one
from scipy import stats

from faircompare import __version__
from faircompare.benchmark.progress import progress_printer
from faircompare.config import BenchmarkConfig
from faircompare.reproduction import reproduce
from faircompare.reproduction.table import AGREEMENT

HERE = Path(__file__).parent
PAGE = "docs/reproducing.md"
SHARED = HERE.parents[2] / "shared" / "data" / "fairness-comparison-results"
KEPT = [
    "dataset", "attribute", "original", "algorithm", "measure",
    "published_mean", "published_sd", "published_n", "ours_mean", "ours_sd", "ours_n", "z",
    "verdict", "as_published_mean", "as_published_sd", "as_published_n", "as_published_z",
    "as_published_verdict", "cause",
]  # fmt: skip


def main() -> None:
    """Reproduce, then write the default-parameter cells with their provenance."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--published", type=Path, default=SHARED)
    parser.add_argument("--results", type=Path, required=True, help="outside the repository")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    done = reproduce(
        args.published,
        args.results,
        BenchmarkConfig(splits=10, audits=False, jobs=args.jobs),
        as_published=True,
        sweeps=True,
        progress=progress_printer(),
    )
    cells = done.table[~done.table["sweep"]][KEPT]
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    header = (
        f"# faircompare {__version__}, {date.today()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} cores, load {load} at the end; "
        f"faircompare reproduce --as-published --splits 10 --jobs {args.jobs}\n"
    )
    target = HERE / "reproduction.csv"
    target.write_text(header + cells.to_csv(index=False, float_format="%.6g"), encoding="utf-8")
    print(f"wrote {target}: {len(cells)} cells")
    command = f"python docs/measured/reproduction.py --results {args.results} --jobs {args.jobs}"
    write(sweep_figures(done.table[done.table["sweep"]]), "reproduction_sweeps.csv", command)


def sweep_figures(sweeps: pd.DataFrame) -> list[Figure]:
    """Count the sweeps' cells that agree, in all and per algorithm, and those unexplained."""
    found = []
    for algorithm, cells in [("every algorithm", sweeps), *sweeps.groupby("algorithm")]:
        for mode, verdict in (
            ("as faircompare runs it", "verdict"),
            ("every departure's switch on", "as_published_verdict"),
        ):
            design = f"{algorithm}, {mode}"
            found.append(
                counted("sweep cells that agree", design, cells[verdict] == "agrees", PAGE)
            )
    unexplained = sweeps["cause"].fillna("") == "unexplained"
    for algorithm, cells in [("every algorithm", unexplained),
                             *unexplained.groupby(sweeps["algorithm"])]:  # fmt: skip
        found.append(counted("sweep cells unexplained", str(algorithm), cells, PAGE))
    chance = len(sweeps) * 2 * stats.norm.sf(AGREEMENT)  # cells that agree, beyond it by chance
    found.append(Figure("sweep cells beyond 3 standard errors by chance alone",
                        "every cell agreeing", len(sweeps), chance, quoted=f"{chance:.1f}",
                        page=PAGE))  # fmt: skip
    return found


if __name__ == "__main__":
    main()
