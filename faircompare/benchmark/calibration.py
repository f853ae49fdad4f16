"""Time a few seconds of a benchmark's work once per machine: its speed, for the cost model.

The cost table (``costs.csv``) holds seconds measured on some machine; a dry run on another
machine would quote that machine's seconds. Beside each measured cell the table keeps the
seconds the same fixed workload (:func:`calibration_workload`) took on the machine that measured
it; the runner times the workload here and scales every cell by the ratio. The workload does
what runs do, on one thread: the fits of the baselines (logistic regression, a decision tree,
gradient boosting, an RBF SVM), their predictions, and the optimal transport and linear algebra
of the audits, on seeded synthetic data.

The time is kept in the data cache (``calibration.json``), keyed by what decides it: the
processor, the Python and library versions and faircompare's. A changed machine or a new
version measures again.
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
_REPEATS = 3  # the fastest of three: the machine's speed, not its momentary load


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
        Told in a line when the workload runs (the few seconds it takes).

    Returns
    -------
    float
        The fastest of three timings of :func:`calibration_workload` (after one to warm up).
    """
    path = cache / _FILE
    key = machine_key()
    try:
        stored = json.loads(path.read_text())
        if stored["key"] == key:
            return float(stored["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none yet, or unreadable: measure again
    if say is not None:
        say("timing this machine for the cost model (a few seconds, once per machine)")
    calibration_workload()  # imports and first-call costs are not the machine's speed
    timings = []
    for _ in range(_REPEATS):
        start = time.perf_counter()
        calibration_workload()
        timings.append(time.perf_counter() - start)
    seconds = min(timings)
    try:  # whole or not at all, never through a planted link: another process may read it
        write_text(path, json.dumps({"key": key, "seconds": seconds}, indent=1), root=cache)
    except (OSError, WriteError):
        pass  # a read-only cache measures again next time
    return seconds


def _processor() -> str:
    """Return the processor's model name (Linux's /proc/cpuinfo), else what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
