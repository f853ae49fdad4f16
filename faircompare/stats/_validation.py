"""Argument checks of the statistics library: errors name the bad value and the valid ones.

The rest of faircompare raises its own :class:`~faircompare.exceptions.ChoiceError` through the
same check (:func:`faircompare._validation.check_choice`); this module imports nothing from
faircompare, so the library stands on its own.
"""

import functools
import warnings
from collections.abc import Callable, Iterable
from difflib import get_close_matches
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")
_QUOTED = 100  # characters of a user's value quoted in a message
R = TypeVar("R")


def check_choice(
    value: T, choices: Iterable[T], *, what: str, error: type[ValueError] = ValueError
) -> T:
    """Return ``value`` if it is one of ``choices``, else raise ``error``.

    Parameters
    ----------
    value
        The value given by the user.
    choices
        The valid values.
    what
        What the value names, used in the message.
    error
        The exception raised (a ValueError; the harness raises its own ChoiceError).

    Returns
    -------
    value
        The value, unchanged.

    Raises
    ------
    ValueError
        ``error``, naming the bad value, the closest valid one when there is one, and every
        valid choice.
    """
    choices = list(choices)
    if value in choices:
        return value
    names = [str(choice) for choice in choices]
    text = str(value)
    close = get_close_matches(text, names, n=1) if len(text) <= _QUOTED else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise error(f"unknown {what} {quoted(value)}{hint}; valid choices: {', '.join(names)}")


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


def renamed_arguments(**old_to_new: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep a keyword argument's former name working for one release, with a warning.

    Parameters
    ----------
    **old_to_new
        Each former name and the name that replaces it.

    Returns
    -------
    callable
        A decorator: the decorated function accepts each former name as a keyword, with a
        :class:`DeprecationWarning`, and refuses a call that gives both names.
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def accepting_old_names(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                if new in kwargs:
                    raise TypeError(f"{function.__name__}() got both {old}= and {new}=")
                warnings.warn(
                    f"{function.__name__}(): {old}= is deprecated and will be removed in the "
                    f"next release; use {new}=",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return accepting_old_names  # type: ignore[return-value]

    return decorate


class RenamedAttribute:
    """A former attribute name that reads the present one, with a warning, for one release.

    Assigned in a class body under the former name: ``report = RenamedAttribute("transparency")``.

    Parameters
    ----------
    new
        The attribute's present name.
    """

    def __init__(self, new: str) -> None:
        self.new = new
        self.old = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name
        self.__doc__ = f"Deprecated name of :attr:`{self.new}`, until the next release."

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        kind = type(instance).__name__
        warnings.warn(
            f"{kind}.{self.old} has been renamed {kind}.{self.new}; the old name will be removed "
            "in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(instance, self.new)
