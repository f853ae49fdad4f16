"""Every table and column of the results store is described (faircompare.results.columns),
and the description names no column the store lacks."""

import sqlite3

import pytest

from faircompare.results import DATABASE, ResultStore
from faircompare.results.columns import COLUMNS, EXPORTS, schema
from faircompare.results.export import export


def test_the_descriptions_name_exactly_the_stores_tables_and_columns_in_order(tmp_path):
    with ResultStore(tmp_path):  # a store as it is made on disk
        pass
    with sqlite3.connect(tmp_path / DATABASE) as db:
        on_disk = {
            table: [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert {table: list(columns) for table, columns in schema().items()} == on_disk
    assert {table: list(columns) for table, columns in COLUMNS.items()} == on_disk


@pytest.mark.parametrize("table", sorted(COLUMNS))
def test_every_description_is_a_sentence(table):
    for column, text in COLUMNS[table].items():
        assert text[:1].isupper() or text.startswith("`"), (table, column)
        assert text.endswith("."), (table, column)


def test_the_exports_described_are_the_files_export_writes(tmp_path):
    with ResultStore(tmp_path / "results") as store:
        written = export(store, tmp_path / "out")
    assert [path.stem for path in written] == list(EXPORTS)
