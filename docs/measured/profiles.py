"""Write ``profiles.csv`` beside this file: each profile's dry run, as a user reads it.

For every profile, ``faircompare run --profile P --dry-run --jobs 2`` (a subprocess: what a
user types, on this machine and its measured speed, with the optional algorithms installed
here): the planned runs, the expected CPU-hours, and the hours on two workers. Its ``quoted``
column (``27,820 runs, about 9.3 CPU-hours; ...``) is the text the docs print, which
``tests/test_measured_figures.py`` finds on its page; the dry run's own numbers depend on this
machine's speed, which the first line records.

    python docs/measured/profiles.py
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from dataclasses import replace

from audit_error_rates import Figure, write  # the script beside this one

from faircompare.config import PROFILES

# The page that quotes each profile's cost (the running guide's table of profiles).
RUNNING = "docs/guide/running.md"
TOTAL = re.compile(r"^([\d,]+) runs, about ([\d.]+) CPU-(hours|minutes|seconds): about (.+?) on")


def dry_run(profile: str) -> tuple[int, str, str]:
    """Return a profile's planned runs, CPU time and time on two workers, as printed."""
    command = [sys.executable, "-m", "faircompare", "run", "--profile", profile, "--dry-run",
               "--jobs", "2"]  # fmt: skip
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    found = next(m for line in printed.splitlines() if (m := TOTAL.match(line)))
    runs, amount, unit, wall = found.groups()
    return int(runs.replace(",", "")), f"{amount} CPU-{unit}", wall


def installed() -> str:
    """Say which optional algorithms the dry runs plan: a profile plans those installed."""
    missing = [extra for extra, module in (("torch", "torch"), ("aif360", "aif360"))
               if importlib.util.find_spec(module) is None]  # fmt: skip
    return f"without {' and '.join(missing)}" if missing else "every extra installed"


def main() -> None:
    """Run each profile's dry run, then write the figures with their provenance."""
    figures = []
    design = f"faircompare run --dry-run --jobs 2, {installed()}"
    for profile in PROFILES:
        runs, cpu, wall = dry_run(profile)
        figure = Figure(f"the {profile} profile's dry run", design, runs,
                        float(cpu.split()[0]), page=RUNNING)  # fmt: skip
        figures.append(replace(figure, quoted=f"{runs:,} runs, about {cpu}; {wall} on 2 workers"))
    write(figures, "profiles.csv", "python docs/measured/profiles.py")


if __name__ == "__main__":
    main()
