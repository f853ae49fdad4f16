"""Input validation shared by every stage: errors name the bad value and the valid ones."""

import importlib
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from faircompare.exceptions import ChoiceError
from faircompare.stats._validation import check_choice as _check_choice
from faircompare.stats._validation import renamed_arguments as renamed_arguments

T = TypeVar("T")


def check_choice(value: T, choices: Iterable[T], *, what: str) -> T:
    """Return ``value`` if it is one of ``choices``, else raise a :class:`ChoiceError`.

    The statistics library's check (:func:`faircompare.stats._validation.check_choice`), with
    faircompare's own error, which the command line prints as one line.
    """
    return _check_choice(value, choices, what=what, error=ChoiceError)


def moved_names(module: str, moved: Mapping[str, str]) -> Callable[[str], Any]:
    """Return a module ``__getattr__`` that keeps names moved elsewhere working, with a warning.

    Parameters
    ----------
    module
        The module the names left (its ``__name__``).
    moved
        Each moved name and the module that holds it now.

    Returns
    -------
    callable
        ``__getattr__(name)``: the name from its new module, with a :class:`DeprecationWarning`
        naming it; an :class:`AttributeError` for any other name.
    """

    def __getattr__(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} has moved to {moved[name]}.{name}; the old place works until 0.3.0",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(moved[name]), name)

    return __getattr__
