"""Command-line interface: ``faircompare run | status | export | list | check-plugin | fetch-data``.

``python benchmark.py ARGS`` is the same as ``faircompare run ARGS``. The module imports only
what the options' choices and help need (click and faircompare's light modules of names and
settings); each command imports the library it calls, so ``--help`` and ``--version`` answer
at once (``perf/cli_latency.py`` measures it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import os
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from faircompare import __version__
from faircompare._deprecations import ENVIRONMENT, FLAGS, former_names, message
from faircompare.benchmark.settings import BACKENDS, RunSettings
from faircompare.config import (
    MAX_PERMUTATIONS,
    MAX_SEED,
    MAX_TIMEOUT,
    PROFILES,
    BenchmarkConfig,
    load_config,
)
from faircompare.datasets.builtin import BUILTIN
from faircompare.datasets.fetch import CACHE_ENV, MIRROR_ENV
from faircompare.exceptions import FaircompareError, cut_message
from faircompare.names import FAMILIES, FIGURE_KINDS, FORMATS, TABLE_KINDS
from faircompare.plugin_template import KINDS, write_plugin
from faircompare.safe_write import make_folder, write_error

if TYPE_CHECKING:
    from faircompare.benchmark.summary import Summary
    from faircompare.datasets import DatasetSpec

_SHOWN_FAILURES = 20
_RESULTS = click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results folder (a SQLite database inside).",
)
_FOLDER = click.Path(file_okay=False, path_type=Path)
_MIRROR = click.option(
    "--mirror",
    type=_FOLDER,
    envvar=MIRROR_ENV,
    help=f"Local mirror of the raw data files, tried before downloading [env: {MIRROR_ENV}].",
)
_CACHE = click.option(
    "--cache",
    type=_FOLDER,
    envvar=CACHE_ENV,
    help=f"Where verified raw files are kept [env: {CACHE_ENV}; default: user cache dir].",
)


def _former_flag(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Warn of a former flag's use (:data:`faircompare._deprecations.FLAGS`)."""
    if value is not None:
        old = param.opts[0]
        click.echo(f"warning: {message(old, FLAGS[old])}", err=True)
    return value


