"""The checks every layer shares: of a choice (naming the valid ones) and of a name (its rule).

Like :mod:`faircompare._deprecations`, this module imports only the standard library and
:mod:`faircompare.exceptions`, so every layer uses it, the statistics library included.
"""

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from difflib import get_close_matches
from typing import Any, TypeVar

from faircompare.exceptions import BadNameError, ChoiceError

T = TypeVar("T")
_QUOTED = 100  # characters of a user's value quoted in a message

#: The rule of every name a user or a plugin chooses (algorithms, plugins, datasets, sensitive
#: attributes): checked where the name enters (the registry, a dataset spec, a plugin file),
#: before it reaches a file name, a page, a LaTeX table or the store.
LONGEST_NAME = 64
NAME_RULE = f"letters and digits in words joined by '-' or '_', at most {LONGEST_NAME} characters"
_NAME = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*")


def is_name(value: Any, *, lower_case: bool = False) -> bool:
    """Return whether ``value`` follows :data:`NAME_RULE` (and is lower case, if asked).

    Parameters
    ----------
    value
        A name.
    lower_case
        Whether it must also be lower case.

    Returns
    -------
    bool
        True for a string of at most 64 characters that the rule's pattern matches whole.
    """
    return (
        isinstance(value, str)
        and len(value) <= LONGEST_NAME
        and _NAME.fullmatch(value) is not None
        and (not lower_case or value == value.lower())
    )


def check_name(value: Any, *, what: str, lower_case: bool = False) -> str:
    """Return ``value`` if it follows :data:`NAME_RULE`, else raise a :class:`BadNameError`.

    Parameters
    ----------
    value
        The name given.
    what
        What it names, used in the message (``"algorithm name"``).
    lower_case
        Whether it must also be lower case (an algorithm's registry name: ``my-method``).

    Returns
    -------
    str
        The name, unchanged.

    Raises
    ------
    BadNameError
        A :class:`ValueError` quoting the name (escaped and cut) and stating the rule.
    """
    if is_name(value, lower_case=lower_case):
        return value
    rule = f"lower-case {NAME_RULE}" if lower_case else NAME_RULE
    raise BadNameError(f"{what} {quoted(value)} is not a valid name: {rule} (like 'my-method')")


def check_choice(value: T, choices: Iterable[T], *, what: str) -> T:
    """Return ``value`` if it is one of ``choices``, else raise a :class:`ChoiceError`.

    Parameters
    ----------
    value
        The value given by the user.
    choices
        The valid values.
    what
        What the value names, used in the message.

    Returns
    -------
    value
        The value, unchanged.

    Raises
    ------
    ChoiceError
        A :class:`ValueError` naming the bad value, the closest valid one when there is one,
        and every valid choice (the command line prints it as one line).
    """
    choices = list(choices)
    if value in choices:
        return value
    names = [str(choice) for choice in choices]
    text = str(value)
    close = get_close_matches(text, names, n=1) if len(text) <= _QUOTED else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ChoiceError(f"unknown {what} {quoted(value)}{hint}; valid choices: {', '.join(names)}")


