"""The results store and its exports."""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "DATABASE": "faircompare.results.store",
    "ResultStore": "faircompare.results.store",
    "StoreError": "faircompare.results.store",
    "audit_details": "faircompare.results.store",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)  # imported on first use

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.results.store import DATABASE as DATABASE
    from faircompare.results.store import ResultStore as ResultStore
    from faircompare.results.store import StoreError as StoreError
    from faircompare.results.store import audit_details as audit_details