def _data_locations(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command ``--mirror`` and ``--cache``, their former names merged in."""

    @functools.wraps(command)
    def merged(*args: Any, **kwargs: Any) -> None:
        given = click.get_current_context().get_parameter_source
        for name in ("mirror", "cache"):
            former = kwargs.pop(f"former_{name}")
            if former is not None and given(name) != click.core.ParameterSource.COMMANDLINE:
                kwargs[name] = former  # a flag on the command line beats the environment
        command(*args, **kwargs)

    for name in ("mirror", "cache"):
        for flag in former_names(FLAGS, f"--{name}"):
            option = click.option(flag, f"former_{name}", type=_FOLDER, hidden=True,
                                  callback=_former_flag)  # fmt: skip
            merged = option(merged)
    return _CACHE(_MIRROR(merged))


_DATASETS = click.option(
    "--dataset",
    "datasets",
    multiple=True,
    type=click.Choice(list(BUILTIN)),
    help="A built-in dataset (repeatable; default: the paper's five).",
)
_PLUGINS = click.option(
    "--plugins",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of plugin files (Python files defining FairEstimator subclasses).",
)
_SPECS = click.option(
    "--spec",
    "specs",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A TOML specification of your own dataset (repeatable); with `run` and no --dataset, "
    "only these datasets are run.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="faircompare")
def cli() -> None:
    """Compare fairness interventions on the same data, splits and measures."""
    for former, name in ENVIRONMENT.items():
        if former in os.environ and name not in os.environ:
            click.echo(f"warning: {message(f'${former}', f'${name}')}", err=True)


@cli.group(name="list")
def list_() -> None:
    """List what faircompare provides."""


@list_.command(name="datasets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_SPECS
@_data_locations
def list_datasets(
    as_json: bool, specs: tuple[Path, ...], mirror: Path | None, cache: Path | None
) -> None:
    """List the datasets: rows, label, sensitive attributes and privileged values.

    Needs no network: a dataset whose raw file is neither cached nor in the mirror is listed
    from its specification, its rows and groups left for `faircompare fetch-data`.
    """
    import pandas as pd

    from faircompare.datasets import at_hand, load_dataset, removed_text

    described = [
        load_dataset(spec, cache=cache, mirror=mirror, say=_say).describe()
        if at_hand(spec, cache=cache, mirror=mirror)
        else spec.describe() | {"rows": None}
        for spec in _selected((), specs)
    ]
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    rows = [
        {
            "dataset": d["name"],
            "rows": "not fetched" if d["rows"] is None else d["rows"],
            "label": f"{d['label']} = {d['positive_label']!r}",
            "features": d.get("features", "-"),
            "sensitive (privileged; groups)": ", ".join(
                f"{attribute} ({info['privileged']}; {len(info.get('groups', ())) or '?'})"
                for attribute, info in d["sensitive"].items()
            ),
            "removed by cleaning": removed_text(d.get("removed", {}).items()) or "none",
        }
        for d in described
    ]
    click.echo(pd.DataFrame(rows).to_string(index=False))
    click.echo("\n" + "\n".join(f"{d['name']}: {d['description']}" for d in described))
    if missing := [d["name"] for d in described if d["rows"] is None and d["name"] in BUILTIN]:
        options = " ".join(f"--dataset {name}" for name in missing)
        click.echo(f"\nnot fetched (listing uses no network): faircompare fetch-data {options}")


@list_.command(name="measures")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_measures(as_json: bool) -> None:
    """List the measures: kind, ideal, range, the paper's name, definition, and the libraries'.

    The last block says how each measure relates to the measure of its name (or meaning) in
    scikit-learn, fairlearn or AIF360.
    """
    import pandas as pd

    from faircompare.measures import MEASURES

    rows = [
        {
            "measure": m.name,
            "kind": m.kind,
            "ideal": m.ideal,
            "range": m.interval,
            "paper name": m.paper_name("", "{attribute}") or "",
            "needs scores": m.needs_scores,
            "description": m.description,
            "peers": m.peers,
        }
        for m in MEASURES.values()
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = pd.DataFrame(rows).drop(columns=["needs scores", "peers"])
    click.echo(table.to_string(index=False))
    click.echo("\nAs in the libraries (the measures reference, docs/guide/measures.md, says more):")
    click.echo("\n".join(f"{row['measure']}: {row['peers']}" for row in rows if row["peers"]))


@list_.command(name="algorithms")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option(
    "--family",
    type=click.Choice(FAMILIES),
    help="Only the algorithms of this family (an unavailable one counts as unspecified).",
)
@_PLUGINS
def list_algorithms(as_json: bool, family: str | None, plugins: Path | None) -> None:
    """List the algorithms: family, library, source, variants, parameter grid, availability."""
    import pandas as pd

    from faircompare.described import algorithm_listing

    described = algorithm_listing(plugins)
    described = [d for d in described if family in (None, d["family"])]
    described.sort(key=lambda d: FAMILIES.index(d["family"]))  # stable: registry order within
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    rows = [
        {
            "algorithm": d["name"],
            "family": d["family"],
            "library": d["library"] or "-",
            "variants": ", ".join(d["supports"]) or "-",
            "grid": ", ".join(f"{k} ({len(v)})" for k, v in d["param_grid"].items()) or "-",
            "source": d["source"] if d["available"] else f"UNAVAILABLE: {d['reason']}",
        }
        for d in described
    ]
    click.echo(pd.DataFrame(rows).to_string(index=False))
    click.echo("\n" + "\n".join(f"{d['name']}: {d['description']}" for d in described))


@list_.command(name="audits")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_audits(as_json: bool) -> None:
    """List the audits every run gets: name, version and what each tests."""
    import pandas as pd

    from faircompare.described import audit_listing

    rows = audit_listing()
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        click.echo(pd.DataFrame(rows).to_string(index=False))


@list_.command(name="profiles")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_profiles(as_json: bool) -> None:
    """List the ready-made studies (--profile): datasets, algorithms, splits, grid and audits."""
    import pandas as pd

    described = {name: dataclasses.asdict(config) for name, config in PROFILES.items()}
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    rows = [
        {
            "profile": name,
            "datasets": ", ".join(d["datasets"]),
            "attributes": _listed(d["sensitive_attributes"]),
            "variants": _listed(d["variants"]),
            "algorithms": _listed(d["algorithms"]),
            "splits": d["splits"],
            "grid": "tuned" if d["tune"] else ("yes" if d["grid"] else "no"),
            "audits": "yes" if d["audits"] else "no",
        }
        for name, d in described.items()
    ]
    click.echo(pd.DataFrame(rows).to_string(index=False))


def _listed(value: str | Sequence[str]) -> str:
    """Return a field that is a keyword (``all``) or names as table text: few names, or a count."""
    if isinstance(value, str):
        return value
    return ", ".join(value) if len(value) <= 2 else f"{len(value)} named"


@cli.command(name="check-plugin")
@click.argument("target")
@_PLUGINS
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Seconds each check may take before it is stopped and failed.",
)
def check_plugin(target: str, plugins: Path | None, timeout: float) -> None:
    """Check that the algorithms and audits in a plugin FILE (or an algorithm) keep the contract.

    An algorithm's checks: valid declared variants and parameter grid, clone round-trip,
    well-formed fit and predict outputs on each declared variant, determinism, no use of
    the sensitive attribute at prediction time unless declared, predictions in the order of the
    rows asked, and inputs left unchanged by every method. An audit's: the protocol (name,
    version, applies, __call__), and on a small run in each numeric variant a True or False
    from applies, well-formed rows and the same rows twice. Last, that the working directory
    holds no file it did not hold before.

    A plugin is Python code, run with your rights: loading it runs it, so check only plugins
    you would run.
    """
    from faircompare.plugin_check import check_plugin as check

    click.echo("note: a plugin is Python code run with your rights; check only code you trust")
    outcome = check(target, plugins, timeout=timeout)
    click.echo("\n".join(outcome.lines()))
    if outcome.failed:
        sys.exit(1)


@cli.command(name="new-plugin")
@click.argument("name")
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default="in-processing",
    show_default=True,
    help="Where the method acts; the template is a small working method of that kind.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("plugins"),
    show_default=True,
    help="The plugin folder (what --plugins names); the test goes in its tests/ folder.",
)
def new_plugin(name: str, kind: str, out: Path) -> None:
    """Write a plugin NAME (lower-case words joined by hyphens) and its test from a template.

    The files pass check-plugin and run in a study as they are; replace the method with yours,
    keeping the class attributes true of it.
    """
    plugin, test = write_plugin(name, kind, out)
    click.echo(f"wrote {plugin} and {test}; next:")
    click.echo(f"  faircompare check-plugin {plugin}")
    click.echo(f"  python -m pytest {test}")
    click.echo(
        f"  faircompare run --profile quick --plugins {out} --algorithm {name} "
        "--algorithm logistic-regression"
    )


def _configuration(
    profile: str | None, config_path: Path | None, overrides: dict[str, Any]
) -> BenchmarkConfig:
    """Return the configuration: the TOML file (or profile), then the options given.

    The options are named as :class:`BenchmarkConfig`'s fields; one not given (None, or an
    empty repeatable option) keeps the file's value. ``--spec`` without ``--dataset`` runs the
    user's data only, and ``--grid`` sets ``tune`` as well (as its help says).
    """
    given = {
        field: (tuple(map(str, value)) or None) if field in _REPEATED else value
        for field, value in overrides.items()
    }
    given["dataset_specs"] = given.pop("specs")  # the --spec option other commands share
    if given["dataset_specs"] and not given["datasets"]:
        given["datasets"] = ()
    given["tune"] = given["grid"]
    if given["plugins"] is not None:
        given["plugins"] = str(given["plugins"])
    return load_config(config_path, profile).overridden(**given)


_REPEATED = ("datasets", "specs", "sensitive_attributes", "algorithms")


@cli.command(name="fetch-data")
@_DATASETS
@_data_locations
def fetch_data(datasets: tuple[str, ...], mirror: Path | None, cache: Path | None) -> None:
    """Fetch and verify the raw files of the built-in datasets, so later runs need no network."""
    from faircompare.datasets import load_dataset

    for spec in _selected(datasets, ()):
        dataset = load_dataset(spec, cache=cache, mirror=mirror, say=_say)
        click.echo(f"{spec.name}: verified, {len(dataset.frame):,} rows after cleaning")


def _profile_default(field: str) -> str:
    """Return the help's note on an option whose default is the profile's (the file's) value."""
    value = getattr(PROFILES["default"], field)
    shown = ("on" if value else "off") if isinstance(value, bool) else f"{value:,}"
    return f"[default: the profile's; {shown} in 'default']"


@cli.command()
@click.option(
    "--profile", type=click.Choice(list(PROFILES)), help="Named profile [default: default]."
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A TOML configuration (its 'profile' key names the profile it starts from).",
)
@_DATASETS
@_SPECS
@click.option(
    "--attribute",
    "sensitive_attributes",
    multiple=True,
    help="A sensitive attribute (repeatable; each used where a dataset has it, e.g. sex, or "
    "race-sex for the combined one). [default: the profile's; the first of each dataset in "
    "'default']",
)
@click.option(
    "--algorithm",
    "algorithms",
    multiple=True,
    help="An algorithm (repeatable). [default: the profile's; in 'default', every available "
    "algorithm that does not opt out]",
)
@click.option(
    "--splits",
    type=click.IntRange(min=1),
    help=f"Number of train/test splits. {_profile_default('splits')}",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=MAX_SEED),
    help=f"Base seed. {_profile_default('seed')}",
)
@click.option(
    "--grid/--no-grid",
    default=None,
    help="Sweep the parameter grids; sets 'tune' too (grid runs are also scored on a validation "
    "part of the training data, for choosing parameters without the test data). In a TOML "
    f"file, 'grid' and 'tune' are separate keys. {_profile_default('grid')}",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=MAX_TIMEOUT),
    help="Seconds per run (a run past it is ended and stored as failed). "
    f"{_profile_default('timeout')}",
)
@click.option(
    "--audits/--no-audits",
    default=None,
    help="Audit each run (permutation tests, FlipTest, individual fairness). "
    f"{_profile_default('audits')}",
)
@click.option(
    "--permutations",
    type=click.IntRange(min=1, max=MAX_PERMUTATIONS),
    help="Most permutations per audit test: a test draws until its verdict at 0.05 is decided, "
    f"up to this many. {_profile_default('permutations')}",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Parallel workers on this machine; with --scheduler, the cluster's size, which the dry "
    "run divides the time by. [default: every core this process may use]",
)
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="processes",
    show_default=True,
    help="processes: worker processes this machine starts and watches (a worker that dies or "
    "overruns --timeout costs its run only); dask: a Dask cluster; inline: this process, one "
    "run at a time (debugging).",
)
@click.option(
    "--scheduler",
    help="Address of a running Dask scheduler (tcp://HOST:8786), or the file its "
    "--scheduler-file wrote (with --backend dask).",
)
@_RESULTS
@click.option("--force", is_flag=True, help="Redo runs already stored.")
@click.option("--retry-failed", is_flag=True, help="Redo runs stored as failed.")
@click.option(
    "--report/--no-report", default=True, show_default=True, help="Write RESULTS/report at the end."
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what the plan runs, tunes and audits, and its runs and expected CPU time per "
    "dataset and algorithm; run nothing.",
)
@_PLUGINS
@_data_locations
def run(
    profile: str | None,
    config_path: Path | None,
    jobs: int | None,
    backend: str,
    scheduler: str | None,
    results: Path,
    force: bool,
    retry_failed: bool,
    report: bool,
    dry_run: bool,
    mirror: Path | None,
    cache: Path | None,
    **overrides: Any,
) -> None:
    """Run the benchmark: every planned run is fitted, scored and stored as it finishes.

    A rerun skips the runs already stored, so an interrupted benchmark resumes where it
    stopped. At the end the report of the results folder is written and its path printed. The
    exit status is 1 when any planned run has failed.
    """
    from faircompare.benchmark import plan_study, run_benchmark
    from faircompare.benchmark.progress import progress_printer

    with warnings.catch_warnings(record=True) as renamed:
        warnings.simplefilter("always", DeprecationWarning)
        settings = RunSettings(
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            force=force,
            retry_failed=retry_failed,
            progress=None if dry_run else progress_printer(),
        )
    for warning in renamed:
        click.echo(f"warning: {warning.message}", err=True)
    config = _configuration(profile, config_path, overrides)
    if dry_run:
        study = plan_study(config, mirror=mirror, cache=cache, fetch=False, say=_say)
        click.echo(study.describe(settings.workers(len(study.runs))))
        return
    summary = run_benchmark(
        config, results, settings, report=report, mirror=mirror, cache=cache, say=_say
    )
    _print_summary(summary)


