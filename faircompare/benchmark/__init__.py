"""The benchmark harness: plan the runs, execute them in parallel, store every result."""

from faircompare.benchmark.execute import Options, execute_run
from faircompare.benchmark.plan import Plan, make_plan
from faircompare.benchmark.schedule import StaleResultsError, Summary, run_plan
from faircompare.benchmark.study import Study, plan_study, run_benchmark
from faircompare.benchmark.workers import BACKENDS
from faircompare.records import RunSpec

__all__ = [
    "BACKENDS",
    "Options",
    "Plan",
    "RunSpec",
    "StaleResultsError",
    "Study",
    "Summary",
    "execute_run",
    "make_plan",
    "plan_study",
    "run_benchmark",
    "run_plan",
]
