"""The results store and its exports."""

from faircompare.results.store import DATABASE, ResultStore, StoreError, audit_details

__all__ = ["DATABASE", "ResultStore", "StoreError", "audit_details"]