def _print_summary(summary: Summary) -> None:
    """Print what a run did, its report and its failures; exit 130 or 1 as they say."""
    click.echo(
        f"{summary.done} runs done and {summary.failed} failed in this session; "
        f"{summary.skipped} were already stored"
    )
    for name in sorted(summary.changed_data):
        click.echo(
            f"warning: the data file of dataset {name!r} changed while the benchmark ran; each "
            "run is stored with the fingerprint of the data it read, so a rerun reports the "
            "runs of the other content as stale",
            err=True,
        )
    if summary.interrupted:
        click.echo("interrupted: every finished run is stored; run again to resume", err=True)
        sys.exit(_INTERRUPTED)
    if summary.report is not None:
        click.echo(f"report: {summary.report}")
    if summary.failures:
        click.echo(f"{len(summary.failures)} planned runs have failed:", err=True)
        for where, error in summary.failures[:_SHOWN_FAILURES]:
            click.echo(f"  {where}: {cut_message(error)}", err=True)
        if len(summary.failures) > _SHOWN_FAILURES:
            more = len(summary.failures) - _SHOWN_FAILURES
            click.echo(f"  ... and {more} more (faircompare status)", err=True)
        sys.exit(1)


@cli.command(name="audit")
@_RESULTS
@click.option(
    "--undecided", is_flag=True,
    help="Also draw the undecided permutation tests further, until they decide: to "
    "--permutations, or to ten times their cap (those runs' tests alone).",
)  # fmt: skip
@click.option(
    "--permutations",
    type=click.IntRange(min=1, max=MAX_PERMUTATIONS),
    help="Most permutations per test; a cap other than a run's stored one audits its "
    "permutation tests again (with --undecided, only the undecided runs'). [default: each "
    "run's]",
)
@click.option(
    "--audits",
    "audit_names",
    multiple=True,
    help="An audit to run again (repeatable, or comma-separated; default: every audit). "
    "`faircompare list audits` names them.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=MAX_TIMEOUT),
    default=600.0,
    show_default=True,
    help="Seconds per run (a run past it is left as it was).",
)
@_SPECS
@_PLUGINS
@_data_locations
def audit_command(
    results: Path,
    undecided: bool,
    permutations: int | None,
    audit_names: tuple[str, ...],
    timeout: float,
    specs: tuple[Path, ...],
    plugins: Path | None,
    mirror: Path | None,
    cache: Path | None,
) -> None:
    """Audit a stored study again, from its stored predictions and seeded splits.

    Runs whose audits are of older versions, or were drawn to another --permutations cap, are
    audited again; with --undecided, also those with an undecided permutation verdict, drawn
    further. Permutation tests
    and FlipTest read the stored predictions (no run is fitted again); the individual test
    fits the run's model again with its seeds and checks that it predicts what is stored. Each
    run is stored as it is audited: an interrupted audit resumes where it stopped. The report
    is then written again. The exit status is 1 when a run could not be audited again.
    """
    from faircompare.analysis.report import write_report
    from faircompare.benchmark.reaudit import audit_study

    names = [name.strip() for given in audit_names for name in given.split(",") if name.strip()]
    summary = audit_study(
        results,
        audits=names or None,
        permutations=permutations,
        undecided=undecided,
        mirror=mirror,
        cache=cache,
        plugins=plugins,
        specs=specs,
        timeout=timeout,
        say=_say,
    )
    click.echo(
        f"{summary.audited:,} runs audited again ({summary.refitted:,} of them fitted again); "
        f"{summary.current:,} were current; {summary.not_audited:,} are not audited by their "
        "study (a frontier's runs, or --no-audits)"
    )
    if summary.audited:
        click.echo(f"report: {write_report(results, say=_say)}")
    if summary.failed:
        click.echo(f"{len(summary.failed)} runs could not be audited again:", err=True)
        for where, error in summary.failed[:_SHOWN_FAILURES]:
            click.echo(f"  {where}: {error}", err=True)
        sys.exit(1)


