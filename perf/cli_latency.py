"""How fast the command line answers: each command's wall time, against ``python -c pass``.

Runs each command several times in fresh processes (as a user types it: ``faircompare ...``,
from the environment this Python belongs to) and prints the median wall time, its ratio to an
interpreter that does nothing, and whether it is within its bound: every ``--help`` and
``--version`` under 0.5 s, ``list ...`` under 1.5 s. ``list algorithms`` and ``list audits``
describe what they list once per installation (:mod:`faircompare.described`): their first
call, in a fresh cache folder, is printed apart, and the bound is the later calls'. ``list
datasets`` is left out: it reads and cleans every dataset, which is data work, not the command
line's start. ::

    python perf/cli_latency.py            # 5 runs each
    python perf/cli_latency.py --runs 9

It prints the load average beside the timings: on a 2-core machine, other work slows each
start. The ratio to ``python -c pass`` is what compares across machines.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_BOUND, LIST_BOUND = 0.5, 1.5
COMMANDS = [
    ("--help",),
    ("--version",),
    ("run", "--help"),
    ("list", "--help"),
    ("report", "--help"),
    ("export", "--help"),
    ("status", "--help"),
    ("check-plugin", "--help"),
    ("new-plugin", "--help"),
    ("fetch-data", "--help"),
    ("list", "algorithms", "--help"),
    ("list", "profiles"),
    ("list", "measures"),
    ("list", "audits"),
    ("list", "algorithms"),
]


KEPT = {("list", "algorithms"), ("list", "audits")}  # described once, then read back


def wall(argv: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """The median wall time of ``argv`` over ``runs`` fresh processes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Runs per command (median).")
    args = parser.parse_args()
    command = str(Path(sys.executable).with_name("faircompare"))
    extras = [m for m in ("torch", "aif360") if _installed(m)]
    print(f"extras installed: {', '.join(extras) or 'none'}; load {os.getloadavg()[0]:.2f}")
    baseline = wall([sys.executable, "-c", "pass"], args.runs)
    print(f"{'python -c pass':<36} {baseline:6.2f} s")
    with tempfile.TemporaryDirectory(prefix="faircompare-cli-") as fresh:  # first calls' cache
        env = {**os.environ, "FAIRCOMPARE_CACHE": fresh}
        within = all([timed(command, words, args.runs, baseline, env) for words in COMMANDS])
    print(f"load {os.getloadavg()[0]:.2f}; every command within its bound: {within}")


def timed(command: str, words: tuple[str, ...], runs: int, baseline: float, env: dict) -> bool:
    """Print a command's answer time (and its first call's, where it keeps a listing)."""
    if words in KEPT:
        first = wall([command, *words], 1, env)
        print(f"faircompare {' '.join(words) + ' (first)':<24} {first:6.2f} s  "
              f"{first / baseline:5.1f} x python")  # fmt: skip
    seconds = wall([command, *words], runs, env)
    bound = LIST_BOUND if words[0] == "list" and "--help" not in words else HELP_BOUND
    print(
        f"faircompare {' '.join(words):<24} {seconds:6.2f} s  {seconds / baseline:5.1f} x "
        f"python  (bound {bound} s: {'yes' if seconds <= bound else 'NO'})"
    )
    return seconds <= bound


def _installed(module: str) -> bool:
    from importlib.util import find_spec

    return find_spec(module) is not None


if __name__ == "__main__":
    main()
