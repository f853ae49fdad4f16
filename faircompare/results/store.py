"""The results store: one SQLite database per results folder, written by the coordinator only.

Tables (long form, joined on the run key):

- ``plan``: every planned run, so ``status`` can count what is pending;
- ``runs``: spec, parameters, status, error and traceback, timings, package versions, and the
  distinct warnings the run raised (kept here rather than printed);
- ``measures``: (key, part, measure, group, value), ``part`` being ``test`` or ``validation``;
- ``audits``: (key, audit, metric, group, statistic, pvalue, details);
- ``predictions``: each run's test rows, predictions and scores, compressed, so measures and
  audits can be recomputed without refitting.

Every finished run is written in one transaction, so a run is stored whole or not at all, and
the database survives the process being killed at any moment (WAL journal).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from faircompare.exceptions import FaircompareError

SCHEMA_VERSION = "2"  # 2: predictions keep the true labels and groups
DATABASE = "results.sqlite"
_SPEC_COLUMNS = ("dataset", "sensitive_attribute", "variant", "algorithm", "params", "split_id")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    key TEXT PRIMARY KEY, dataset TEXT, sensitive_attribute TEXT, variant TEXT,
    algorithm TEXT, params TEXT, split_id INTEGER, base_seed INTEGER
);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY, dataset TEXT, sensitive_attribute TEXT, variant TEXT,
    algorithm TEXT, params TEXT, split_id INTEGER, base_seed INTEGER, seed INTEGER,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT, traceback TEXT,
    fit_seconds REAL, predict_seconds REAL, total_seconds REAL,
    started_at REAL, finished_at REAL, n_train INTEGER, n_test INTEGER, versions TEXT,
    warnings TEXT
);
CREATE TABLE IF NOT EXISTS measures (
    key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
    part TEXT NOT NULL, measure TEXT NOT NULL, grp TEXT NOT NULL, value REAL,
    PRIMARY KEY (key, part, measure, grp)
);
CREATE TABLE IF NOT EXISTS audits (
    key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
    audit TEXT NOT NULL, metric TEXT NOT NULL, grp TEXT NOT NULL,
    statistic REAL, pvalue REAL, details TEXT,
    PRIMARY KEY (key, audit, metric, grp)
);
CREATE TABLE IF NOT EXISTS predictions (
    key TEXT PRIMARY KEY REFERENCES runs(key) ON DELETE CASCADE,
    test_index BLOB NOT NULL, y_true BLOB NOT NULL, y_pred BLOB NOT NULL, scores BLOB,
    groups BLOB NOT NULL, privileged TEXT NOT NULL
);
"""


@dataclass(frozen=True, eq=False)
class StoredRun:
    """What a worker sends back for one run; the coordinator stores it.

    ``measures`` rows are (part, measure, group, value); ``audits`` rows are (audit, metric,
    group, statistic, pvalue, details).
    """

    key: str
    spec: dict[str, Any]
    status: str
    error: str | None = None
    traceback: str | None = None
    timings: dict[str, float] | None = None
    started_at: float | None = None
    finished_at: float | None = None
    n_train: int | None = None
    n_test: int | None = None
    versions: dict[str, str] | None = None
    warnings: tuple[str, ...] = ()
    measures: tuple[tuple[str, str, str, float], ...] = ()
    audits: tuple[tuple[str, str, str, float, float | None, str], ...] = ()
    test_index: np.ndarray | None = None
    y_true: np.ndarray | None = None
    y_pred: np.ndarray | None = None
    scores: np.ndarray | None = None
    groups: np.ndarray | None = None
    privileged: Any = None


@dataclass(frozen=True, eq=False)
class Predictions:
    """One run's test predictions, with what is needed to compute any measure again.

    Attributes
    ----------
    test_index
        Positions of the test rows in the prepared dataset.
    y_true, y_pred, scores
        Labels, predictions and scores (None when the model has none).
    groups, privileged
        The sensitive attribute of each test row and its privileged value.
    """

    test_index: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    scores: np.ndarray | None
    groups: np.ndarray
    privileged: Any


def _plain(value: Any) -> Any:
    """Return a numpy scalar as the Python value JSON can hold."""
    return value.item() if isinstance(value, np.generic) else value


def _pack(array: np.ndarray | None, dtype: str) -> bytes | None:
    return None if array is None else zlib.compress(np.asarray(array, dtype=dtype).tobytes())


def _unpack(blob: bytes | None, dtype: str) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(zlib.decompress(blob), dtype=dtype)


