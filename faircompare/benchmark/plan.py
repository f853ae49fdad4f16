"""Expand a configuration into the frozen run specs of a benchmark.

One run is one algorithm with one parameter setting, fitted on one split of one dataset in one
preprocessing variant for one sensitive attribute. Its key is a hash of exactly those fields,
so a rerun recognises the runs already stored, and its seeds derive from the base seed: the
split's from the dataset and split number (shared by every algorithm, as the paired design
needs), the algorithm's from the run key.

What the run's results also depend on, its *inputs* (the dataset's content and cleaning rules,
the algorithm's version, the audit and validation settings, faircompare's version), travel with
it and are stored beside its results: a rerun whose inputs differ from the stored ones is never
silently reused (see :func:`faircompare.benchmark.run_plan`).
"""

from __future__ import annotations

import itertools
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from faircompare import __version__
from faircompare._validation import check_choice
from faircompare.algorithms.base import FairEstimator
from faircompare.audits.registry import audits_input
from faircompare.config import BenchmarkConfig, ConfigError
from faircompare.config.rules import MAX_RUNS
from faircompare.datasets import Dataset, DatasetSpec, fingerprint, get_spec, read_spec
from faircompare.file_names import slug
from faircompare.preprocessing import VARIANTS, variants_agree
from faircompare.preprocessing.splits import TRAIN_FRACTION
from faircompare.records import RunSpec, SharedFit
from faircompare.registry import Algorithm, algorithms


@dataclass(frozen=True)
class Plan:
    """The runs of a benchmark, and the algorithms left out because they are unavailable.

    Attributes
    ----------
    runs
        The planned runs, ordered by dataset.
    unavailable
        Algorithms the configuration asked for with ``"all"`` or ``"default"`` that cannot be
        loaded here.
    row_limits
        The training rows each algorithm with a limit fits in reasonable time
        (:meth:`~faircompare.algorithms.base.FairEstimator.training_row_limit`).
    too_large
        Why runs were left out by :meth:`within_row_limits`, a line per algorithm and dataset.
    by_order
        The planned algorithms that read the groups by their order alone
        (:attr:`~faircompare.algorithms.base.FairEstimator.groups_by_order`), whose runs
        :meth:`with_repeats` may pair.
    """

    runs: tuple[RunSpec, ...]
    unavailable: tuple[Algorithm, ...]
    row_limits: Mapping[str, int] = field(default_factory=dict)
    too_large: tuple[str, ...] = ()
    by_order: frozenset[str] = frozenset()

    def with_repeats(self, datasets: Mapping[str, Dataset]) -> Plan:
        """Let each ``numerical+binary`` run repeat its ``numerical`` twin where they agree.

        Where the two variants give the same data but for the groups' names
        (:func:`~faircompare.preprocessing.variants_agree`: Adult's, German's and ProPublica's
        sex) and the algorithm reads the groups by their order alone, the two runs are one
        experiment: the ``numerical+binary`` run takes the twin's fit and seeds
        (:attr:`RunSpec.repeats`, recorded in its inputs) and the benchmark computes it once.

        Parameters
        ----------
        datasets
            The planned datasets that were loaded, by name; the runs of the others stay as
            they are.

        Returns
        -------
        Plan
            The plan with its repeating runs marked.
        """
        planned = {run.key for run in self.runs}
        agree = {
            (name, attribute): variants_agree(dataset, attribute)
            for name, dataset in datasets.items()
            for attribute in dataset.spec.sensitive_attributes
        }
        runs = tuple(
            _repeating(run) if _repeats(run, planned, self.by_order, agree) else run
            for run in self.runs
        )
        return replace(self, runs=runs)

    def within_row_limits(self, rows: Mapping[str, int]) -> Plan:
        """Leave out the runs of algorithms on datasets with more training rows than they fit.

        Parameters
        ----------
        rows
            Each planned dataset's rows after cleaning.

        Returns
        -------
        Plan
            The runs that remain, and in ``too_large`` a line for each algorithm and dataset
            left out, with the rows and the limit.
        """
        kept, left_out = [], Counter[tuple[str, str]]()
        for run in self.runs:
            limit = self.row_limits.get(run.algorithm)
            if limit is not None and training_rows(rows[run.dataset]) > limit:
                left_out[run.algorithm, run.dataset] += 1
            else:
                kept.append(run)
        reasons = tuple(
            f"{algorithm} on {dataset}: {training_rows(rows[dataset]):,} training rows, more "
            f"than the {self.row_limits[algorithm]:,} it fits in reasonable time ({count} runs "
            "left out)"
            for (algorithm, dataset), count in left_out.items()
        )
        return replace(self, runs=tuple(kept), too_large=self.too_large + reasons)


