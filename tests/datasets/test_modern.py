"""The four modern datasets, checked against the facts FairGround's cache README states.

The expected numbers are those of ``../shared/data/fairground/README.md`` (measured on the files
by the mirror's maintainers) and of the datasets' own documentation (UCI's row counts).
"""

import shutil
from dataclasses import replace

import pandas as pd
import pytest

from faircompare.datasets import BUILTIN, PAPER_DATASETS, fetch_raw, load_dataset
from faircompare.datasets.modern import FAIRGROUND_URL, MODERN, RAC1P
from faircompare.preprocessing import prepare
from tests.conftest import MIRROR

pytestmark = pytest.mark.data

ROWS = {"acsincome": 245_673, "law-school": 18_692, "bank": 45_211, "credit-default": 30_000}


def test_the_modern_four_are_built_in_but_not_in_the_default_datasets():
    assert set(MODERN) == set(ROWS) and set(MODERN) <= set(BUILTIN)
    assert set(MODERN).isdisjoint(PAPER_DATASETS)
    for spec in MODERN.values():  # pinned to one commit of the cache, verified by checksum
        assert spec.url == FAIRGROUND_URL.format(file=spec.file) and spec.sha256


@pytest.mark.parametrize("name", ROWS)
def test_each_loads_from_the_mirror_whole(load, name):
    dataset = load(name)
    assert len(dataset.frame) == ROWS[name]
    assert dataset.removed == ()  # FairGround's loaded stage has no missing values


def test_acsincome_positive_rates_by_sex_and_race_are_the_caches(load):
    # README: men 45.6 %, women 32.8 %; White 41.8 %, Black 30.4 %
    frame = load("acsincome").frame
    rate = frame.groupby("SEX")["PINCP"].mean()
    assert rate["male"] == pytest.approx(0.456, abs=5e-4)
    assert rate["female"] == pytest.approx(0.328, abs=5e-4)
    by_race = frame.groupby("RAC1P")["PINCP"].mean()
    assert by_race["White"] == pytest.approx(0.418, abs=5e-4)
    assert by_race["Black"] == pytest.approx(0.304, abs=5e-4)
    assert set(frame["RAC1P"]) == set(RAC1P.values())


def test_acsincome_race_has_nine_groups_in_numerical_and_two_in_numerical_binary(load):
    dataset = load("acsincome")
    numerical = prepare(dataset, "numerical", "RAC1P")
    binary = prepare(dataset, "numerical+binary", "RAC1P")
    assert len(set(numerical.sensitive_features)) == 9
    assert set(binary.sensitive_features) == {0, 1}
    # White alone is the privileged group: 164,285 rows, as the raw codes count them
    assert int(binary.sensitive_features.sum()) == 164_285
    assert len(set(prepare(dataset, "numerical", "SEX-RAC1P").sensitive_features)) == 18
    # occupation (529 codes) and place of birth (222) one-hot: about 780 columns
    assert 770 <= numerical.X.shape[1] <= 790


def test_credit_default_favours_no_default_and_drops_the_row_number(load):
    dataset = load("credit-default")
    # README: 22.12 % default, so 77.88 % have the favourable outcome
    assert dataset.y.mean() == pytest.approx(1 - 0.2212, abs=1e-4)
    assert "ID" not in dataset.features and len(dataset.features) == 22


def raw(dataset):
    """The dataset's raw file as the cache holds it, for checks against the cleaned frame."""
    return pd.read_parquet(fetch_raw(dataset.spec))


def test_bank_reads_age_25_or_older_as_privileged(load):
    dataset = load("bank")
    frame, original = dataset.frame, raw(dataset)
    assert set(frame["age"]) == {"adult", "young"}
    assert (frame["age"] == "adult").sum() == (original["age"] >= 25).sum()
    assert dataset.y.sum() == (original["y"] == "yes").sum()


def test_law_school_recodes_keep_every_group(load):
    dataset = load("law-school")
    frame, original = dataset.frame, raw(dataset)
    assert (frame["male"] == "male").sum() == (original["male"] == 1.0).sum()
    assert (frame["racetxt"] == "White").sum() == (original["racetxt"] == "1").sum()
    assert dataset.y.sum() == (original["pass_bar"] == "1").sum()


@pytest.mark.parametrize("name", ROWS)
def test_each_downloads_from_its_url_and_checks_its_checksum(name, server, tmp_path, monkeypatch):
    # The pinned GitHub URL is out of reach here: the same file at the same kind of URL, from
    # a server on the loopback interface, with no mirror to fall back on
    if MIRROR is None:
        pytest.skip("the data mirror is not available here")
    folder, base = server
    spec = MODERN[name]
    shutil.copy(MIRROR / "fairground" / spec.file, folder / spec.file)
    monkeypatch.delenv("FAIRCOMPARE_MIRROR", raising=False)
    fetched = []
    dataset = load_dataset(
        replace(spec, url=base + spec.file), cache=tmp_path / "cache", say=fetched.append
    )
    assert len(dataset.frame) == ROWS[name]
    assert fetched and base in fetched[0]  # downloaded, not copied from a mirror