@cli.command()
@_RESULTS
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def status(results: Path, as_json: bool) -> None:
    """Count done, failed and pending runs per dataset and algorithm."""
    from faircompare.results import ResultStore

    with ResultStore(results, readonly=True) as store:
        counts = store.status_counts()
        if counts.empty:  # neither planned nor stored
            store.require_runs()
    totals = {column: int(total) for column, total in counts.sum().items()}
    if as_json:
        rows = counts.reset_index().to_dict(orient="records")
        click.echo(json.dumps({"runs": rows, "total": totals}, indent=2))
        return
    click.echo(counts.to_string())
    click.echo("total: " + ", ".join(f"{count:,} {status}" for status, count in totals.items()))


@cli.command(name="report")
@_RESULTS
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="[default: RESULTS/report]"
)
@click.option(
    "--redraw", is_flag=True,
    help="Draw every part again, also those whose runs did not change since the last report.",
)  # fmt: skip
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes drawing the report's parts at a time. [default: every core this process "
    "may use]",
)
@click.option(
    "--adjust", "adjustment", type=click.Choice(["family", "run"]), default="family",
    show_default=True,
    help="Which of a run's permutation tests the audit tables adjust together: each family "
    "(the pooled tests; each metric's groups), or every test of the run.",
)  # fmt: skip
def report_command(
    results: Path, out: Path | None, redraw: bool, jobs: int | None, adjustment: str
) -> None:
    """Write the figures, tables and HTML report of a results folder.

    A part whose runs and numbers are those of the last report in the same folder is not drawn
    again: after rerunning one algorithm, only the parts that read its changed numbers are.
    The parts are drawn in parallel; the report is the same for any --jobs.
    """
    from faircompare.analysis.report import write_report
    from faircompare.results import ResultStore

    with ResultStore(results, readonly=True) as store:  # a store it cannot read: no folder made
        store.require_runs()
    out = _output(out, results, "report")
    workers = RunSettings(jobs=jobs).local_workers()
    click.echo(write_report(results, out, say=_say, reuse=not redraw, jobs=workers,
                            adjustment=adjustment))  # fmt: skip


