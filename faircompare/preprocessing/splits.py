"""Seeded train/test splits shared by every algorithm and variant of a dataset.

Split ``k`` of a dataset depends only on the base seed, the dataset's name and ``k``, never on
the variant, the sensitive attribute or the algorithm, so every comparison within a split is
paired (Friedler et al. 2019, §3: ten random 2/3 : 1/3 splits).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from faircompare.preprocessing.variants import Prepared, is_sparse_frame, sparse_matrix

TRAIN_FRACTION = 2 / 3
VALIDATION_FRACTION = 1 / 3
_VALIDATION_STREAM = 1  # keeps validation draws independent of the split's own draw


@dataclass(frozen=True, eq=False)
class Split:
    """One train/test split of a prepared dataset: what algorithms, measures and audits consume.

    ``train_index`` and ``test_index`` are row positions in the prepared dataset (and in the
    cleaned frame). ``holdout`` says whether the test part is the real test set or a validation
    part carved from training data for tuning (see :func:`validation_split`).

    Attributes
    ----------
    X_train, y_train, sensitive_features_train
        Training features, labels and sensitive attribute.
    X_test, y_test, sensitive_features_test
        Test features, labels and sensitive attribute.
    privileged
        The privileged value of the sensitive attribute.
    dataset, variant, sensitive_attribute
        What was split.
    split_id, seed
        Which split, and its seed.
    train_index, test_index
        Row positions of both parts in the prepared dataset.
    holdout
        ``"test"``, or ``"validation"`` for a tuning split.
    """

    X_train: pd.DataFrame
    y_train: np.ndarray
    sensitive_features_train: np.ndarray
    X_test: pd.DataFrame
    y_test: np.ndarray
    sensitive_features_test: np.ndarray
    privileged: Any
    dataset: str
    variant: str
    sensitive_attribute: str
    split_id: int
    seed: int
    train_index: np.ndarray
    test_index: np.ndarray
    holdout: Literal["test", "validation"] = "test"


def split_seed(dataset: str, split_id: int, base_seed: int = 0) -> int:
    """Derive the seed of split ``split_id`` from the base seed and the dataset's name.

    The name enters through CRC-32, which is stable across processes and Python versions
    (unlike ``hash``), so a rerun draws the same rows.

    Parameters
    ----------
    dataset
        The dataset's name.
    split_id
        Which split, from 0.
    base_seed
        The benchmark's base seed.

    Returns
    -------
    int
        The split's seed.
    """
    if split_id < 0 or base_seed < 0:
        raise ValueError(f"split_id and base_seed must be >= 0, got {split_id} and {base_seed}")
    entropy = [base_seed, zlib.crc32(dataset.encode()), split_id]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def make_split(
    prepared: Prepared,
    split_id: int,
    *,
    base_seed: int = 0,
    train_fraction: float = TRAIN_FRACTION,
) -> Split:
    """Draw split ``split_id`` of a prepared dataset.

    Parameters
    ----------
    prepared
        The dataset in one variant.
    split_id
        Which split, from 0.
    base_seed
        The benchmark's base seed.
    train_fraction
        Share of rows used for training, rounded to a whole number of rows.

    Returns
    -------
    Split
        The split; the same rows for every variant and sensitive attribute of the dataset.
    """
    seed = split_seed(prepared.dataset, split_id, base_seed)
    n = len(prepared.y)
    train, test = _partition(n, train_fraction, np.random.default_rng(seed))
    return Split(
        **_parts(prepared.X, prepared.y, prepared.sensitive_features, train, test, np.arange(n)),
        privileged=prepared.privileged,
        dataset=prepared.dataset,
        variant=prepared.variant,
        sensitive_attribute=prepared.sensitive_attribute,
        split_id=split_id,
        seed=seed,
    )


def make_splits(
    prepared: Prepared,
    n_splits: int = 10,
    *,
    base_seed: int = 0,
    train_fraction: float = TRAIN_FRACTION,
) -> list[Split]:
    """Draw the splits numbered 0 to ``n_splits - 1`` (see :func:`make_split`).

    Parameters
    ----------
    prepared
        The dataset in one variant.
    n_splits
        Number of splits.
    base_seed
        The benchmark's base seed.
    train_fraction
        Share of rows used for training.

    Returns
    -------
    list of Split
        The splits, in order.
    """
    if n_splits < 1:
        raise ValueError(f"n_splits must be at least 1, got {n_splits}")
    return [
        make_split(prepared, k, base_seed=base_seed, train_fraction=train_fraction)
        for k in range(n_splits)
    ]


def validation_split(split: Split, fraction: float = VALIDATION_FRACTION) -> Split:
    """Carve a validation part out of a split's training data, for choosing parameters.

    The result's training part is the rest of the training data and its test part is the
    validation part (``holdout="validation"``); the split's test data are not touched. The draw
    is seeded by the split's seed, so it is the same for every algorithm.

    Parameters
    ----------
    split
        The split whose training data are divided.
    fraction
        Share of the training rows held out for validation.

    Returns
    -------
    Split
        The split for tuning.
    """
    rng = np.random.default_rng([split.seed, _VALIDATION_STREAM])
    fit, held = _partition(len(split.y_train), 1 - fraction, rng)
    parts = _parts(
        split.X_train, split.y_train, split.sensitive_features_train, fit, held, split.train_index
    )
    return replace(split, **parts, holdout="validation")


def _partition(
    n: int, train_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    if not 0 < train_fraction < 1:
        raise ValueError(f"the training fraction must lie in (0, 1), got {train_fraction}")
    n_train = round(n * train_fraction)
    if not 0 < n_train < n:
        raise ValueError(f"cannot split {n} rows with training fraction {train_fraction}")
    order = rng.permutation(n)
    return np.sort(order[:n_train]), np.sort(order[n_train:])


def _parts(
    X: pd.DataFrame,
    y: np.ndarray,
    s: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    index: np.ndarray,
) -> dict[str, Any]:
    """Select the row-dependent fields of a :class:`Split` at positions ``train`` and ``test``."""
    rows = _row_taker(X)
    return {
        "X_train": rows(train),
        "y_train": y[train],
        "sensitive_features_train": s[train],
        "X_test": rows(test),
        "y_test": y[test],
        "sensitive_features_test": s[test],
        "train_index": index[train],
        "test_index": index[test],
    }


def _row_taker(X: pd.DataFrame) -> Callable[[np.ndarray], pd.DataFrame]:
    """Return a function selecting rows of ``X`` by position.

    A frame stored sparse is taken through one CSR matrix: ``iloc`` takes its hundreds of sparse
    columns one by one (1.2 s for ACSIncome's training rows, 0.01 s so; the same frame).
    """
    if not is_sparse_frame(X):
        return lambda positions: X.iloc[positions]
    matrix = sparse_matrix(X)
    return lambda positions: pd.DataFrame.sparse.from_spmatrix(
        matrix[positions], index=X.index[positions], columns=X.columns
    )
