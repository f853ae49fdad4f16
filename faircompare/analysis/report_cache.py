"""What the report drew last time, reused where nothing a part reads has changed.

Each part of the report (a configuration's stability figure, the rankings, the audit figures)
is a function of the frames it is given. A digest of those frames, of the part's name and of
faircompare's own code keys what the part wrote to the page last time: its sections, texts,
tables and figures (their PNG embedded). Where the key is found and every file the part wrote
is still there, the page takes the recorded output and nothing is drawn again; where a part's
inputs changed (a rerun with other numbers, a new algorithm in its configuration), it is drawn.
A frame is digested by its rows in any order (a rerun stores its rows anew, last), so a rerun
that stores the same numbers changes no key: its report is the page put together again.

The entries live in ``<report>/.cache``, one JSON file per part; a report removes those it
did not use, so the folder holds one report's worth.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from io import StringIO
from pathlib import Path
from types import FunctionType
from typing import Any

import matplotlib
import numpy as np
import pandas as pd

import faircompare
from faircompare.results import ResultStore
from faircompare.safe_write import write_text

CACHE = ".cache"  # under the report's folder
# The runs' columns that change when a run is repeated with the same result: not read by a part
# for what it draws, so not in the digest (a rerun redraws nothing it drew the same).
_VOLATILE = ("fit_seconds", "predict_seconds", "total_seconds", "started_at", "finished_at")


class Uncacheable(TypeError):
    """A part's input that has no digest (a list it may write to, an object of another kind)."""


@cache
def code_digest() -> bytes:
    """Return a digest of faircompare's source and matplotlib's version: a new one redraws."""
    hasher = hashlib.sha256(f"{faircompare.__version__} {matplotlib.__version__}".encode())
    for path in sorted(Path(faircompare.__file__).parent.rglob("*.py")):
        hasher.update(path.read_bytes())
    return hasher.digest()


