"""The results store and its exports."""

from faircompare.results.store import DATABASE, Predictions, ResultStore, StoredRun, StoreError

__all__ = ["DATABASE", "Predictions", "ResultStore", "StoreError", "StoredRun"]
