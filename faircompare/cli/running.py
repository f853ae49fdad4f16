"""``faircompare run``, ``audit``, ``status`` and ``fetch-data``: a study, and its runs."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from faircompare.cli.options import (
    DATASETS,
    INTERRUPTED,
    PLUGINS,
    RESULTS,
    SHOWN_FAILURES,
    data_locations,
    given_settings,
    say,
    selected_specs,
    setting_option,
    specs_option,
    study_options,
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
    profile: str | None, config_path: Path | None, options: dict[str, Any]
) -> BenchmarkConfig:
    """Return the configuration: the TOML file (or profile), then the options given.

    The options are the settings' fields (:func:`~faircompare.cli.options.setting_option`);
    one not given keeps the file's value. ``--spec`` without ``--dataset`` runs the user's data
    only, and ``--grid`` sets ``tune`` as well (as its help says). The settings are checked
    once, as they are made.
    """
    given = given_settings(options)
    if "dataset_specs" in given and "datasets" not in given:
        given["datasets"] = ()
    if "grid" in given:
        given["tune"] = given["grid"]
    with warnings.catch_warnings(record=True) as said:  # a repeated name: planned once
        warnings.simplefilter("always", UserWarning)
        config = load_config(config_path, profile).overridden(**given)
    for warning in said:
        click.echo(f"warning: {warning.message}", err=True)
    return config


@click.command(name="fetch-data")
@DATASETS
@data_locations
def fetch_data(datasets: tuple[str, ...], mirror: Path | None, cache: Path | None) -> None:
    """Fetch and verify the raw files of the built-in datasets, so later runs need no network."""
    from faircompare.datasets import load_dataset

    for spec in selected_specs(datasets, ()):
        dataset = load_dataset(spec, cache=cache, mirror=mirror, say=say)
        click.echo(f"{spec.name}: verified, {len(dataset.frame):,} rows after cleaning")


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
@study_options
@RESULTS
@click.option(
    "--report/--no-report", default=True, show_default=True, help="Write RESULTS/report at the end."
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what the plan runs, tunes and audits, and the runs still to do (those stored "
    "in --results are counted, not priced) with their expected CPU time per dataset and "
    "algorithm; run nothing.",
)
def run(
    profile: str | None,
    config_path: Path | None,
    results: Path,
    report: bool,
    dry_run: bool,
    **options: Any,
) -> None:
    """Run the benchmark: every planned run is fitted, scored and stored as it finishes.

    A rerun skips the runs already stored, so an interrupted benchmark resumes where it
    stopped. At the end the report of the results folder is written and its path printed. The
    exit status is 1 when any planned run has failed.
    """
    from faircompare.benchmark import run_benchmark
    from faircompare.benchmark.progress import progress_printer
    from faircompare.benchmark.study import dry_run as described

    config = _configuration(profile, config_path, options)
    if dry_run:
        if config_path is not None:  # the settings line below is what it was read as
            click.echo(f"configuration: {config_path}")
        click.echo(described(config, results, say=say))
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
@setting_option(
    "permutations",
    help="Most permutations per test; a cap other than a run's stored one audits its "
    "permutation tests again (with --undecided, only the undecided runs').",
    default="each run's",
)
@click.option(
    "--audits",
    "audit_names",
    multiple=True,
    help="An audit to run again (repeatable, or comma-separated; default: every audit). "
    "`faircompare list audits` names them.",
)
@setting_option("timeout", help="Seconds per run (a run past it is left as it was).")
@specs_option("where the stored runs of your own datasets read their data again")
@PLUGINS
@data_locations
def audit_command(
    results: Path,
    undecided: bool,
    permutations: int | None,
    audit_names: tuple[str, ...],
    timeout: float | None,
    dataset_specs: tuple[Path, ...],
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
        specs=dataset_specs,
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
