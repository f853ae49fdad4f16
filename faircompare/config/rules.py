"""What a setting of a study may be and how the command line offers it, declared on its field.

Each field of :class:`~faircompare.config.BenchmarkConfig` is made with :func:`setting`: its
default, its :class:`Rule` (kind, range, valid names) and its :class:`Option` (the command
line's flag and help). The settings check each field against its own rule when made, and the
command line builds each option from the same field, so renaming a field moves its check and
its option with it, and a range or a default is written once.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable
from dataclasses import Field, dataclass, field
from typing import Any

from faircompare._validation import check_choice, quoted
from faircompare.exceptions import ConfigError

#: The longest time limit of a run: 30 days, in seconds.
MAX_TIMEOUT = 30 * 24 * 3600.0
#: The most permutations a permutation test draws (a sequential test's cap).
MAX_PERMUTATIONS = 1_000_000
#: The largest seed: the largest integer the results store holds.
MAX_SEED = 2**63 - 1
#: The most train/test splits of a study: a hundred times the paper's ten (a billion would
#: plan, and hold in memory, a billion runs per setting before anything ran).
MAX_SPLITS = 1_000
#: The largest tuning budget: a thousand trials of a search per algorithm, configuration and
#: split (the studies the tuning follows run tens).
MAX_BUDGET = 1_000
#: The most runs a plan may hold, counted before one is built (a plan is built and held in
#: memory before anything runs): the ``paper`` profile plans 27,820 at its ten splits.
MAX_RUNS = 1_000_000

_PLAIN = {
    "flag": "true or false",
    "folder": "a folder's path",
    "text": "a string",
    "choice": "one of the names listed",
}
_PLAIN_TYPES: dict[str, type | tuple[type, ...]] = {
    "flag": bool,
    "folder": (str, os.PathLike),
    "text": str,
    "choice": str,
}


@dataclass(frozen=True)
class Rule:
    """What one setting may be: its kind, its range or its valid names.

    Attributes
    ----------
    kind
        ``"whole"`` (an integer, not a bool), ``"seconds"`` (a real number, not a bool),
        ``"number"`` (a real number, not a bool), ``"flag"`` (a bool), ``"folder"`` (a path: a
        string or a :class:`os.PathLike`), ``"text"`` (a string), ``"choice"`` (one of
        ``choices``), ``"names"`` (a list of names, or one of ``keywords``) or ``"wholes"`` (a
        list of whole numbers, each in the range).
    low, high
        A number's range, both ends included but a number of seconds' lower end; None:
        unbounded.
    optional
        Whether None is a value (``jobs``: every core).
    note
        Why the range ends where it does, said after it.
    choices
        The valid names of a ``choice``, or of each of ``names`` (None: any name); a callable
        returning them when they are read from a catalogue.
    keywords
        The words a ``names`` setting may be instead of a list (``"all"``).
    what
        What one of its names is, as a message says it (``"dataset"``).
    """

    kind: str
    low: int | float | None = None
    high: int | float | None = None
    optional: bool = False
    note: str = ""
    choices: Iterable[str] | Callable[[], Iterable[str]] | None = None
    keywords: tuple[str, ...] = ()
    what: str = "name"

    def valid(self) -> list[str] | None:
        """Return the valid names of a ``choice`` or ``names`` setting, or None (any name)."""
        if self.choices is None:
            return None
        return list(self.choices() if callable(self.choices) else self.choices)

    def phrase(self) -> str:
        """Return what the setting must be, as a message says it: ``a whole number of at ...``."""
        if self.kind in _PLAIN:
            return _PLAIN[self.kind] + (f" ({self.note})" if self.note else "")
        what = {
            "whole": "a whole number",
            "wholes": "a list of whole numbers, each",
            "number": "a number",
        }.get(self.kind, "a number of seconds")
        low = "more than" if self.kind == "seconds" else "at least"
        if self.high is None:
            bounds = f" of {low} {_number(self.low)}" if self.low is not None else ""
        elif self.kind != "seconds":
            bounds = f" from {_number(self.low)} to {_number(self.high)}"
        else:
            bounds = f", {low} {_number(self.low)} and at most {_number(self.high)}"
        return what + bounds + (f" ({self.note})" if self.note else "")

    def problem(self, name: str, value: Any) -> str | None:
        """Return what is wrong with a number, flag, folder or string ``value``, or None.

        Parameters
        ----------
        name
            The setting's name, as the user wrote it.
        value
            Its value, as given.

        Returns
        -------
        str or None
            ``"{name} must be {phrase}, got {value}"``, the one form of every setting's message.
        """
        if value is None and self.optional:
            return None
        if self._fits(value):
            return None
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else None
        return f"{name} must be {self.phrase()}, got {shown or quoted(value)}"

    def checked(self, name: str, value: Any) -> Any:
        """Return ``value`` as the settings hold it, once it follows the rule.

        Parameters
        ----------
        name
            The setting's name.
        value
            Its value, as given.

        Returns
        -------
        object
            The value; a list of names as a tuple (each name once), a folder made absolute.

        Raises
        ------
        ConfigError
            For a value of the wrong kind or out of range (:meth:`problem`).
        ChoiceError
            For a name that is not a valid choice, naming the valid ones.
        """
        if self.kind == "names":
            return self._names(name, value)
        if self.kind == "wholes":
            return self._wholes(name, value)
        if (problem := self.problem(name, value)) is not None:
            raise ConfigError(problem)
        if self.kind == "choice":
            check_choice(value, self.valid() or [], what=self.what)
        if self.kind == "folder" and value is not None:
            return os.path.abspath(value)  # a run never depends on the working directory
        return value

    def _fits(self, value: Any) -> bool:
        if self.kind in _PLAIN:
            return isinstance(value, _PLAIN_TYPES[self.kind])
        kinds = int if self.kind in ("whole", "wholes") else int | float
        if not isinstance(value, kinds) or isinstance(value, bool):
            return False
        above = self.low is None or (
            value > self.low if self.kind == "seconds" else value >= self.low
        )
        return bool(above and (self.high is None or value <= self.high))  # NaN fails both

    def _wholes(self, name: str, value: Any) -> tuple[int, ...]:
        """Return a list of whole numbers as a tuple, in increasing order, each once.

        One number alone is a list of one (``budget = 10``), the order and repeats of a list
        are not the user's choice of anything (a plan is a set).
        """
        values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(values, list | tuple) or not all(self._fits(v) for v in values):
            shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else None
            raise ConfigError(f"{name} must be {self.phrase()}, got {shown or quoted(value)}")
        return tuple(sorted(set(values)))

    def _names(self, name: str, value: Any) -> str | tuple[str, ...]:
        """Return a list of names as a tuple, or a keyword; refuse anything else.

        A string where a list is expected is refused rather than read letter by letter
        (``datasets = "german"`` would otherwise name the datasets g, e, r, m, a, n). A name
        given more than once is kept once, in its first place, with a warning.
        """
        if isinstance(value, str):
            if value in self.keywords:
                return value
            valid = " or ".join([*(repr(k) for k in self.keywords), "a list of names"])
            raise ConfigError(
                f"{name} must be {valid}, got the string {value!r}: write {name} = [{value!r}]"
            )
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name} must be a list of names, got {value!r}")
        if (names := self.valid()) is not None:
            for one in value:
                check_choice(one, names, what=self.what)
        unique = tuple(dict.fromkeys(value))  # a plan is a set: a name given twice is run once
        if len(unique) < len(value):
            repeated = ", ".join(repr(one) for one in unique if value.count(one) > 1)
            warnings.warn(f"{name}: {repeated} given more than once, planned once", stacklevel=5)
        return unique


def _number(value: int | float | None) -> str:
    """Return a bound as a message writes it: 2,592,000, not 2592000.0."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}"


