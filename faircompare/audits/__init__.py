"""The benchmark's audits: the harness's layer over :mod:`faircompare.stats`.

Every run's fitted model is audited by three adapters, each with the benchmark's settings:

- :class:`PermutationAudit`: studentized permutation tests of the run metrics (DiCiccio et al.);
- :class:`FlipTestAudit`: FlipTest flipsets under the split's transport map (Black et al.);
- :class:`IndividualAudit`: the individual-fairness test of the model's attack (Maity et al.).

:func:`audit_run` runs every registered audit on a run; a fourth is added with
:func:`register_audit` or an entry point (the :class:`Audit` protocol). What an audit shares
across a split's runs is built once (:class:`SplitCache`); its results become the store's rows
in :mod:`faircompare.audits.rows`.
"""

from faircompare.audits.cache import SharedSetupAudit, SplitCache
from faircompare.audits.fliptest import FlipTestAudit
from faircompare.audits.individual import IndividualAudit
from faircompare.audits.permutation import PermutationAudit, permutation_audit
from faircompare.audits.protocol import Audit, AuditedRun, AuditOptions, AuditOutcome
from faircompare.audits.registry import (
    audit_run,
    audit_versions,
    register_audit,
    registered_audits,
)

__all__ = [
    "Audit",
    "AuditOptions",
    "AuditOutcome",
    "AuditedRun",
    "FlipTestAudit",
    "IndividualAudit",
    "PermutationAudit",
    "SharedSetupAudit",
    "SplitCache",
    "audit_run",
    "audit_versions",
    "permutation_audit",
    "register_audit",
    "registered_audits",
]
