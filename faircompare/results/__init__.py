"""The results store and its exports."""

from faircompare._deprecations import moved_names
from faircompare.results.store import DATABASE, ResultStore, StoreError, audit_details

__getattr__ = moved_names(__name__)  # names that moved in 0.2.0 (faircompare._deprecations)

__all__ = ["DATABASE", "ResultStore", "StoreError", "audit_details"]
