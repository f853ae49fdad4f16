"""Input validation shared by every stage: errors name the bad value and the valid ones."""

from collections.abc import Iterable
from typing import TypeVar

from faircompare.exceptions import ChoiceError
from faircompare.stats._validation import choice_message, renamed_arguments

__all__ = ["check_choice", "renamed_arguments"]

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
    raise ChoiceError(choice_message(value, choices, what=what))
