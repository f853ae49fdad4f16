"""The public API is what docs/api/public_names.txt lists: a removal or a rename is a reviewed change.

The list is the snapshot: each public module and every name its ``__all__`` promises, and the
members of a listed class that the plugin contract promises (``FairEstimator.validate_fit``). A name
that leaves a module's ``__all__`` must leave the list in the same change, go through
``faircompare/_deprecations.py`` (so that it keeps working with a warning for one minor
release) and be written in CHANGELOG.md; a new name is added to the list, and with it to the
API reference, which is written from the list.
"""

import importlib
import inspect
from collections import defaultdict
from pathlib import Path

import pytest

import faircompare

ROOT = Path(faircompare.__file__).resolve().parents[1]


def listed() -> dict[str, set[str]]:
    names: dict[str, set[str]] = defaultdict(set)
    for line in (ROOT / "docs" / "api" / "public_names.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            module, name = line.split()
            names[module].add(name)
    return dict(names)


LISTED = listed()


@pytest.mark.parametrize("module", sorted(LISTED))
def test_a_public_module_promises_exactly_the_names_listed(module):
    promised = set(importlib.import_module(module).__all__)
    names = {name for name in LISTED[module] if "." not in name}
    added, removed = sorted(promised - names), sorted(names - promised)
    assert not added and not removed, (
        f"{module}: added {added}, removed {removed}. Update docs/api/public_names.txt; a removed "
        "or renamed name goes through faircompare/_deprecations.py and CHANGELOG.md"
    )


@pytest.mark.parametrize("module", sorted(LISTED))
def test_every_public_name_exists_and_a_callable_one_is_documented(module):
    loaded = importlib.import_module(module)
    for name in LISTED[module]:
        owner, _, member = name.rpartition(".")
        assert not owner or owner in LISTED[module], f"{module}.{owner} is not listed"
        value = getattr(getattr(loaded, owner), member) if owner else getattr(loaded, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{module}.{name} has no docstring"


def test_the_snapshot_covers_every_public_package():
    packages = {
        f"faircompare.{path.parent.name}"
        for path in (ROOT / "faircompare").glob("*/__init__.py")
        if not path.parent.name.startswith("_")
    }
    assert packages <= set(LISTED), sorted(packages - set(LISTED))