@cli.command(name="export")
@_RESULTS
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="csv", show_default=True)
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="[default: RESULTS/export]"
)
def export_command(results: Path, fmt: str, out: Path | None) -> None:
    """Write runs, measures and audits as CSV or Parquet files."""
    from faircompare.results import ResultStore
    from faircompare.results.export import export

    with ResultStore(results, readonly=True) as store:
        store.require_runs()
        for path in export(store, _output(out, results, "export"), fmt):
            click.echo(path)


@cli.command(name="cite")
@click.option(
    "--results",
    type=_FOLDER,
    help="A results folder: cite everything its study used, not faircompare alone.",
)
@_PLUGINS
def cite_command(results: Path | None, plugins: Path | None) -> None:
    """Print the BibTeX of faircompare, or of everything a study used (--results).

    With --results, the entries are those of faircompare at the release that ran the study, of
    Friedler et al.'s study, and of every algorithm, dataset and audit the study ran and every
    statistic its report uses, preceded by a paragraph for a paper's methods section that cites
    them (a BibTeX comment: save the whole output as a .bib file).
    """
    from faircompare.bibliography import FAIRCOMPARE, FRIEDLER_2019, bibtex
    from faircompare.citing import study_citation
    from faircompare.results import ResultStore

    if results is None:
        click.echo(bibtex([FAIRCOMPARE, FRIEDLER_2019]), nl=False)
        return
    with ResultStore(results, readonly=True) as store:
        store.require_runs()
        click.echo(study_citation(store, plugins).text(), nl=False)


