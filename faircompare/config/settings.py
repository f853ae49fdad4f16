"""A study's settings, in one frozen object checked once where the user's input enters.

:class:`BenchmarkConfig` holds every setting of a study's run: what to run (datasets,
attributes, variants, algorithms, grid, splits, seed), how each run is done (time limit,
plugins, audits, permutations), how the plan runs (workers, backend, scheduler, what to redo)
and where the data is (mirror, cache). It is built from the command line, a TOML file
(:func:`~faircompare.config.load_config`) or Python. Each field is declared with its rule and
its command-line option (:func:`~faircompare.config.rules.setting`), and checked against that
rule when the settings are made; the coordinator and each worker then read it as it is.
:data:`~faircompare.config.PROFILES` are ready-made ones.

This module imports nothing heavy: the command line, the cost model and the workers read a
setting without loading the run stack, and a worker unpickles the settings without loading the
profiles or the TOML loader.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from faircompare._deprecations import deprecated
from faircompare.choices import (
    DEFAULT_PERMUTATIONS,
    TUNING_MEASURES,
    TUNING_OBJECTIVES,
    TUNING_SAMPLERS,
    VARIANTS,
)
from faircompare.config.rules import (
    MAX_BUDGET,
    MAX_PERMUTATIONS,
    MAX_SEED,
    MAX_SPLITS,
    MAX_TIMEOUT,
    Option,
    Rule,
    rule_of,
    setting,
)
from faircompare.datasets.builtin import BUILTIN, PAPER_DATASETS
from faircompare.datasets.fetch import CACHE_ENV, MIRROR_ENV
from faircompare.exceptions import ConfigError

__all__ = ["BACKENDS", "RULES", "RUN_FIELDS", "BenchmarkConfig", "cpu_cores"]

#: The ways to run a plan: ``processes`` (worker processes this one starts and watches),
#: ``dask`` (a Dask cluster), ``inline`` (this process, one run at a time).
BACKENDS = ("processes", "dask", "inline")

#: The settings of how a plan runs and where its data is, not of what it runs: a profile leaves
#: them at their defaults, and ``faircompare list profiles`` does not show them.
RUN_FIELDS = ("jobs", "backend", "scheduler", "force", "retry_failed", "mirror", "cache")


def cpu_cores() -> int:
    """Return the cores this process may use: the default number of workers, and their cap.

    Returns
    -------
    int
        :func:`joblib.cpu_count`, which honours the CPU affinity and a container's CPU quota
        (unlike :func:`os.cpu_count`, which counts the machine's cores).
    """
    import joblib  # imported here: the command line's help does not need it

    return int(joblib.cpu_count())


_FLAG = Rule("flag")
_FOLDER = Rule("folder", optional=True)
_EVERY_CORE = "every core this process may use"


@dataclass(frozen=True)
class BenchmarkConfig:
    """A study's settings: what to run, how each run is done, how the plan runs, where the data is.

    Every field is checked when the settings are made, against the rule declared on it
    (:data:`RULES`; one message form: ``jobs must be a whole number of at least 1, got 0``), so
    a run never meets a bad setting; :meth:`overridden` returns a changed copy, checked again.
    The command line's options are made from the same fields (their flags, ranges, help and
    defaults).

    Attributes
    ----------
    datasets
        Built-in dataset names (default: the paper's five).
    dataset_specs
        TOML specifications of user datasets.
    sensitive_attributes
        ``"all"`` (every sensitive attribute, the combined one included), ``"first"``, or a list
        of attribute names (each used where a dataset has it).
    variants
        ``"supported"`` (every variant each algorithm supports) or a list of variants.
    algorithms
        ``"all"`` (every available algorithm), ``"default"`` (every available algorithm that
        does not opt out of a first look, :attr:`FairEstimator.in_default_profile`) or a list
        of registry names.
    grid
        Whether to sweep each algorithm's parameter grid; else its default parameters only.
    tune
        Whether grid runs are also fitted on the training data less a validation part and scored
        on that part, so the analysis can choose parameters without the test data.
    tuning_budgets
        Tune every algorithm with each of these budgets: a tuned run per budget, whose
        parameters are chosen by that many trials of a seeded search of the algorithm's search
        space on a validation part of the training rows, then fitted on every training row and
        tested once (:mod:`faircompare.benchmark.trials`). Empty (the default): no tuned runs.
    tuning_sampler, tuning_objective, tuning_measure, tuning_bound
        How the trials are drawn (``tpe`` or ``random``), what chooses among them
        (``accuracy``, ``constrained`` or ``pareto``), the fairness measure whose gap the last
        two read, and the gap's bound for ``constrained``.
    splits
        Number of train/test splits.
    seed
        Base seed of every split and algorithm.
    timeout
        Seconds after which a run is stopped and recorded as failed.
    plugins
        A folder of plugin files, or None.
    audits
        Whether to audit each run with every registered audit (permutation tests, FlipTest,
        the individual-fairness test, and plugin audits).
    audit_frontier
        Whether to audit the runs of a frontier too: an algorithm whose settings are the
        points of one curve (:attr:`~faircompare.algorithms.base.FairEstimator.always_planned`,
        the ``unprocessed-*`` baselines post-processed to each tolerance), the yardstick every
        intervention is compared with at equal fairness. Its measures are computed either way.
    permutations
        Most permutations per audit test (a sequential test stops once its verdict is decided).
    jobs
        Parallel workers asked for; None (the default) for every core this process may use
        (:func:`cpu_cores`). Worker processes and a local Dask cluster get at most one per
        core and per run (:meth:`workers`).
    backend
        ``"processes"`` (worker processes this one watches: a worker that dies or overruns the
        time limit costs its run only), ``"dask"``, or ``"inline"`` (this process, one run at a
        time, for debugging).
    scheduler
        Address of a running Dask scheduler, or the scheduler file it writes (``dask
        scheduler --scheduler-file``; ``backend="dask"`` only); a local cluster is started
        when None.
    force, retry_failed
        Redo every planned run, or the failed ones.
    mirror, cache
        The local mirror of the raw data files and the cache of verified ones (None: the
        defaults, ``$FAIRCOMPARE_MIRROR`` and ``$FAIRCOMPARE_CACHE``).

    Raises
    ------
    ConfigError
        For a setting of the wrong kind or out of range, a string where a list of names is
        expected, no dataset, or a scheduler without the ``dask`` backend.
    ChoiceError
        For an unknown dataset, variant or backend, naming the valid ones.

    Notes
    -----
    The folders (``plugins``, ``mirror``, ``cache``) are made absolute when the settings are
    made: a run never depends on the working directory (a plugin may change it, and workers may
    start elsewhere).
    """

    datasets: tuple[str, ...] = setting(
        PAPER_DATASETS,
        Rule("names", choices=BUILTIN, what="dataset"),
        Option("A built-in dataset (repeatable).", flag="--dataset", default="the paper's five"),
    )
    dataset_specs: tuple[str, ...] = setting(
        (),
        Rule("names"),
        Option(
            "A TOML specification of your own dataset (repeatable): without --dataset, only "
            "these datasets are run.",
            flag="--spec",
            exists=True,
        ),
    )
    sensitive_attributes: str | tuple[str, ...] = setting(
        "first",
        Rule("names", keywords=("all", "first")),
        Option(
            "A sensitive attribute (repeatable; each used where a dataset has it, e.g. sex, or "
            "race-sex for the combined one); 'all' for every one, the combined ones included.",
            flag="--attribute",
            default="the first of each dataset",
        ),
    )
    variants: str | tuple[str, ...] = setting(
        ("numerical+binary",),
        Rule("names", choices=VARIANTS, keywords=("supported",), what="preprocessing variant"),
        Option(
            "A preprocessing variant (repeatable); 'supported' for every variant each "
            "algorithm supports.",
            flag="--variant",
        ),
    )
    algorithms: str | tuple[str, ...] = setting(
        "default",
        Rule("names", keywords=("all", "default")),
        Option(
            "An algorithm (repeatable; `faircompare list algorithms` names them); 'all' for "
            "every available one.",
            flag="--algorithm",
            default="every available algorithm that does not opt out",
        ),
    )
    grid: bool = setting(
        False,
        _FLAG,
        Option(
            "Sweep the parameter grids; sets 'tune' too (grid runs are also scored on a "
            "validation part of the training data, for choosing parameters without the test "
            "data). In a TOML file, 'grid' and 'tune' are separate keys."
        ),
    )
    tune: bool = setting(False, _FLAG)
    tuning_budgets: tuple[int, ...] = setting(
        (),
        Rule("wholes", low=1, high=MAX_BUDGET, note="a thousand trials"),
        Option(
            "Tune every algorithm with this many trials of a seeded search on validation rows "
            "carved from the training part (repeatable: a tuned run per budget).",
            flag="--tuning-budget",
            default="none (no tuned runs)",
        ),
    )
    tuning_sampler: str = setting(
        TUNING_SAMPLERS[0],
        Rule("choice", choices=TUNING_SAMPLERS, what="sampler"),
        Option("How the tuning draws its trials: Optuna's seeded TPE, or at random."),
    )
    tuning_objective: str = setting(
        TUNING_OBJECTIVES[0],
        Rule("choice", choices=TUNING_OBJECTIVES, what="tuning objective"),
        Option(
            "What chooses among the trials on the validation rows: accuracy; constrained (the "
            "most accurate within --tuning-bound of the fairness gap); pareto (of the Pareto set "
            "of accuracy and gap, the largest accuracy minus gap)."
        ),
    )
    tuning_measure: str = setting(
        "DIbinary",
        Rule("choice", choices=TUNING_MEASURES, what="fairness measure"),
        Option("The fairness measure whose gap the constrained and pareto objectives read."),
    )
    tuning_bound: float = setting(
        0.1,
        Rule("number", low=0, high=1, note="a gap"),
        Option("The largest fairness gap the constrained objective accepts."),
    )
    splits: int = setting(
        10,
        Rule("whole", low=1, high=MAX_SPLITS, note="a hundred times the paper's ten"),
        Option("Number of train/test splits."),
    )
    seed: int = setting(
        0,
        Rule("whole", low=0, high=MAX_SEED, note="2**63 - 1, the largest the store holds"),
        Option("Base seed."),
    )
    timeout: float = setting(
        600.0,
        Rule("seconds", low=0, high=MAX_TIMEOUT, note="30 days"),
        Option("Seconds per run (a run past it is ended and stored as failed)."),
    )
    plugins: str | None = setting(
        None,
        _FOLDER,
        Option(
            "A folder of plugin files (Python files defining FairEstimator subclasses).",
            exists=True,
        ),
    )
    audits: bool = setting(
        True,
        _FLAG,
        Option("Audit each run (permutation tests, FlipTest, individual fairness)."),
    )
    audit_frontier: bool = setting(
        True,
        _FLAG,
        Option(
            "Audit the frontier's runs too (the post-processed baselines every intervention is "
            "compared with at equal fairness); their measures are computed either way."
        ),
    )
    permutations: int = setting(
        DEFAULT_PERMUTATIONS,
        Rule("whole", low=1, high=MAX_PERMUTATIONS, note="the most a sequential test draws"),
        Option(
            "Most permutations per audit test: a test draws until its verdict at 0.05 is "
            "decided, up to this many."
        ),
    )
    jobs: int | None = setting(
        None,
        Rule("whole", low=1, optional=True),
        Option(
            "Parallel workers on this machine; with --scheduler, the cluster's size, which the "
            "dry run divides the time by.",
            default=_EVERY_CORE,
        ),
    )
    backend: str = setting(
        "processes",
        Rule("choice", choices=BACKENDS, what="backend"),
        Option(
            "processes: worker processes this machine starts and watches (a worker that dies "
            "or overruns --timeout costs its run only); dask: a Dask cluster; inline: this "
            "process, one run at a time (debugging)."
        ),
    )
    scheduler: str | None = setting(
        None,
        Rule("text", optional=True, note="an address or a scheduler file"),
        Option(
            "Address of a running Dask scheduler (tcp://HOST:8786), or the file its "
            "--scheduler-file wrote (with --backend dask)."
        ),
    )
    force: bool = setting(False, _FLAG, Option("Redo runs already stored."))
    retry_failed: bool = setting(False, _FLAG, Option("Redo runs stored as failed."))
    mirror: str | None = setting(
        None,
        _FOLDER,
        Option("Local mirror of the raw data files, tried before downloading.", envvar=MIRROR_ENV),
    )
    cache: str | None = setting(
        None,
        _FOLDER,
        Option("Where verified raw files are kept.", envvar=CACHE_ENV, default="user cache dir"),
    )

    def __post_init__(self) -> None:
        for declared in fields(self):  # each field against its own rule
            value = rule_of(declared).checked(declared.name, getattr(self, declared.name))
            object.__setattr__(self, declared.name, value)
        if not self.datasets and not self.dataset_specs:
            raise ConfigError("the configuration names no dataset")
        if self.scheduler is not None and self.backend != "dask":
            raise ConfigError(
                f"a scheduler ({self.scheduler!r}) runs the plan on a Dask cluster: pass "
                f"backend='dask' (--backend dask), not {self.backend!r}"
            )

    def overridden(self, **changes: Any) -> BenchmarkConfig:
        """Return a copy with the given fields changed.

        Parameters
        ----------
        **changes
            Fields and their new values. None sets a field that may be None (``jobs``,
            ``plugins``, ``scheduler``, ``mirror``, ``cache``) back to its default; for any
            other field, None leaves it as it is (as in 0.2; deprecated, to be removed in
            0.4.0: leave the field out).

        Returns
        -------
        BenchmarkConfig
            The changed copy, validated as any configuration.
        """
        kept = [name for name, value in changes.items() if value is None and not _optional(name)]
        if kept:
            deprecated(f"overridden({kept[0]}=None)", f"overridden() without {kept[0]}")
        return replace(self, **{name: changes[name] for name in changes if name not in kept})

    def redone(self) -> set[str]:
        """Return the stored statuses run again: both with ``force``, failed with ``retry_failed``.

        Returns
        -------
        set of str
            Statuses of the results store (``done``, ``failed``).
        """
        if self.force:
            return {"done", "failed"}
        return {"failed"} if self.retry_failed else set()

    @property
    def on_this_machine(self) -> bool:
        """Whether the workers run on this machine (every backend but a given Dask scheduler)."""
        return self.scheduler is None

    def workers(self, runs: int) -> int:
        """Return how many workers to start: never more than runs, nor than this machine's cores.

        Parameters
        ----------
        runs
            The runs (or groups of runs sharing a fit) to execute.

        Returns
        -------
        int
            At least 1; ``inline`` runs one at a time. A cluster given by its scheduler is sized
            by the cluster: only ``jobs`` (or the runs) bound it there.
        """
        if self.backend == "inline":
            return 1
        cores = cpu_cores()
        asked = self.jobs if self.jobs is not None else cores
        return max(1, min(asked, runs, cores if self.on_this_machine else asked))

    def local_workers(self) -> int:
        """Return how many processes may work on this machine (drawing the report, say).

        Returns
        -------
        int
            ``jobs`` (every core by default), never more than this machine's cores; 1 for
            ``inline``.
        """
        return replace(self, scheduler=None).workers(cpu_cores())

    def capped(self) -> str | None:
        """Return the note that ``jobs`` is more than this machine's cores, or None.

        Returns
        -------
        str or None
            The line ``faircompare run`` prints when the workers are capped at the cores.
        """
        cores = cpu_cores()
        if self.jobs is None or self.jobs <= cores or not self.on_this_machine:
            return None
        return f"--jobs {self.jobs} is more than this machine's {cores} cores: using {cores}"


#: Every field's rule, by name (read-only): what the command line's options check before
#: anything runs, built from the fields so that a renamed field keeps its rule.
RULES: Mapping[str, Rule] = MappingProxyType({f.name: rule_of(f) for f in fields(BenchmarkConfig)})


def _optional(name: str) -> bool:
    """Return whether a field may be None (an unknown name is left to the dataclass to refuse)."""
    return name in RULES and RULES[name].optional
