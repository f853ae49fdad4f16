"""check-plugin checks audit plugins as it checks algorithms."""

import subprocess
import textwrap

import numpy as np

from faircompare.audits import PermutationAudit
from faircompare.audits.contract import check_audit
from faircompare.records import AuditRow

GOOD = '''
from faircompare.records import AuditRow


class PositiveShare:
    """The share of positive predictions among the unprivileged test rows."""

    name = "positive-share"
    version = "1"

    def applies(self, run):
        return run.both_groups

    def __call__(self, run, options):
        share = float(run.y_pred[run.unprivileged].mean())
        return [AuditRow(self.name, "share", "unprivileged", share, None, None, {"n": 1})]
'''


class Audit:
    name, version = "bad", "1"

    def __init__(self, rows=None, applies=True):
        self.rows, self.answer = rows, applies

    def applies(self, run):
        return self.answer

    def __call__(self, run, options):
        return self.rows(run) if callable(self.rows) else self.rows


def failures(audit):
    return {
        check.name: check.detail for check in check_audit(audit, timeout=30) if not check.passed
    }


def row(**fields):
    base = dict(audit="bad", metric="m", scope="all", statistic=1.0, pvalue=None,
                adjusted_pvalue=None, details={})  # fmt: skip
    return AuditRow(**(base | fields))


def test_a_built_in_audit_keeps_the_contract():
    checks = check_audit(PermutationAudit())
    assert len(checks) == 7 and all(check.passed for check in checks), checks


def test_each_broken_promise_is_named():
    assert failures(Audit([row()])) == {}
    versionless = Audit([row()])
    versionless.version = ""
    assert failures(versionless) == {
        "follows the Audit protocol": "version must be non-empty text, got ''"
    }
    assert "applies() returned 'yes'" in failures(Audit([], applies="yes")).values()
    misnamed = failures(Audit([row(audit="other")]))["rows well formed (numerical)"]
    assert "its audit is 'other', not the audit's name 'bad'" in misnamed
    assert (
        "pvalue must be None, NaN or in [0, 1], got 2.0"
        in failures(Audit([row(pvalue=2.0)]))["rows well formed (numerical+binary)"]
    )
    unserialisable = failures(Audit([row(details={"x": object()})]))
    assert "JSON-serialisable" in unserialisable["rows well formed (numerical)"]
    draws = np.random.default_rng()
    random = failures(Audit(lambda run: [row(statistic=float(draws.random()))]))
    assert "seed the audit with run.seed" in random["deterministic (numerical)"]


def test_check_plugin_checks_the_audits_of_a_plugin_file(tmp_path):
    path = tmp_path / "share.py"
    path.write_text(textwrap.dedent(GOOD))
    result = subprocess.run(
        ["faircompare", "check-plugin", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS  audit positive-share: follows the Audit protocol" in result.stdout
    assert result.stdout.strip().endswith("8 passed, 0 failed")
