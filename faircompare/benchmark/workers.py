"""Worker processes that no run can take down with it, and the other ways runs are executed.

The local backend (``processes``) starts its workers itself and watches them from the
coordinating process, so that a run costs at most itself:

- **a worker that dies** (killed by the operating system for lack of memory, a crash in native
  code, a plugin that exits the process) costs the run it was executing: the run is recorded as
  failed with the signal or exit status and the worker's peak memory, the worker is replaced,
  and every other run goes on;
- **the time limit is enforced from outside**: a run still going a short grace after its limit
  (its own timer, :func:`faircompare._timeout.time_limit`, can be caught or delayed by native
  code) is ended with its worker and every process the run started, and recorded as failed;
- **a process a run starts never outlives it**: each worker leads a process group of its own
  and adopts its descendants' orphans, and after each run every other process of that group
  and every descendant of the worker (in any session) is ended.

Runs that share one fit (:func:`faircompare.benchmark.schedule.shared_fits`) go to one worker
together; when that worker dies, the first unfinished run is the one recorded as failed and
the rest of the group goes back to the queue.

``dask`` submits each group to a Dask cluster, where each Dask worker keeps such a watched
worker process of its own (:func:`watched`): the same guarantees, on a cluster. A Dask worker
that is itself lost has its runs retried elsewhere by Dask; a run whose Dask workers keep dying
is recorded as failed. ``inline`` runs everything in this process, one run at a time: for
debugging, with nothing to isolate a run.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

from faircompare._deprecations import moved_names
from faircompare.benchmark.execute import (
    GroupWork,
    execute_runs,
    failed_run,
    remove_folder,
    run_surroundings,
)
from faircompare.config.settings import BenchmarkConfig
from faircompare.exceptions import cut_message
from faircompare.records import RunRecord, RunSpec
from faircompare.registry import algorithms

__getattr__ = moved_names(__name__)  # BACKENDS moved to faircompare.benchmark.settings
_GRACE = (1.0, 30.0)  # seconds a run gets past its limit to stop itself: 5 %, within these
_WATCH = 1.0  # seconds between two looks at the workers (alive? memory?)
_STARTUP = 120.0  # seconds a new worker may take to import what its first run needs
# POT imports every array library it finds, to offer it as a backend; FlipTest calls POT on
# numpy arrays only, so the workers skip them: torch alone is 0.25 GB per worker (the
# algorithms that need torch import it themselves).
_POT_BACKENDS_OFF = ("PYTORCH", "JAX", "TENSORFLOW", "CUPY")
# Native thread pools start with one thread in a worker: workers are the parallelism.
_ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def hard_limit(timeout: float) -> float:
    """Return the seconds after which a run's worker is ended: its limit and a short grace.

    Parameters
    ----------
    timeout
        The run's time limit (:attr:`BenchmarkConfig.timeout`).

    Returns
    -------
    float
        ``timeout`` plus 5 % of it, at least 1 s and at most 30 s: the run's own timer fires
        first, and records where the run stood.
    """
    low, high = _GRACE
    return timeout + min(max(0.05 * timeout, low), high)


def run_groups(
    groups: Iterable[Sequence[RunSpec]], settings: BenchmarkConfig, workers: int = 1
) -> Iterator[RunRecord]:
    """Execute groups of runs on the settings' backend, yielding each record as it finishes.

    Parameters
    ----------
    groups
        Runs grouped by shared fit, in the order to start them.
    settings
        The study's settings: each worker reads how to run a run (time limit, plugins, data
        locations, audits), and this function the backend (one of
        :data:`~faircompare.config.BACKENDS`) and the Dask scheduler (its
        address or scheduler file; a local cluster is started when None).
    workers
        Worker processes (``processes``), or a local Dask cluster's workers.

    Yields
    ------
    RunRecord
        One per run, done or failed, in the order they finish.
    """
    if settings.backend == "inline":
        for group in groups:
            yield from execute_runs(group, settings)
    elif settings.backend == "dask":
        yield from _dask_groups(groups, settings, workers)
    else:
        with WorkerPool(workers, settings) as pool:
            yield from pool.run(groups)


@dataclass
class _Worker:
    """A worker process, its end of the pipe, and the runs it holds (the first is running)."""

    process: subprocess.Popen
    connection: Connection
    scratch: Path  # the worker's temporary directory, where its runs' folders are made
    runs: deque[RunSpec] = field(default_factory=deque)
    started: float = 0.0  # when the running run started (wall clock)
    deadline: float = math.inf  # when it is ended (monotonic clock)
    peak: int = 0  # the largest resident size seen, in bytes


class WorkerPool:
    """Worker processes of this machine, watched: a dead or hanging worker costs one run.

    Each worker is a fresh Python process (``python -c``, so no script of the user's is
    imported again), in a session and process group of its own, talking over a pipe of its
    own: runs in; a "started" message and each run's record out. Only names travel (the runs,
    the settings): a plugin is loaded by the worker from its folder or entry point.

    Parameters
    ----------
    size
        The number of workers (started as runs need them).
    settings
        The study's settings, sent to each worker (its ``timeout`` is enforced from here).
    """

    def __init__(self, size: int, settings: BenchmarkConfig) -> None:
        self.size = size
        self.settings = settings
        self._workers: list[_Worker] = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, groups: Iterable[Sequence[RunSpec]]) -> Iterator[RunRecord]:
        """Execute the groups, yielding each run's record as it arrives.

        Parameters
        ----------
        groups
            Runs grouped by shared fit, in the order to start them.

        Yields
        ------
        RunRecord
            One per run; a run whose worker died or overran its limit is a failed record.
        """
        queue = deque(deque(group) for group in groups if group)
        while queue or any(worker.runs for worker in self._workers):
            self._assign(queue)
            busy = [worker for worker in self._workers if worker.runs]
            nearest = min(worker.deadline for worker in busy) - time.monotonic()
            wait([worker.connection for worker in busy], timeout=max(min(nearest, _WATCH), 0))
            for worker in busy:
                yield from self._collect(worker, queue)

    def close(self) -> None:
        """Stop every worker, and every process they started; a run in flight is abandoned."""
        for worker in self._workers:
            if not worker.runs:
                with contextlib.suppress(OSError):
                    worker.connection.send(None)
        for worker in list(self._workers):
            if not worker.runs:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    worker.process.wait(timeout=5)
            self._discard(worker)

    def _assign(self, queue: deque[deque[RunSpec]]) -> None:
        """Give a group of runs to each idle worker, starting workers up to the pool's size."""
        for worker in [w for w in self._workers if not w.runs and w.process.poll() is not None]:
            self._discard(worker)  # died between runs: nothing of it is lost
        while queue:
            idle = next((worker for worker in self._workers if not worker.runs), None)
            if idle is None and len(self._workers) < self.size:
                idle = self._start()
            if idle is None:
                return
            idle.runs = queue.popleft()
            idle.deadline = time.monotonic() + _STARTUP + hard_limit(self.settings.timeout)
            try:
                idle.connection.send(list(idle.runs))
            except OSError:  # it died just now: the group waits for another
                queue.appendleft(idle.runs)
                self._discard(idle)

    def _start(self) -> _Worker:
        """Start a worker process, with one native thread and POT's optional backends off.

        The worker's temporary directory is a folder of its own, removed with the worker: a
        run's folder (:func:`~faircompare.benchmark.execute.execute_run`) is made in it, so
        what a run killed from outside left there goes too.
        """
        ours, theirs = multiprocessing.Pipe()
        fd = theirs.fileno()
        scratch = Path(tempfile.mkdtemp(prefix="faircompare-worker-"))
        process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_CODE.format(root=_PACKAGE_ROOT, fd=fd)],
            pass_fds=[fd],
            start_new_session=True,
            env=_worker_environment() | {"TMPDIR": str(scratch)},
        )
        theirs.close()
        ours.send(self.settings)
        worker = _Worker(process, ours, scratch)
        self._workers.append(worker)
        return worker

    def _collect(self, worker: _Worker, queue: deque[deque[RunSpec]]) -> Iterator[RunRecord]:
        """Yield what a worker finished; end it, and record its run, if it died or overran."""
        worker.peak = max(worker.peak, _peak_memory(worker.process.pid))
        garbled = None
        try:
            while worker.runs and worker.connection.poll():
                kind, record = worker.connection.recv()
                if kind == "started":
                    worker.started = time.time()
                    worker.deadline = time.monotonic() + hard_limit(self.settings.timeout)
                else:
                    worker.runs.popleft()
                    yield record
        except (EOFError, OSError):  # the worker died while sending: its run is lost
            worker.process.wait()
        except Exception as unreadable:  # something the run wrote to the worker's pipe
            garbled = _garbled(unreadable)
        if not worker.runs:
            return
        overran = time.monotonic() > worker.deadline
        if worker.process.poll() is None and not overran and garbled is None:
            return
        running = worker.runs.popleft()
        if worker.runs:  # the rest of its group goes on elsewhere, first
            queue.appendleft(worker.runs)
        self._discard(worker)
        if garbled is None:
            garbled = _death(worker.process.returncode, worker.peak)
        error = self._overran() if overran else garbled
        yield failed_run(running, error, started=worker.started or None)

    def _discard(self, worker: _Worker) -> None:
        """End a worker and every process it started, and forget it."""
        _end_group(worker.process.pid)
        worker.process.wait()
        worker.connection.close()
        remove_folder(worker.scratch)
        self._workers.remove(worker)

    def _overran(self) -> str:
        return (
            f"RunTimeoutError: stopped at the time limit of {self.settings.timeout:g} s (the run "
            "did not stop itself: its worker process, and every process it started, were ended)"
        )


