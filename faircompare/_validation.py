"""The choice check every layer shares: an error names the bad value and the valid ones.

Like :mod:`faircompare._deprecations`, this module imports only the standard library and
:mod:`faircompare.exceptions`, so every layer uses it, the statistics library included.
"""

from collections.abc import Iterable
from difflib import get_close_matches
from typing import Any, TypeVar

from faircompare.exceptions import ChoiceError

T = TypeVar("T")
_QUOTED = 100  # characters of a user's value quoted in a message


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
