"""Every table and column of the results store is described (faircompare.results.columns),
and the description names no column the store lacks."""

import sqlite3

import pytest

from faircompare.results import DATABASE, ResultStore
from faircompare.results.columns import COLUMNS, EXPORTS
from faircompare.results.export import export


def schema(folder):
    with ResultStore(folder):
        pass
    with sqlite3.connect(folder / DATABASE) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: [row[1] for row in db.execute(f"PRAGMA table_info({t})")] for t in tables}


def test_the_descriptions_name_exactly_the_stores_tables_and_columns_in_order(tmp_path):
    assert {table: list(columns) for table, columns in COLUMNS.items()} == schema(tmp_path)


@pytest.mark.parametrize("table", sorted(COLUMNS))
def test_every_description_is_a_sentence(table):
    for column, text in COLUMNS[table].items():
        assert text[:1].isupper() or text.startswith("`"), (table, column)
        assert text.endswith("."), (table, column)


def test_the_exports_described_are_the_files_export_writes(tmp_path):
    with ResultStore(tmp_path / "results") as store:
        written = export(store, tmp_path / "out")
    assert [path.stem for path in written] == list(EXPORTS)