def _garbled(error: Exception) -> str:
    """Say that a worker's messages could not be read, so it was ended with its run."""
    return cut_message(
        "WorkerPipeError: the worker's message could not be read "
        f"({type(error).__name__}: {error}); something the run wrote to the worker's pipe (file "
        "descriptors it did not open, say) garbled it. The worker was ended with this run; the "
        "other runs went on"
    )


def _death(exitcode: int | None, peak: int) -> str:
    """Say how a worker process ended, and what that most likely means."""
    if exitcode is not None and exitcode < 0:
        number = -exitcode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = "unknown signal"
        killed = number == signal.SIGKILL
        cause = ", most likely by the operating system for lack of memory" if killed else ""
        how = f"was killed by signal {number} ({name}){cause}"
    else:
        killed = False
        how = f"exited with status {exitcode} (the run ended its process: sys.exit or os._exit)"
    memory = f" (its peak memory: {peak / 2**30:.2f} GB)" if peak else ""
    advice = " (with fewer --jobs it gets more memory)" if killed else ""
    return (
        f"WorkerDiedError: the worker process running this run {how}{memory}; the other runs "
        f"went on. Run again with --retry-failed to try it again{advice}"
    )


def _peak_memory(pid: int | None) -> int:
    """Return a process's peak resident size in bytes (Linux's VmHWM), or 0 when unknown."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def _end_group(leader: int) -> None:
    """Kill a worker, every process in its group and every descendant, in any session.

    The descendants are listed before anything is killed: a killed worker's orphans would go to
    init, out of reach.
    """
    descendants = _strays(leader, leader)
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(OSError):  # the group is gone (or not yet made)
            kill(leader, signal.SIGKILL)
    for pid in descendants:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _worker_environment() -> dict[str, str]:
    """Return a worker's environment: this one, with native pools of one thread."""
    environment = dict(os.environ)
    for key in _ONE_THREAD:
        environment.setdefault(key, "1")
    for name in _POT_BACKENDS_OFF:
        environment.setdefault(f"POT_BACKEND_DISABLE_{name}", "1")
    return environment