def _repeats(
    run: RunSpec, planned: set[str], by_order: frozenset[str], agree: Mapping[tuple[str, str], bool]
) -> bool:
    twin = replace(run, variant=REPEATED)
    return (
        run.variant == "numerical+binary"
        and run.algorithm in by_order
        and agree.get((run.dataset, run.sensitive_attribute), False)
        and twin.key in planned
    )


def _repeating(run: RunSpec) -> RunSpec:
    inputs = tuple(sorted((*run.inputs, ("repeats", REPEATED))))
    return replace(run, repeats=REPEATED, inputs=inputs)


REPEATED = "numerical"  # the variant a numerical+binary run repeats where the two agree


def training_rows(rows: int) -> int:
    """Return the training rows of a benchmark split of ``rows`` rows (two thirds)."""
    return round(rows * TRAIN_FRACTION)


def make_plan(
    config: BenchmarkConfig, settings: Mapping[str, Sequence[Mapping[str, Any]]] | None = None
) -> Plan:
    """Expand a configuration into its runs, ordered by dataset so workers reuse loaded data.

    Parameters
    ----------
    config
        What to run.
    settings
        The parameter settings to run of each algorithm named (each a mapping of parameters to
        values, ``{}`` for the defaults), in place of its grid or default parameters: the
        settings a published result file holds (``faircompare reproduce``).

    Returns
    -------
    Plan
        The runs, and the algorithms left out because they cannot be loaded here.

    Raises
    ------
    ConfigError
        If a named algorithm is unknown or unavailable, or a combination leaves no run.
    """
    registry = algorithms(config.plugins)
    if config.algorithms in ("all", "default"):
        chosen = [a for a in registry.values() if a.make is not None]
        if config.algorithms == "default":
            chosen = [a for a in chosen if a.in_default_profile]
        unavailable = tuple(a for a in registry.values() if a.make is None)
    else:
        chosen = [
            registry[check_choice(name, registry, what="algorithm")] for name in config.algorithms
        ]
        for algorithm in chosen:
            if algorithm.make is None:
                raise ConfigError(
                    f"algorithm {algorithm.name!r} is unavailable: {algorithm.unavailable}"
                )
        unavailable = ()
    datasets: list[tuple[DatasetSpec, str | None]] = [
        (get_spec(name), None) for name in config.datasets
    ]
    # absolute: a run never depends on the working directory
    datasets += [(read_spec(path), os.path.abspath(path)) for path in config.dataset_specs]
    _check_names(datasets)
    _check_attributes([spec for spec, _ in datasets], config)
    data = {spec.name: fingerprint(spec) for spec, _ in datasets}
    versions = {algorithm.name: _algorithm_version(algorithm) for algorithm in chosen}
    grids = {algorithm.name: _grid(algorithm, config, settings) for algorithm in chosen}
    shared = {
        (algorithm.name, params): _shared_fit(algorithm, params, registry)
        for algorithm in chosen
        for params in grids[algorithm.name] + _always_planned(algorithm)
    }
    seeded = {algorithm.name: _seeded_as(algorithm, registry) for algorithm in chosen}
    _check_size(datasets, chosen, grids, config)
    classes = {algorithm.name: algorithm.estimator_class for algorithm in chosen}  # each makes one
    audited = audits_input(config.permutations)
    audits = {
        algorithm.name: audited if _audited(algorithm, config) else "off" for algorithm in chosen
    }
    tuning = tuning_input(config)
    runs = [
        RunSpec(
            dataset=spec.name,
            sensitive_attribute=attribute,
            variant=variant,
            algorithm=algorithm.name,
            params=params,
            split_id=split_id,
            base_seed=config.seed,
            dataset_file=spec_path,
            tune=tune,
            inputs=_inputs(
                data[spec.name],
                versions[algorithm.name],
                audits[algorithm.name],
                tune,
                fit_as,
                tuning if budget is not None else None,
            ),
            fit_uses_attribute=classes[algorithm.name].uses_sensitive_at_fit,
            refit_params=tuple(sorted(classes[algorithm.name].refit_params)),
            fit_as=fit_as,
            seeded_as=seeded[algorithm.name],
            budget=budget,
        )
        for spec, spec_path in datasets
        for attribute in _attributes(spec, config)
        for split_id in range(config.splits)
        for algorithm in chosen
        for variant in _variants(algorithm, config)
        for grid in [grids[algorithm.name]]
        for budget in (None, *config.tuning_budgets)
        for tune in [config.tune and len(grid) > 1 and budget is None]
        for params in _settings(algorithm, grid, budget)
        for fit_as in [shared[algorithm.name, params] if budget is None else None]
    ]
    if not runs:
        raise ConfigError(
            "the configuration plans no run: check that the chosen variants and sensitive "
            "attributes exist for the chosen algorithms and datasets"
        )
    limits = {algorithm.name: _row_limit(algorithm) for algorithm in chosen}
    row_limits = {name: limit for name, limit in limits.items() if limit is not None}
    by_order = frozenset(a.name for a in chosen if a.estimator_class.groups_by_order)
    return Plan(tuple(runs), unavailable, row_limits, by_order=by_order)


