"""Write ``dry_run_load.csv`` beside this file: the dry run's price at rest and on a busy machine.

The dry run prices a study by timing this machine once (``faircompare.benchmark.calibration``)
and scaling the cost table by it. Here ``faircompare run --dry-run`` (the `default` profile, as a
user types it) runs twice, each time with a new data cache (filled from the mirror), so that each
times the machine afresh: first at rest (the one-minute load below 1), then beside one process
spinning on every core (load at or above the cores' count). The busy price against the price
at rest is the figure the running guide quotes; the calibration's seconds and the load are kept
beside it.

    FAIRCOMPARE_MIRROR=../shared/data python docs/measured/dry_run_load.py
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from audit_error_rates import Figure, write  # the script beside this one

RUNNING = "docs/guide/running.md"
TOTAL = re.compile(r"^([\d,]+) runs, about ([\d.]+) CPU-minutes")
CORES = os.cpu_count() or 1


def wait_for_load(reached: bool, level: float, limit: float = 300.0) -> float:
    """Wait until the one-minute load is at or above ``level`` (or below it); return the load."""
    deadline = time.monotonic() + limit
    while (os.getloadavg()[0] >= level) != reached:
        if time.monotonic() > deadline:
            raise SystemExit(f"the load stayed at {os.getloadavg()[0]:.1f} for {limit:.0f} s")
        time.sleep(5)
    return os.getloadavg()[0]


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """Keep ``processes`` processes spinning on the cores while the block runs."""
    spinning = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)
    ]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def dry_run() -> tuple[float, float, float]:
    """Return the default profile's CPU-minutes, the calibration's seconds and the load then."""
    with tempfile.TemporaryDirectory() as cache:
        environment = os.environ | {"FAIRCOMPARE_CACHE": cache}
        command = [sys.executable, "-m", "faircompare", "run", "--dry-run", "--jobs", "2"]
        printed = subprocess.run(
            command, capture_output=True, text=True, check=True, env=environment
        ).stdout
        minutes = next(float(m[2]) for line in printed.splitlines() if (m := TOTAL.match(line)))
        timed = json.loads((Path(cache) / "calibration.json").read_text())
    return minutes, timed["seconds"], timed["load"]


def main() -> None:
    """Price the default profile at rest, then busy, and write the figures."""
    wait_for_load(reached=False, level=1.0)
    idle, idle_seconds, idle_load = dry_run()
    with busy(CORES):
        wait_for_load(reached=True, level=CORES)
        loaded, busy_seconds, busy_load = dry_run()
    design = (
        f"faircompare run --dry-run --jobs 2 (default profile), a new cache each time; "
        f"at rest: load {idle_load:.1f}, calibration {idle_seconds:.2f} CPU s; busy beside "
        f"{CORES} spinning processes: load {busy_load:.1f}, calibration {busy_seconds:.2f} CPU s"
    )
    change = loaded / idle - 1
    figures = [
        Figure("dry run at rest, CPU-minutes", design, 1, idle, page=RUNNING),
        Figure("dry run busy, CPU-minutes", design, 1, loaded, page=RUNNING),
        Figure(
            "dry run busy against at rest", design, 1, change, page=RUNNING,
            quoted=f"{loaded:.0f} CPU-minutes busy against {idle:.0f} at rest ({change:+.0%})",
        ),
    ]  # fmt: skip
    write(figures, "dry_run_load.csv", "python docs/measured/dry_run_load.py")


if __name__ == "__main__":
    main()
