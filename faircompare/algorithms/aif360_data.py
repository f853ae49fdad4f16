"""faircompare's arrays as AIF360's ``BinaryLabelDataset``, in one place for every wrapper.

AIF360's algorithms take and return ``BinaryLabelDataset`` objects: a frame of features,
labels and protected attributes, where the protected attributes are also features (the
algorithms that learn from features, such as LFR and GerryFair, see them) unless asked
otherwise. The
sensitive attribute is the column ``s`` (1 privileged, 0 other), the label ``y`` (1 favourable).
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
from aif360.datasets import BinaryLabelDataset

SENSITIVE = "s"
LABEL = "y"
GROUPS = {"unprivileged_groups": [{SENSITIVE: 0}], "privileged_groups": [{SENSITIVE: 1}]}


def binary_label_dataset(
    labels: np.ndarray,
    sensitive: np.ndarray,
    features: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    *,
    sensitive_is_feature: bool = True,
) -> BinaryLabelDataset:
    """Build AIF360's container from 0/1 labels, a 0/1 sensitive attribute and, optionally, more.

    Parameters
    ----------
    labels
        0/1 labels (true or predicted), 1 favourable.
    sensitive
        0/1 sensitive attribute, 1 privileged.
    features
        The features, placed before ``s`` (AIF360's features are every column but the label, so
        the sensitive attribute is the last feature); none for algorithms that only need labels.
    scores
        Scores of the favourable label, for post-processing.
    sensitive_is_feature
        Whether ``s`` is the last feature, as in AIF360's own datasets; False keeps it out of
        ``features`` (a protected attribute only).

    Returns
    -------
    BinaryLabelDataset
        Features ``x0, x1, ...`` then ``s``; label ``y``; protected attribute ``s``.
    """
    columns = {} if features is None else {f"x{j}": column for j, column in enumerate(features.T)}
    frame = pd.DataFrame(
        {**columns, SENSITIVE: sensitive.astype(float), LABEL: labels.astype(float)}
    )
    # AIF360 logs a warning when a group is absent, as in a batch of one person's perturbed copies
    # that the audits predict; faircompare checks the groups where they matter.
    previous = logging.root.manager.disable
    logging.disable(max(previous, logging.WARNING))
    try:
        dataset = _dataset(frame)
    finally:
        logging.disable(previous)
    if scores is not None:
        dataset.scores = np.asarray(scores, dtype=float).reshape(-1, 1)
    if not sensitive_is_feature:
        dataset.features = dataset.features[:, :-1]
        dataset.feature_names = dataset.feature_names[:-1]
    return dataset


def _dataset(frame: pd.DataFrame) -> BinaryLabelDataset:
    return BinaryLabelDataset(
        df=frame,
        label_names=[LABEL],
        protected_attribute_names=[SENSITIVE],
        favorable_label=1.0,
        unfavorable_label=0.0,
        privileged_protected_attributes=[np.array([1.0])],
        unprivileged_protected_attributes=[np.array([0.0])],
    )
