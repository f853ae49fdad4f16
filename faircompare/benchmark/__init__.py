"""The benchmark harness: plan the runs, execute them in parallel, store every result."""

from faircompare.benchmark.execute import (
    BACKENDS,
    Options,
    StaleResultsError,
    Summary,
    execute_run,
    run_plan,
)
from faircompare.benchmark.plan import Plan, make_plan
from faircompare.records import RunSpec

__all__ = [
    "BACKENDS",
    "Options",
    "Plan",
    "RunSpec",
    "StaleResultsError",
    "Summary",
    "execute_run",
    "make_plan",
    "run_plan",
]
