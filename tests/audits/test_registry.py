"""The audit layer: the registry, the one entry point, per-split setups and recorded versions."""

import dataclasses
import importlib
import textwrap
from pathlib import Path

import pytest

from faircompare._timeout import RunTimeoutError
from faircompare.audits import (
    SplitCache,
    audit_run,
    audit_versions,
    register_audit,
    registered_audits,
    registry,
)
from faircompare.audits.contract import synthetic_run
from faircompare.benchmark import make_plan
from faircompare.config import BenchmarkConfig
from faircompare.plugin_source import files_fingerprint
from faircompare.records import AuditRow
from tests.audits.test_contract import GOOD


class Counting:
    """A plugin audit that counts its calls and can be told to fail."""

    name = "counting"
    version = "1"

    def __init__(self, error: BaseException | None = None):
        self.error, self.calls = error, 0

    def applies(self, run):
        return True

    def __call__(self, run, options):
        self.calls += 1
        if self.error is not None:
            raise self.error
        return [AuditRow(self.name, "calls", "all", float(self.calls), None, None, {})]


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", {})
    return register_audit


def test_the_built_in_audits_run_in_order_with_their_versions():
    assert list(registered_audits()) == ["permutation", "fliptest", "individual"]
    assert audit_versions() == "permutation 6, fliptest 4, individual 8"


def test_a_failing_audit_is_recorded_and_the_others_still_run(registered, run):
    registered(Counting(ValueError("no luck")))
    outcome = audit_run(run)
    assert outcome.errors == {"counting": "ValueError: no luck"}
    assert {row.audit for row in outcome.rows} == {"permutation", "fliptest", "individual"}


def test_a_runs_time_limit_is_never_swallowed(registered, run):
    registered(Counting(RunTimeoutError("stopped at the time limit of 2 s")))
    with pytest.raises(RunTimeoutError):
        audit_run(run)


def test_an_audit_without_a_version_is_refused(registered):
    class Unversioned:
        name = "unversioned"

        def applies(self, run):
            return True

        def __call__(self, run, options):
            return []

    with pytest.raises(TypeError, match="needs name, version, applies"):
        registered(Unversioned())


def test_a_plugin_audits_version_is_among_every_runs_inputs(registered):
    config = BenchmarkConfig(datasets=("ricci",), algorithms=("svm",), splits=1)
    before = dict(make_plan(config).runs[0].inputs)["audits"]
    audit = Counting()
    registered(audit)
    added = dict(make_plan(config).runs[0].inputs)["audits"]
    audit.version = "2"
    bumped = dict(make_plan(config).runs[0].inputs)["audits"]
    # Counting is defined in this file, a module of the package "tests": every module of the
    # package is the audit's code (a helper it imports may change its results)
    package = Path(__file__).parents[1]
    code = files_fingerprint(sorted(package.rglob("*.py")), package)
    assert before.endswith("individual 8") and added == f"{before}, counting 1 (code {code})"
    assert bumped == f"{before}, counting 2 (code {code})"  # a stored run of version 1 is stale


def test_a_plugin_audits_code_is_among_every_runs_inputs(registered, tmp_path, monkeypatch):
    # unchanged on the main of issue #28: the inputs said only "audits: on, N permutations"
    module = tmp_path / "share_audit.py"
    module.write_text(textwrap.dedent(GOOD))
    monkeypatch.syspath_prepend(str(tmp_path))
    registered(importlib.import_module("share_audit").PositiveShare())
    before = audit_versions()
    assert before.endswith(f"positive-share 1 (code {files_fingerprint([module])})")
    module.write_text(textwrap.dedent(GOOD).replace("mean()", "mean() * 1.0"))  # version "1"
    after = audit_versions()
    assert after != before and after.endswith(f"(code {files_fingerprint([module])})")


def test_split_cache_builds_once_per_split_and_drops_the_least_recently_used():
    built = []
    cache = SplitCache(lambda run: built.append(run.split.seed) or run.split.seed, maxsize=2)
    base = synthetic_run("numerical+binary")

    def with_seed(seed):
        return dataclasses.replace(base, split=dataclasses.replace(base.split, seed=seed))

    for seed in (1, 2, 1, 3, 2):
        assert cache(with_seed(seed)) == seed
    # 1 and 2 built; 1 hit; 3 built, dropping 2 (least recently used); 2 built again.
    assert built == [1, 2, 3, 2] and (cache.hits, cache.misses) == (1, 4)
