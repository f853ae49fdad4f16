"""A planned study: its runs, priced, ready to run, and what the dry run says of it.

:func:`~faircompare.benchmark.plan_study` makes it, :func:`~faircompare.benchmark.run_plan`
runs it, and ``faircompare run --dry-run`` prints :meth:`Study.describe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from faircompare._deprecations import RenamedAttribute
from faircompare.benchmark.costs import Pricing, describe_plan, side_by_side
from faircompare.config.settings import BenchmarkConfig, cpu_cores
from faircompare.records import RunSpec

__all__ = ["Study"]


@dataclass(frozen=True)
class Study:
    """A planned benchmark, priced and ready to run.

    Attributes
    ----------
    runs
        The planned runs, within the algorithms' row limits.
    costs
        Each run's expected CPU seconds, by key, priced by what will run (the audits enabled,
        the permutations): the dry run's total and the progress line's time left.
    cleaning
        For each dataset loaded, the rows each cleaning step removed.
    config
        The settings it was planned and priced with (formerly ``options``, which still reads
        it, with a :class:`DeprecationWarning`).
    speed
        How many times the cost table's seconds a run takes on this machine
        (:attr:`~faircompare.benchmark.costs.CostModel.speed`).
    """

    runs: tuple[RunSpec, ...]
    costs: dict[str, float]
    cleaning: dict[str, dict[str, int]]
    config: BenchmarkConfig
    speed: float = 1.0

    options = RenamedAttribute()

    def expected_seconds(self, workers: int) -> float:
        """Return the run time the plan is expected to take on ``workers`` workers, all runs summed.

        Parameters
        ----------
        workers
            The workers running at once (runs side by side take longer:
            :func:`~faircompare.benchmark.costs.side_by_side`).

        Returns
        -------
        float
            The sum of the runs' seconds, as the store will record them.
        """
        return sum(self.costs.values()) * side_by_side(workers)

    def describe(
        self, workers: int, *, todo: Sequence[RunSpec] | None = None, stored: str | None = None
    ) -> str:
        """Describe the plan as ``faircompare run --dry-run`` prints it.

        Parameters
        ----------
        workers
            The workers that would share the runs.
        todo
            The runs still to do, where some are stored (priced alone); None: every run.
        stored
            A line saying how many planned runs are stored, and where.

        Returns
        -------
        str
            The settings it was resolved to (each dataset's attributes and variants, the seed,
            the time limit, the workers), the ``stored`` line, what it runs (splits, settings,
            tuning, audits), the runs to do and their expected CPU time per dataset and
            algorithm, and in all (:func:`~.costs.describe_plan`).
        """
        pricing = Pricing.of(self.config)
        plan = describe_plan(self.runs, self.costs, pricing, workers, speed=self.speed, todo=todo)
        lines = [_resolved(self.config, self.runs, workers), stored, plan]
        return "\n".join(line for line in lines if line)


def _resolved(config: BenchmarkConfig, runs: Sequence[RunSpec], workers: int) -> str:
    """Say what a plan's settings resolved to: its data, seed, time limit and workers."""
    data: dict[str, tuple[set[str], set[str]]] = {}
    for run in runs:
        attributes, variants = data.setdefault(run.dataset, (set(), set()))
        attributes.add(run.sensitive_attribute)
        variants.add(run.variant)
    datasets = "; ".join(
        f"{name} ({', '.join(sorted(attributes))}; {', '.join(sorted(variants))})"
        for name, (attributes, variants) in data.items()
    )
    asked = ""
    if config.jobs is not None and config.jobs > workers and config.backend != "inline":
        cores = cpu_cores()
        bound = f"{cores} cores here" if config.on_this_machine and cores < config.jobs else None
        share = f"{len(runs):,} run{'s' if len(runs) != 1 else ''} to share"
        asked = f", {config.jobs:,} asked: {bound or share}"
    plugins = f"; plugins from {config.plugins}" if config.plugins else ""
    return (
        f"settings: {datasets or 'no data'}; seed {config.seed}; time limit {config.timeout:g} s "
        f"a run; {workers} worker{'s' if workers != 1 else ''} ({config.backend}{asked}){plugins}"
    )