class PartCache:
    """The report's parts as last drawn, keyed by a digest of what each part reads.

    Parameters
    ----------
    folder
        The report's folder; entries go in its ``.cache`` folder.
    root
        The folder the user named: nothing under it is written through a link.
    reuse
        Whether the parts of the last report are reused; False draws every part again (and
        keeps what it draws for the next report).
    """

    def __init__(self, folder: Path, root: Path, *, reuse: bool = True) -> None:
        self.folder = folder / CACHE
        self.root = root
        self.reuse = reuse
        self.hits = self.misses = 0
        self._used: set[str] = set()
        self._ahead: set[str] = set()  # the parts drawn for this report in other processes
        self._digests: dict[int, tuple[Any, bytes]] = {}  # id -> (the object, its digest)

    def key(self, what: str, step: Any, args: tuple[Any, ...]) -> str | None:
        """Return the key of a part given these inputs, or None where one has no digest."""
        hasher = hashlib.sha256(code_digest())
        hasher.update(f"{what}\0{step.__module__}.{step.__qualname__}".encode())
        try:
            for value in args:
                hasher.update(self._digest(value))
        except Uncacheable:
            return None
        return hasher.hexdigest()

    def load(self, key: str, out: Path) -> dict[str, Any] | None:
        """Return the entry of ``key`` where it exists and every file it names is still there.

        A part drawn ahead for this report (:meth:`drawn_ahead`) is counted as drawn.
        """
        entry = self._entry(key, out)
        if entry is None or key in self._ahead:
            self.misses += 1
        else:
            self.hits += 1
        if entry is not None:
            self._used.add(key)
        return entry

    def holds(self, key: str, out: Path) -> bool:
        """Return whether :meth:`load` would find ``key`` (and count nothing)."""
        return self._entry(key, out) is not None

    def drawn_ahead(self, key: str, drawn: int, reused: int) -> None:
        """Take the part ``key`` as drawn for this report by another process.

        ``drawn`` and ``reused`` count the parts drawn and reused within it, there.
        """
        self._ahead.add(key)
        self.misses += drawn
        self.hits += reused

    def _entry(self, key: str, out: Path) -> dict[str, Any] | None:
        if not (self.reuse or key in self._ahead):
            return None
        try:
            entry = json.loads((self.folder / f"{key}.json").read_text())
        except (OSError, ValueError):
            return None
        return entry if all((out / name).is_file() for name in entry["files"]) else None

    def store(self, key: str, entry: dict[str, Any]) -> None:
        """Record a part's output under ``key`` (whole or not at all)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text(self.folder / f"{key}.json", json.dumps(entry), self.root)
        self._used.add(key)

    def keep(self, keys: list[str]) -> None:
        """Keep these entries (the parts drawn within a part reused whole) for next time."""
        self._used.update(keys)

    def prune(self) -> None:
        """Remove the entries this report did not use: the folder keeps one report's worth."""
        if self.folder.is_dir():
            for path in self.folder.glob("*.json"):
                if path.stem not in self._used:
                    path.unlink(missing_ok=True)

    def _digest(self, value: Any) -> bytes:
        """Return a digest of a part's input: frames by their values, containers item by item."""
        if isinstance(value, (str, int, float, bool, type(None))):
            return hashlib.sha256(repr(value).encode()).digest()
        known = self._digests.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        digest = self._compute(value)
        self._digests[id(value)] = (value, digest)  # the object kept alive: its id stays its own
        return digest

    def _compute(self, value: Any) -> bytes:
        hasher = hashlib.sha256(type(value).__name__.encode())
        if isinstance(value, ResultStore):
            runs = value.runs().drop(columns=list(_VOLATILE), errors="ignore")
            for frame in (runs, value.measures(), value.audits()):
                hasher.update(self._digest(frame))
        elif isinstance(value, pd.DataFrame):  # its rows, in any order: a rerun moves them
            frame = value.apply(_hashable) if len(value.columns) else value
            rows = np.sort(pd.util.hash_pandas_object(frame, index=False).to_numpy())
            hasher.update(repr([(str(c), str(t)) for c, t in value.dtypes.items()]).encode())
            hasher.update(rows.tobytes())
        elif isinstance(value, pd.Series):
            hasher.update(self._digest(value.to_frame()))
        elif isinstance(value, np.ndarray) and value.dtype.kind in "biuf":  # numbers, as stored
            hasher.update(f"{value.dtype.str}{value.shape}".encode() + value.tobytes())
        elif is_dataclass(value) and not isinstance(value, type):
            frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
            for item in fields(value):
                field = getattr(value, item.name)
                data = frozen and isinstance(field, list)  # a figure's frames: its lists are data
                hasher.update(self._digest(tuple(field) if data else field))
        elif isinstance(value, Mapping):
            for name, item in sorted(value.items(), key=lambda pair: repr(pair[0])):
                hasher.update(self._digest(name) + self._digest(item))
        elif isinstance(value, tuple):
            for item in value:
                hasher.update(self._digest(item))
        elif isinstance(value, FunctionType):  # a plotting function: its code is in the salt
            hasher.update(f"{value.__module__}.{value.__qualname__}".encode())
        else:  # a list a part appends to, a figure, a callable: drawn every time
            raise Uncacheable(type(value).__name__)
        return hasher.digest()


def _hashable(column: pd.Series) -> pd.Series:
    """Return a column pandas can hash: a column of dicts or lists as their sorted JSON."""
    if column.dtype != object:
        return column
    return column.map(lambda v: json.dumps(v, sort_keys=True, default=str))


def frame_to_json(frame: pd.DataFrame) -> str:
    """Return a part's returned frame as JSON that :func:`frame_from_json` reads back."""
    return frame.to_json(orient="table", index=False)


def frame_from_json(text: str) -> pd.DataFrame:
    """Return the frame :func:`frame_to_json` wrote."""
    return pd.read_json(StringIO(text), orient="table")