# A worker imports this very faircompare (a source checkout's too), wherever it was started.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_WORKER_CODE = (
    "import sys\n"
    "if {root!r} not in sys.path: sys.path.insert(0, {root!r})\n"
    f"from {__name__} import serve\n"
    "serve({fd})"
)


def serve(fd: int) -> None:
    """Execute each group of runs received and send each record back: a worker's loop.

    The worker is started by :class:`WorkerPool` in a session and process group of its own,
    so that it and every process a run starts can be ended together, and a terminal's Ctrl-C
    reaches the coordinator only (which then ends the workers). After each run, the processes
    the run left behind are ended.

    Parameters
    ----------
    fd
        The worker's end of the pipe to the coordinator: the settings, then groups of runs in
        (None to stop); ``("started", None)`` and ``("record", record)`` out.
    """
    connection = Connection(fd)
    scratch = Path(tempfile.gettempdir())  # the folder the pool made for this worker
    _adopt_orphans()
    _end_with_coordinator(scratch)
    try:
        settings = connection.recv()
        _load_plugins(settings.plugins)
        while (group := _received(connection)) is not None:
            work = GroupWork()
            for spec in group:
                connection.send(("started", None))
                record = work.execute(spec, settings)
                end_strays()
                connection.send(("record", record))
    finally:  # told to stop, or the coordinator is gone and cannot remove the folder
        remove_folder(scratch)


def _load_plugins(plugins: str | None) -> None:
    """Try and import the plugin files before the first run: their trial is not a run's time.

    Each file is executed in a child process first (:mod:`faircompare._plugin_trial`, a few
    seconds), which within a run would count against its time limit. They are imported as a
    run imported them: in a folder of their own, the process put back afterwards. A folder
    that cannot be loaded is left for the runs, whose records say why.
    """
    if plugins is not None:
        with contextlib.suppress(Exception), run_surroundings():
            algorithms(plugins)


def _received(connection: Connection) -> list[RunSpec] | None:
    """Return the next group of runs; None when the coordinator says stop, or is gone."""
    try:
        return connection.recv()
    except EOFError:
        return None


