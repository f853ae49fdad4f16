"""What one invocation of a plan did: the runs counted, the time left, the failures.

:class:`Summary` is what :func:`~faircompare.benchmark.run_plan` returns and what its progress
callback receives; it reads the run records alone, so that the settings that name the callback
(:mod:`faircompare.benchmark.settings`) need not import the scheduler that fills it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from faircompare.records import RunRecord

__all__ = ["Summary"]


@dataclass
class Summary:
    """What one invocation did.

    Attributes
    ----------
    planned
        Runs in the plan.
    skipped
        Runs already stored, not run again.
    done, failed
        Runs that finished, and runs that failed, in this invocation.
    interrupted
        Whether Ctrl-C or SIGTERM stopped the invocation.
    expected, expected_finished
        The expected CPU seconds of the runs to do, and of those finished so far (each run
        counts one when no cost is known).
    changed_data
        The datasets some run read with other content than was planned (the file changed
        while the benchmark ran): those runs are stored with the data they read.
    failures
        ``(where, error)`` of each planned run stored as failed, in this invocation or an
        earlier one (:func:`~faircompare.benchmark.run_benchmark` fills it).
    report
        The report's page, once written (:func:`~faircompare.benchmark.run_benchmark`).
    """

    planned: int
    skipped: int
    done: int = 0
    failed: int = 0
    interrupted: bool = False
    expected: float = 0.0
    expected_finished: float = 0.0
    changed_data: set[str] = field(default_factory=set)
    failures: tuple[tuple[str, str], ...] = ()
    report: Path | None = None

    def add(self, record: RunRecord, cost: float) -> None:
        """Count a finished run.

        Parameters
        ----------
        record
            The run's record.
        cost
            Its expected CPU seconds.
        """
        self.expected_finished += cost
        if record.status == "done":
            self.done += 1
        else:
            self.failed += 1
        if record.data is not None and record.data != dict(record.spec.inputs).get("data"):
            self.changed_data.add(record.spec.dataset)

    def seconds_left(self, elapsed: float) -> float:
        """Return the time the rest should take, at the pace of the expected cost so far.

        Parameters
        ----------
        elapsed
            Seconds since the invocation started.

        Returns
        -------
        float
            ``elapsed`` times the expected cost left over the expected cost finished: weighed
            by cost, not by runs, so cheap runs early (or late) do not mislead it.
        """
        if self.expected_finished <= 0:
            return float("nan")
        return elapsed * max(self.expected - self.expected_finished, 0.0) / self.expected_finished
