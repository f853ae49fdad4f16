"""Command-line interface: ``faircompare`` and its commands, one module per kind of work.

:mod:`~faircompare.cli.running` runs a study (``run``, ``audit``, ``status``, ``fetch-data``),
:mod:`~faircompare.cli.outputs` writes its pages (``report``, ``export``, ``cite``, ``figure``,
``table``), :mod:`~faircompare.cli.listing` lists what faircompare provides (``list ...``, its
tables from :mod:`faircompare.described`) and :mod:`~faircompare.cli.plugins` checks and
starts a plugin (``check-plugin``, ``new-plugin``); :mod:`~faircompare.cli.options` holds what
they share. Each holds the command line's words only: what a command does is a call of the
library. ``python benchmark.py ARGS`` is the same as ``faircompare run ARGS``. The modules import
only what the options' choices and help need (click and faircompare's light modules of names
and settings); each command imports the library it calls, so ``--help`` and ``--version``
answer at once (``perf/cli_latency.py`` measures it).
"""

from __future__ import annotations

import io
import os
import signal
import sys
from collections.abc import Sequence

import click

from faircompare import __version__
from faircompare._deprecations import ENVIRONMENT, deprecated
from faircompare._interrupts import sigterm_interrupts
from faircompare.cli import listing, outputs, plugins, reproducing, running
from faircompare.cli.options import INTERRUPTED, deprecations_as_lines
from faircompare.exceptions import FaircompareError, cut_message

__all__ = ["main"]  # the console script; the command group is `cli`, documented by sphinx-click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="faircompare")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Compare fairness interventions on the same data, splits and measures."""
    ctx.with_resource(deprecations_as_lines())  # for the whole command
    for former, name in ENVIRONMENT.items():
        if former in os.environ and name not in os.environ:
            deprecated(f"${former}", f"${name}")


for _command in (
    listing.list_,
    plugins.check_plugin,
    plugins.new_plugin,
    running.fetch_data,
    running.run,
    running.audit_command,
    running.status,
    reproducing.reproduce_command,
    outputs.report_command,
    outputs.export_command,
    outputs.cite_command,
    outputs.figure_command,
    outputs.table_command,
):
    cli.add_command(_command)


def _show_cut(error: click.ClickException) -> None:
    """Print click's own rendering of an error (usage, hint, message), each line cut.

    click formats the message in ``show``; its lines are cut after formatting, since click 8.5
    declares ``ClickException.message`` final.
    """
    shown = io.StringIO()
    error.show(file=shown)
    lines = shown.getvalue().splitlines()
    click.echo("\n".join(cut_message(line) for line in lines), err=True)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; faircompare's own errors are printed without a traceback.

    Ctrl-C ends a command with status 130, SIGTERM with 143, each with a line saying what was
    kept.

    Parameters
    ----------
    argv
        The command's words after ``faircompare`` (``["run", "--profile", "quick"]``); None
        for the process's own arguments.
    """
    with sigterm_interrupts() as terminated:
        try:
            _main(argv)
        except SystemExit as exited:  # run's own summary: "interrupted: every finished run ..."
            if exited.code == INTERRUPTED and terminated.is_set():
                sys.exit(_TERMINATED)
            raise
        except click.exceptions.Abort:
            what = "terminated (SIGTERM)" if terminated.is_set() else "interrupted"
            click.echo(f"{what}: every file written is whole, none is half written", err=True)
            sys.exit(_TERMINATED if terminated.is_set() else INTERRUPTED)


_TERMINATED = 128 + signal.SIGTERM  # the shell's status after SIGTERM


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
