"""Preprocessing variants and the seeded train/test splits every algorithm shares."""

from faircompare.preprocessing.splits import (
    Split,
    make_split,
    make_splits,
    split_seed,
    validation_split,
)
from faircompare.preprocessing.variants import VARIANTS, Prepared, prepare

__all__ = [
    "VARIANTS",
    "Prepared",
    "Split",
    "make_split",
    "make_splits",
    "prepare",
    "split_seed",
    "validation_split",
]