def _selection(command: Callable[..., None]) -> Callable[..., None]:
    """Add the options that choose a figure's or a table's runs and names."""
    options = [
        click.option("--dataset", "datasets", multiple=True, help="A dataset shown (repeatable)."),
        click.option("--attribute", "attributes", multiple=True, help="A sensitive attribute."),
        click.option("--variant", "variants", multiple=True, help="A variant shown (repeatable)."),
        click.option("--algorithm", "algorithms", multiple=True,
                     help="An algorithm shown, in this order (repeatable)."),
        click.option("--split", "splits", type=int, multiple=True, help="A split (repeatable)."),
        click.option("--label", "labels", multiple=True, metavar="NAME=LABEL",
                     help="A display name for an algorithm or a measure (repeatable)."),
        click.option("--measure", "measures", multiple=True,
                     help="A measure shown, where the kind lists several (repeatable)."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


@cli.command(name="figure")
@click.argument("kind", required=False)
@_RESULTS
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file; its suffix gives the format (.pdf, .svg, .png). [default: KIND.pdf]",
)
@click.option("--list", "list_kinds", is_flag=True, help="Name the kinds and what each shows.")
@_selection
@click.option("--x", help="The measure on the x axis, where the kind has a choice (--list).")
@click.option("--y", help="The measure on the y axis, where the kind has a choice (--list).")
@click.option(
    "--width", type=click.FloatRange(0, min_open=True), default=3.5, show_default=True,
    help="Inches: 3.5 for a column of a two-column paper, 7 for its page.",
)  # fmt: skip
@click.option(
    "--height", type=click.FloatRange(0, min_open=True),
    help="Inches. [default: the kind's aspect, with its legend's room]",
)  # fmt: skip
@click.option("--font-size", type=click.FloatRange(4, 24), default=8.0, show_default=True)
@click.option(
    "--legend", type=click.Choice(["below", "right", "inside", "off"]), default="below",
    show_default=True,
)  # fmt: skip
@click.option("--sharey", is_flag=True,
              help="One y range for every panel. [default: each panel its own]")  # fmt: skip
@click.option("--dpi", type=click.IntRange(50, 1200), default=300, show_default=True,
              help="Dots per inch of a PNG.")  # fmt: skip
def figure_command(
    kind: str | None,
    results: Path,
    out: Path | None,
    list_kinds: bool,
    x: str | None,
    y: str | None,
    width: float,
    height: float | None,
    font_size: float,
    legend: str,
    sharey: bool,
    dpi: int,
    **selection: Any,
) -> None:
    """Draw one figure of a study for a paper, at the size and over the runs asked.

    Without rewriting the report, and with the report's drawing code: KIND is one of
    `faircompare figure --list`, drawn from the results folder's store, a panel per dataset,
    attribute and variant selected, e.g. `faircompare figure tradeoff --dataset german
    --dataset adult --width 7 --label massaging-lr=Ours --label german=German --out t.pdf`.
    """
    if list_kinds:
        for name, (shows, axes) in FIGURE_KINDS.items():
            click.echo(f"{name}: {shows}\n    {axes}")
        return
    from faircompare.analysis import paper
    from faircompare.safe_write import replaced

    if kind is None:
        raise click.UsageError("name a figure kind, or --list to see them")
    path = _suffixed(out or Path(f"{kind}.pdf"), (".pdf", ".svg", ".png"))
    try:
        figure = paper.draw(
            kind, results, **_chosen(**selection), x=x, y=y, width=width, height=height,
            font_size=font_size, legend=legend, sharey=sharey,
        )  # fmt: skip
    except ValueError as error:  # an unknown kind or value, or a figure that cannot fit
        raise click.ClickException(str(error)) from None
    with replaced(path, path.parent) as temporary:
        figure.savefig(temporary, dpi=dpi)
    size = figure.get_size_inches()
    click.echo(f"{path} ({size[0]:.2f} x {size[1]:.2f} in)")


@cli.command(name="table")
@click.argument("kind", required=False)
@_RESULTS
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file: .tex (booktabs, the best of each column in bold) or .csv. [default: KIND.tex]",
)
@click.option("--list", "list_kinds", is_flag=True, help="Name the kinds and what each shows.")
@_selection
def table_command(
    kind: str | None,
    results: Path,
    out: Path | None,
    list_kinds: bool,
    **selection: Any,
) -> None:
    """Write one table of a study for a paper, as LaTeX or CSV, over the runs asked.

    Without rewriting the report: KIND is one of `faircompare table --list`, e.g. `faircompare
    table intervals --dataset german --measure accuracy --measure DIbinary --out t.tex`.
    """
    if list_kinds:
        for name, shows in TABLE_KINDS.items():
            click.echo(f"{name}: {shows}")
        return
    if kind is None:
        raise click.UsageError("name a table kind, or --list to see them")
    path = _suffixed(out or Path(f"{kind}.tex"), (".tex", ".csv"))
    from faircompare.analysis.paper_tables import table
    from faircompare.safe_write import write_text

    try:
        made = table(kind, results, **_chosen(**selection))
    except ValueError as error:  # an unknown kind or value, or a selection of several
        raise click.ClickException(str(error)) from None
    write_text(path, made.latex() if path.suffix == ".tex" else made.csv(), path.parent)
    click.echo(f"{path} ({len(made.shown)} rows)")


