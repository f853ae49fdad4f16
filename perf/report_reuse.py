"""The report's time: first written, written again unchanged, and after rerunning one algorithm.

On a copy of a stored study (``--results``, e.g. the ``default`` profile's 1,275 runs), in a
fresh report folder:

1. the report as before #50 (``reuse=False``: every part drawn, nothing recorded);
2. the first report that records its parts (the same drawing, and the cache written);
3. the same report written again: every part's inputs unchanged, nothing drawn;
4. one algorithm rerun (``--algorithm``, its runs forced, in the profile the study ran), then the
   report: only the parts whose inputs changed are drawn; a rerun that stores the same numbers
   changes nothing a part reads;
5. that algorithm's numbers changed (its measures scaled by 0.99 in the store, as a new version
   of a plugin would change them), then the report: the configurations it is part of and the
   figures that show it are drawn again.

Each line gives the seconds, the parts drawn and reused, and the ratio to the first report;
the machine's load is printed beside. ::

    FAIRCOMPARE_MIRROR=../shared/data python perf/report_reuse.py --results RESULTS \\
        [--profile default] [--algorithm logistic-regression]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from faircompare.analysis.report import write_report
from faircompare.benchmark import RunSettings, run_benchmark
from faircompare.config import PROFILES
from faircompare.results.store import DATABASE


def timed_report(results: Path, *, reuse: bool) -> tuple[float, str]:
    """Write the report; return its seconds and its line on the parts drawn and reused."""
    lines: list[str] = []
    start = time.perf_counter()
    write_report(results, reuse=reuse, say=lines.append)
    seconds = time.perf_counter() - start
    parts = next((line for line in lines if "unchanged since" in line), "report: every part drawn")
    return seconds, parts.removeprefix("report: ")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="a stored study")
    parser.add_argument("--profile", default="default", help="the profile the study ran")
    parser.add_argument("--algorithm", default="logistic-regression", help="the one rerun")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder)
        shutil.copy(args.results / DATABASE, results / DATABASE)
        first, _ = timed_report(results, reuse=False)
        print(f"as before: {first:.1f} s, every part drawn (load {load()})", flush=True)
        recorded, parts = timed_report(results, reuse=True)
        print(f"first report recording its parts: {recorded:.1f} s, {parts}", flush=True)
        again, parts = timed_report(results, reuse=True)
        print(f"again, nothing changed: {again:.1f} s, {parts}; {again / first:.2f} of the first")
        config = PROFILES[args.profile].overridden(algorithms=(args.algorithm,))
        summary = run_benchmark(config, results, RunSettings(force=True), report=False)
        print(f"{args.algorithm} rerun: {summary.done} runs (load {load()})", flush=True)
        after, parts = timed_report(results, reuse=True)
        print(f"after the rerun: {after:.1f} s, {parts}; {after / first:.2f} of the first "
              f"(load {load()})")  # fmt: skip
        with sqlite3.connect(results / DATABASE) as connection:
            connection.execute(
                "UPDATE measures SET value = value * 0.99 WHERE key IN "
                "(SELECT key FROM runs WHERE algorithm = ?)",
                (args.algorithm,),
            )
        changed, parts = timed_report(results, reuse=True)
        print(f"after its numbers changed: {changed:.1f} s, {parts}; {changed / first:.2f} of "
              f"the first (load {load()})")  # fmt: skip


if __name__ == "__main__":
    main()