def _check_size(
    datasets: Sequence[tuple[DatasetSpec, str | None]],
    chosen: Sequence[Algorithm],
    grids: Mapping[str, list[tuple[tuple[str, Any], ...]]],
    config: BenchmarkConfig,
) -> None:
    """Refuse a plan of more than :data:`~faircompare.config.rules.MAX_RUNS` runs, before any."""
    per_split = sum(
        len(_variants(algorithm, config))
        * sum(
            len(_settings(algorithm, grids[algorithm.name], budget))
            for budget in (None, *config.tuning_budgets)
        )  # fmt: skip
        for algorithm in chosen
    )
    attributes = sum(len(_attributes(spec, config)) for spec, _ in datasets)
    if (runs := attributes * config.splits * per_split) > MAX_RUNS:
        raise ConfigError(
            f"the configuration plans {runs:,} runs ({attributes} dataset attributes x "
            f"{config.splits:,} splits x {per_split:,} algorithm variants and settings), more "
            f"than the {MAX_RUNS:,} a study may hold: choose fewer splits, algorithms or datasets"
        )


def stored_spec(
    run: Mapping[str, Any], plugins: str | None = None, dataset_file: str | None = None
) -> RunSpec:
    """Return the spec of a stored run, as the planner made it (to fit its model again).

    The identifying fields and the inputs are the stored ones; what the planner derives from
    the algorithm (the fit it shares, the parameters only its last step reads) is derived
    again, and a run that repeats another says so in its inputs.

    Parameters
    ----------
    run
        A row of :meth:`~faircompare.results.ResultStore.runs`.
    plugins
        The folder of plugin files the study ran with, for a plugin's run.
    dataset_file
        The TOML specification of a user's dataset; None for a built-in one.

    Returns
    -------
    RunSpec
        The run's spec; its key is the stored run's.
    """
    registry = algorithms(plugins)
    algorithm = registry[check_choice(run["algorithm"], registry, what="algorithm")]
    if algorithm.make is None:
        raise ConfigError(f"algorithm {algorithm.name!r} is unavailable: {algorithm.unavailable}")
    params = tuple(sorted(json.loads(run["params"]).items()))
    inputs = json.loads(run["inputs"] or "{}")
    estimator = algorithm.estimator_class
    return RunSpec(
        dataset=run["dataset"],
        sensitive_attribute=run["sensitive_attribute"],
        variant=run["variant"],
        algorithm=algorithm.name,
        params=params,
        split_id=int(run["split_id"]),
        base_seed=int(run["base_seed"]),
        dataset_file=dataset_file,
        tune=inputs.get("validation") == "yes",
        inputs=tuple(sorted(inputs.items())),
        fit_uses_attribute=estimator.uses_sensitive_at_fit,
        refit_params=tuple(sorted(estimator.refit_params)),
        fit_as=_shared_fit(algorithm, params, registry),
        seeded_as=_seeded_as(algorithm, registry),
        repeats=inputs.get("repeats"),
        budget=None if pd.isna(budget := run.get("budget", None)) else int(budget),
    )


