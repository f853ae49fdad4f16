"""Names that moved keep working at their former place, with a warning naming the new one."""

import importlib
import importlib.util

import numpy as np
import pytest

from faircompare._deprecations import MOVED, REMOVED_IN
from faircompare.preprocessing import make_split, prepare
from faircompare.stats import fliptest, transport

TORCH = importlib.util.find_spec("torch") is not None
MOVES = [
    pytest.param(
        old, name, new, id=f"{old}.{name}",
        marks=pytest.mark.skipif(new.endswith(".gan") and not TORCH, reason="needs torch"),
    )  # the GAN's module needs the torch extra, at its old place as at its new one
    for old, names in MOVED.items()
    for name, new in names.items()
]  # fmt: skip


@pytest.mark.parametrize(("old", "name", "new"), MOVES)
def test_a_moved_name_is_the_same_object_at_its_former_place_with_a_warning(old, name, new):
    former = importlib.import_module(old)
    match = rf"{old}\.{name} has moved to {new}\.{name}; the old name works until {REMOVED_IN}"
    with pytest.warns(DeprecationWarning, match=match):
        assert getattr(former, name) is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_name_that_never_was_is_an_attribute_error_naming_the_module(old):
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'no_such_name'"):
        importlib.import_module(old).no_such_name  # noqa: B018


def test_the_former_fliptest_function_is_called_through_the_module_of_its_name():
    # faircompare.audits.fliptest was a function until 0.2.0 and is now the audit's module:
    # `from faircompare.audits import fliptest; fliptest(...)` keeps working, with a warning
    from faircompare.audits import fliptest as former

    rng = np.random.default_rng(0)
    source, target = rng.normal(size=(6, 2)), rng.normal(1, 1, size=(6, 2))
    predictions = (source[:, 0] > 0).astype(int), (target[:, 0] > 1).astype(int)
    mapping = transport(source, target, rng=0)
    expected = fliptest(source, target, *predictions, mapping)
    with pytest.warns(DeprecationWarning, match=r"audits\.fliptest\(\) has moved to faircompare"):
        result = former(source, target, *predictions, mapping)
    assert result.positive.tolist() == expected.positive.tolist()
    assert result.negative.tolist() == expected.negative.tolist()


def test_the_former_attribute_names_of_splits_read_the_new_ones_with_a_warning(toy):
    prepared = prepare(toy, sensitive_attribute="sex")
    split = make_split(prepared, 0)
    for kind, old, new in [
        (prepared, "s", "sensitive_features"),
        (split, "s_train", "sensitive_features_train"),
        (split, "s_test", "sensitive_features_test"),
    ]:
        with pytest.warns(
            DeprecationWarning, match=f"{type(kind).__name__}.{old} has been renamed"
        ):
            assert getattr(kind, old) is getattr(kind, new)


def test_the_former_keywords_of_the_data_and_progress_callbacks_work_with_a_warning(tmp_path):
    from faircompare.benchmark import plan_study
    from faircompare.config import PROFILES
    from faircompare.datasets import load_dataset

    said = []
    with pytest.warns(DeprecationWarning, match="report= is deprecated.*use say="):
        load_dataset("ricci", cache=tmp_path, report=said.append)
    assert said and said[0].startswith("fetched ricci.csv")
    quick = PROFILES["quick"].overridden(datasets=("ricci",))
    with pytest.warns(DeprecationWarning, match="cache_dir= is deprecated.*use cache="):
        assert plan_study(quick, cache_dir=tmp_path, fetch=False).runs


def test_the_former_environment_variables_are_read_with_a_warning(tmp_path, monkeypatch):
    from faircompare.datasets.fetch import CACHE_ENV, FORMER_ENV, cache_dir

    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv(FORMER_ENV[CACHE_ENV], str(tmp_path))
    with pytest.warns(DeprecationWarning, match=r"\$FAIRCOMPARE_DATA has been renamed"):
        assert cache_dir() == tmp_path
