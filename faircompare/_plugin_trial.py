"""A plugin file's first execution, in a child process of its own.

A plugin file is Python: executing it can end the process (``sys.exit``, ``os._exit``, a
signal), hang in native code where no timer reaches, or raise what a command would not catch.
So a file is first executed in a child Python process within its time limit, and imported into
the command's own process only where the child imported it; a file that ended, hung or broke
its child is reported, with why, and the command goes on without it. The trial costs a Python
start and the imports of the registry and the file (about 2 s), once per command and file
content. Worker processes try the files too: a worker that a file ended would cost a run that
did not even use the file.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import signal
import subprocess
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType

from faircompare._timeout import RunTimeoutError, time_limit

_STARTUP = 120.0  # seconds the child may take to start Python, before the file's time limit
_GRACE = 5.0  # seconds past the time limit before the child is ended from outside
# the child imports what the command has when it loads plugins (the registry, the algorithms)
# before the time limit starts: the limit is the file's own, as in the command's process
_CHILD_CODE = (
    "import sys\n"
    "if {root!r} not in sys.path: sys.path.insert(0, {root!r})\n"
    "import faircompare.registry\n"
    f"from {__name__} import _report\n"
    "_report({fd}, {path!r}, {timeout!r})"
)
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


def execute(path: Path, timeout: float) -> ModuleType | str:
    """Execute a plugin file in this process within ``timeout`` seconds.

    Returns its module, or why it failed: what it raised, that it ended the process
    (``SystemExit``), or that it did not finish in time (a timer, so Python code only).
    """
    try:
        with time_limit(timeout):
            return _module(path)
    except RunTimeoutError:
        return f"its import did not finish within {timeout:g} s"
    except SystemExit as exited:  # the file's own sys.exit, not the user's
        return f"it ends the process at import (SystemExit {exited.code})"
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"faircompare_plugin_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trial(path: Path, timeout: float) -> str | None:
    """Execute a plugin file in a child process; return why it failed there, None if it did not.

    The child has a session of its own (a terminal's Ctrl-C reaches this process only) and its
    output is discarded (the file prints once, when imported here); it and every process it
    started are ended when the trial is over.
    """
    ours, theirs = multiprocessing.Pipe(duplex=False)
    fd = theirs.fileno()
    code = _CHILD_CODE.format(root=_PACKAGE_ROOT, fd=fd, path=str(path), timeout=timeout)
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        pass_fds=[fd],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    theirs.close()
    try:
        return _outcome(ours, child, timeout)
    finally:
        ours.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def _outcome(connection: Connection, child: subprocess.Popen, timeout: float) -> str | None:
    """Read the child's report: why the file failed, or None; or how the child ended."""
    if not connection.poll(_STARTUP):
        return f"the Python process trying its import did not start within {_STARTUP:g} s"
    try:
        connection.recv()  # started: the time limit runs from here
        if not connection.poll(timeout + _GRACE):
            return f"its import did not finish within {timeout:g} s"
        return connection.recv()
    except EOFError:  # the child ended without a word: the file ended it
        return f"it ends the process at import ({_ending(child.wait())})"


def _ending(status: int) -> str:
    if status < 0:
        with contextlib.suppress(ValueError):
            return f"signal {signal.Signals(-status).name}"
    return f"exit status {status}"


def _report(fd: int, path: str, timeout: float) -> None:
    """Execute the file in this child, send why it failed (or None), and end at once."""
    connection = Connection(fd)
    connection.send("started")
    try:
        outcome = execute(Path(path), timeout)
    except BaseException as error:  # KeyboardInterrupt and the like, raised by the file
        outcome = f"{type(error).__name__}: {error}"
    connection.send(outcome if isinstance(outcome, str) else None)
    os._exit(0)  # what the file left running (threads, exit handlers) does not keep the child
