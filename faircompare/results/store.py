"""The results store: one SQLite database per results folder, written by the coordinator only.

Tables (long form, joined on the run key):

- ``plan``: every planned run, so ``status`` can count what is pending;
- ``runs``: spec, parameters, status, error and traceback, timings, package versions, the
  distinct warnings the run raised (kept here rather than printed), the run's inputs (data
  fingerprint, algorithm version, audit settings and versions; see
  :class:`~faircompare.records.RunSpec`)
  and the errors of audits that failed on a model that fitted;
- ``measures``: (key, part, measure, group, value), ``part`` being ``test`` or ``validation``;
- ``audits``: (key, audit, metric, scope, statistic, pvalue, adjusted_pvalue, details), the
  fields of :class:`~faircompare.records.AuditRow` (details as JSON, returned as a typed frame
  per audit by :func:`audit_details`);
- ``predictions``: each run's test rows, predictions and scores, compressed, so measures and
  audits can be recomputed without refitting.

Every finished run is written in one transaction, so a run is stored whole or not at all, and
the database survives the process being killed at any moment (WAL journal). Reading commands open
it read-only (a read-only results folder works), and a file that is not a results database, or
one of another schema, is an error that names the file and the way out.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from faircompare.exceptions import FaircompareError, cut_message
from faircompare.records import DEFAULTS, TRIALS, AuditRow, Predictions, RunRecord, RunSpec
from faircompare.safe_write import disk_state, make_folder, refuse_links, write_error

SCHEMA_VERSION = 4  # 2: predictions keep labels and groups; 3: runs keep inputs, audit errors;
# 4: audits have a scope and an adjusted p-value column; "sensitive_features", "group" named so.
# Since 0.4.0: a tuned run's budget and its search's trials (:data:`ADDED`), added to a store of
# 4 when it is written, read as absent (no tuned runs) from one that is only read.
#: The database file's name inside a results folder.
DATABASE = "results.sqlite"
LOCK = ".faircompare.lock"
_DATABASE_FILES = ("", "-wal", "-shm", "-journal")  # the database and SQLite's own beside it
# SQLite's codes for a write the disk refused (full, a file-size limit, read-only, no access):
# the database is not damaged by them, the transaction is rolled back.
_WRITE_ERRORS = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN")
T = TypeVar("T")
_SPEC_COLUMNS = ("dataset", "sensitive_attribute", "variant", "algorithm", "params", "split_id")
#: The runs table's columns of JSON text (:mod:`faircompare.results.columns`).
_JSON_COLUMNS = ("params", "versions", "warnings", "inputs", "audit_errors")
_STATUSES = ("done", "failed", "pending")  # a planned run's status: stored, or not yet

#: The store's tables, as SQLite creates them (:mod:`faircompare.results.columns` too).
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    key TEXT PRIMARY KEY, dataset TEXT, sensitive_attribute TEXT, variant TEXT,
    algorithm TEXT, params TEXT, split_id INTEGER, base_seed INTEGER, budget INTEGER
);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY, dataset TEXT, sensitive_attribute TEXT, variant TEXT,
    algorithm TEXT, params TEXT, split_id INTEGER, base_seed INTEGER, seed INTEGER,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT, traceback TEXT,
    fit_seconds REAL, predict_seconds REAL, total_seconds REAL,
    started_at REAL, finished_at REAL, n_train INTEGER, n_test INTEGER, versions TEXT,
    warnings TEXT, inputs TEXT, audit_errors TEXT, budget INTEGER
);
CREATE TABLE IF NOT EXISTS measures (
    key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
    part TEXT NOT NULL, measure TEXT NOT NULL, "group" TEXT NOT NULL, value REAL,
    PRIMARY KEY (key, part, measure, "group")
);
CREATE TABLE IF NOT EXISTS audits (
    key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
    audit TEXT NOT NULL, metric TEXT NOT NULL, scope TEXT NOT NULL,
    statistic REAL, pvalue REAL, adjusted_pvalue REAL, details TEXT,
    PRIMARY KEY (key, audit, metric, scope)
);
CREATE TABLE IF NOT EXISTS predictions (
    key TEXT PRIMARY KEY REFERENCES runs(key) ON DELETE CASCADE,
    test_index BLOB NOT NULL, y_true BLOB NOT NULL, y_pred BLOB NOT NULL, scores BLOB,
    sensitive_features BLOB NOT NULL, privileged TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS trials (
    key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
    number INTEGER NOT NULL, params TEXT NOT NULL, accuracy REAL, gap REAL, error TEXT,
    chosen INTEGER NOT NULL CHECK (chosen IN (0, 1)),
    PRIMARY KEY (key, number)
);
"""
#: What schema 4 gained without a new version, as (table, column) (a column added to a store
#: written before it) or (table, None) (a table).
ADDED = (("plan", "budget"), ("runs", "budget"), ("trials", None))


