"""The checks every layer shares: of a choice (naming the valid ones) and of a name (its rule).

Like :mod:`faircompare._deprecations`, this module imports only the standard library and
:mod:`faircompare.exceptions`, so every layer uses it, the statistics library included.
"""

import re
from collections.abc import Iterable
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
    raise ChoiceError(
        f"unknown {what} {quoted(value)}{closest(value, names)}; valid choices: {', '.join(names)}"
    )


def closest(value: Any, names: Iterable[str]) -> str:
    """Return `` (did you mean 'name'?)`` for the name closest to ``value``, or ``""``."""
    text = str(value)
    close = get_close_matches(text, list(names), n=1) if len(text) <= _QUOTED else []
    return f" (did you mean {close[0]!r}?)" if close else ""


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
