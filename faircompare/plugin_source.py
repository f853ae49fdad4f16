"""A fingerprint of a plugin's own code, recorded among its runs' inputs.

A plugin's author may change its code and forget to bump its ``version``; its stored runs must
then be reported as stale, as runs of changed data are. faircompare's own algorithms and audits
keep their ``version`` alone: the package's version is among the inputs too.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterable
from pathlib import Path


def source_fingerprint(obj: object) -> str | None:
    """Return a digest of the imported module that defines ``obj``; None for faircompare's own.

    Parameters
    ----------
    obj
        A plugin's class, function or instance (from an entry point or an imported module).

    Returns
    -------
    str or None
        :func:`files_fingerprint` of the module's file; None when ``obj`` is defined in
        faircompare or its module's file cannot be found.
    """
    module = inspect.getmodule(obj if inspect.isclass(obj) or callable(obj) else type(obj))
    if module is None or module.__name__.partition(".")[0] == "faircompare":
        return None
    path = getattr(module, "__file__", None)
    return files_fingerprint([Path(path)]) if path and Path(path).is_file() else None


def folder_fingerprint(plugin_file: Path) -> str:
    """Return a digest of every Python file in a plugin file's folder (they may import each other).

    Parameters
    ----------
    plugin_file
        A plugin file of a ``--plugins`` folder.

    Returns
    -------
    str
        :func:`files_fingerprint` of the folder's ``*.py`` files in name order.
    """
    return files_fingerprint(sorted(plugin_file.parent.glob("*.py")))


def files_fingerprint(paths: Iterable[Path]) -> str:
    """Return the first 16 hex digits of a SHA-256 over files' names and contents.

    Parameters
    ----------
    paths
        The files, in a fixed order.

    Returns
    -------
    str
        The digest.
    """
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
