"""Write ``reproduction.csv`` beside this file: the reproduction table's default-parameter cells.

The table the reproducing page shows, from ``faircompare reproduce --as-published --no-sweeps``
on the original's published files (``../shared/data/fairness-comparison-results`` by default),
10 splits, its runs stored in a results folder outside the repository (resumable). The file's
first lines say when, on what machine and under what load it was made, and with which
faircompare.

    python docs/measured/reproduction.py --results /tmp/reproduction --jobs 2
"""

from __future__ import annotations

import argparse
import os
import platform
from datetime import date
from pathlib import Path

from faircompare import __version__
from faircompare.benchmark.progress import progress_printer
from faircompare.config import BenchmarkConfig
from faircompare.reproduction import reproduce

HERE = Path(__file__).parent
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
        sweeps=False,
        progress=progress_printer(),
    )
    cells = done.table[~done.table["sweep"]][KEPT]
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    header = (
        f"# faircompare {__version__}, {date.today()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} cores, load {load} at the end; "
        f"faircompare reproduce --as-published --no-sweeps --splits 10 --jobs {args.jobs}\n"
    )
    target = HERE / "reproduction.csv"
    target.write_text(header + cells.to_csv(index=False, float_format="%.6g"), encoding="utf-8")
    print(f"wrote {target}: {len(cells)} cells")


if __name__ == "__main__":
    main()
