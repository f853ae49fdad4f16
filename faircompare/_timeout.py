"""A time limit for work in the main thread: benchmark runs and plugin checks."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any


class RunTimeoutError(Exception):
    """Work that exceeded its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`RunTimeoutError` in this thread after ``seconds``.

    The limit is a SIGALRM timer, so it applies in the main thread only (the benchmark's worker
    processes, inline runs and plugin checks), and a run can catch it or sit in native code
    past it: the worker pool also ends a run from outside (:mod:`faircompare.benchmark.
    workers`). Limits nest:
    inside a longer one (a spec's expression inside a run) the inner applies and the outer's
    timer goes on afterwards with the time it has left; inside a shorter one, the outer applies.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise RunTimeoutError(f"stopped at the time limit of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # the outer limit resumes with what it has left (at once if nothing)
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-6))
