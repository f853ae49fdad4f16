"""The listings of ``faircompare list algorithms`` and ``list audits``, kept between calls.

Describing an algorithm imports its module, and with it scikit-learn, fairlearn, AIF360 or
torch: 4 s on a 2-core machine, for a listing that changes only when faircompare or the
installed packages change. :func:`described` keeps each listing in the cache folder under a key
of exactly that: faircompare's version, the size and modification time of each of its source
files, the Python version, and the name and version of every installed distribution (the names
of their metadata folders). A listing that holds entry points of another distribution is not
kept: that plugin's code may change without its version.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import faircompare
from faircompare.datasets.fetch import cache_dir
from faircompare.names import ALGORITHM_ENTRY_POINTS, AUDIT_ENTRY_POINTS
from faircompare.safe_write import WriteError, make_folder, write_text

__all__ = ["algorithm_listing", "audit_listing", "described"]

Listing = list[dict[str, Any]]
_METADATA = (".dist-info", ".egg-info", ".egg-link", ".pth")


def algorithm_listing(plugins: str | Path | None = None) -> Listing:
    """Describe every algorithm, as ``faircompare list algorithms`` prints them.

    Parameters
    ----------
    plugins
        A folder of plugin files, described too (and then nothing is read from the cache: a
        plugin file may change at any time).

    Returns
    -------
    list of dict
        :meth:`faircompare.registry.Algorithm.describe` of each registered algorithm, in the
        registry's order.
    """

    def compute() -> Listing:
        from faircompare.registry import algorithms

        return [algorithm.describe() for algorithm in algorithms(plugins).values()]

    return (
        compute()
        if plugins is not None
        else described("algorithms", ALGORITHM_ENTRY_POINTS, compute)
    )


def audit_listing() -> Listing:
    """Describe every registered audit, as ``faircompare list audits`` prints them.

    Returns
    -------
    list of dict
        ``audit`` (its name), ``version`` and ``description`` (its docstring's first line).
    """

    def compute() -> Listing:
        from faircompare.audits.registry import registered_audits
        from faircompare.registry import docstring_summary

        return [
            {"audit": name, "version": audit.version, "description": docstring_summary(audit)}
            for name, audit in registered_audits().items()
        ]

    return described("audits", AUDIT_ENTRY_POINTS, compute)


def described(kind: str, group: str, compute: Callable[[], Listing]) -> Listing:
    """Return a listing from the cache where nothing it depends on changed, else compute it.

    Parameters
    ----------
    kind
        The listing's name (``algorithms``, ``audits``), part of its file's name.
    group
        The entry-point group the listing reads; a listing is kept only while every entry point
        of the group is faircompare's own.
    compute
        Builds the listing (JSON-serialisable rows).

    Returns
    -------
    list of dict
        The listing, as ``compute`` gave it (read back from JSON when kept).
    """
    if not _own_entry_points(group):
        return compute()
    cache = cache_dir()
    folder = cache / "described"
    path = folder / f"{kind}-{environment_key()}.json"
    with contextlib.suppress(OSError, ValueError):  # absent or unreadable: computed again
        listing: Listing = json.loads(path.read_text(encoding="utf-8"))
        return listing
    listing = compute()
    with contextlib.suppress(OSError, WriteError):  # unwritable: it costs the next call only
        for stale in folder.glob(f"{kind}-*.json"):
            stale.unlink()
        write_text(make_folder(folder, cache) / path.name, json.dumps(listing), root=cache)
    return listing


def environment_key() -> str:
    """Return a digest of what the listings depend on: faircompare's code, the packages installed.

    Returns
    -------
    str
        16 hex digits of a SHA-256 over faircompare's version, its source files' relative
        paths, sizes and modification times, the Python version, and the metadata folders'
        names (``name-version.dist-info``) on ``sys.path``.
    """
    package = Path(faircompare.__file__).parent
    stamp: list[Any] = [faircompare.__version__, sys.version]
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        stamp.append([str(path.relative_to(package)), stat.st_size, stat.st_mtime_ns])
    for entry in sys.path:
        with contextlib.suppress(OSError):  # a path entry that is not a folder
            stamp.append([entry, sorted(n for n in os.listdir(entry) if n.endswith(_METADATA))])
    return hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:16]


def _own_entry_points(group: str) -> bool:
    """Whether every entry point of ``group`` is faircompare's."""
    return all(
        point.dist is not None and point.dist.name == "faircompare"
        for point in entry_points(group=group)
    )
