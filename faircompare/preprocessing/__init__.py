"""Preprocessing variants and the seeded train/test splits every algorithm shares."""

from faircompare.preprocessing.scaling import (
    DENSE_LIMIT,
    check_dense_size,
    standardisation,
    standardised,
)
from faircompare.preprocessing.splits import (
    Split,
    make_split,
    make_splits,
    split_seed,
    validation_split,
)
from faircompare.preprocessing.variants import (
    VARIANTS,
    Prepared,
    is_sparse_frame,
    prepare,
    sparse_matrix,
    variants_agree,
)

__all__ = [
    "DENSE_LIMIT",
    "VARIANTS",
    "Prepared",
    "Split",
    "check_dense_size",
    "is_sparse_frame",
    "make_split",
    "make_splits",
    "prepare",
    "sparse_matrix",
    "split_seed",
    "standardisation",
    "standardised",
    "validation_split",
    "variants_agree",
]
