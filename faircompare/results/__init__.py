"""The results store and its exports."""

from faircompare.results.store import DATABASE, ResultStore, StoredRun

__all__ = ["DATABASE", "ResultStore", "StoredRun"]
