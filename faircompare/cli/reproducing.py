"""``faircompare reproduce``: the original benchmark's published results beside faircompare's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from faircompare.cli.options import (
    INTERRUPTED,
    SHOWN_FAILURES,
    data_locations,
    given_settings,
    say,
    setting_option,
)
from faircompare.exceptions import cut_message

if TYPE_CHECKING:
    import pandas as pd

_SHOWN = [
    ("dataset", "dataset"),
    ("attribute", "attribute"),
    ("original", "original"),
    ("algorithm", "ours"),
    ("measure", "measure"),
    ("published", "published"),
    ("ours", "faircompare"),
    ("z", "z"),
    ("verdict", "verdict"),
    ("cause", "cause"),
]


@click.command(name="reproduce")
@click.option(
    "--published",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of the original benchmark's result files (<dataset>_<attribute>_<variant>.csv"
    ", and its sweeps in sweeps/).",
)
@click.option(
    "--as-published",
    is_flag=True,
    help="Also run each setting with every departure's switch, alone and together (the SVM "
    "unscaled, Feldman's test set repaired on its own, ...), so the table names each "
    "difference's cause.",
)
@click.option(
    "--sweeps/--no-sweeps",
    default=True,
    show_default=True,
    help="Also reproduce the parameter sweeps (the files in sweeps/).",
)
@setting_option("datasets", help="A dataset (repeatable).", default="every one the files hold")
@click.option(
    "--attribute",
    "attributes",
    multiple=True,
    help="A sensitive attribute (repeatable; default: every one the files hold).",
)
@setting_option("splits", help="Train/test splits per setting (the original ran 10).")
@setting_option("seed")
@setting_option("timeout")
@setting_option("jobs", help="Parallel workers on this machine.")
@setting_option("retry_failed")
@click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("reproduction"),
    show_default=True,
    help="Results folder: the runs' store, and the table written as reproduction.csv.",
)
@data_locations
def reproduce_command(
    published: Path,
    as_published: bool,
    sweeps: bool,
    datasets: tuple[str, ...],
    attributes: tuple[str, ...],
    results: Path,
    **settings: Any,
) -> None:
    """Set faircompare's numbers beside the original benchmark's published ones, cell by cell.

    Every published algorithm and setting is run on as many seeded splits (runs already stored
    are not run again: an interrupted reproduction resumes), then each cell, a measure of one
    setting, is compared in standard errors of the difference of the two means. The table goes
    to RESULTS/reproduction.csv; the default-parameter cells are printed with their verdict
    (agrees within 3 standard errors, or differs) and, for those that differ, the cause the
    numbers show; then how many cells agree, as faircompare runs them and as published (every
    departure's switch on, with --as-published). The sweeps are drawn as curves along their
    parameter, published against faircompare's (RESULTS/reproduction-sweeps.png and .pdf).
    The exit status is 1 when a run failed.
    """
    from faircompare.benchmark.progress import progress_printer
    from faircompare.config.settings import BenchmarkConfig
    from faircompare.reproduction import reproduce

    config = BenchmarkConfig(audits=False).overridden(**given_settings(settings))
    done = reproduce(
        published,
        results,
        config,
        as_published=as_published,
        sweeps=sweeps,
        datasets=datasets,
        attributes=attributes,
        progress=progress_printer(),
        say=say,
    )
    if done.summary.interrupted:
        click.echo("interrupted: every finished run is stored; run again to resume", err=True)
        sys.exit(INTERRUPTED)
    click.echo(_printed(done.table))
    click.echo(f"table: {done.path}")
    for path in done.sweeps:
        click.echo(f"sweeps: {path}")
    if done.summary.failures:
        click.echo(f"{len(done.summary.failures)} planned runs have failed:", err=True)
        for where, error in done.summary.failures[:SHOWN_FAILURES]:
            click.echo(f"  {where}: {cut_message(error)}", err=True)
        sys.exit(1)


def _printed(table: pd.DataFrame) -> str:
    """Return the default-parameter cells as a text table, and a line of counts per part."""
    defaults = table[~table["sweep"]]
    shown = defaults.assign(
        published=_mean_sd(defaults, "published"),
        ours=_mean_sd(defaults, "ours"),
        z=defaults["z"].map(lambda z: f"{z:+.1f}"),
    )[[column for column, _ in _SHOWN]]
    shown.columns = [header for _, header in _SHOWN]
    lines = [shown.to_string(index=False)] if len(shown) else []
    headline = defaults[defaults["measure"].isin(["accuracy", "DIbinary"])]
    for part, cells in (
        ("default parameters, accuracy and DIbinary", headline),
        ("default parameters, every measure", defaults),
        ("every cell", table),
    ):
        lines.append(
            f"{part}: {_agreeing(cells, '')}; as published: {_agreeing(cells, 'as_published_')}"
        )
    return "\n".join(lines)


def _agreeing(cells: pd.DataFrame, prefix: str) -> str:
    """Return how many of the cells run agree within 3 standard errors, as a phrase."""
    verdicts = cells[f"{prefix}verdict"]
    run = verdicts[verdicts != "not run"]
    return f"{(run == 'agrees').sum()} of {len(run)} cells agree"


def _mean_sd(table: pd.DataFrame, side: str) -> pd.Series:
    """Return a side's cells as 'mean ± sd (n)'."""
    return table.apply(
        lambda row: f"{row[f'{side}_mean']:.3f} ± {row[f'{side}_sd']:.3f} ({row[f'{side}_n']})",
        axis=1,
    )
