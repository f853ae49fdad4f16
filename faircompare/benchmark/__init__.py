"""The benchmark harness: plan the runs, execute them in parallel, store every result.

Each name is imported from its module when first used (:mod:`faircompare._lazy`): a worker
process, which imports :mod:`faircompare.benchmark.workers`, loads what a run needs and not the
coordinator's configuration, datasets catalogue or results store. The study's settings are
:mod:`faircompare.config`'s (``faircompare.benchmark.BenchmarkConfig`` still reads them, with a
:class:`DeprecationWarning`, until 0.4.0).
"""

from typing import TYPE_CHECKING

from faircompare._deprecations import moved_names
from faircompare._lazy import lazy_names

_HOMES = {
    "Options": "faircompare.benchmark.settings",
    "RunSettings": "faircompare.benchmark.settings",
    "Plan": "faircompare.benchmark.plan",
    "make_plan": "faircompare.benchmark.plan",
    "RunSpec": "faircompare.records",
    "StaleResultsError": "faircompare.benchmark.schedule",
    "Summary": "faircompare.benchmark.summary",
    "run_plan": "faircompare.benchmark.schedule",
    "Study": "faircompare.benchmark.planned",
    "plan_study": "faircompare.benchmark.study",
    "run_benchmark": "faircompare.benchmark.study",
    "execute_run": "faircompare.benchmark.execute",
    "AuditSummary": "faircompare.benchmark.reaudit",
    "audit_study": "faircompare.benchmark.reaudit",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES, moved=moved_names(__name__))

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.benchmark.execute import execute_run as execute_run
    from faircompare.benchmark.plan import Plan as Plan
    from faircompare.benchmark.plan import make_plan as make_plan
    from faircompare.benchmark.planned import Study as Study
    from faircompare.benchmark.reaudit import AuditSummary as AuditSummary
    from faircompare.benchmark.reaudit import audit_study as audit_study
    from faircompare.benchmark.schedule import StaleResultsError as StaleResultsError
    from faircompare.benchmark.schedule import run_plan as run_plan
    from faircompare.benchmark.settings import Options as Options
    from faircompare.benchmark.settings import RunSettings as RunSettings
    from faircompare.benchmark.study import plan_study as plan_study
    from faircompare.benchmark.study import run_benchmark as run_benchmark
    from faircompare.benchmark.summary import Summary as Summary
    from faircompare.records import RunSpec as RunSpec
