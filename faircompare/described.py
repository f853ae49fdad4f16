"""The listings of ``faircompare list``: each as JSON-ready records, and as the table it prints.

A ``..._listing`` function describes what faircompare provides (records, ``list ... --json``);
a ``..._rows`` function makes a listing's table rows (the columns ``list ...`` prints). The
command line only prints them.

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
import dataclasses
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import faircompare
from faircompare.choices import ALGORITHM_ENTRY_POINTS, AUDIT_ENTRY_POINTS
from faircompare.datasets.fetch import cache_dir
from faircompare.safe_write import WriteError, make_folder, write_text

__all__ = [
    "algorithm_listing",
    "algorithm_rows",
    "audit_listing",
    "dataset_rows",
    "described",
    "measure_listing",
    "profile_listing",
    "profile_rows",
]

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


def algorithm_rows(listing: Listing) -> Listing:
    """Return the table rows of an algorithm listing: name, family, library, variants, grid, source.

    Parameters
    ----------
    listing
        Records of :func:`algorithm_listing`.

    Returns
    -------
    list of dict
        One row per algorithm; an unavailable one's source says why.
    """
    return [
        {
            "algorithm": d["name"],
            "family": d["family"],
            "library": d["library"] or "-",
            "variants": ", ".join(d["supports"]) or "-",
            "grid": ", ".join(f"{k} ({len(v)})" for k, v in d["param_grid"].items()) or "-",
            "source": d["source"] if d["available"] else f"UNAVAILABLE: {d['reason']}",
        }
        for d in listing
    ]


def dataset_rows(listing: Listing) -> Listing:
    """Return the table rows of a dataset listing: rows, label, features, groups, cleaning.

    Parameters
    ----------
    listing
        Each dataset's ``describe()`` (a dataset not fetched: its spec's, with ``rows`` None).

    Returns
    -------
    list of dict
        One row per dataset; its sensitive attributes with their privileged value and number
        of groups (``?`` before it is fetched).
    """
    from faircompare.datasets import removed_text

    return [
        {
            "dataset": d["name"],
            "rows": "not fetched" if d["rows"] is None else d["rows"],
            "label": f"{d['label']} = {d['positive_label']!r}",
            "features": d.get("features", "-"),
            "sensitive (privileged; groups)": ", ".join(
                f"{attribute} ({info['privileged']}; {len(info.get('groups', ())) or '?'})"
                for attribute, info in d["sensitive"].items()
            ),
            "removed by cleaning": removed_text(d.get("removed", {}).items()) or "none",
        }
        for d in listing
    ]


def measure_listing() -> Listing:
    """Describe every measure of the catalogue, as ``faircompare list measures`` prints them.

    Returns
    -------
    list of dict
        ``measure``, ``kind``, ``ideal``, ``range``, ``paper name``, ``needs scores``,
        ``description`` and ``peers`` (the relation to the libraries' measure of its name).
    """
    from faircompare.measures import MEASURES

    return [
        {
            "measure": m.name,
            "kind": m.kind,
            "ideal": m.ideal,
            "range": m.interval,
            "paper name": m.paper_name("", "{attribute}") or "",
            "needs scores": m.needs_scores,
            "description": m.description,
            "peers": m.peers,
        }
        for m in MEASURES.values()
    ]


def profile_listing() -> dict[str, dict[str, Any]]:
    """Describe every ready-made study (``--profile``): each field of what it runs.

    Returns
    -------
    dict
        ``{profile: {field: value}}``; the settings of how a plan runs and where its data is,
        which a profile leaves to the user (``jobs``, ``mirror``, ...), are not shown.
    """
    from faircompare.config import PROFILES
    from faircompare.config.settings import RUN_FIELDS

    return {
        name: {k: v for k, v in dataclasses.asdict(config).items() if k not in RUN_FIELDS}
        for name, config in PROFILES.items()
    }


def profile_rows(listing: dict[str, dict[str, Any]]) -> Listing:
    """Return the table rows of the profiles: datasets, attributes, variants, algorithms, ...

    Parameters
    ----------
    listing
        :func:`profile_listing`.

    Returns
    -------
    list of dict
        One row per profile; a field of many names is counted (``31 named``).
    """
    return [
        {
            "profile": name,
            "datasets": ", ".join(d["datasets"]),
            "attributes": _listed(d["sensitive_attributes"]),
            "variants": _listed(d["variants"]),
            "algorithms": _listed(d["algorithms"]),
            "splits": d["splits"],
            "grid": "tuned" if d["tune"] else ("yes" if d["grid"] else "no"),
            "budgets": ", ".join(map(str, d["tuning_budgets"])) or "-",
            "audits": "yes" if d["audits"] else "no",
        }
        for name, d in listing.items()
    ]


def _listed(value: str | Sequence[str]) -> str:
    """Return a field that is a keyword (``all``) or names as table text: few names, or a count."""
    if isinstance(value, str):
        return value
    return ", ".join(value) if len(value) <= 2 else f"{len(value)} named"


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
