"""Seeded splits: 2/3 : 1/3, the same rows for every variant and attribute, reproducible."""

import subprocess
import sys

import numpy as np
import pytest

from faircompare.preprocessing import (
    VARIANTS,
    make_split,
    make_splits,
    prepare,
    split_seed,
    validation_split,
)


def test_split_sizes_are_two_thirds_and_one_third(toy):
    split = make_split(prepare(toy), 0)
    assert (len(split.y_train), len(split.y_test)) == (8, 4)  # 12 rows: round(8.0) train


def test_train_and_test_partition_the_rows(toy):
    split = make_split(prepare(toy), 3)
    rows = np.concatenate([split.train_index, split.test_index])
    assert sorted(rows.tolist()) == list(range(12))


def test_parts_are_the_rows_the_indices_name(toy):
    prepared = prepare(toy, "numerical")
    split = make_split(prepared, 1)
    assert split.X_test.equals(prepared.X.iloc[split.test_index])
    np.testing.assert_array_equal(split.y_train, prepared.y[split.train_index])
    np.testing.assert_array_equal(
        split.sensitive_features_test, prepared.sensitive_features[split.test_index]
    )


def test_every_variant_and_attribute_gets_the_same_rows(toy):
    reference = make_split(prepare(toy, "original", "sex"), 2)
    for variant in VARIANTS:
        for attribute in toy.spec.sensitive_attributes:
            split = make_split(prepare(toy, variant, attribute), 2)
            np.testing.assert_array_equal(split.train_index, reference.train_index)
            assert split.seed == reference.seed


def test_splits_differ_from_one_another_and_depend_on_the_base_seed(toy):
    splits = make_splits(prepare(toy), 10)
    assert len({tuple(s.test_index) for s in splits}) > 1
    assert [s.split_id for s in splits] == list(range(10))
    assert split_seed("toy", 0, base_seed=0) != split_seed("toy", 0, base_seed=1)
    assert split_seed("toy", 0) != split_seed("other", 0)


def test_seeds_are_stable_across_processes():
    """CRC-32, unlike ``hash``, does not change with PYTHONHASHSEED."""
    code = "from faircompare.preprocessing import split_seed; print(split_seed('adult', 4, 7))"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": str(hash_seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2)
    }
    assert outputs == {f"{split_seed('adult', 4, 7)}\n"}


def test_validation_part_comes_from_training_rows_only(toy):
    split = make_split(prepare(toy), 0)
    tuning = validation_split(split)
    assert tuning.holdout == "validation"
    assert set(tuning.test_index) | set(tuning.train_index) == set(split.train_index)
    assert set(tuning.test_index).isdisjoint(split.test_index)
    assert len(tuning.test_index) == 3  # a third of 8 training rows, rounded: 8 - round(16/3)
    assert validation_split(split).test_index.tolist() == tuning.test_index.tolist()


@pytest.mark.parametrize("fraction", [0.0, 1.0, 1.5])
def test_impossible_fractions_are_refused(toy, fraction):
    with pytest.raises(ValueError, match="training fraction must lie in"):
        make_split(prepare(toy), 0, train_fraction=fraction)


def test_negative_ids_are_refused():
    with pytest.raises(ValueError, match="must be >= 0"):
        split_seed("toy", -1)


@pytest.mark.data
def test_real_data_split_is_shared_across_variants(load):
    adult = load("adult")
    by_variant = [make_split(prepare(adult, v, "race-sex"), 5).test_index for v in VARIANTS]
    for test_index in by_variant[1:]:
        np.testing.assert_array_equal(test_index, by_variant[0])
    assert len(by_variant[0]) == 30_162 - round(30_162 * 2 / 3)
