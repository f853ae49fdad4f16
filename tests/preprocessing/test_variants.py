"""The three preprocessing variants (Friedler et al. 2019, §5)."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from faircompare.datasets import PAPER_DATASETS, Dataset, DatasetSpec
from faircompare.datasets.clean import clean
from faircompare.exceptions import ChoiceError
from faircompare.preprocessing import VARIANTS, make_split, prepare, variants

PEER_SUFFIX = {
    "original": "original",
    "numerical": "numerical",
    "numerical+binary": "numerical-binsensitive",
}


def test_original_keeps_categoricals_and_leaves_out_sensitive_attributes(toy):
    prepared = prepare(toy, "original", "sex")
    assert list(prepared.X.columns) == ["colour", "score"]
    assert prepared.X["colour"].dtype == "category"
    assert list(prepared.X["colour"].cat.categories) == ["blue", "green", "red"]
    assert prepared.sensitive_features.tolist() == ["m", "f", "f", "m"] * 3
    assert prepared.privileged == "m"


def test_numerical_one_hot_encodes_in_sorted_order(toy):
    prepared = prepare(toy, "numerical", "race")
    assert list(prepared.X.columns) == ["score", "colour_blue", "colour_green", "colour_red"]
    assert (prepared.X.dtypes == "float64").all()
    # Row 0 is red, row 1 blue, row 3 green (the colour pattern repeats every four rows).
    assert prepared.X.iloc[[0, 1, 3], 1:].to_numpy().tolist() == [
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
    ]
    assert prepared.sensitive_features.tolist() == ["a", "a", "b", "c"] * 3


def test_numerical_binary_marks_the_privileged_group_with_one(toy):
    prepared = prepare(toy, "numerical+binary", "race")
    assert prepared.sensitive_features.tolist() == [1, 1, 0, 0] * 3
    assert prepared.privileged == 1
    assert prepared.X.equals(prepare(toy, "numerical", "race").X)


def test_combined_attribute_can_be_chosen(toy):
    prepared = prepare(toy, "numerical+binary", "sex-race")
    # Privileged "m-a" occurs where sex is m and race is a: row 0 of each block of four.
    assert prepared.sensitive_features.tolist() == [1, 0, 0, 0] * 3


def test_label_is_one_for_the_positive_value(toy):
    assert prepare(toy).y.tolist() == [1, 0, 0] * 4


def test_default_is_numerical_binary_on_the_first_attribute(toy):
    prepared = prepare(toy)
    assert (prepared.variant, prepared.sensitive_attribute) == ("numerical+binary", "sex")


def test_unknown_variant_and_attribute_list_the_choices(toy):
    with pytest.raises(ChoiceError, match="valid choices: original, numerical, numerical\\+binary"):
        prepare(toy, "numeric")
    with pytest.raises(ChoiceError, match="valid choices: sex, race, sex-race"):
        prepare(toy, "numerical", "age")


def peer_label(peer: pd.DataFrame, spec, variant: str) -> np.ndarray:
    """The peer's label as 1/0; its files keep German's raw 1 (good) / 2 (bad) codes."""
    label = peer[spec.label]
    if spec.name == "ricci" or variant == "numerical+binary":
        return (label == 1).to_numpy()
    return (label == spec.positive_label).to_numpy()


@pytest.mark.data
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", PAPER_DATASETS)
def test_agrees_with_the_peer_benchmark(load, peer_frames, name, variant):
    """Rows, columns (in order) and values equal the peer's preprocessed file, per attribute."""
    dataset = load(name)
    spec = dataset.spec
    peer = pd.read_csv(
        peer_frames / f"{name}_{PEER_SUFFIX[variant]}.csv", keep_default_na=False, na_values=[""]
    )
    feature_columns = [c for c in peer.columns if c not in {spec.label, *spec.sensitive_attributes}]
    for attribute in spec.sensitive_attributes:
        prepared = prepare(dataset, variant, attribute)
        assert list(prepared.X.columns) == feature_columns
        assert len(prepared.X) == len(peer)
        for column in feature_columns:
            ours, theirs = prepared.X[column], peer[column]
            if ours.dtype == "category":
                assert (ours.astype(str).to_numpy() == theirs.astype(str).to_numpy()).all()
            else:
                np.testing.assert_allclose(ours.to_numpy(float), theirs.to_numpy(float))
        np.testing.assert_array_equal(prepared.y, peer_label(peer, spec, variant))
        np.testing.assert_array_equal(
            prepared.sensitive_features.astype(str), peer[attribute].astype(str)
        )


@pytest.fixture
def wide() -> Dataset:
    """400 rows with a 40-valued categorical feature: one-hot, 2 of 41 columns are not zero."""
    rng = np.random.default_rng(3)
    raw = pd.DataFrame(
        {
            "code": rng.integers(40, size=400).astype(str),
            "score": rng.normal(size=400),
            "sex": rng.choice(["m", "f"], size=400),
            "outcome": rng.choice(["yes", "no"], size=400),
        }
    )
    spec = DatasetSpec(
        name="wide",
        file="wide.csv",
        label="outcome",
        positive_label="yes",
        sensitive=("sex",),
        privileged={"sex": "m"},
        categorical=("code",),
    )
    return clean(raw, spec)


def test_a_large_mostly_zero_encoding_is_stored_sparse_with_the_same_values(wide, toy, monkeypatch):
    dense = prepare(wide, "numerical").X
    assert (dense.dtypes == "float64").all()  # 131 kB as dense floats: below the threshold
    monkeypatch.setattr(variants, "SPARSE_ABOVE_BYTES", 0)
    prepared = prepare(wide, "numerical")
    assert all(isinstance(dtype, pd.SparseDtype) for dtype in prepared.X.dtypes)
    pd.testing.assert_frame_equal(prepared.X.sparse.to_dense(), dense)
    # a narrow encoding (toy: half its values are not zero) stays dense whatever its size
    assert (prepare(toy, "numerical").X.dtypes == "float64").all()
    # the split of a sparse frame is sparse, with the rows of the dense one's split
    split, dense_split = make_split(prepared, 0), make_split(replace(prepared, X=dense), 0)
    pd.testing.assert_frame_equal(split.X_test.sparse.to_dense(), dense_split.X_test)
