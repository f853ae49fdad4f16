"""``faircompare run``, ``audit``, ``status`` and ``fetch-data``: a study, and its runs."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from faircompare.benchmark.settings import BACKENDS
from faircompare.cli.options import (
    DATASETS,
    INTERRUPTED,
    PLUGINS,
    RESULTS,
    SHOWN_FAILURES,
    SPECS,
    data_locations,
    say,
    selected_specs,
    setting_type,
    specs_option,
)
from faircompare.config import (
    PROFILES,
    BenchmarkConfig,
    load_config,
)
from faircompare.exceptions import cut_message

if TYPE_CHECKING:
    from faircompare.benchmark.summary import Summary


def _configuration(
    profile: str | None, config_path: Path | None, overrides: dict[str, Any]
) -> BenchmarkConfig:
    """Return the configuration: the TOML file (or profile), then the options given.

    The options are named as :class:`BenchmarkConfig`'s fields; one not given (None, or an
    empty repeatable option) keeps the file's value. ``--spec`` without ``--dataset`` runs the
    user's data only, and ``--grid`` sets ``tune`` as well (as its help says). The settings are
    checked once, as they are made.
    """
    given = {
        field: (tuple(map(str, value)) or None) if field in _REPEATED else value
        for field, value in overrides.items()
    }
    given["dataset_specs"] = given.pop("specs")  # the --spec option other commands share
    if given["dataset_specs"] and not given["datasets"]:
        given["datasets"] = ()
    given["tune"] = given["grid"]
    with warnings.catch_warnings(record=True) as said:  # a repeated name: planned once
        warnings.simplefilter("always", UserWarning)
        config = load_config(config_path, profile).overridden(**given)
    for warning in said:
        click.echo(f"warning: {warning.message}", err=True)
    return config


_REPEATED = ("datasets", "specs", "sensitive_attributes", "algorithms")


@click.command(name="fetch-data")
@DATASETS
@data_locations
def fetch_data(datasets: tuple[str, ...], mirror: Path | None, cache: Path | None) -> None:
    """Fetch and verify the raw files of the built-in datasets, so later runs need no network."""
    from faircompare.datasets import load_dataset

    for spec in selected_specs(datasets, ()):
        dataset = load_dataset(spec, cache=cache, mirror=mirror, say=say)
        click.echo(f"{spec.name}: verified, {len(dataset.frame):,} rows after cleaning")


def _profile_default(field: str) -> str:
    """Return the help's note on an option whose default is the profile's (the file's) value."""
    return f"[default: the profile's; {_shown(getattr(PROFILES['default'], field))} in 'default']"


def _settings_default(field: str) -> str:
    """Return the help's note on an option whose default is the settings' own."""
    return f"[default: {_shown(getattr(BenchmarkConfig(), field))}]"


def _shown(value: Any) -> str:
    """Return a default as the help shows it: on/off, 1,000, processes."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:,g}"
    return f"{value:,}" if isinstance(value, int) else str(value)


@click.command()
@click.option(
    "--profile", type=click.Choice(list(PROFILES)), help="Named profile [default: default]."
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A TOML configuration (its 'profile' key names the profile it starts from).",
)
@DATASETS
@SPECS
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
    type=setting_type("splits"),
    help=f"Number of train/test splits. {_profile_default('splits')}",
)
@click.option(
    "--seed",
    type=setting_type("seed"),
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
    type=setting_type("timeout"),
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
    type=setting_type("permutations"),
    help="Most permutations per audit test: a test draws until its verdict at 0.05 is decided, "
    f"up to this many. {_profile_default('permutations')}",
)
@click.option(
    "--jobs",
    type=setting_type("jobs"),
    help="Parallel workers on this machine; with --scheduler, the cluster's size, which the dry "
    "run divides the time by. [default: every core this process may use]",
)
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    help="processes: worker processes this machine starts and watches (a worker that dies or "
    "overruns --timeout costs its run only); dask: a Dask cluster; inline: this process, one "
    f"run at a time (debugging). {_settings_default('backend')}",
)
@click.option(
    "--scheduler",
    help="Address of a running Dask scheduler (tcp://HOST:8786), or the file its "
    "--scheduler-file wrote (with --backend dask).",
)
@RESULTS
@click.option("--force", is_flag=True, default=None, help="Redo runs already stored.")
@click.option("--retry-failed", is_flag=True, default=None, help="Redo runs stored as failed.")
@click.option(
    "--report/--no-report", default=True, show_default=True, help="Write RESULTS/report at the end."
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what the plan runs, tunes and audits, and its runs and expected CPU time per "
    "dataset and algorithm; run nothing.",
)
@PLUGINS
@data_locations
def run(
    profile: str | None,
    config_path: Path | None,
    results: Path,
    report: bool,
    dry_run: bool,
    **overrides: Any,
) -> None:
    """Run the benchmark: every planned run is fitted, scored and stored as it finishes.

    A rerun skips the runs already stored, so an interrupted benchmark resumes where it
    stopped. At the end the report of the results folder is written and its path printed. The
    exit status is 1 when any planned run has failed.
    """
    from faircompare.benchmark import plan_study, run_benchmark
    from faircompare.benchmark.progress import progress_printer

    config = _configuration(profile, config_path, overrides)
    if dry_run:
        study = plan_study(config, fetch=False, say=say)
        if config_path is not None:  # the settings line below is what it was read as
            click.echo(f"configuration: {config_path}")
        click.echo(study.describe(config.workers(len(study.runs))))
        return
    summary = run_benchmark(config, results, progress=progress_printer(), report=report, say=say)
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
        sys.exit(INTERRUPTED)
    if summary.report is not None:
        click.echo(f"report: {summary.report}")
    if summary.failures:
        click.echo(f"{len(summary.failures)} planned runs have failed:", err=True)
        for where, error in summary.failures[:SHOWN_FAILURES]:
            click.echo(f"  {where}: {cut_message(error)}", err=True)
        if len(summary.failures) > SHOWN_FAILURES:
            more = len(summary.failures) - SHOWN_FAILURES
            click.echo(f"  ... and {more} more (faircompare status)", err=True)
        sys.exit(1)


@click.command(name="audit")
@RESULTS
@click.option(
    "--undecided", is_flag=True,
    help="Also draw the undecided permutation tests further, until they decide: to "
    "--permutations, or to ten times their cap (those runs' tests alone).",
)  # fmt: skip
@click.option(
    "--permutations",
    type=setting_type("permutations"),
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
    type=setting_type("timeout"),
    help=f"Seconds per run (a run past it is left as it was). {_settings_default('timeout')}",
)
@specs_option("where the stored runs of your own datasets read their data again")
@PLUGINS
@data_locations
def audit_command(
    results: Path,
    undecided: bool,
    permutations: int | None,
    audit_names: tuple[str, ...],
    timeout: float | None,
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
    run is stored as it is audited: an interrupted audit resumes where it stopped. The
    undecided verdicts of each audit are counted before and after, and the report is then
    written again. The exit status is 1 when a run could not be audited again.
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
        say=say,
    )
    click.echo(
        f"{summary.audited:,} runs audited again ({summary.refitted:,} of them fitted again); "
        f"{summary.current:,} were current; {summary.not_audited:,} are not audited by their "
        "study (a frontier's runs, or --no-audits)"
    )
    for name, (before, after, stored) in summary.undecided.items():
        click.echo(f"undecided {name}: {before:,} before, {after:,} after, of {stored:,}")
    if summary.audited:
        click.echo(f"report: {write_report(results, say=say)}")
    if summary.failed:
        click.echo(f"{len(summary.failed)} runs could not be audited again:", err=True)
        for where, error in summary.failed[:SHOWN_FAILURES]:
            click.echo(f"  {where}: {error}", err=True)
        sys.exit(1)


@click.command()
@RESULTS
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
