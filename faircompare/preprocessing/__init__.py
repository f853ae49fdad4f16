"""Preprocessing variants and the seeded train/test splits every algorithm shares."""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "DENSE_LIMIT": "faircompare.preprocessing.scaling",
    "VARIANTS": "faircompare.preprocessing.variants",
    "Prepared": "faircompare.preprocessing.variants",
    "Split": "faircompare.preprocessing.splits",
    "check_dense_size": "faircompare.preprocessing.scaling",
    "is_sparse_frame": "faircompare.preprocessing.variants",
    "make_split": "faircompare.preprocessing.splits",
    "make_splits": "faircompare.preprocessing.splits",
    "prepare": "faircompare.preprocessing.variants",
    "sparse_matrix": "faircompare.preprocessing.variants",
    "split_seed": "faircompare.preprocessing.splits",
    "standardisation": "faircompare.preprocessing.scaling",
    "standardised": "faircompare.preprocessing.scaling",
    "validation_split": "faircompare.preprocessing.splits",
    "variants_agree": "faircompare.preprocessing.variants",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)  # imported on first use

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.preprocessing.scaling import DENSE_LIMIT as DENSE_LIMIT
    from faircompare.preprocessing.scaling import check_dense_size as check_dense_size
    from faircompare.preprocessing.scaling import standardisation as standardisation
    from faircompare.preprocessing.scaling import standardised as standardised
    from faircompare.preprocessing.splits import Split as Split
    from faircompare.preprocessing.splits import make_split as make_split
    from faircompare.preprocessing.splits import make_splits as make_splits
    from faircompare.preprocessing.splits import split_seed as split_seed
    from faircompare.preprocessing.splits import validation_split as validation_split
    from faircompare.preprocessing.variants import VARIANTS as VARIANTS
    from faircompare.preprocessing.variants import Prepared as Prepared
    from faircompare.preprocessing.variants import is_sparse_frame as is_sparse_frame
    from faircompare.preprocessing.variants import prepare as prepare
    from faircompare.preprocessing.variants import sparse_matrix as sparse_matrix
    from faircompare.preprocessing.variants import variants_agree as variants_agree
