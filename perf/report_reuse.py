"""The report's time: first written, written again unchanged, and after rerunning one algorithm.

On a copy of a stored study (``--results``, e.g. the ``default`` profile's 1,525 runs), in a
fresh report folder:

1. the report as before #50: every part drawn, one at a time, in one process;
2. the first report now: every part drawn, ``--jobs`` at a time in worker processes (every
   core by default), and recorded;
3. the same report written again: every part's inputs unchanged, nothing drawn;
4. one algorithm rerun (``--algorithm``, its runs forced, in the profile the study ran), then the
   report: only the parts whose inputs changed are drawn; a rerun that stores the same numbers
   changes nothing a part reads;
5. that algorithm's numbers changed (its measures scaled by 0.99 in the store, as a new version
   of a plugin would change them), then the report: the configurations it is part of and the
   figures that show it are drawn again.

Each line gives the seconds, the parts drawn and reused, and the ratio to the first report
(2.); the machine's load is printed beside. ::

    FAIRCOMPARE_MIRROR=../shared/data python perf/report_reuse.py --results RESULTS \\
        [--profile default] [--splits N] [--algorithm logistic-regression] [--jobs N]
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
from faircompare.benchmark import run_benchmark
from faircompare.config import PROFILES, cpu_cores
from faircompare.results.store import DATABASE


def timed_report(results: Path, *, reuse: bool, jobs: int) -> tuple[float, str]:
    """Write the report; return its seconds and its line on the parts drawn and reused."""
    lines: list[str] = []
    start = time.perf_counter()
    write_report(results, reuse=reuse, say=lines.append, jobs=jobs)
    seconds = time.perf_counter() - start
    parts = next((line for line in lines if "unchanged since" in line), "report: every part drawn")
    return seconds, parts.removeprefix("report: ")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="a stored study")
    parser.add_argument("--profile", default="default", help="the profile the study ran")
    parser.add_argument("--splits", type=int, help="the splits it ran (default: the profile's)")
    parser.add_argument("--algorithm", default="logistic-regression", help="the one rerun")
    parser.add_argument("--jobs", type=int, default=cpu_cores(), help="drawing processes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder)
        shutil.copy(args.results / DATABASE, results / DATABASE)
        before, _ = timed_report(results, reuse=False, jobs=1)
        print(f"as before: {before:.1f} s, every part drawn in one process (load {load()})")
        first, parts = timed_report(results, reuse=False, jobs=args.jobs)
        print(f"first report, {args.jobs} processes: {first:.1f} s, {parts}; {first / before:.2f} "
              f"of one process's (load {load()})", flush=True)  # fmt: skip
        again, parts = timed_report(results, reuse=True, jobs=args.jobs)
        print(f"again, nothing changed: {again:.1f} s, {parts}; {again / first:.2f} of the first")
        config = PROFILES[args.profile].overridden(algorithms=(args.algorithm,))
        if args.splits is not None:
            config = config.overridden(splits=args.splits)
        summary = run_benchmark(config.overridden(force=True), results, report=False)
        print(f"{args.algorithm} rerun: {summary.done} runs (load {load()})", flush=True)
        after, parts = timed_report(results, reuse=True, jobs=args.jobs)
        print(f"after the rerun: {after:.1f} s, {parts}; {after / first:.2f} of the first "
              f"(load {load()})")  # fmt: skip
        with sqlite3.connect(results / DATABASE) as connection:
            connection.execute(
                "UPDATE measures SET value = value * 0.99 WHERE key IN "
                "(SELECT key FROM runs WHERE algorithm = ?)",
                (args.algorithm,),
            )
        changed, parts = timed_report(results, reuse=True, jobs=args.jobs)
        print(f"after its numbers changed: {changed:.1f} s, {parts}; {changed / first:.2f} of "
              f"the first (load {load()})")  # fmt: skip


if __name__ == "__main__":
    main()