def _audited(algorithm: Algorithm, config: BenchmarkConfig) -> bool:
    """Whether the algorithm's runs are audited: a frontier's only with ``audit_frontier``."""
    frontier = bool(algorithm.estimator_class.always_planned)
    return config.audits and (config.audit_frontier or not frontier)


def _row_limit(algorithm: Algorithm) -> int | None:
    assert algorithm.make is not None  # unavailable algorithms are never chosen
    return algorithm.make().training_row_limit()


def _inputs(
    data: str,
    version: str,
    audits: str,
    tune: bool,
    fit_as: SharedFit | None,
    tuning: str | None = None,
) -> tuple[tuple[str, str], ...]:
    shared = () if fit_as is None else (("fit", f"as {fit_as.algorithm}"),)
    tuned = () if tuning is None else (("tuning", tuning),)
    return (
        ("algorithm", version),
        ("audits", audits),
        ("data", data),
        ("faircompare", __version__),
        *shared,
        *tuned,
        ("validation", "yes" if tune else "no"),
    )


def tuning_input(config: BenchmarkConfig) -> str:
    """Return how a study's tuned runs choose their parameters, as their inputs record it.

    A tuned run stored under another sampler or objective is stale, not reused.

    Parameters
    ----------
    config
        The study's settings.

    Returns
    -------
    str
        ``"tpe, accuracy"``; ``"tpe, constrained: DIbinary gap <= 0.1"``; ``"random, pareto:
        DIbinary gap"``.
    """
    said = f"{config.tuning_sampler}, {config.tuning_objective}"
    if config.tuning_objective == "constrained":
        return f"{said}: {config.tuning_measure} gap <= {config.tuning_bound:g}"
    if config.tuning_objective == "pareto":
        return f"{said}: {config.tuning_measure} gap"
    return said


def _shared_fit(
    algorithm: Algorithm, params: tuple[tuple[str, Any], ...], registry: Mapping[str, Algorithm]
) -> SharedFit | None:
    """Return the registered algorithm whose fit this setting's fit is, if there is one.

    The setting's :meth:`~faircompare.algorithms.base.FairEstimator.fit_equivalent`, matched
    by :func:`_registered_as`.
    """
    assert algorithm.make is not None  # unavailable algorithms are never chosen
    return _registered_as(algorithm.make().set_params(**dict(params)).fit_equivalent(), registry)


def _seeded_as(algorithm: Algorithm, registry: Mapping[str, Algorithm]) -> SharedFit | None:
    """Return the registered algorithm whose runs' seed the algorithm's runs take, if any.

    The algorithm's :meth:`~faircompare.algorithms.base.FairEstimator.seeded_like`, matched
    by :func:`_registered_as`.
    """
    assert algorithm.make is not None  # unavailable algorithms are never chosen
    return _registered_as(algorithm.make().seeded_like(), registry)