class ResultStore:
    """A results database (created on first use).

    Parameters
    ----------
    folder
        The results folder; the database is ``folder/results.sqlite``.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / DATABASE
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._db.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
        )
        (version,) = self._db.execute(
            "SELECT value FROM meta WHERE name = 'schema_version'"
        ).fetchone()
        if version != SCHEMA_VERSION:
            self._db.close()
            raise FaircompareError(
                f"{self.path} was written by an older faircompare (results schema {version}, "
                f"this version reads {SCHEMA_VERSION}); use a new --results folder"
            )

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record_plan(self, specs: Iterable[Any]) -> None:
        """Remember planned runs (idempotent), so that pending runs can be counted."""
        rows = [
            (
                s.key,
                s.dataset,
                s.sensitive_attribute,
                s.variant,
                s.algorithm,
                json.dumps(s.parameters),
                s.split_id,
                s.base_seed,
            )
            for s in specs
        ]
        with self._transaction():
            self._db.executemany("INSERT OR IGNORE INTO plan VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def statuses(self) -> dict[str, str]:
        """Return the status (``done`` or ``failed``) of every stored run, by key."""
        return dict(self._db.execute("SELECT key, status FROM runs"))

    def write(self, run: StoredRun) -> None:
        """Store one finished run, replacing any earlier record of it, in one transaction."""
        spec, timings = run.spec, run.timings or {}
        with self._transaction():
            self._db.execute("DELETE FROM runs WHERE key = ?", (run.key,))
            self._db.execute(
                f"INSERT INTO runs VALUES ({', '.join('?' * 21)})",
                (
                    run.key,
                    spec["dataset"],
                    spec["sensitive_attribute"],
                    spec["variant"],
                    spec["algorithm"],
                    json.dumps(spec["params"]),
                    spec["split_id"],
                    spec["base_seed"],
                    spec["seed"],
                    run.status,
                    run.error,
                    run.traceback,
                    timings.get("fit"),
                    timings.get("predict"),
                    timings.get("total"),
                    run.started_at,
                    run.finished_at,
                    run.n_train,
                    run.n_test,
                    json.dumps(run.versions or {}),
                    json.dumps(list(run.warnings)),
                ),
            )
            self._db.executemany(
                "INSERT INTO measures VALUES (?, ?, ?, ?, ?)",
                [(run.key, *row) for row in run.measures],
            )
            self._db.executemany(
                "INSERT INTO audits VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run.key, *row) for row in run.audits],
            )
            if run.y_pred is not None:
                self._db.execute(
                    "INSERT INTO predictions VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        run.key,
                        _pack(run.test_index, "int64"),
                        _pack(run.y_true, "int8"),
                        _pack(run.y_pred, "int8"),
                        _pack(run.scores, "float64"),
                        zlib.compress(json.dumps(pd.Series(run.groups).tolist()).encode()),
                        json.dumps(_plain(run.privileged)),
                    ),
                )

    def add_audits(self, key: str, rows: Iterable[tuple]) -> None:
        """Store audit rows of a stored run, replacing its earlier rows of the same audits."""
        rows = list(rows)
        with self._transaction():
            for audit in {row[0] for row in rows}:
                self._db.execute("DELETE FROM audits WHERE key = ? AND audit = ?", (key, audit))
            self._db.executemany(
                "INSERT INTO audits VALUES (?, ?, ?, ?, ?, ?, ?)", [(key, *row) for row in rows]
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def plan(self) -> pd.DataFrame:
        """Return the planned runs."""
        return self._frame("SELECT * FROM plan")

    def runs(self) -> pd.DataFrame:
        """Return the stored runs, one row each."""
        return self._frame("SELECT * FROM runs")

    def measures(self, part: str = "test") -> pd.DataFrame:
        """Return the measures of done runs in long form, with their runs' identifying columns."""
        columns = ", ".join(f"r.{c}" for c in _SPEC_COLUMNS)
        return self._frame(
            f"SELECT m.key, {columns}, m.measure, m.grp, m.value "
            "FROM measures m JOIN runs r USING (key) WHERE m.part = ? AND r.status = 'done'",
            (part,),
        )

    def audits(self) -> pd.DataFrame:
        """Return the audits of done runs in long form, with their runs' identifying columns."""
        columns = ", ".join(f"r.{c}" for c in _SPEC_COLUMNS)
        return self._frame(
            f"SELECT a.key, {columns}, a.audit, a.metric, a.grp, a.statistic, a.pvalue, "
            "a.details FROM audits a JOIN runs r USING (key) WHERE r.status = 'done'"
        )

    def predictions(self, key: str) -> Predictions:
        """Return one run's stored test predictions."""
        row = self._db.execute(
            "SELECT test_index, y_true, y_pred, scores, groups, privileged FROM predictions "
            "WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            raise KeyError(f"no predictions stored for run {key}")
        return Predictions(
            test_index=_unpack(row[0], "int64"),
            y_true=_unpack(row[1], "int8"),
            y_pred=_unpack(row[2], "int8"),
            scores=_unpack(row[3], "float64"),
            groups=np.array(json.loads(zlib.decompress(row[4]))),
            privileged=json.loads(row[5]),
        )

    def _frame(self, query: str, parameters: tuple = ()) -> pd.DataFrame:
        frame = pd.read_sql_query(query, self._db, params=parameters)
        return frame.rename(columns={"grp": "group"})