def _end_with_coordinator(scratch: Path) -> None:
    """Exit, with every process of the worker's group, as soon as the coordinator is gone.

    Killed with ``kill -9``, a coordinator cannot stop its workers, which would live on
    (re-parented to init) with their caches, nor remove their temporary folders; each worker
    watches its parent instead (once a second, in a daemon thread): it ends the processes its
    run started, removes its folder (``scratch``, the one :class:`WorkerPool` made for it) and
    ends itself.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        end_strays()
        remove_folder(scratch)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="faircompare-coordinator-watch", daemon=True).start()


_PR_SET_CHILD_SUBREAPER = 36  # Linux's prctl option (linux/prctl.h)


def _adopt_orphans() -> None:
    """Make this worker the reaper of its descendants' orphans (Linux; elsewhere nothing).

    A process a run starts in a session of its own (``start_new_session=True``, a double fork
    with ``setsid``) leaves the worker's process group, and a double fork's grandchild loses its
    parent; as a child subreaper, the worker adopts it instead of init, so it stays a
    descendant that :func:`end_strays` finds.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def end_strays() -> list[int]:
    """End every other process of this process's group, and every descendant of this process.

    What the last run left running: processes in the worker's group, and those it started in
    sessions of their own (found by parent id through ``/proc``, recursively; orphans are the
    worker's through :func:`_adopt_orphans`). Ending a process may orphan more, so this repeats
    until none is left.

    Returns
    -------
    list of int
        The process ids ended (Linux; elsewhere the group is ended with its worker).
    """
    ended: list[int] = []
    while strays := _strays(os.getpgrp(), os.getpid()):
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in strays:  # reap those that are this process's children
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        ended += strays
        if len(ended) > _MOST_STRAYS:  # a fork bomb outruns the kills: the worker is ended
            os.killpg(0, signal.SIGKILL)
    return ended


_MOST_STRAYS = 10_000


def _strays(group: int, me: int) -> list[int]:
    """Return the live processes of ``group`` and the descendants of ``me``, but ``me``."""
    stats = _process_stats()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    found = {pid for pid, (_, pgrp, _) in stats.items() if pgrp == group}
    waiting = list(children.get(me, []))
    while waiting:
        pid = waiting.pop()
        if pid not in found:
            found.add(pid)
            waiting += children.get(pid, [])
    # a zombie is ended already: only this worker's own are listed, to be reaped
    return sorted(p for p in found if p != me and (stats[p][2] != "Z" or stats[p][0] == me))


def _process_stats() -> dict[int, tuple[int, int, str]]:
    """Return each process's parent id, process group and state, read from ``/proc``."""
    stats = {}
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            stats[int(entry.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return stats


def _dask_groups(
    groups: Iterable[Sequence[RunSpec]], settings: BenchmarkConfig, workers: int
) -> Iterator[RunRecord]:
    """Execute each group as one Dask task, in the Dask worker's own watched worker process.

    A Dask worker runs tasks in threads, where no timer can stop a run, and a run that kills
    its process would take the Dask worker (and every task it holds) with it. So each task
    hands its group to a :class:`WorkerPool` of one process that the Dask worker keeps (one per
    thread, with its caches): the time limit holds and a killed run costs itself, as on this
    machine. A group whose Dask workers themselves kept dying is recorded as failed.
    """
    from dask.distributed import Client, LocalCluster, as_completed

    scheduler = settings.scheduler
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
            client = Client(stack.enter_context(cluster))
        elif Path(scheduler).is_file():  # the file `dask scheduler --scheduler-file` writes
            client = Client(scheduler_file=scheduler)
        else:  # its address, tcp://HOST:8786
            client = Client(scheduler)
        stack.enter_context(client)
        submitted = {
            client.submit(watched, list(group), settings, pure=False): list(group)
            for group in groups
        }
        for future in as_completed(submitted):
            try:
                yield from future.result()
            except Exception as error:  # KilledWorker: Dask gave up on the group's workers
                reason = f"{type(error).__name__}: {error}"
                for spec in submitted[future]:
                    yield failed_run(spec, _lost(reason), trace=traceback.format_exc())
            finally:
                future.release()


_POOLS: dict[tuple[BenchmarkConfig, int], WorkerPool] = {}  # a Dask worker's pools, one per thread


def watched(group: Sequence[RunSpec], settings: BenchmarkConfig) -> list[RunRecord]:
    """Execute a group of runs in this process's watched worker process (started once).

    Parameters
    ----------
    group
        Runs that share one fit.
    settings
        The study's settings.

    Returns
    -------
    list of RunRecord
        One per run; a run whose worker process died or overran is a failed record.
    """
    key = settings, threading.get_ident()
    if key not in _POOLS:
        _POOLS[key] = WorkerPool(1, settings)
    return list(_POOLS[key].run([group]))


def _lost(reason: str) -> str:
    return (
        "WorkerDiedError: the Dask workers running this run died every time it was tried "
        f"({reason}); the other runs went on. Run again with --retry-failed to try it again"
    )