def _plain(value: Any) -> Any:
    """Return a numpy scalar as the Python value JSON can hold."""
    return value.item() if isinstance(value, np.generic) else value


def _pack(array: np.ndarray | None, dtype: str) -> bytes | None:
    return None if array is None else zlib.compress(np.asarray(array, dtype=dtype).tobytes())


def _unpack(blob: bytes, dtype: str) -> np.ndarray:
    return np.frombuffer(zlib.decompress(blob), dtype=dtype)


class StoreError(FaircompareError):
    """A results database that cannot be opened, read or written."""


def _guarded(method: Callable[..., T]) -> Callable[..., T]:
    """Turn SQLite's errors in a store method into one :class:`StoreError` naming the file."""

    @functools.wraps(method)
    def guarded(self: ResultStore, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            raise self._error(error) from error

    return guarded


def _probed(db: sqlite3.Connection) -> sqlite3.Connection:
    """Return ``db`` once a first read succeeds (SQLite opens files lazily); else close it."""
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        db.close()
        raise
    return db


def _damage(db: sqlite3.Connection) -> str | None:
    """Return what SQLite's ``quick_check`` finds wrong in a database, or None when it is whole.

    ``quick_check`` reads every page once and checks the b-trees, the free list and the
    records' formats (not that indexes match their tables): damage that a first read misses
    (random bytes in a table's page, a copy cut short) is found before anything is written.
    """
    findings = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if findings == ["ok"]:
        return None
    lines = (line.strip() for finding in findings for line in finding.splitlines())
    return "; ".join(line for line in lines if line and not line.startswith("***"))


class ResultStore:
    """A results database (created on first use unless read-only).

    Parameters
    ----------
    folder
        The results folder; the database is ``folder/results.sqlite``.
    readonly
        Open an existing database for reading only (``status``, ``export``, ``report``): it
        works in a read-only folder and never changes the file.

    Raises
    ------
    StoreError
        If a read-only store does not exist, the file is not a results database (corrupted or
        foreign), it was written with another results schema, or it cannot be opened.
    """

    def __init__(self, folder: str | Path, *, readonly: bool = False) -> None:
        self.folder = Path(folder)
        self.path = self.folder / DATABASE
        self.readonly = readonly
        if readonly and not self.path.is_file():
            raise StoreError(f"no results in {self.folder}: run the benchmark first")
        self._db: sqlite3.Connection | None = None
        self._copy: Path | None = None
        self._lacking: list[tuple[str, str | None]] = []  # what of ADDED a read store lacks
        try:
            self._db = self._connect()
            self._check_schema()
        except sqlite3.DatabaseError as error:
            self.close()
            raise self._error(error) from error
        except StoreError:
            self.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            try:
                if self.path.is_symlink():  # SQLite would write its index beside the target
                    db = self._private_copy()
                else:
                    db = _probed(sqlite3.connect(uri, uri=True, isolation_level=None, timeout=60))
            except sqlite3.OperationalError:  # a WAL in a folder we cannot write: read a copy
                db = self._private_copy()
            self._refuse_damaged(db)
            return db
        make_folder(self.folder, self.folder)
        for name in (*(f"{DATABASE}{suffix}" for suffix in _DATABASE_FILES), LOCK):
            refuse_links(self.folder / name, self.folder)  # never written through a link
        if self.path.is_file() and self.path.stat().st_size:  # another's file stays untouched
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=60)) as probe:
                self._refuse_foreign(probe)
                self._refuse_damaged(probe)
        db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _refuse_damaged(self, db: sqlite3.Connection) -> None:
        """Refuse a damaged database, closing ``db``: nothing is read from it or written to it.

        Checked on every opening, through a read-only connection before a writing one is made,
        so that a damaged file is left byte for byte as it was (``perf/store_check.py``
        measures the check: about a second per GB).
        """
        try:
            damage = _damage(db)
        except sqlite3.DatabaseError as error:  # so damaged that the check cannot read it
            damage = str(error)
        if damage is not None:
            db.close()
            raise StoreError(
                f"{self.path} is damaged (SQLite's integrity check: {damage}); nothing was read "
                f"from it or written to it. Move it aside with its -wal file (to "
                f"{self.path}.damaged, say: sqlite3's .recover may save its runs) and run the "
                "same command again to recompute them, or pass another --results folder"
            )

    def _check_schema(self) -> None:
        """Create the tables in a new database; refuse one of another schema or application.

        A store opened for writing is written here in any case (an existing store's version row
        is left as it is): a file SQLite may not write is refused now, before any run.
        """
        tables = self._refuse_foreign(self._open)
        self._lacking = self._missing() if tables else []
        if self.readonly:
            return
        if not tables:
            self._open.executescript(SCHEMA)
        for table, column in self._lacking:
            if column is None:
                self._open.executescript(SCHEMA)  # every table IF NOT EXISTS: the new ones
            else:
                self._open.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER")
        self._lacking = []  # added now
        self._open.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
        )

    def _missing(self) -> list[tuple[str, str | None]]:
        """Return what of :data:`ADDED` the store lacks (written before it was added).

        Read once, when the store is opened (:meth:`_check_schema`): a store opened to write
        gains it there, one only read lacks it while open.
        """
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {name for (name,) in self._open.execute(query)}
        return [
            (table, column)
            for table, column in ADDED
            if table not in tables
            or column is not None
            and column not in {row[1] for row in self._open.execute(f"PRAGMA table_info({table})")}
        ]

    def _refuse_foreign(self, db: sqlite3.Connection) -> bool:
        """Refuse a database of another application or schema; return whether it has tables.

        ``run`` asks through a read-only connection first, so that another application's file
        is refused before anything in it changes (not even its journal mode).
        """
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {name for (name,) in db.execute(query)}
        if not tables:
            return False
        if "meta" not in tables:
            raise StoreError(f"{self.path} is not a faircompare results database (no meta table)")
        row = db.execute("SELECT value FROM meta WHERE name = 'schema_version'").fetchone()
        if row is not None and not str(row[0]).isdigit():
            raise self._damaged("meta", "schema_version", f"its value {cut_message(repr(row[0]))} "
                                "is not a number")  # fmt: skip
        version = int(row[0]) if row else None
        if version == SCHEMA_VERSION:
            return True
        by = "a newer" if version is not None and version > SCHEMA_VERSION else "an older"
        raise StoreError(
            f"{self.path} was written by {by} faircompare (results schema {version}, this "
            f"version reads {SCHEMA_VERSION}); use another --results folder"
            + (", or upgrade faircompare" if by == "a newer" else "")
        )

    def _error(self, error: sqlite3.DatabaseError) -> StoreError:
        text = str(error)
        code = getattr(error, "sqlite_errorname", "")
        if code.startswith(_WRITE_ERRORS) or "readonly" in text or "unable to open" in text:
            return self._write_error(text, code)
        if isinstance(error, sqlite3.OperationalError) and "no such table" in text:
            return StoreError(f"{self.path} is not a faircompare results database ({text})")
        return StoreError(
            f"{self.path} is not a readable results database ({text}): it is corrupted or not "
            "faircompare's. Move it aside and run the benchmark again (finished runs are "
            "recomputed), or pass another --results folder"
        )

    def _write_error(self, text: str, code: str) -> StoreError:
        """Say that the store could not be written, why, and whether what it holds is intact."""
        if self.readonly:
            return StoreError(
                f"cannot read {self.path}: {text}; check that the file and its folder can be "
                "read, and run the same command again"
            )
        state = self._intact()
        if code.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")) or "readonly" in text:
            return StoreError(
                f"cannot write {self.path}: {text} (the file or its folder is read-only for "
                f"this user). {state}Pass --results with a folder you can write to, or make "
                "this one writable, and run the same command again"
            )
        return StoreError(
            f"cannot write {self.path}: {text}{disk_state(self.path)}. {state}The disk may "
            "be full or a file-size limit reached: free some space (or choose another "
            "--results folder) and run the same command again"
        )

    def _intact(self) -> str:
        """Say whether the database is whole, checked through a fresh read-only connection."""
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
                (verdict,) = db.execute("PRAGMA quick_check").fetchone()
                runs = db.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.Error:
            return ""
        if verdict != "ok":
            return f"Its integrity check says {verdict!r}. "
        return f"The stored runs are intact ({runs} runs; nothing half written was kept). "

    @property
    def _open(self) -> sqlite3.Connection:
        """The connection; a closed store raises :class:`StoreError`."""
        if self._db is None:
            raise StoreError(f"the results store {self.path} is closed")
        return self._db

    def _private_copy(self) -> sqlite3.Connection:
        """Open a private copy of the database and its WAL, read completely.

        SQLite reads a WAL database through its ``-shm`` index, which it cannot create in a
        folder it cannot write (or, where the file is a link, would create beside the link's
        target, outside the results folder); read as immutable, it would ignore the runs still
        in the WAL (2 of 8, say). The copy, in a temporary folder removed at :meth:`close`,
        reads whole.
        """
        self._copy = Path(tempfile.mkdtemp(prefix="faircompare-store-"))
        try:
            for suffix in ("", "-wal"):
                if (source := Path(f"{self.path.resolve()}{suffix}")).is_file():
                    shutil.copyfile(source, self._copy / f"{DATABASE}{suffix}")
        except OSError as error:
            raise StoreError(
                f"cannot read {self.path}: its folder cannot be written, so its runs are read "
                f"from a copy, and {write_error(error, self._copy)}"
            ) from None
        return _probed(sqlite3.connect(self._copy / DATABASE, isolation_level=None, timeout=60))

    def close(self) -> None:
        """Close the connection (and remove a private copy, if one was read)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._copy is not None:
            shutil.rmtree(self._copy, ignore_errors=True)
            self._copy = None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @_guarded
    def record_plan(self, runs: Iterable[RunSpec]) -> None:
        """Remember planned runs (idempotent), so that pending runs can be counted.

        Parameters
        ----------
        runs
            The planned runs.
        """
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
                s.budget,
            )
            for s in runs
        ]
        with self._transaction():
            self._open.executemany(
                "INSERT OR IGNORE INTO plan (key, dataset, sensitive_attribute, variant, "
                "algorithm, params, split_id, base_seed, budget) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    @_guarded
    def record_cleaning(self, removed: dict[str, dict[str, int]]) -> None:
        """Remember how many rows each dataset's cleaning steps removed (the latest load wins).

        Parameters
        ----------
        removed
            For each dataset, the rows each cleaning step removed (see
            :attr:`faircompare.datasets.Dataset.removed`).
        """
        with self._transaction():
            self._open.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [(f"cleaning:{name}", json.dumps(steps)) for name, steps in removed.items()],
            )

    @_guarded
    def cleaning(self) -> dict[str, dict[str, int]]:
        """Return the rows each dataset's cleaning steps removed, as recorded by the last run.

        Returns
        -------
        dict
            For each dataset, rows removed by step (empty when cleaning removed none).
        """
        rows = self._open.execute("SELECT name, value FROM meta WHERE name LIKE 'cleaning:%'")
        return {
            name.removeprefix("cleaning:"): self._json(value, "meta", name, "value")
            for name, value in rows
        }

    @_guarded
    def record_algorithms(self, described: Mapping[str, Mapping[str, Any]]) -> None:
        """Remember what each algorithm of a plan is: its family, library, version and summary.

        The report reads them (:meth:`algorithms`), so that a plugin's family is shown without
        the plugin at hand; the latest plan's description of a name wins.

        Parameters
        ----------
        described
            ``{algorithm: {"family": ..., "library": ..., "version": ..., "description": ...,
            "references": [...]}}``.
        """
        with self._transaction():
            self._open.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [(f"algorithm:{name}", json.dumps(dict(d))) for name, d in described.items()],
            )

    @_guarded
    def algorithms(self) -> dict[str, dict[str, Any]]:
        """Return each algorithm's description as recorded by the last plan that ran it.

        Returns
        -------
        dict
            ``{algorithm: {"family": ..., "library": ..., "version": ..., "description": ...,
            "references": [...]}}``; empty for a store written before 0.3.0.
        """
        rows = self._open.execute("SELECT name, value FROM meta WHERE name LIKE 'algorithm:%'")
        return {
            name.removeprefix("algorithm:"): self._json(value, "meta", name, "value")
            for name, value in rows
        }

    @_guarded
    def statuses(self) -> dict[str, str]:
        """Return the status (``done`` or ``failed``) of every stored run, by key.

        Returns
        -------
        dict
            Status by run key.
        """
        return dict(self._open.execute("SELECT key, status FROM runs"))

    @_guarded
    def inputs(self) -> dict[str, dict[str, str]]:
        """Return the inputs every stored run was computed from, by key.

        Returns
        -------
        dict
            For each run key, its inputs by name (see :class:`~faircompare.records.RunSpec`).
        """
        rows = self._open.execute("SELECT key, inputs FROM runs")
        return {key: self._json(inputs or "{}", "runs", key, "inputs") for key, inputs in rows}

    @_guarded
    def write(self, run: RunRecord) -> None:
        """Store one finished run, replacing any earlier record of it, in one transaction.

        Parameters
        ----------
        run
            The run, done or failed.
        """
        spec, timings = run.spec, run.timings or {}
        record = {
            "key": run.key,
            "dataset": spec.dataset,
            "sensitive_attribute": spec.sensitive_attribute,
            "variant": spec.variant,
            "algorithm": spec.algorithm,
            "params": json.dumps(spec.parameters),
            "split_id": spec.split_id,
            "base_seed": spec.base_seed,
            "seed": spec.seed,
            "status": run.status,
            "error": run.error,
            "traceback": run.traceback,
            "fit_seconds": timings.get("fit"),
            "predict_seconds": timings.get("predict"),
            "total_seconds": timings.get("total"),
            "started_at": run.started_at,
            "finished_at": run.finished_at,
            "n_train": run.n_train,
            "n_test": run.n_test,
            "versions": json.dumps(run.versions or {}),
            "warnings": json.dumps(list(run.warnings)),
            "inputs": json.dumps(run.inputs),
            "audit_errors": json.dumps(run.audit_errors) if run.audit_errors else None,
            "budget": spec.budget,
        }
        with self._transaction():
            self._open.execute("DELETE FROM runs WHERE key = ?", (run.key,))
            self._open.execute(
                f"INSERT INTO runs ({', '.join(record)}) "
                f"VALUES ({', '.join(f':{column}' for column in record)})",
                record,
            )
            self._open.executemany(
                'INSERT INTO measures (key, part, measure, "group", value) VALUES (?, ?, ?, ?, ?)',
                [(run.key, *row) for row in run.measures],
            )
            self._insert_audits(run.key, run.audits)
            if run.predictions is not None:
                self._write_predictions(run.key, run.predictions)
            self._open.executemany(
                "INSERT INTO trials (key, number, params, accuracy, gap, error, chosen) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (run.key, t.number, json.dumps(t.params, default=_plain), t.accuracy, t.gap,
                     t.error, int(t.number == run.chosen))
                    for t in run.trials
                ],
            )  # fmt: skip

    @_guarded
    def replace_audits(
        self,
        key: str,
        audits: Sequence[str],
        rows: Sequence[AuditRow],
        errors: Mapping[str, str],
        inputs: Mapping[str, str],
    ) -> None:
        """Replace some audits of one done run, and its recorded inputs, in one transaction.

        What ``faircompare audit`` writes: the rows and errors of the audits named are those
        given; the other audits' rows and errors are kept.

        Parameters
        ----------
        key
            The run.
        audits
            The audits that were run again.
        rows, errors
            Their new rows, and ``{audit: error}`` for those that failed.
        inputs
            The run's inputs, with the audits' new versions and settings.
        """
        stored = self._open.execute("SELECT audit_errors FROM runs WHERE key = ?", (key,))
        (old,) = stored.fetchone()
        kept = {
            a: e
            for a, e in self._json(old or "{}", "runs", key, "audit_errors").items()
            if a not in audits
        }
        merged = {**kept, **errors}
        with self._transaction():
            self._open.executemany(
                "DELETE FROM audits WHERE key = ? AND audit = ?", [(key, a) for a in audits]
            )
            self._insert_audits(key, rows)
            self._open.execute(
                "UPDATE runs SET audit_errors = ?, inputs = ? WHERE key = ?",
                (json.dumps(merged) if merged else None, json.dumps(dict(inputs)), key),
            )

    def _insert_audits(self, key: str, rows: Iterable[AuditRow]) -> None:
        self._open.executemany(
            "INSERT INTO audits (key, audit, metric, scope, statistic, pvalue, "
            "adjusted_pvalue, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(key, *row[:-1], json.dumps(row.details)) for row in rows],
        )

    def _write_predictions(self, key: str, predictions: Predictions) -> None:
        self._open.execute(
            "INSERT INTO predictions (key, test_index, y_true, y_pred, scores, "
            "sensitive_features, privileged) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                _pack(predictions.test_index, "int64"),
                _pack(predictions.y_true, "int8"),
                _pack(predictions.y_pred, "int8"),
                _pack(predictions.scores, "float64"),
                zlib.compress(
                    json.dumps(pd.Series(predictions.sensitive_features).tolist()).encode()
                ),
                json.dumps(_plain(predictions.privileged)),
            ),
        )

    @contextmanager
    def claim(self) -> Iterator[None]:
        """Hold the results folder for one writer: a second run on it is refused, not doubled.

        Raises
        ------
        StoreError
            If another process holds the folder; the message names its process id.
        """
        lock = refuse_links(self.folder / LOCK, self.folder)
        try:  # never through a link planted since: O_NOFOLLOW
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise write_error(error, lock) from None
        with os.fdopen(fd, "r+", encoding="utf-8") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = handle.read().strip() or "unknown"
                raise StoreError(
                    f"another faircompare run (process {holder}) is writing to {self.folder}; "
                    "wait for it to finish, or pass another --results folder"
                ) from None
            handle.truncate()
            handle.write(str(os.getpid()))
            handle.flush()
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""
        self._open.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._open.in_transaction:  # SQLite may have rolled back itself (a full disk)
                self._open.execute("ROLLBACK")
            raise
        self._open.execute("COMMIT")

    @_guarded
    def plan(self) -> pd.DataFrame:
        """Return the planned runs.

        Returns
        -------
        pandas.DataFrame
            One row per planned run: key and identifying columns.
        """
        return self._frame("SELECT * FROM plan", budget_column=True)

    @_guarded
    def require_runs(self, *, done: bool = False) -> None:
        """Refuse a store that holds no run: there is nothing to report, draw or count.

        Parameters
        ----------
        done
            Refuse a store whose runs all failed as well (nothing to draw).

        Raises
        ------
        StoreError
            Naming the store, how many runs are planned, and the command that runs them; or
            how many failed, and the command that lists them.
        """
        counts = dict(self._open.execute("SELECT status, count(*) FROM runs GROUP BY status"))
        if counts and (counts.get("done") or not done):
            return
        if counts:
            raise StoreError(
                f"no run stored in {self.path} is done: all {sum(counts.values()):,} failed "
                f"(faircompare status --results {self.folder} counts them)"
            )
        (planned,) = self._open.execute("SELECT count(*) FROM plan").fetchone()
        waiting = f" ({planned:,} planned, none finished)" if planned else ""
        raise StoreError(
            f"no runs are stored in {self.path} yet{waiting}: run the benchmark first "
            f"(faircompare run --results {self.folder})"
        )

    def status_counts(self) -> pd.DataFrame:
        """Count the planned runs that are done, failed and pending, per dataset and algorithm.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``dataset`` and ``algorithm``, with integer columns ``done``,
            ``failed`` and ``pending`` (planned, not stored); what ``faircompare status``
            prints.
        """
        statuses = self.plan().merge(self.runs()[["key", "status"]], on="key", how="left")
        statuses = statuses.fillna({"status": "pending"})
        counts = statuses.groupby(["dataset", "algorithm", "status"]).size().unstack(fill_value=0)
        return counts.reindex(columns=list(_STATUSES), fill_value=0).rename_axis(columns=None)

    @_guarded
    def runs(self) -> pd.DataFrame:
        """Return the stored runs, one row each.

        Returns
        -------
        pandas.DataFrame
            Identifying columns, status, error, timings, versions, warnings and inputs (the
            JSON columns as text, each checked to be JSON).

        Raises
        ------
        StoreError
            If a run's JSON column is not JSON (a damaged store), naming the run.
        """
        frame = self._frame("SELECT * FROM runs", budget_column=True)
        for column in _JSON_COLUMNS:
            self._check_json(frame["key"], frame[column], column)
        return frame

    def _check_json(self, keys: pd.Series, texts: pd.Series, column: str) -> None:
        """Check that each run's ``column`` is one JSON value, naming the first that is not.

        The column's values are parsed as one array, in one call (a value that is not one JSON
        value breaks it or adds elements); only then is each parsed alone, to name the run.
        """
        stored = [text for text in texts if text]
        try:
            whole = json.loads("[" + ",".join(stored) + "]")
        except ValueError:
            whole = None
        if whole is not None and len(whole) == len(stored):
            return
        for key, text in zip(keys, texts, strict=True):
            if text:
                self._json(text, "runs", key, column)

    @_guarded
    def measures(self, part: str = "test") -> pd.DataFrame:
        """Return the measures of done runs in long form, with their runs' identifying columns.

        Parameters
        ----------
        part
            ``"test"``, or ``"validation"`` for the tuning fits' scores.

        Returns
        -------
        pandas.DataFrame
            Key, identifying columns, ``measure``, ``group`` and ``value``.
        """
        return self._frame(
            f'SELECT m.key, {self._spec_columns()}, m.measure, m."group", m.value '
            "FROM measures m JOIN runs r USING (key) WHERE m.part = ? AND r.status = 'done'",
            (part,),
        )

    @_guarded
    def audits(self) -> pd.DataFrame:
        """Return the audits of done runs in long form, with their runs' identifying columns.

        Returns
        -------
        pandas.DataFrame
            Key, identifying columns, and the fields of :class:`~faircompare.records.AuditRow`
            (``details`` as dicts: :func:`audit_details` makes one audit's a typed frame).
        """
        frame = self._frame(
            f"SELECT a.key, {self._spec_columns()}, a.audit, a.metric, a.scope, a.statistic, "
            "a.pvalue, a.adjusted_pvalue, a.details FROM audits a JOIN runs r USING (key) "
            "WHERE r.status = 'done'"
        )
        frame["details"] = [
            self._json(text, "audits", f"{key} {audit} {metric}", "details") if text else {}
            for text, key, audit, metric in zip(
                frame["details"], frame["key"], frame["audit"], frame["metric"], strict=True
            )
        ]
        return frame

    @_guarded
    def predictions(self, key: str) -> Predictions:
        """Return one run's stored test predictions.

        Parameters
        ----------
        key
            The run's key.

        Returns
        -------
        Predictions
            Its test rows, labels, predictions, scores and sensitive features.

        Raises
        ------
        KeyError
            If no predictions are stored for ``key``.
        """
        row = self._open.execute(
            "SELECT test_index, y_true, y_pred, scores, sensitive_features, privileged "
            "FROM predictions "
            "WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            raise KeyError(f"no predictions stored for run {key}")
        return Predictions(
            test_index=_unpack(row[0], "int64"),
            y_true=_unpack(row[1], "int8"),
            y_pred=_unpack(row[2], "int8"),
            scores=None if row[3] is None else _unpack(row[3], "float64"),
            sensitive_features=np.array(
                self._json(zlib.decompress(row[4]), "predictions", key, "sensitive_features")
            ),
            privileged=self._json(row[5], "predictions", key, "privileged"),
        )

    def _json(self, text: str | bytes, table: str, row: str, column: str) -> Any:
        """Parse a JSON value read from the store; a damaged one is a :class:`StoreError`."""
        try:
            return json.loads(text)
        except ValueError as error:
            what = getattr(error, "msg", str(error))
            raise self._damaged(table, row, f"its {column} is not JSON ({what})") from None

    def _damaged(self, table: str, row: str, what: str) -> StoreError:
        """Return the error of a stored value faircompare cannot have written, and what to do."""
        return StoreError(
            f"{self.path}, table {table}, row {cut_message(row)}: {what}. The store is damaged "
            "(nothing was changed): move it aside and run the benchmark again, or pass another "
            "--results folder"
        )

    def _spec_columns(self) -> str:
        """Return the runs' identifying columns a long frame selects, and their budget.

        A store only read, written before tuned runs were, has no budget: its runs have none.
        """
        budget = "NULL AS budget" if ("runs", "budget") in self._lacking else "r.budget"
        return ", ".join([*(f"r.{c}" for c in _SPEC_COLUMNS), budget])

    def _frame(
        self, query: str, parameters: tuple = (), *, budget_column: bool = False
    ) -> pd.DataFrame:
        """Return a query's rows, with each run's setting beside its parameters.

        With ``budget_column`` (the runs, the plan, the trials) the ``budget`` column is kept
        (None where a store has none); the measures and audits read it into the setting only.
        """
        cursor = self._open.execute(query, parameters)
        columns = [d[0] for d in cursor.description]
        frame = pd.DataFrame.from_records(cursor.fetchall(), columns=columns)
        if "params" in frame.columns:
            budget = frame.get("budget")
            frame.insert(
                frame.columns.get_loc("params") + 1, "setting", setting(frame["params"], budget)
            )
            if budget_column:
                frame["budget"] = budget.astype("Int64") if budget is not None else pd.NA
            elif budget is not None:
                frame = frame.drop(columns="budget")
        return frame

    @_guarded
    def trials(self) -> pd.DataFrame:
        """Return the trials of the tuned runs' searches, with their runs' identifying columns.

        Returns
        -------
        pandas.DataFrame
            Key, identifying columns, ``budget``, ``number`` (from 0), ``params`` (the
            trial's setting, JSON), ``accuracy`` and ``gap`` (on the validation rows; NaN
            where the trial failed), ``error`` and ``chosen`` (the trial whose setting the
            run tested). Empty for a store with no tuned runs.
        """
        if ("trials", None) in self._lacking:
            columns = ["key", *_SPEC_COLUMNS, "budget", "number", "params", "accuracy", "gap",
                       "error", "chosen"]  # fmt: skip
            return pd.DataFrame(columns=columns)
        frame = self._frame(
            f"SELECT t.key, {self._spec_columns()}, t.number, t.params AS trial, t.accuracy, "
            "t.gap, t.error, t.chosen FROM trials t JOIN runs r USING (key) ORDER BY t.key, "
            "t.number",
            budget_column=True,
        )
        frame = frame.drop(columns=["params", "setting"]).rename(columns={"trial": "params"})
        return frame.assign(chosen=frame["chosen"].astype(bool))


def setting(params: pd.Series, budget: pd.Series | None = None) -> pd.Series:
    """Return each run's setting: ``"defaults"``, its parameters as JSON, or its tuning.

    Parameters
    ----------
    params
        The runs' parameters as the store keeps them (JSON; ``{}`` for the defaults).
    budget
        The runs' tuning budgets (None or NaN for a run at its parameters); None: no run is
        tuned.

    Returns
    -------
    pandas.Series
        The setting of each run; the analyses group runs by it (see
        :func:`faircompare.analysis.tidy.representative` for the settings they add). A tuned
        run's is the JSON of the parameters it kept and its ``trials``: ``{"trials": 10}``.
    """
    plain = params.where(params != "{}", DEFAULTS)
    if budget is None or budget.isna().all():
        return plain
    tuned = [
        json.dumps({**json.loads(p), TRIALS: int(b)})
        for p, b in zip(params, budget, strict=True)
        if pd.notna(b)
    ]
    plain[budget.notna()] = tuned
    return plain


def audit_details(audits: pd.DataFrame, audit: str) -> pd.DataFrame:
    """Return one audit's rows with its details as typed columns.

    Parameters
    ----------
    audits
        Audit rows as :meth:`ResultStore.audits` returns them.
    audit
        The audit whose rows to keep (``"permutation"``, ``"fliptest"``, ``"individual"``).

    Returns
    -------
    pandas.DataFrame
        Its rows, the ``details`` column replaced by one column per detail, each of the dtype
        its values share (a list or a nested detail stays an object), in the index of
        ``audits``.
    """
    rows = audits[audits["audit"] == audit]
    details = pd.DataFrame.from_records(list(rows["details"]), index=rows.index)
    details = details.drop(columns=[c for c in details.columns if c in rows.columns])
    return pd.concat([rows.drop(columns="details"), details.infer_objects()], axis=1)
