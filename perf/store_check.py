"""What checking a results store before using it costs: SQLite's quick_check on a large store.

Every opening of a store (:class:`faircompare.results.ResultStore`) runs ``PRAGMA quick_check``,
so that a damaged file is refused before anything is read from it or written to it. This
script builds a store of the size asked (1 GB by default: runs, measures and compressed
predictions in the proportions of a study, written through SQLite directly for speed) and
prints, for the same file, the time to open it with its check, the check alone, and SQLite's
full ``integrity_check`` as the reference, with the ratios. ::

    python perf/store_check.py                # 1 GB, in a temporary folder
    python perf/store_check.py --gb 0.2 --folder /tmp/store

The first opening reads the file from disk; the rest read it from the page cache, as a
command run right after a study does. The load average is printed beside the timings.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import numpy as np

from faircompare.results import ResultStore
from faircompare.results.store import DATABASE

_MEASURES = 60  # measure rows per run, about a study's
_TEST_ROWS = 2_000  # test rows per run's predictions


def build(folder: Path, gigabytes: float) -> None:
    """Fill a new store with runs until its file reaches the size asked."""
    ResultStore(folder).close()  # the schema, as faircompare writes it
    rng = np.random.default_rng(0)
    target, key = gigabytes * 2**30, 0
    with sqlite3.connect(folder / DATABASE, isolation_level=None) as db:
        db.execute("PRAGMA journal_mode=WAL")
        while (folder / DATABASE).stat().st_size + _wal(folder) < target:
            db.execute("BEGIN")
            for _ in range(500):
                key += 1
                name = f"{key:020x}"
                db.execute(
                    "INSERT INTO runs (key, dataset, algorithm, status, error, traceback) "
                    "VALUES (?, 'adult', 'svm', 'done', NULL, ?)",
                    (name, "x" * 200),
                )
                db.executemany(
                    "INSERT INTO measures VALUES (?, 'test', ?, 'all', ?)",
                    [(name, f"measure-{m}", float(v)) for m, v in enumerate(rng.random(_MEASURES))],
                )
                blob = rng.bytes(_TEST_ROWS)  # compressed predictions do not compress further
                db.execute(
                    "INSERT INTO predictions VALUES (?, ?, ?, ?, ?, ?, '1')",
                    (name, blob, blob[:200], blob[:200], blob, blob[:200]),
                )
            db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _wal(folder: Path) -> int:
    wal = folder / f"{DATABASE}-wal"
    return wal.stat().st_size if wal.exists() else 0


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def pragma(folder: Path, name: str) -> None:
    with sqlite3.connect(f"{(folder / DATABASE).as_uri()}?mode=ro", uri=True) as db:
        assert db.execute(f"PRAGMA {name}").fetchone()[0] == "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=1.0, help="the store's size in GB")
    parser.add_argument("--folder", type=Path, help="where to build it (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="faircompare-store-check-") as temporary:
        folder = args.folder or Path(temporary) / "results"
        if not (folder / DATABASE).exists():
            print(f"building a {args.gb:g} GB store in {folder} ...", flush=True)
            build(folder, args.gb)
        size = (folder / DATABASE).stat().st_size / 2**30
        runs = sqlite3.connect(folder / DATABASE).execute("SELECT count(*) FROM runs").fetchone()
        print(f"store: {size:.2f} GB, {runs[0]:,} runs; load average {os.getloadavg()[0]:.2f}")
        first = timed(lambda: ResultStore(folder).close())
        opened = min(timed(lambda: ResultStore(folder).close()) for _ in range(3))
        read = min(timed(lambda: ResultStore(folder, readonly=True).close()) for _ in range(3))
        quick = min(timed(lambda: pragma(folder, "quick_check")) for _ in range(3))
        full = min(timed(lambda: pragma(folder, "integrity_check")) for _ in range(3))
        print(f"open for writing, first (from disk): {first:.2f} s")
        print(f"open for writing (page cache):       {opened:.2f} s ({opened / size:.2f} s per GB)")
        print(f"open for reading (page cache):       {read:.2f} s")
        print(f"quick_check alone:                   {quick:.2f} s")
        print(f"integrity_check (the full check):    {full:.2f} s; quick_check takes "
              f"{quick / full:.2f} of it")  # fmt: skip


if __name__ == "__main__":
    main()
