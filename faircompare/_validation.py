"""Input validation shared by every stage: errors name the bad value and the valid ones."""

from collections.abc import Iterable
from typing import TypeVar

from faircompare.exceptions import ChoiceError
from faircompare.stats._validation import RenamedAttribute as RenamedAttribute
from faircompare.stats._validation import check_choice as _check_choice
from faircompare.stats._validation import renamed_arguments as renamed_arguments

T = TypeVar("T")


def check_choice(value: T, choices: Iterable[T], *, what: str) -> T:
    """Return ``value`` if it is one of ``choices``, else raise a :class:`ChoiceError`.

    The statistics library's check (:func:`faircompare.stats._validation.check_choice`), with
    faircompare's own error, which the command line prints as one line.
    """
    return _check_choice(value, choices, what=what, error=ChoiceError)