def _suffixed(path: Path, suffixes: Sequence[str]) -> Path:
    """Return ``path`` where its suffix names one of the formats, else say which it may."""
    if path.suffix.lower() not in suffixes:
        allowed = ", ".join(suffixes)
        raise click.BadParameter(
            f"{path.name!r}: the suffix must be one of {allowed}", param_hint="--out"
        )
    return path


def _chosen(labels: tuple[str, ...], **options: tuple[Any, ...]) -> dict[str, Any]:
    """Return the selection's options as keywords of ``draw`` and ``table`` (None: not given)."""
    return {"labels": _labels(labels)} | {name: value or None for name, value in options.items()}


def _labels(pairs: Sequence[str]) -> dict[str, str]:
    """Return ``NAME=LABEL`` pairs as a mapping, refusing one without ``=``."""
    labels = {}
    for pair in pairs:
        name, sign, label = pair.partition("=")
        if not sign or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=LABEL", param_hint="--label")
        labels[name] = label
    return labels


def _output(out: Path | None, results: Path, default: str) -> Path:
    """Return ``--out``, or the results folder's ``default`` subfolder, ready to be written."""
    return _writable(out, out) if out else _writable(results / default, results)


def _writable(folder: Path, root: Path) -> Path:
    """Return ``folder`` once it exists and takes a file; else one error naming it and why."""
    make_folder(folder, root, way_out=_OUT)
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise write_error(error, folder, way_out=_OUT) from None
    return folder


