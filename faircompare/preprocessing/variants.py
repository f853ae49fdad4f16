"""The three preprocessing variants of Friedler et al. (2019), §5.

- ``original``: features as cleaned, categorical columns as pandas categoricals;
- ``numerical``: categorical features one-hot encoded, every feature a float;
- ``numerical+binary``: as ``numerical``, and the sensitive attribute becomes 1 for its
  privileged value and 0 for every other value.

Sensitive attributes are never among the features: algorithms receive them separately, as
``sensitive_features``, and use them only if their method calls for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from faircompare._validation import check_choice
from faircompare.datasets import Dataset

VARIANTS: tuple[str, ...] = ("original", "numerical", "numerical+binary")


@dataclass(frozen=True, eq=False)
class Prepared:
    """A dataset in one preprocessing variant, with one sensitive attribute chosen.

    Attributes
    ----------
    dataset, variant, sensitive_attribute
        What was prepared.
    X
        Features, one row per person, sensitive attributes excluded.
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
    dataset's schema, not a fitted transformation.

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
        X = pd.get_dummies(features, columns=categorical, prefix_sep="_", dtype=float)
        X = X.astype(float)
    s = dataset.frame[attribute].to_numpy()
    privileged = spec.privileged_value(attribute)
    if variant == "numerical+binary":
        s = (s == privileged).astype(np.int8)
        privileged = 1
    return Prepared(spec.name, variant, attribute, X, dataset.y, s, privileged)
