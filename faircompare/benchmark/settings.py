"""A study's settings, in one frozen object checked once where the user's input enters.

:class:`BenchmarkConfig` holds every setting of a study's run: what to run (datasets,
attributes, variants, algorithms, grid, splits, seed), how each run is done (time limit,
plugins, audits, permutations), how the plan runs (workers, backend, scheduler, what to redo)
and where the data is (mirror, cache). It is built from the command line, a TOML file
(:func:`faircompare.config.load_config`) or Python, and checked when made against one table of
rules (:data:`faircompare._validation.SETTINGS`); the coordinator and each worker then read it
as it is. :data:`faircompare.config.PROFILES` are ready-made ones.

This module imports nothing heavy: the command line, the cost model and the workers read a
setting without loading the run stack, and a worker unpickles the settings without loading the
coordinator's configuration (:mod:`faircompare.config`, the profiles).
"""

from __future__ import annotations

import functools
import inspect
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from faircompare._deprecations import deprecated, passes_through
from faircompare._validation import check_choice, check_settings
from faircompare.choices import DEFAULT_PERMUTATIONS, VARIANTS
from faircompare.datasets.builtin import BUILTIN, PAPER_DATASETS
from faircompare.exceptions import ConfigError

if TYPE_CHECKING:
    from faircompare.benchmark.summary import Summary
    from faircompare.records import RunRecord

__all__ = ["BACKENDS", "BenchmarkConfig", "Options", "RunSettings", "cpu_cores"]

P = ParamSpec("P")
R = TypeVar("R")

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


