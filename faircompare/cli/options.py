"""What the commands share: their common options, the data and output folders, notes."""

from __future__ import annotations

import contextlib
import functools
import signal
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

import click

from faircompare._deprecations import FLAGS, SAID, deprecated, former_names
from faircompare.config.profiles import PROFILES
from faircompare.config.rules import Option, Rule, option_of, rule_of
from faircompare.config.settings import RUN_FIELDS, BenchmarkConfig
from faircompare.datasets.builtin import BUILTIN
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
_FIELDS = {declared.name: declared for declared in fields(BenchmarkConfig)}


def setting_option(
    name: str, *, help: str | None = None, default: str | None = None, profile: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Return the option of a study's setting, made from its field of :class:`BenchmarkConfig`.

    The field's declaration (:func:`faircompare.config.rules.setting`) gives the option its
    flag, its type and range (so the command line refuses what the settings would, before
    anything runs), whether it repeats (a list of names, one per use), its environment
    variable, its help and the default the help states; the option's value is None (or empty)
    when not given, so the settings keep theirs.

    Parameters
    ----------
    name
        The field.
    help
        The help, when a command uses the setting otherwise than a study does.
    default
        The default the help states, when not the settings' (``each run's``).
    profile
        Whether the default is the profile's (``faircompare run``): the help then states
        the ``default`` profile's value. The settings of how a plan runs are the same in
        every profile, and state their own.

    Returns
    -------
    callable
        The :func:`click.option` decorator, its parameter named as the field.
    """
    declared = _FIELDS[name]
    rule, option = rule_of(declared), option_of(declared)
    if option is None:
        raise ValueError(f"the setting {name!r} has no command-line option")
    flag = option.flag or f"--{name.replace('_', '-')}"
    note = _default_note(name, option, default, profile=profile)
    kwargs: dict[str, Any] = {"help": f"{help or option.help} {note}".strip()}
    if option.envvar is not None:
        kwargs["envvar"] = option.envvar
    if rule.kind == "flag":  # a profile's switch both ways; a switch of what to redo, on only
        if name in RUN_FIELDS:
            return click.option(flag, name, is_flag=True, default=None, **kwargs)
        return click.option(f"{flag}/--no-{flag[2:]}", name, default=None, **kwargs)
    repeated = rule.kind in ("names", "wholes")
    return click.option(flag, name, type=_option_type(rule, option), multiple=repeated, **kwargs)


def _option_type(rule: Rule, option: Option) -> click.ParamType:
    """Return the click type of a setting: its range, its valid names, or a path."""
    if rule.kind in ("whole", "wholes"):
        return click.IntRange(min=cast(int | None, rule.low), max=cast(int | None, rule.high))
    if rule.kind in ("seconds", "number"):
        return click.FloatRange(min=rule.low, max=rule.high, min_open=rule.kind == "seconds")
    if (valid := rule.valid()) is not None:
        return click.Choice([*valid, *rule.keywords])
    if rule.kind == "folder":
        return click.Path(file_okay=False, exists=option.exists, path_type=Path)
    if option.exists:  # a list of files (--spec)
        return click.Path(exists=True, dir_okay=False, path_type=Path)
    return click.STRING


def _default_note(name: str, option: Option, default: str | None, *, profile: bool) -> str:
    """Return the help's ``[env: ...; default: ...]``, read from the settings and profiles."""
    from_profile = profile and name not in RUN_FIELDS
    base = PROFILES["default"] if from_profile else BenchmarkConfig()
    value = default or option.default or _shown(getattr(base, name))
    if from_profile:
        value = f"the profile's; {value or 'none'} in 'default'"
    parts = [f"env: {option.envvar}"] if option.envvar else []
    if value:
        parts.append(f"default: {value}")
    return f"[{'; '.join(parts)}]" if parts else ""


def _shown(value: Any) -> str:
    """Return a default as the help shows it: on/off, 1,000, processes, a, b; '' for none."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:,g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return "" if value is None else str(value)


def given_settings(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return the settings' changes the options given make, as :class:`BenchmarkConfig` holds them.

    Parameters
    ----------
    options
        The values of options made by :func:`setting_option`, by field.

    Returns
    -------
    dict
        The options given (None or an empty repeated option: not given, the settings keep
        theirs); a repeated option's values as strings (a path as given), and a keyword
        given alone (``--attribute all``) as the keyword.
    """
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if value is None or value == ():
            continue
        if isinstance(value, tuple) and rule_of(_FIELDS[name]).kind == "names":
            value = tuple(map(str, value))
            if len(value) == 1 and value[0] in rule_of(_FIELDS[name]).keywords:
                value = value[0]
        changes[name] = value
    return changes


@contextlib.contextmanager
def deprecations_as_lines() -> Iterator[None]:
    """Show faircompare's deprecation warnings as ``warning:`` lines (standard error), each once.

    Python hides a :class:`DeprecationWarning` raised outside ``__main__``; on the command line
    the one warning of each former name (:func:`faircompare._deprecations.deprecated`) is a line
    the user reads. Other warnings are shown as Python shows them.
    """
    shown: set[str] = set()
    python_shows = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if issubclass(category, DeprecationWarning) and SAID in str(message):
            if str(message) not in shown:
                shown.add(str(message))
                click.echo(f"warning: {message}", err=True)
            return
        python_shows(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        warnings.filterwarnings("always", f".*{SAID}", DeprecationWarning)
        warnings.showwarning = show
        yield


def _former_flag(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Warn of a former flag's use (:data:`faircompare._deprecations.FLAGS`)."""
    if value is not None:
        deprecated(param.opts[0], FLAGS[param.opts[0]])
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
    return setting_option("mirror")(setting_option("cache")(merged))


def study_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command an option for each setting of a study that has one, in the fields' order.

    Each option is :func:`setting_option`'s, its default stated as the profile's; ``--mirror``
    and ``--cache`` are :func:`data_locations`'s (their former names merged in).
    """
    offered = [name for name, declared in _FIELDS.items() if option_of(declared) is not None]
    command = data_locations(command)
    for name in reversed(offered):  # the first field's option first in the help
        if name not in ("mirror", "cache"):
            command = setting_option(name, profile=True)(command)
    return command


DATASETS = setting_option("datasets", default="every built-in dataset")
PLUGINS = setting_option("plugins")


def specs_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Return the repeatable ``--spec`` option, its help saying what the command does with it."""
    return setting_option(
        "dataset_specs", help=f"A TOML specification of your own dataset (repeatable): {what}."
    )


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
