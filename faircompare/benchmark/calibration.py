"""Time a few seconds of a benchmark's work once per machine: its speed, for the cost model.

The cost table (``costs.csv``) holds seconds measured on some machine; a dry run on another
machine would quote that machine's seconds. Beside each measured cell the table keeps the
seconds the same fixed workload (:func:`calibration_workload`) took on the machine that measured
it; the runner times the workload here and scales every cell by the ratio. The workload does
what runs do, on one thread: the fits of the baselines (logistic regression, a decision tree,
gradient boosting, an RBF SVM), their predictions, and the optimal transport and linear algebra
of the audits, on seeded synthetic data.

The workload is timed in CPU seconds, the fastest of five, so that time spent waiting for a
busy processor does not count; a busy machine still slows each second of work (shared caches,
a core's second thread), so a time taken while other work is running (a load average of at
least one per four cores, and at least one) is said to be high, used while the machine stays
busy, and replaced by the next time taken at rest. The time is kept in the data cache
(``calibration.json``), keyed by what decides it: the processor, the Python and library
versions and faircompare's. A changed machine or a new version measures again; once timed at
rest, the time is the same on a busy and an idle machine.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import numpy as np

from faircompare.safe_write import WriteError, write_text

__all__ = ["calibration_seconds", "calibration_workload", "machine_key"]

_FILE = "calibration.json"
_REPEATS = 5  # the fastest of five: the machine's speed, not its momentary load


def calibration_workload(seed: int = 0) -> None:
    """Do a fixed sample of the benchmark's work on one thread (about a second here).

    Parameters
    ----------
    seed
        Seed of the synthetic data.
    """
    import ot
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(4000, 20))
    y = (X[:, :5].sum(axis=1) + rng.normal(size=4000) > 0).astype(int)
    with threadpool_limits(1):
        for model in (
            LogisticRegression(max_iter=1000),
            DecisionTreeClassifier(random_state=seed),
            GradientBoostingClassifier(n_estimators=50, random_state=seed),
        ):
            model.fit(X, y).predict_proba(X)
        SVC().fit(X[:1500], y[:1500]).decision_function(X)
        a, b = X[:600], X[600:1200] + 0.5
        ot.emd(np.full(600, 1 / 600), np.full(600, 1 / 600), ot.dist(a, b))
        np.linalg.eigh(X.T @ X)


def machine_key() -> dict[str, str]:
    """Return what decides the workload's time: processor, cores, Python and library versions.

    Returns
    -------
    dict
        Strings by name; the cached time is reused only where every one is the same.
    """
    key = {
        "processor": _processor(),
        "machine": platform.machine(),
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
    }
    for package in ("faircompare", "numpy", "scipy", "scikit-learn", "pot"):
        key[package] = version(package)
    return key


def calibration_seconds(cache: Path, say: Callable[[str], None] | None = None) -> float:
    """Return the workload's seconds on this machine, measured once per machine and versions.

    Parameters
    ----------
    cache
        The data cache folder, where the time is kept (``calibration.json``).
    say
        Told in a line when the workload runs (the few seconds it takes), and when the time
        used was taken on a busy machine.

    Returns
    -------
    float
        The fastest of five timings of :func:`calibration_workload` in CPU seconds (after one
        to warm up). A time taken on a busy machine is kept as such: it is used while the
        machine stays busy, and timed again once it is not.
    """
    path = cache / _FILE
    key = machine_key()
    load, cores = _load(), os.cpu_count() or 1
    busy = load >= max(1.0, cores / 4)
    try:
        stored = json.loads(path.read_text())
        if stored["key"] == key and (busy or not stored.get("busy", False)):
            if stored.get("busy", False) and say is not None:
                say(_high(stored["load"], cores, "was"))
            return float(stored["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none yet, unreadable, or timed when busy and now at rest: measure again
    if say is not None:
        say("timing this machine for the cost model (a few seconds, once per machine)")
        if busy:
            say(_high(load, cores, "is"))
    calibration_workload()  # imports and first-call costs are not the machine's speed
    timings = []
    for _ in range(_REPEATS):
        start = time.process_time()
        calibration_workload()
        timings.append(time.process_time() - start)
    seconds = min(timings)
    kept = {"key": key, "seconds": seconds, "load": load, "busy": busy}
    try:  # whole or not at all, never through a planted link: another process may read it
        write_text(path, json.dumps(kept, indent=1), root=cache)
    except (OSError, WriteError):
        pass  # a read-only cache measures again next time
    return seconds


def _high(load: float, cores: int, tense: str) -> str:
    return (
        f"this machine {tense} busy when timed for the cost model (load {load:.1f} on {cores} "
        "cores): the prices may be high; it is timed again when it is not"
    )


def _load() -> float:
    """Return the machine's load average over the last minute (0 where it has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows has none
        return 0.0


def _processor() -> str:
    """Return the processor's model name (Linux's /proc/cpuinfo), else what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