@dataclass(frozen=True)
class BenchmarkConfig:
    """A study's settings: what to run, how each run is done, how the plan runs, where the data is.

    Every field is checked when the settings are made (:data:`faircompare._validation.SETTINGS`,
    one message form: ``jobs must be a whole number of at least 1, got 0``), so a run never
    meets a bad setting; :meth:`overridden` returns a changed copy, checked again.

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

    datasets: tuple[str, ...] = PAPER_DATASETS
    dataset_specs: tuple[str, ...] = ()
    sensitive_attributes: str | tuple[str, ...] = "first"
    variants: str | tuple[str, ...] = ("numerical+binary",)
    algorithms: str | tuple[str, ...] = "default"
    grid: bool = False
    tune: bool = False
    splits: int = 10
    seed: int = 0
    timeout: float = 600.0
    plugins: str | None = None
    audits: bool = True
    audit_frontier: bool = True
    permutations: int = DEFAULT_PERMUTATIONS
    jobs: int | None = None
    backend: str = "processes"
    scheduler: str | None = None
    force: bool = False
    retry_failed: bool = False
    mirror: str | None = None
    cache: str | None = None

    def __post_init__(self) -> None:
        for name in ("datasets", "dataset_specs"):
            object.__setattr__(self, name, _names(name, getattr(self, name), keywords=()))
        for name, keywords in (
            ("sensitive_attributes", ("all", "first")),
            ("variants", ("supported",)),
            ("algorithms", ("all", "default")),
        ):
            object.__setattr__(self, name, _names(name, getattr(self, name), keywords))
        check_settings(self, ConfigError)  # the numbers, flags and folders: one table of rules
        for name in ("plugins", "mirror", "cache"):
            if (path := getattr(self, name)) is not None:
                object.__setattr__(self, name, os.path.abspath(path))
        self._check_choices()

    def _check_choices(self) -> None:
        for name in self.datasets:
            check_choice(name, BUILTIN, what="dataset")
        if not isinstance(self.variants, str):
            for variant in self.variants:
                check_choice(variant, VARIANTS, what="preprocessing variant")
        if not self.datasets and not self.dataset_specs:
            raise ConfigError("the configuration names no dataset")
        check_choice(self.backend, BACKENDS, what="backend")
        if self.scheduler is not None and self.backend != "dask":
            raise ConfigError(
                f"a scheduler ({self.scheduler!r}) runs the plan on a Dask cluster: pass "
                f"backend='dask' (--backend dask), not {self.backend!r}"
            )

    def overridden(self, **changes: Any) -> BenchmarkConfig:
        """Return a copy with the given fields changed (None values are ignored).

        Parameters
        ----------
        **changes
            Fields and their new values; a None value leaves its field as it is.

        Returns
        -------
        BenchmarkConfig
            The changed copy, validated as any configuration.
        """
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

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


def _names(field: str, value: Any, keywords: tuple[str, ...]) -> str | tuple[str, ...]:
    """Return a field's list of names as a tuple, or its keyword; refuse anything else.

    A string where a list is expected is refused rather than read letter by letter
    (``datasets = "german"`` would otherwise name the datasets g, e, r, m, a, n). A name given
    more than once is kept once, in its first place, with a warning.
    """
    if isinstance(value, str):
        if value in keywords:
            return value
        valid = " or ".join([*(repr(k) for k in keywords), "a list of names"])
        raise ConfigError(
            f"{field} must be {valid}, got the string {value!r}: write {field} = [{value!r}]"
        )
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{field} must be a list of names, got {value!r}")
    unique = tuple(dict.fromkeys(value))  # a plan is a set: a name given twice is run once
    if len(unique) < len(value):
        repeated = ", ".join(repr(name) for name in unique if value.count(name) > 1)
        warnings.warn(f"{field}: {repeated} given more than once, planned once", stacklevel=4)
    return unique


@dataclass(frozen=True)
class RunSettings:
    """Deprecated: how a plan runs, now fields of :class:`BenchmarkConfig` (until 0.4.0).

    ``RunSettings(jobs=2)`` given to :func:`~faircompare.benchmark.run_benchmark` or
    :func:`~faircompare.benchmark.run_plan` sets the settings' fields of the same names, and
    ``progress`` the function's ``progress=``.

    Attributes
    ----------
    jobs, backend, scheduler, force, retry_failed
        The :class:`BenchmarkConfig` fields of the same names.
    progress
        Called after each stored run with its record and the counts so far.
    """

    jobs: int | None = None
    backend: str = "processes"
    scheduler: str | None = None
    force: bool = False
    retry_failed: bool = False
    progress: Callable[[RunRecord, Summary], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        deprecated(
            "RunSettings(...)",
            "BenchmarkConfig(jobs=..., backend=..., ...) and progress=",
            stacklevel=4,
        )
        self.applied_to(BenchmarkConfig())  # checked as the settings are

    def applied_to(self, settings: BenchmarkConfig) -> BenchmarkConfig:
        """Return ``settings`` with these fields (all but ``progress``) in place of its own.

        Parameters
        ----------
        settings
            A study's settings.

        Returns
        -------
        BenchmarkConfig
            The changed copy.
        """
        own = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "progress"}
        return replace(settings, **own)


_OPTIONS = ("timeout", "plugins", "cache", "mirror", "audits", "permutations")  # in 0.2's order


class Options:
    """Deprecated: the workers' settings, now fields of :class:`BenchmarkConfig` (until 0.4.0).

    ``Options(timeout=..., plugins=..., cache=..., mirror=..., audits=..., permutations=...)``
    returns the :class:`BenchmarkConfig` with those fields, with a :class:`DeprecationWarning`.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> BenchmarkConfig:  # type: ignore[misc]
        """Return the settings with the fields given, by name or in their former order."""
        deprecated("Options(...)", "BenchmarkConfig(timeout=..., plugins=..., ...)")
        if len(args) > len(_OPTIONS):
            raise TypeError(f"Options() takes at most {len(_OPTIONS)} positional arguments")
        return BenchmarkConfig(**dict(zip(_OPTIONS, args, strict=False)), **kwargs)

    @classmethod
    def from_config(
        cls,
        config: BenchmarkConfig,
        *,
        cache: str | Path | None = None,
        mirror: str | Path | None = None,
    ) -> BenchmarkConfig:
        """Return the configuration with the data locations (deprecated: it holds them).

        Parameters
        ----------
        config
            A study's settings.
        cache, mirror
            The data cache and the local mirror of raw files; None keeps the configuration's.

        Returns
        -------
        BenchmarkConfig
            ``config.overridden(cache=cache, mirror=mirror)``.
        """
        deprecated("Options.from_config(config)", "config.overridden(cache=..., mirror=...)")
        return config.overridden(cache=cache, mirror=mirror)


def accepts_run_settings(into: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Accept a deprecated :class:`RunSettings` where a function takes a study's settings.

    Parameters
    ----------
    into
        The function's argument that takes the :class:`BenchmarkConfig`.

    Returns
    -------
    callable
        A decorator: a :class:`RunSettings` given anywhere in the call (it warned when made)
        changes the fields of the settings argument (the defaults, when not given), and its
        ``progress`` is the function's ``progress=``.
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(function)

        @functools.wraps(function)
        def accepting(*args: Any, **kwargs: Any) -> Any:
            given = (*args, *kwargs.values())
            former = [value for value in given if isinstance(value, RunSettings)]
            if not former:
                return function(*args, **kwargs)
            (settings,) = former
            args = tuple(value for value in args if value is not settings)
            kwargs = {name: value for name, value in kwargs.items() if value is not settings}
            bound = signature.bind_partial(*args, **kwargs)
            base = bound.arguments.get(into) or BenchmarkConfig()
            bound.arguments[into] = settings.applied_to(base)
            bound.arguments.setdefault("progress", settings.progress)
            return function(*bound.args, **bound.kwargs)

        return passes_through(accepting)  # type: ignore[return-value]

    return decorate
