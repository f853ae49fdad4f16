"""SIGTERM read as Ctrl-C in the main thread: a command or a study stops as it does on Ctrl-C."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[threading.Event]:
    """Raise :class:`KeyboardInterrupt` on SIGTERM while the block runs; the event says it came.

    Every command, and a study run from Python, stops on SIGTERM as on Ctrl-C: workers ended,
    files whole or not written (:mod:`faircompare.safe_write`), finished runs stored. Signals
    reach the main thread alone, so elsewhere nothing changes; and a handler already installed
    (the command line's, around a study; a caller's own) stays, its event never set here.
    """
    came = threading.Event()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield came
        return

    def interrupt(signum: int, frame: Any) -> None:
        came.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield came
    finally:
        signal.signal(signal.SIGTERM, previous)
