"""How a study runs, read once where the user's input enters and passed down whole.

:class:`RunSettings` is how the coordinating process runs a plan (workers, backend, scheduler,
what to redo, the progress display); :class:`Options` is what each worker needs to run one
(time limit, plugins, data locations, audits). Both are frozen and validated when made, so a
setting is checked in one place: the backend's name in :class:`RunSettings`, the cores this
process may use in :func:`cpu_cores`.

This module imports nothing heavy: the command line, the cost model and the workers read a
setting without loading the run stack.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from faircompare._validation import check_choice, check_settings
from faircompare.exceptions import SettingsError
from faircompare.names import DEFAULT_PERMUTATIONS

if TYPE_CHECKING:
    from faircompare.benchmark.summary import Summary
    from faircompare.config import BenchmarkConfig
    from faircompare.records import RunRecord

__all__ = ["BACKENDS", "Options", "RunSettings", "cpu_cores"]

#: The ways to run a plan: ``processes`` (worker processes this one starts and watches),
#: ``dask`` (a Dask cluster), ``inline`` (this process, one run at a time).
BACKENDS = ("processes", "dask", "inline")


def cpu_cores() -> int:
    """Return the cores this process may use: the default number of workers, and their cap.

    Returns
    -------
    int
        :func:`joblib.cpu_count`, which honours the CPU affinity and a container's CPU quota
        (unlike :func:`os.cpu_count`, which counts the machine's cores).
    """
    import joblib  # imported here: the command line's help does not need it

    return int(joblib.cpu_count())


@dataclass(frozen=True)
class RunSettings:
    """How a plan runs: workers, backend, what to redo and the progress display.

    Attributes
    ----------
    jobs
        Parallel workers asked for; None (the default) for every core this process may use
        (:func:`cpu_cores`). Worker processes and a local Dask cluster get at most one per
        core and per run (:meth:`workers`).
    backend
        ``"processes"`` (worker processes this one watches: a worker that dies or overruns the
        time limit costs its run only), ``"dask"``, or ``"inline"`` (this process, one run at a
        time, for debugging).
    scheduler
        Address of a running Dask scheduler, or the scheduler file it writes (``dask
        scheduler --scheduler-file``; ``backend="dask"`` only); a local cluster is started
        when None.
    force, retry_failed
        Redo every planned run, or the failed ones.
    progress
        Called after each stored run with its record and the counts so far (a progress bar);
        not compared (two settings differing only in it are equal).

    Raises
    ------
    SettingsError
        For ``jobs`` below 1 or not an integer, or a scheduler without the ``dask`` backend.
    ChoiceError
        For an unknown backend, naming the valid ones.
    """

    jobs: int | None = None
    backend: str = "processes"
    scheduler: str | None = None
    force: bool = False
    retry_failed: bool = False
    progress: Callable[[RunRecord, Summary], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "backend", check_choice(self.backend, BACKENDS, what="backend"))
        check_settings(self, SettingsError)
        if self.scheduler is not None and self.backend != "dask":
            raise SettingsError(
                f"a scheduler ({self.scheduler!r}) runs the plan on a Dask cluster: pass "
                f"backend='dask' (--backend dask), not {self.backend!r}"
            )

    def redone(self) -> set[str]:
        """Return the stored statuses run again: both with ``force``, failed with ``retry_failed``.

        Returns
        -------
        set of str
            Statuses of the results store (``done``, ``failed``).
        """
        if self.force:
            return {"done", "failed"}
        return {"failed"} if self.retry_failed else set()

    @property
    def on_this_machine(self) -> bool:
        """Whether the workers run on this machine (every backend but a given Dask scheduler)."""
        return self.scheduler is None

    def workers(self, runs: int) -> int:
        """Return how many workers to start: never more than runs, nor than this machine's cores.

        Parameters
        ----------
        runs
            The runs (or groups of runs sharing a fit) to execute.

        Returns
        -------
        int
            At least 1; ``inline`` runs one at a time. A cluster given by its scheduler is sized
            by the cluster: only ``jobs`` (or the runs) bound it there.
        """
        if self.backend == "inline":
            return 1
        cores = cpu_cores()
        asked = self.jobs if self.jobs is not None else cores
        return max(1, min(asked, runs, cores if self.on_this_machine else asked))

    def local_workers(self) -> int:
        """Return how many processes may work on this machine (drawing the report, say).

        Returns
        -------
        int
            ``jobs`` (every core by default), never more than this machine's cores; 1 for
            ``inline``.
        """
        return replace(self, scheduler=None).workers(cpu_cores())

    def capped(self) -> str | None:
        """Return the note that ``jobs`` is more than this machine's cores, or None.

        Returns
        -------
        str or None
            The line ``faircompare run`` prints when the workers are capped at the cores.
        """
        cores = cpu_cores()
        if self.jobs is None or self.jobs <= cores or not self.on_this_machine:
            return None
        return f"--jobs {self.jobs} is more than this machine's {cores} cores: using {cores}"


@dataclass(frozen=True)
class Options:
    """How workers run: time limit, plugins, data locations and audits (picklable).

    Attributes
    ----------
    timeout
        Seconds after which a run is stopped and recorded as failed.
    plugins
        A folder of plugin files, or None.
    cache, mirror
        The data cache and the local mirror of raw files (None: the defaults).
    audits
        Whether to audit each run.
    permutations
        Most permutations per permutation test (the sequential tests' cap).
    """

    timeout: float = 600.0
    plugins: str | None = None
    cache: str | None = None
    mirror: str | None = None
    audits: bool = True
    permutations: int = DEFAULT_PERMUTATIONS

    def __post_init__(self) -> None:
        check_settings(self, SettingsError)  # the configuration's rules, for options made directly
        # Absolute from the start: a run never depends on the working directory (a plugin may
        # change it, and workers may start elsewhere).
        for name in ("plugins", "cache", "mirror"):
            if (path := getattr(self, name)) is not None:
                object.__setattr__(self, name, os.path.abspath(path))

    @classmethod
    def from_config(
        cls,
        config: BenchmarkConfig,
        *,
        cache: str | Path | None = None,
        mirror: str | Path | None = None,
    ) -> Options:
        """Return the options of a configuration's runs, with the data locations.

        Parameters
        ----------
        config
            The benchmark's configuration (time limit, plugins, audits).
        cache, mirror
            The data cache and the local mirror of raw files; None for the defaults.

        Returns
        -------
        Options
            The workers' options.
        """
        return cls(
            timeout=config.timeout,
            plugins=config.plugins,
            cache=None if cache is None else str(cache),
            mirror=None if mirror is None else str(mirror),
            audits=config.audits,
            permutations=config.permutations,
        )