def quoted(value: Any, limit: int = _QUOTED) -> str:
    """Return ``repr(value)``, cut to ``limit`` characters with the length said.

    Parameters
    ----------
    value
        A value to quote in a message (a user's, of any size).
    limit
        The most characters quoted.

    Returns
    -------
    str
        ``repr(value)``, or its start followed by ``... (N characters)``.
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


#: The longest time limit of a run: 30 days, in seconds.
MAX_TIMEOUT = 30 * 24 * 3600.0
#: The most permutations a permutation test draws (a sequential test's cap).
MAX_PERMUTATIONS = 1_000_000
#: The largest seed: the largest integer the results store holds.
MAX_SEED = 2**63 - 1
#: The most train/test splits of a study: a hundred times the paper's ten (a billion would
#: plan, and hold in memory, a billion runs per setting before anything ran).
MAX_SPLITS = 1_000
#: The most runs a plan may hold, counted before one is built (a plan is built and held in
#: memory before anything runs): the ``paper`` profile plans 27,820 at its ten splits.
MAX_RUNS = 1_000_000


@dataclass(frozen=True)
class Setting:
    """What one setting of a study may be, declared once: its kind and its range.

    Attributes
    ----------
    kind
        ``"whole"`` (an integer, not a bool), ``"seconds"`` (a real number, not a bool),
        ``"flag"`` (a bool), ``"folder"`` (a path: a string or a :class:`os.PathLike`) or
        ``"text"`` (a string).
    low, high
        The range, both ends included but a number of seconds' lower end; None: unbounded.
    optional
        Whether None is a value (``jobs``: every core).
    note
        Why the range ends where it does, said after it.
    """

    kind: str
    low: int | float | None = None
    high: int | float | None = None
    optional: bool = False
    note: str = ""

    def phrase(self) -> str:
        """Return what the setting must be, as a message says it: ``a whole number of at ...``."""
        if self.kind in _PLAIN:
            return _PLAIN[self.kind] + (f" ({self.note})" if self.note else "")
        what = "a whole number" if self.kind == "whole" else "a number of seconds"
        low = "more than" if self.kind == "seconds" else "at least"
        if self.high is None:
            bounds = f" of {low} {_number(self.low)}" if self.low is not None else ""
        elif self.kind == "whole":
            bounds = f" from {_number(self.low)} to {_number(self.high)}"
        else:
            bounds = f", {low} {_number(self.low)} and at most {_number(self.high)}"
        return what + bounds + (f" ({self.note})" if self.note else "")

    def problem(self, name: str, value: Any) -> str | None:
        """Return what is wrong with ``value`` for the setting ``name``, or None.

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

    def _fits(self, value: Any) -> bool:
        if self.kind in _PLAIN:
            return isinstance(value, _PLAIN_TYPES[self.kind])
        kinds = int if self.kind == "whole" else int | float
        if not isinstance(value, kinds) or isinstance(value, bool):
            return False
        above = self.low is None or (
            value > self.low if self.kind == "seconds" else value >= self.low
        )
        return bool(above and (self.high is None or value <= self.high))  # NaN fails both


_PLAIN = {"flag": "true or false", "folder": "a folder's path", "text": "a string"}
_PLAIN_TYPES: dict[str, type | tuple[type, ...]] = {
    "flag": bool,
    "folder": (str, os.PathLike),
    "text": str,
}


def _number(value: int | float | None) -> str:
    """Return a bound as a message writes it: 2,592,000, not 2592000.0."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}"


#: Every setting of a study that is a number, a flag, a folder or a string, declared once: its
#: kind and range. The one settings object (:class:`~faircompare.config.BenchmarkConfig`) checks
#: its fields against it (:func:`check_settings`), so a setting has one rule and one message.
SETTINGS: Mapping[str, Setting] = {
    "jobs": Setting("whole", low=1, optional=True),
    "splits": Setting("whole", low=1, high=MAX_SPLITS, note="a hundred times the paper's ten"),
    "seed": Setting("whole", low=0, high=MAX_SEED, note="2**63 - 1, the largest the store holds"),
    "permutations": Setting(
        "whole", low=1, high=MAX_PERMUTATIONS, note="the most a sequential test draws"
    ),
    "timeout": Setting("seconds", low=0, high=MAX_TIMEOUT, note="30 days"),
    **{
        flag: Setting("flag")
        for flag in ("grid", "tune", "audits", "audit_frontier", "force", "retry_failed")
    },
    **{folder: Setting("folder", optional=True) for folder in ("plugins", "mirror", "cache")},
    "scheduler": Setting("text", optional=True, note="an address or a scheduler file"),
}


def check_settings(settings: Any, error: type[Exception]) -> None:
    """Check every field of a settings dataclass that :data:`SETTINGS` declares.

    Parameters
    ----------
    settings
        A dataclass instance (a study's settings, :class:`~faircompare.config.BenchmarkConfig`).
    error
        The exception to raise, with the first problem found.

    Raises
    ------
    Exception
        ``error``, naming the setting, its rule and the value given.
    """
    for field in fields(settings):
        if field.name in SETTINGS:
            problem = SETTINGS[field.name].problem(field.name, getattr(settings, field.name))
            if problem is not None:
                raise error(problem)