_OUT = "pass --out with a folder you can write to"


def _selected(datasets: Sequence[str], specs: Sequence[Path]) -> list[DatasetSpec]:
    """Return the named built-ins and the user specs; all built-ins when neither is given."""
    from faircompare.datasets import read_spec

    chosen = [BUILTIN[name] for name in datasets] + [read_spec(path) for path in specs]
    return chosen or list(BUILTIN.values())


def _say(line: str) -> None:
    """Print a note on the way (standard error: standard output keeps the results)."""
    click.echo(line, err=True)


def _show_cut(error: click.ClickException) -> None:
    """Print click's own rendering of an error (usage, hint, message), each line cut.

    click formats the message in ``show``; its lines are cut after formatting, since click 8.5
    declares ``ClickException.message`` final.
    """
    shown = io.StringIO()
    error.show(file=shown)
    lines = shown.getvalue().splitlines()
    click.echo("\n".join(cut_message(line) for line in lines), err=True)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[threading.Event]:
    """Treat SIGTERM as Ctrl-C while a command runs; the event says whether one came.

    Every command stops on SIGTERM as on Ctrl-C: workers ended, files whole or not written
    (:mod:`faircompare.safe_write`), finished runs stored.
    """
    came = threading.Event()
    if threading.current_thread() is not threading.main_thread():  # signals reach it alone
        yield came
        return

    def interrupt(signum: int, frame: Any) -> None:
        came.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield came
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; faircompare's own errors are printed without a traceback.

    Ctrl-C ends a command with status 130, SIGTERM with 143, each with a line saying what was
    kept.
    """
    with _sigterm_interrupts() as terminated:
        try:
            _main(argv)
        except SystemExit as exited:  # run's own summary: "interrupted: every finished run ..."
            if exited.code == _INTERRUPTED and terminated.is_set():
                sys.exit(_TERMINATED)
            raise
        except click.exceptions.Abort:
            what = "terminated (SIGTERM)" if terminated.is_set() else "interrupted"
            click.echo(f"{what}: every file written is whole, none is half written", err=True)
            sys.exit(_TERMINATED if terminated.is_set() else _INTERRUPTED)


_INTERRUPTED, _TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM  # the shells' statuses


def _main(argv: Sequence[str] | None) -> None:
    """Run the command line, its errors as lines; an interruption is click's ``Abort``."""
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="faircompare",
            standalone_mode=False,
        )
    except click.ClickException as error:
        _show_cut(error)
        sys.exit(error.exit_code)
    except FaircompareError as error:
        click.echo(f"error: {cut_message(str(error))}", err=True)
        sys.exit(1)
    if isinstance(code, int) and code:  # click's Exit code, e.g. from --help
        sys.exit(code)
