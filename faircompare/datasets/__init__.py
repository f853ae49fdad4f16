"""Datasets: specifications, fetching with verification, and cleaning.

>>> from faircompare.datasets import load_dataset
>>> adult = load_dataset("adult")          # doctest: +SKIP
>>> adult.describe()["rows"]               # doctest: +SKIP
30162
"""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "BUILTIN": "faircompare.datasets.builtin",
    "at_hand": "faircompare.datasets.loading",
    "PAPER_DATASETS": "faircompare.datasets.builtin",
    "Dataset": "faircompare.datasets.clean",
    "DatasetSpec": "faircompare.datasets.spec",
    "Threshold": "faircompare.datasets.spec",
    "cache_dir": "faircompare.datasets.fetch",
    "fetch_raw": "faircompare.datasets.loading",
    "fingerprint": "faircompare.datasets.loading",
    "get_spec": "faircompare.datasets.loading",
    "load_dataset": "faircompare.datasets.loading",
    "mirror_dir": "faircompare.datasets.fetch",
    "read_spec": "faircompare.datasets.spec",
    "removed_text": "faircompare.datasets.clean",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)  # imported on first use

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.datasets.builtin import BUILTIN as BUILTIN
    from faircompare.datasets.builtin import PAPER_DATASETS as PAPER_DATASETS
    from faircompare.datasets.clean import Dataset as Dataset
    from faircompare.datasets.clean import removed_text as removed_text
    from faircompare.datasets.fetch import cache_dir as cache_dir
    from faircompare.datasets.fetch import mirror_dir as mirror_dir
    from faircompare.datasets.loading import at_hand as at_hand
    from faircompare.datasets.loading import fetch_raw as fetch_raw
    from faircompare.datasets.loading import fingerprint as fingerprint
    from faircompare.datasets.loading import get_spec as get_spec
    from faircompare.datasets.loading import load_dataset as load_dataset
    from faircompare.datasets.spec import DatasetSpec as DatasetSpec
    from faircompare.datasets.spec import Threshold as Threshold
    from faircompare.datasets.spec import read_spec as read_spec
