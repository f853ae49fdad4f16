"""Statistical audits of trained models, run on every benchmark run.

- studentized permutation tests of group fairness (DiCiccio, Romano & Romano 2020):
  :func:`permutation_test`, :func:`compare_groups`;
- FlipTest flipsets and transparency reports under optimal transport (Black, Yeom &
  Fredrikson 2020): :func:`fliptest`, :func:`transport`;
- the individual-fairness test of a model's gradient-flow attack (Maity et al. 2021):
  :func:`individual_fairness_test`;

and the suite that runs them on a benchmark run (:func:`audit_run`), to which a fourth audit is
added with :func:`register_audit` or an entry point.
"""

from faircompare.audits.correlation import correlation_test
from faircompare.audits.fliptest import FlipTestResult, fliptest, transport
from faircompare.audits.individual import (
    FairMetric,
    individual_fairness_test,
    sensitive_subspace_metric,
)
from faircompare.audits.permutation import (
    METRICS,
    BootstrapTestResult,
    GroupComparison,
    PermutationTestResult,
    benjamini_hochberg,
    bootstrap_test,
    compare_groups,
    holm,
    permutation_test,
    permutation_tests,
)
from faircompare.audits.suite import (
    Audit,
    AuditedRun,
    AuditOptions,
    AuditOutcome,
    audit_run,
    register_audit,
    registered_audits,
)

__all__ = [
    "METRICS",
    "Audit",
    "AuditOptions",
    "AuditOutcome",
    "AuditedRun",
    "BootstrapTestResult",
    "FairMetric",
    "FlipTestResult",
    "GroupComparison",
    "PermutationTestResult",
    "audit_run",
    "benjamini_hochberg",
    "bootstrap_test",
    "compare_groups",
    "correlation_test",
    "fliptest",
    "holm",
    "individual_fairness_test",
    "permutation_test",
    "permutation_tests",
    "register_audit",
    "registered_audits",
    "sensitive_subspace_metric",
    "transport",
]
