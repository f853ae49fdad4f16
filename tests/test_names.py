"""Names are identifiers: one rule, checked where a name enters, before it reaches a path.

Issue #65: on its main, plugins named ``"../../x"``, ``"evil<script>"``, ``"a\\input{x}"`` and
``""`` passed ``check-plugin`` and were listed by ``list algorithms --plugins``; the documented
rule (lower-case words joined by hyphens) was enforced only by ``new-plugin``.
"""

import pytest

from faircompare._validation import NAME_RULE, check_name, is_name
from faircompare.audits import register_audit
from faircompare.audits.registry import registered_audits
from faircompare.datasets import DatasetSpec
from faircompare.datasets.builtin import BUILTIN
from faircompare.exceptions import BadNameError, SpecError
from faircompare.plugin_check import check_plugin
from faircompare.registry import algorithms, find_algorithm, load_plugin_file

BAD = ["../../x", "evil<script>", "a\\input{x}", "", "two words", "x" * 65, "trailing-", "a/b"]
PLUGIN = '''
from typing import ClassVar

import numpy as np

from faircompare.algorithms import FairEstimator


class Named(FairEstimator):
    """A constant classifier under the name given."""

    name: ClassVar[str] = {name!r}

    def fit(self, X, y, *, sensitive_features):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X, *, sensitive_features=None):
        return np.zeros(len(X), dtype=int)
'''


def test_every_name_faircompare_ships_follows_the_rule():
    names = list(algorithms()) + list(registered_audits())
    assert all(is_name(name, lower_case=True) for name in names)
    for spec in BUILTIN.values():
        assert is_name(spec.name)
        assert all(is_name(attribute) for attribute in spec.sensitive_attributes)


@pytest.mark.parametrize("name", ["my-method", "RAC1P", "race-sex", "marital_status", "x" * 64])
def test_identifiers_pass(name):
    assert check_name(name, what="attribute") == name


@pytest.mark.parametrize("name", [*BAD, None, 3])
def test_anything_else_is_refused_stating_the_rule(name):
    with pytest.raises(BadNameError, match=f"attribute .* is not a valid name: {NAME_RULE}"):
        check_name(name, what="attribute")


def test_an_algorithm_name_is_lower_case():
    with pytest.raises(BadNameError, match="lower-case letters and digits"):
        check_name("MyMethod", what="algorithm name", lower_case=True)


@pytest.mark.parametrize("name", BAD)
def test_a_plugin_with_a_bad_name_is_unavailable_under_a_stand_in_and_fails_its_check(
    tmp_path, name
):
    (tmp_path / "named.py").write_text(PLUGIN.format(name=name))
    (loaded,) = load_plugin_file(tmp_path / "named.py")
    assert loaded.make is None and loaded.name.startswith("invalid-name")
    assert is_name(loaded.name, lower_case=True)
    assert "is not a valid name: lower-case letters and digits" in loaded.unavailable
    assert name not in algorithms(tmp_path)
    outcome = check_plugin(str(tmp_path / "named.py"), None, timeout=60)
    assert outcome.failed
    assert any("is not a valid name" in line for line in outcome.lines())


def test_a_plugin_with_a_bad_name_cannot_be_run_by_that_name(tmp_path):
    (tmp_path / "named.py").write_text(PLUGIN.format(name="../../x"))
    with pytest.raises(ValueError, match=r"unknown algorithm '\.\./\.\./x'"):
        find_algorithm("../../x", tmp_path)


@pytest.mark.parametrize(
    ("field", "value"), [("name", "../loans"), ("name", "<b>loans</b>"), ("sensitive", ("a/b",))]
)
def test_a_dataset_spec_with_a_bad_name_or_attribute_is_refused(field, value):
    fields = {"name": "loans", "sensitive": ("sex",)} | {field: value}
    privileged = {attribute: 1 for attribute in fields["sensitive"]}
    with pytest.raises(SpecError, match=f"is not a valid name: {NAME_RULE}"):
        DatasetSpec(file="x.csv", label="y", positive_label=1, privileged=privileged, **fields)


def test_an_audit_with_a_bad_name_is_not_registered():
    class Audit:
        name, version = "../audit", "1"

        def applies(self, run):
            return True

        def __call__(self, run, options):
            return []

    with pytest.raises(BadNameError, match=r"audit name '\.\./audit' is not a valid name"):
        register_audit(Audit())
    assert "../audit" not in registered_audits()
