"""Input validation shared by every stage: errors name the bad value and the valid ones."""

from collections.abc import Iterable
from difflib import get_close_matches
from typing import TypeVar

from faircompare.exceptions import ChoiceError

T = TypeVar("T")


def check_choice(value: T, choices: Iterable[T], *, what: str) -> T:
    """Return ``value`` if it is one of ``choices``, else raise a :class:`ChoiceError`.

    Parameters
    ----------
    value
        The value given by the user.
    choices
        The valid values.
    what
        What the value names ("dataset", "variant", ...), used in the message.

    Returns
    -------
    value
        The value, unchanged.

    Raises
    ------
    ChoiceError
        Naming the bad value, the closest valid one when there is one, and every valid choice.
    """
    choices = list(choices)
    if value in choices:
        return value
    names = [str(choice) for choice in choices]
    close = get_close_matches(str(value), names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ChoiceError(f"unknown {what} {value!r}{hint}; valid choices: {', '.join(names)}")
