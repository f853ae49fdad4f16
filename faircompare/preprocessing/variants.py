"""The three preprocessing variants of Friedler et al. (2019), §5.

- ``original``: features as cleaned, categorical columns as pandas categoricals;
- ``numerical``: categorical features one-hot encoded, every feature a float;
- ``numerical+binary``: as ``numerical``, and the sensitive attribute becomes 1 for its
  privileged value and 0 for every other value.

Sensitive attributes are never among the features: algorithms receive them separately, as
``sensitive_features``, and use them only if their method calls for it.

A wide one-hot encoding is stored sparse: ACSIncome's occupation and place of birth give 785
columns, 1.5 GB as dense floats but 24 MB as pandas sparse columns (about 11 values of a row are
not zero). Algorithms that fit sparse matrices receive them as such; the others densify their
own training rows (see :func:`faircompare.algorithms.base.dense_features`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from faircompare._validation import check_choice
from faircompare.choices import VARIANTS
from faircompare.datasets import Dataset

SPARSE_ABOVE_BYTES = 2**28  # a one-hot matrix larger than this as dense floats is kept sparse
SPARSE_BELOW_DENSITY = 0.1  # ... when fewer than this share of its values are not zero


@dataclass(frozen=True, eq=False)
class Prepared:
    """A dataset in one preprocessing variant, with one sensitive attribute chosen.

    Attributes
    ----------
    dataset, variant, sensitive_attribute
        What was prepared.
    X
        Features, one row per person, sensitive attributes excluded; every column a pandas
        sparse column where the encoding is wide and mostly zero (see :func:`prepare`).
    y
        Label: 1 for the positive outcome, else 0.
    sensitive_features
        Each row's value of the chosen sensitive attribute (0/1 in ``numerical+binary``).
    privileged
        The privileged group (1 in ``numerical+binary``).
    """

    dataset: str
    variant: str
    sensitive_attribute: str
    X: pd.DataFrame
    y: np.ndarray
    sensitive_features: np.ndarray
    privileged: Any


def prepare(
    dataset: Dataset, variant: str = "numerical+binary", sensitive_attribute: str | None = None
) -> Prepared:
    """Prepare a cleaned dataset in one variant for one sensitive attribute.

    One-hot columns are named ``<feature>_<value>`` with values in sorted order, one column per
    value present in the cleaned data, so every split of a dataset shares the same columns. The
    encoding uses no statistic of the data beyond which values exist: it is part of the
    dataset's schema, not a fitted transformation. Where the dense matrix would exceed
    :data:`SPARSE_ABOVE_BYTES` and less than :data:`SPARSE_BELOW_DENSITY` of it is not zero,
    every column is a pandas sparse column (``pd.SparseDtype(float, 0.0)``): the same values,
    read by scikit-learn as a sparse matrix.

    Parameters
    ----------
    dataset
        The cleaned dataset.
    variant
        One of :data:`VARIANTS`.
    sensitive_attribute
        One of the dataset's sensitive attributes, the combined one included; defaults to the
        first.

    Returns
    -------
    Prepared
        Features, label and sensitive attribute, row-aligned with ``dataset.frame``.
    """
    spec = dataset.spec
    check_choice(variant, VARIANTS, what="preprocessing variant")
    attribute = sensitive_attribute or spec.sensitive[0]
    check_choice(attribute, spec.sensitive_attributes, what=f"sensitive attribute of {spec.name}")

    features = dataset.frame[dataset.features]
    categorical = [column for column in features.columns if column in spec.categorical]
    if variant == "original":
        X = features.astype({column: "category" for column in categorical})
    else:
        X = _one_hot(features, categorical)
    s = dataset.frame[attribute].to_numpy()
    privileged = spec.privileged_value(attribute)
    if variant == "numerical+binary":
        s = (s == privileged).astype(np.int8)
        privileged = 1
    return Prepared(spec.name, variant, attribute, X, dataset.y, s, privileged)


def variants_agree(dataset: Dataset, attribute: str) -> bool:
    """Whether ``numerical`` and ``numerical+binary`` give the same data for an attribute.

    Their features are the same; the sensitive feature is the attribute's values in one and 1
    for the privileged value, 0 for the others, in the other. They agree when the attribute has
    two values in the cleaned data and the privileged one sorts last: the groups are then the
    same rows with the same sorted codes (0, 1), and only their names differ. An algorithm that
    reads the groups by their sorted codes alone
    (:attr:`~faircompare.algorithms.base.FairEstimator.groups_by_order`) fits and predicts the
    same in both, so the benchmark computes one run for the two (:attr:`faircompare.records.
    RunSpec.repeats`). Adult's sex (``Female``, ``Male``) agrees; German's age (``adult``,
    privileged, and ``youth``) does not: its codes are the other way round.

    Parameters
    ----------
    dataset
        The cleaned dataset.
    attribute
        One of its sensitive attributes, the combined one included.

    Returns
    -------
    bool
        True when the two variants agree.
    """
    values = pd.unique(dataset.frame[attribute])
    if len(values) != 2:
        return False
    try:
        last = np.sort(values)[-1]
    except TypeError:  # values of mixed types have no order
        return False
    return bool(last == dataset.spec.privileged_value(attribute))


def is_sparse_frame(X: Any) -> bool:
    """Return whether ``X`` is a frame stored sparse: every column a pandas sparse column.

    Parameters
    ----------
    X
        Features.

    Returns
    -------
    bool
        True for the wide one-hot encodings :func:`prepare` stores sparse (or any frame of
        sparse columns), which scikit-learn reads as a sparse matrix.
    """
    return (
        isinstance(X, pd.DataFrame)
        and X.shape[1] > 0
        and all(isinstance(dtype, pd.SparseDtype) for dtype in X.dtypes)
    )


def sparse_matrix(X: pd.DataFrame) -> sparse.csr_matrix:
    """Return a frame stored sparse (:func:`is_sparse_frame`) as a SciPy CSR matrix of floats.

    Parameters
    ----------
    X
        A frame of pandas sparse columns.

    Returns
    -------
    scipy.sparse.csr_matrix
        The same values, row by row.
    """
    return sparse.csr_matrix(X.sparse.to_coo(), dtype=float)


def _one_hot(features: pd.DataFrame, categorical: list[str]) -> pd.DataFrame:
    """One-hot encode ``categorical``, every column a float; sparse when wide and mostly zero."""
    X = pd.get_dummies(features, columns=categorical, prefix_sep="_", sparse=True, dtype=float)
    X = X.astype(pd.SparseDtype(float, 0.0))
    nonzero = int(sum(X[column].array.npoints for column in X.columns))
    size = X.shape[0] * X.shape[1]
    if size * 8 > SPARSE_ABOVE_BYTES and nonzero < SPARSE_BELOW_DENSITY * size:
        return X
    return X.sparse.to_dense().astype(float)