@dataclass(frozen=True)
class Option:
    """How the command line offers a setting.

    Attributes
    ----------
    help
        The option's help, without its default (the command line adds it from the field).
    flag
        The option's name, when not the field's (``--attribute`` for
        ``sensitive_attributes``; a ``names`` setting's option is repeated, one name each).
    default
        How the help states the default, when not from the value (``every core this process
        may use``).
    envvar
        The environment variable read when the option is not given.
    exists
        Whether a folder must exist when given.
    """

    help: str
    flag: str | None = None
    default: str | None = None
    envvar: str | None = None
    exists: bool = False


def setting(default: Any, rule: Rule, option: Option | None = None) -> Any:
    """Declare a field of the settings: its default, its rule and its command-line option.

    Parameters
    ----------
    default
        The field's default.
    rule
        What its values may be.
    option
        How the command line offers it; None: only in a TOML file and in Python.

    Returns
    -------
    dataclasses.Field
        The field, its rule and option in its metadata (:func:`rule_of`, :func:`option_of`).
    """
    return field(default=default, metadata={"rule": rule, "option": option})


def rule_of(declared: Field[Any]) -> Rule:
    """Return the rule of a field declared with :func:`setting`."""
    rule: Rule = declared.metadata["rule"]
    return rule


def option_of(declared: Field[Any]) -> Option | None:
    """Return the command-line option of a field declared with :func:`setting`, or None."""
    option: Option | None = declared.metadata["option"]
    return option
