"""The progress line of a benchmark: a bar of the expected work, runs, failures, time left."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from faircompare.benchmark.summary import Summary
from faircompare.records import RunRecord

_BAR = 30  # characters of the progress bar
_LOG_STEPS = 20  # progress lines a log gets: one per 5 % of the expected work
# The time left is printed from this share of the expected work on: before it, one run's
# misestimated cost (the first records of ACSIncome's modern profile) swings it a hundredfold.
_ETA_FROM = 0.05


def progress_printer(stream: TextIO | None = None) -> Callable[[RunRecord, Summary], None]:
    """Build a progress display: a bar of the expected work, runs, failures and time left.

    The bar and the time left are weighed by the runs' expected costs (see :class:`Summary`).
    On a terminal the line is redrawn after every run; elsewhere (a log file, CI) a line is
    written at every twentieth (5 %) of the expected work. The time left is given from 5 % of
    the expected work on, when a run whose cost was misjudged no longer dominates it. The
    display writes to ``stream``, by default the standard error at the time it is built.
    """
    stream = sys.stderr if stream is None else stream
    start = time.monotonic()
    live = stream.isatty()
    steps = [-1]  # the last twentieth of the work written (a log gets one line per step)

    def show(result: RunRecord, summary: Summary) -> None:
        total = summary.planned - summary.skipped
        finished = summary.done + summary.failed
        share = summary.expected_finished / summary.expected if summary.expected else 1.0
        step = _LOG_STEPS if finished == total else int(_LOG_STEPS * share)
        if not live and step == steps[0]:
            return
        steps[0] = step
        elapsed = time.monotonic() - start
        left = summary.seconds_left(elapsed)
        eta = f"ETA {left:.0f} s" if share >= _ETA_FROM else f"ETA from {_ETA_FROM:.0%} done"
        filled = round(_BAR * share)
        line = (
            f"[{'#' * filled}{'-' * (_BAR - filled)}] {share:.0%} of the expected work, "
            f"{finished}/{total} runs, {summary.failed} failed, {elapsed:.0f} s elapsed, {eta}"
        )
        stream.write(f"\r{line} " if live else f"{line}\n")
        if live and finished == total:
            stream.write("\n")
        stream.flush()

    return show
