"""``faircompare check-plugin`` and ``new-plugin``: a plugin's contract, and its skeleton."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from faircompare.cli.options import (
    PLUGINS,
)
from faircompare.plugin_template import PLUGIN_KINDS, write_plugin


@click.command(name="check-plugin")
@click.argument("target")
@PLUGINS
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


@click.command(name="new-plugin")
@click.argument("name")
@click.option(
    "--kind",
    type=click.Choice(PLUGIN_KINDS),
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
