"""The results store and its exports."""

from faircompare.results.store import DATABASE, Predictions, ResultStore, StoredRun

__all__ = ["DATABASE", "Predictions", "ResultStore", "StoredRun"]
