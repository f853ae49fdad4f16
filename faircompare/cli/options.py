"""What the commands share: their common options, the data and output folders, notes."""

from __future__ import annotations

import functools
import signal
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from faircompare._deprecations import FLAGS, former_names, message
from faircompare._validation import SETTINGS
from faircompare.datasets.builtin import BUILTIN
from faircompare.datasets.fetch import CACHE_ENV, MIRROR_ENV
from faircompare.safe_write import make_folder, write_error

if TYPE_CHECKING:
    from faircompare.datasets import DatasetSpec


SHOWN_FAILURES = 20
INTERRUPTED = 128 + signal.SIGINT  # the shell's status after Ctrl-C
RESULTS = click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results folder (a SQLite database inside).",
)
FOLDER = click.Path(file_okay=False, path_type=Path)
MIRROR = click.option(
    "--mirror",
    type=FOLDER,
    envvar=MIRROR_ENV,
    help=f"Local mirror of the raw data files, tried before downloading [env: {MIRROR_ENV}].",
)
CACHE = click.option(
    "--cache",
    type=FOLDER,
    envvar=CACHE_ENV,
    help=f"Where verified raw files are kept [env: {CACHE_ENV}; default: user cache dir].",
)


def setting_type(name: str) -> click.ParamType:
    """Return the click type of a study's setting, its range read from the one table of rules.

    Parameters
    ----------
    name
        A setting of :data:`faircompare._validation.SETTINGS` that is a number.

    Returns
    -------
    click.ParamType
        An :class:`click.IntRange` (whole numbers) or :class:`click.FloatRange` (seconds, the
        lower end excluded) with the setting's bounds, so the command line refuses what the
        settings would, before anything runs.
    """
    rule = SETTINGS[name]
    if rule.kind == "whole":
        return click.IntRange(min=cast(int | None, rule.low), max=cast(int | None, rule.high))
    return click.FloatRange(min=rule.low, max=rule.high, min_open=True)


def deprecated_line(old: str, new: str) -> None:
    """Print the deprecation of a former name as a ``warning:`` line (standard error)."""
    click.echo(f"warning: {message(old, new)}", err=True)


def _former_flag(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Warn of a former flag's use (:data:`faircompare._deprecations.FLAGS`)."""
    if value is not None:
        deprecated_line(param.opts[0], FLAGS[param.opts[0]])
    return value


def data_locations(command: Callable[..., None]) -> Callable[..., None]:
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
            option = click.option(flag, f"former_{name}", type=FOLDER, hidden=True,
                                  callback=_former_flag)  # fmt: skip
            merged = option(merged)
    return CACHE(MIRROR(merged))


DATASETS = click.option(
    "--dataset",
    "datasets",
    multiple=True,
    type=click.Choice(list(BUILTIN)),
    help="A built-in dataset (repeatable; default: the paper's five).",
)
PLUGINS = click.option(
    "--plugins",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of plugin files (Python files defining FairEstimator subclasses).",
)


def specs_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Return the repeatable ``--spec`` option, its help saying what the command does with it."""
    return click.option(
        "--spec",
        "specs",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help=f"A TOML specification of your own dataset (repeatable): {what}.",
    )


SPECS = specs_option("without --dataset, only these datasets are run")


def output_folder(out: Path | None, results: Path, default: str) -> Path:
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


def selected_specs(datasets: Sequence[str], specs: Sequence[Path]) -> list[DatasetSpec]:
    """Return the named built-ins and the user specs; all built-ins when neither is given."""
    from faircompare.datasets import read_spec

    chosen = [BUILTIN[name] for name in datasets] + [read_spec(path) for path in specs]
    return chosen or list(BUILTIN.values())


def say(line: str) -> None:
    """Print a note on the way (standard error: standard output keeps the results)."""
    click.echo(line, err=True)
