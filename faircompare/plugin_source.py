"""A fingerprint of a plugin's own code, recorded among its runs' inputs.

A plugin's author may change its code and forget to bump its ``version``; its stored runs must
then be reported as stale, as runs of changed data are. faircompare's own algorithms and audits
keep their ``version`` alone: the package's version is among the inputs too.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
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
        :func:`files_fingerprint` of every Python file of the module's top-level package (a
        helper module it imports is code of the plugin too), or of the module's file when it
        is not in a package; None when ``obj`` is defined in faircompare or its module's file
        cannot be found.
    """
    module = inspect.getmodule(obj if inspect.isclass(obj) or callable(obj) else type(obj))
    if module is None or module.__name__.partition(".")[0] == "faircompare":
        return None
    package = sys.modules.get(module.__name__.partition(".")[0])
    folders = [Path(folder) for folder in getattr(package, "__path__", [])]
    if folders:
        return files_fingerprint(_python_files(folders[0]), folders[0])
    path = getattr(module, "__file__", None)
    return files_fingerprint([Path(path)]) if path and Path(path).is_file() else None


def folder_fingerprint(plugin_file: Path) -> str:
    """Return a digest of every Python file under a plugin file's folder (they may import it).

    Parameters
    ----------
    plugin_file
        A plugin file of a ``--plugins`` folder.

    Returns
    -------
    str
        :func:`files_fingerprint` of the ``*.py`` files of the folder and its subfolders.
    """
    return files_fingerprint(_python_files(plugin_file.parent), plugin_file.parent)


def _python_files(folder: Path) -> list[Path]:
    """Return the ``*.py`` files under ``folder``, in a fixed order."""
    return sorted(folder.rglob("*.py"))


def files_fingerprint(paths: Iterable[Path], folder: Path | None = None) -> str:
    """Return the first 16 hex digits of a SHA-256 over files' names and contents.

    Parameters
    ----------
    paths
        The files, in a fixed order.
    folder
        The folder their names are taken relative to (a moved helper changes the digest);
        None: their file names alone.

    Returns
    -------
    str
        The digest.
    """
    digest = hashlib.sha256()
    for path in paths:
        name = path.name if folder is None else path.relative_to(folder).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
