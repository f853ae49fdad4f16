"""The runs a reproduction needs: every published setting, on the same number of splits.

A published cell is an algorithm at one parameter setting on one dataset, attribute and
variant; faircompare runs it on its own seeded splits (the original's are not published) and
stores the runs in an ordinary results store, so an interrupted reproduction resumes where it
stopped and a rerun computes nothing twice. With ``as_published``, every setting also runs with
each switch of the departures that concern it (:mod:`.departures`), alone and all together.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from faircompare.benchmark.planned import Study
from faircompare.benchmark.schedule import Progress, run_plan
from faircompare.benchmark.study import plan_study
from faircompare.benchmark.summary import Summary
from faircompare.config.settings import BenchmarkConfig
from faircompare.reproduction.departures import switches
from faircompare.results.store import ResultStore

__all__ = ["ALL_SWITCHES", "planned_settings", "run_reproduction"]

#: The name of the setting with every switch of an algorithm on (``--as-published``).
ALL_SWITCHES = "as published"

Cell = tuple[str, str, str]  # dataset, sensitive attribute, variant
Settings = dict[str, list[dict[str, Any]]]  # algorithm to its parameter settings


def switched(algorithm: str, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Return a setting with each departure's switch, and with all of them, by name.

    Parameters
    ----------
    algorithm
        faircompare's name of the algorithm.
    params
        The setting's parameters other than the defaults.

    Returns
    -------
    dict
        Departure name (and :data:`ALL_SWITCHES`) to the setting's parameters with the switch
        on; empty where no departure concerns the algorithm.
    """
    each = {name: {**params, **switch} for name, switch in switches(algorithm).items()}
    if not each:
        return {}
    together = {key: value for setting in each.values() for key, value in setting.items()}
    return {**each, ALL_SWITCHES: together}


def planned_settings(published: pd.DataFrame, *, as_published: bool) -> dict[Cell, Settings]:
    """Return the settings to run, by dataset, attribute and variant, then algorithm.

    Parameters
    ----------
    published
        :func:`~faircompare.reproduction.read_published`'s rows.
    as_published
        Also the settings with the departures' switches (:func:`switched`).

    Returns
    -------
    dict
        For each (dataset, attribute, variant), each algorithm's parameter settings.
    """
    reproduced = published[published["note"] == ""]
    columns = ["dataset", "attribute", "variant", "algorithm", "params"]
    planned: dict[Cell, Settings] = defaultdict(lambda: defaultdict(list))
    for dataset, attribute, variant, algorithm, params in (
        reproduced[columns].drop_duplicates().itertuples(index=False)
    ):
        setting = json.loads(params)
        settings = [setting]
        if as_published:
            settings += switched(algorithm, setting).values()
        planned[dataset, attribute, variant][algorithm] += settings
    return {cell: dict(settings) for cell, settings in planned.items()}


def run_reproduction(
    planned: Mapping[Cell, Settings],
    results: str | Path,
    config: BenchmarkConfig,
    *,
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> Summary:
    """Run the planned settings not yet stored, into a results folder.

    Parameters
    ----------
    planned
        :func:`planned_settings`' settings.
    results
        The results folder (created when missing).
    config
        The settings every run shares: splits, seed, time limit, workers, data locations
        (datasets, attributes, variants and algorithms come from ``planned``).
    progress
        Called after each stored run (a progress bar).
    say
        Called with a line for each note on the way (cleaning, downloads).

    Returns
    -------
    Summary
        What this call ran; the planned runs' failures in ``failures``.
    """
    studies = [
        plan_study(
            config.overridden(
                datasets=(dataset,),
                sensitive_attributes=(attribute,),
                variants=(variant,),
                algorithms=tuple(settings),
            ),
            say=say,
            settings=settings,
        )
        for (dataset, attribute, variant), settings in sorted(planned.items())
    ]
    study = _joined(studies, config)
    with ResultStore(results) as store:
        summary = run_plan(study, store, config, progress=progress)
        failed = store.runs().query("status == 'failed'")
    keys = {run.key for run in study.runs}
    failures = tuple(
        (f"{row.dataset} {row.algorithm} {row.params} split {row.split_id}", str(row.error))
        for row in failed.itertuples()
        if row.key in keys
    )
    return replace(summary, failures=failures)


def _joined(studies: list[Study], config: BenchmarkConfig) -> Study:
    """Join the studies of several datasets into one plan, each run once."""
    runs = {run.key: run for study in studies for run in study.runs}
    costs = {key: cost for study in studies for key, cost in study.costs.items()}
    cleaning = {name: removed for study in studies for name, removed in study.cleaning.items()}
    speed = studies[0].speed if studies else 1.0
    return Study(tuple(runs.values()), costs, cleaning, config, speed)