def _registered_as(
    estimator: FairEstimator | None, registry: Mapping[str, Algorithm]
) -> SharedFit | None:
    """Return the registered algorithm that makes ``estimator`` and shares no fit, if any.

    It is of the same class and parameters, with no refit parameters of its own.
    """
    if estimator is None:
        return None
    for candidate in registry.values():
        cls = candidate.estimator_class if candidate.make is not None else None
        if cls is type(estimator) and not cls.refit_params and candidate.make is not None:
            made = candidate.make()
            if made.get_params() == estimator.get_params() and made.fit_equivalent() is None:
                return SharedFit(candidate.name, (), cls.uses_sensitive_at_fit)
    return None


def _algorithm_version(algorithm: Algorithm) -> str:
    """Return the algorithm's ``version``, with a plugin's code digest (an edit is never missed)."""
    version = str(getattr(algorithm.estimator_class, "version", "1"))
    return version if algorithm.code is None else f"{version}, code {algorithm.code}"


def _check_names(datasets: list[tuple[DatasetSpec, str | None]]) -> None:
    """Refuse two datasets whose names would share the report's and the export's file names."""
    seen: dict[str, tuple[str, str]] = {}
    for spec, path in datasets:
        source = path or "the built-in datasets"
        file_name = slug(spec.name)
        if file_name in seen:
            name, first = seen[file_name]
            clash = (
                f"two datasets are called {name!r} (from {first} and {source})"
                if name == spec.name
                else f"two datasets, {name!r} (from {first}) and {spec.name!r} (from {source}), "
                f"would share the report's and the export's file names ('{file_name}-...')"
            )
            raise ConfigError(f"{clash}: give your dataset spec another 'name'")
        seen[file_name] = spec.name, source


def _check_attributes(specs: list[DatasetSpec], config: BenchmarkConfig) -> None:
    """Refuse a named sensitive attribute that none of the planned datasets has."""
    if isinstance(config.sensitive_attributes, str):
        return
    valid = list(dict.fromkeys(a for spec in specs for a in spec.sensitive_attributes))
    for attribute in config.sensitive_attributes:
        check_choice(attribute, valid, what="sensitive attribute")


def _attributes(spec: DatasetSpec, config: BenchmarkConfig) -> tuple[str, ...]:
    if config.sensitive_attributes == "all":
        return spec.sensitive_attributes
    if config.sensitive_attributes == "first":
        return spec.sensitive[:1]
    return tuple(a for a in spec.sensitive_attributes if a in config.sensitive_attributes)


def _variants(algorithm: Algorithm, config: BenchmarkConfig) -> list[str]:
    supported = algorithm.estimator_class.supports
    wanted = VARIANTS if config.variants == "supported" else config.variants
    return [variant for variant in wanted if variant in supported]


def _grid(
    algorithm: Algorithm,
    config: BenchmarkConfig,
    settings: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> list[tuple[tuple[str, Any], ...]]:
    if settings is not None and algorithm.name in settings:
        unique = dict.fromkeys(tuple(sorted(s.items())) for s in settings[algorithm.name])
        return list(unique)
    grid = algorithm.estimator_class.param_grid if config.grid else {}
    names = sorted(grid)
    return [
        tuple(zip(names, values, strict=True))
        for values in itertools.product(*(grid[n] for n in names))
    ]


def _settings(
    algorithm: Algorithm, grid: list[tuple[tuple[str, Any], ...]], budget: int | None
) -> list[tuple[tuple[str, Any], ...]]:
    """Return an algorithm's planned settings: at its parameters, or tuned with a budget.

    A tuned run searches every parameter but a frontier's point (its settings planned
    whatever the grid), which it keeps: an algorithm is tuned once, and a frontier at each of
    its points too.
    """
    if budget is None:
        return grid + _always_planned(algorithm)
    return [(), *_always_planned(algorithm)]


def _always_planned(algorithm: Algorithm) -> list[tuple[tuple[str, Any], ...]]:
    """Return the settings planned whatever the grid (:attr:`FairEstimator.always_planned`)."""
    settings = algorithm.estimator_class.always_planned
    return [tuple(sorted(setting.items())) for setting in settings]
