"""Every deprecated name of faircompare, one table per kind, each working until :data:`REMOVED_IN`.

A name that moves or is renamed keeps working for one release with a :class:`DeprecationWarning`
(a ``warning:`` line on the command line) in one form, :func:`message`: the former name, the
release that removes it, and the name to use. The tables:

- :data:`MOVED`: public names that moved to another module; a former module's ``__getattr__``
  is :func:`moved_names`.
- :data:`ARGUMENTS`: renamed keyword arguments, by function (:func:`renamed_arguments`).
- :data:`FOLDED`: keyword arguments that one settings object replaced (:func:`folded_keywords`).
- :data:`ATTRIBUTES`: renamed attributes, by class (:class:`RenamedAttribute`).
- :data:`ENVIRONMENT`, :data:`FLAGS`: renamed environment variables and command-line flags
  (:func:`former_names`).

A deprecated function or class that has no replacement of the same form calls
:func:`deprecated` itself. The changelog's *Deprecated* section lists the same entries, and
``tests/test_deprecations.py`` checks every one; its *Removed* section lists what a release
removed, with the replacement. This module imports only the standard library, so every layer may
use it, the statistics library included.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import sys
import warnings
from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: The release that removes every name of the tables: each was renamed or moved during 0.3, so
#: it works, with a warning, for all of 0.3 (the names deprecated in 0.2 were removed in 0.3.0).
REMOVED_IN = "0.4.0"

_SETTINGS = ("BACKENDS", "BenchmarkConfig", "cpu_cores")  # moved to faircompare.config in 0.3

#: Each former module, and each name it held with the module that holds it now.
MOVED: dict[str, dict[str, str]] = {
    # the names a user chooses among, and the settings, in light modules
    "faircompare.algorithms.base": {"FAMILIES": "faircompare.choices"},
    "faircompare.benchmark.workers": {"BACKENDS": "faircompare.config"},
    # the settings, their profiles and their files in one package below the harness
    "faircompare.benchmark": dict.fromkeys(_SETTINGS, "faircompare.config"),
    "faircompare.benchmark.settings": dict.fromkeys(_SETTINGS, "faircompare.config"),
    # a module named by what it holds: a model's loss oracle for the individual audit
    "faircompare.algorithms.hooks": dict.fromkeys(
        ("InputGradient", "LogitCoefficients", "OwnLossOracle", "gradient_kind", "model_oracle"),
        "faircompare.algorithms.loss_oracle",
    ),
}

_SAY = {"report": "say"}  # a callback given a line of text is `say`

#: Renamed keyword arguments: by function (``module.qualified_name``), each former name and the
#: present one.
ARGUMENTS: dict[str, dict[str, str]] = {
    "faircompare.stats.permutation.permutation_test": {"n_bootstrap": "resamples"},
    "faircompare.analysis.audit_figures.plot_transparency_report": {"report": "transparency"},
    "faircompare.analysis.report.write_report": {"progress": "say"},
    "faircompare.datasets.loading.fetch_raw": _SAY,
    "faircompare.datasets.loading.load_dataset": _SAY,
    "faircompare.datasets.fetch.fetch_file": _SAY,
    "faircompare.algorithms.loss_oracle.model_oracle": {"directions": "pairs"},
    "faircompare.benchmark.schedule.run_plan": {"report": "progress", "options": "settings"},
    "faircompare.benchmark.execute.execute_run": {"options": "settings"},
}

_RUN = {name: name for name in ("jobs", "backend", "scheduler", "force", "retry_failed")}
_DATA = {"mirror": "mirror", "cache": "cache", "data_dir": "mirror", "cache_dir": "cache"}

#: Keyword arguments folded into the one settings object
#: (:class:`~faircompare.config.BenchmarkConfig`): by function, each former keyword
#: and the settings' field (:func:`folded_keywords`).
FOLDED: dict[str, dict[str, str]] = {
    "faircompare.benchmark.schedule.run_plan": _RUN,
    "faircompare.benchmark.study.plan_study": _DATA,
    "faircompare.benchmark.study.run_benchmark": {**_RUN, **_DATA},
}

#: Renamed attributes: by class (``module.qualified_name``), each former name and the present one.
ATTRIBUTES: dict[str, dict[str, str]] = {
    "faircompare.stats.fliptest.FlipTestResult": {"report": "transparency"},
    "faircompare.benchmark.planned.Study": {"options": "config"},
    "faircompare.algorithms.unprocessed.UnprocessedClassifier": {"validation_": "out_of_fold_"},
}

#: Renamed environment variables (the glossary's *mirror* and *cache*).
ENVIRONMENT: dict[str, str] = {
    "FAIRCOMPARE_DATA": "FAIRCOMPARE_CACHE",
    "FAIRCOMPARE_DATA_MIRROR": "FAIRCOMPARE_MIRROR",
}

#: Renamed command-line flags (as the environment variables).
FLAGS: dict[str, str] = {"--data-dir": "--mirror", "--cache-dir": "--cache"}


def message(old: str, new: str) -> str:
    """Return the one deprecation message: the former name, its last release, the present one.

    Parameters
    ----------
    old, new
        The former and the present name, as a user writes them.

    Returns
    -------
    str
        ``"{old} is deprecated and will be removed in faircompare {REMOVED_IN}; use {new}"``.
    """
    return f"{old} is deprecated and will be removed in faircompare {REMOVED_IN}; use {new}"


def deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated (:func:`message`), as a :class:`DeprecationWarning`.

    Parameters
    ----------
    old, new
        The former and the present name, as a user writes them.
    stacklevel
        Which caller the warning names: 3, the default, is the caller of the function that
        calls this one; the decorators that accept former forms (:func:`passes_through`) are
        not counted, so the warning names the user's line.
    """
    frame = sys._getframe(stacklevel - 1)
    while frame.f_back is not None and frame.f_code in _PASSING:
        frame, stacklevel = frame.f_back, stacklevel + 1
    warnings.warn(message(old, new), DeprecationWarning, stacklevel=stacklevel)


_PASSING: set[CodeType] = set()  # the code of the wrappers that pass a call on


def passes_through(wrapper: Callable[P, R]) -> Callable[P, R]:
    """Mark a decorator's wrapper as passing calls on: a warning names the caller beyond it.

    Parameters
    ----------
    wrapper
        The function a decorator returns, which calls the function it wraps.

    Returns
    -------
    callable
        ``wrapper`` itself.
    """
    _PASSING.add(wrapper.__code__)
    return wrapper


def former_names(table: Mapping[str, str], new: str) -> list[str]:
    """Return the former names of a present name in one of the tables.

    Parameters
    ----------
    table
        One of the tables of renamed names (:data:`ENVIRONMENT`, :data:`FLAGS`, ...).
    new
        The present name.

    Returns
    -------
    list of str
        Its former names, in the table's order.
    """
    return [old for old, present in table.items() if present == new]


def moved_names(module: str) -> Callable[[str], Any]:
    """Return the ``__getattr__`` of a former module: its moved names, each with a warning.

    Parameters
    ----------
    module
        The former module's ``__name__``, a key of :data:`MOVED`.

    Returns
    -------
    callable
        ``__getattr__(name)``: the name from the module that holds it now, with a
        :class:`DeprecationWarning` naming that place; an :class:`AttributeError` for any other
        name.
    """
    moved = MOVED[module]

    def __getattr__(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        deprecated(f"{module}.{name}", f"{moved[name]}.{name}")
        return getattr(importlib.import_module(moved[name]), name)

    return __getattr__


def renamed_arguments(function: Callable[P, R]) -> Callable[P, R]:
    """Accept the former names of a function's keywords (:data:`ARGUMENTS`), with a warning.

    Parameters
    ----------
    function
        A function with an entry in :data:`ARGUMENTS` under its module and qualified name.

    Returns
    -------
    callable
        The function, accepting each former name as a keyword with a
        :class:`DeprecationWarning`; a call that gives both names is a :class:`TypeError`.

    Raises
    ------
    KeyError
        If the function has no entry in :data:`ARGUMENTS` (so the table is complete).
    """
    old_to_new = ARGUMENTS[f"{function.__module__}.{function.__qualname__}"]
    name = function.__qualname__

    @functools.wraps(function)
    def accepting_old_names(*args: Any, **kwargs: Any) -> Any:
        for old, new in old_to_new.items():
            if old not in kwargs:
                continue
            if new in kwargs:
                raise TypeError(f"{name}() got both {old}= and {new}=")
            deprecated(f"{name}({old}=)", f"{name}({new}=)")
            kwargs[new] = kwargs.pop(old)
        return accepting_old_names.__wrapped__(*args, **kwargs)  # type: ignore[attr-defined]

    accepting_old_names.renamed = old_to_new  # type: ignore[attr-defined]
    return passes_through(accepting_old_names)  # type: ignore[return-value]


def folded_keywords(into: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Accept the keywords that the one settings object replaced (:data:`FOLDED`), with a warning.

    Parameters
    ----------
    into
        The function's argument that takes the settings (a frozen dataclass).

    Returns
    -------
    callable
        A decorator: the function accepts each former keyword, with a
        :class:`DeprecationWarning`, as the field of the settings it gives (the settings
        passed, with that field replaced and checked again).
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        folded = FOLDED[f"{function.__module__}.{function.__qualname__}"]
        name = function.__qualname__
        signature = inspect.signature(function)

        @functools.wraps(function)
        def folding(*args: Any, **kwargs: Any) -> Any:
            given = {old: kwargs.pop(old) for old in list(kwargs) if old in folded}
            if not given:
                return folding.__wrapped__(*args, **kwargs)  # type: ignore[attr-defined]
            bound = signature.bind_partial(*args, **kwargs)
            settings = bound.arguments[into]
            for old in given:
                field = f"{type(settings).__name__}({folded[old]}=...)"
                deprecated(f"{name}({old}=)", f"{name}({into}={field})")
            changes = {folded[old]: value for old, value in given.items()}
            bound.arguments[into] = dataclasses.replace(settings, **changes)
            return folding.__wrapped__(*bound.args, **bound.kwargs)  # type: ignore[attr-defined]

        folding.folded, folding.folded_into = folded, into  # type: ignore[attr-defined]
        return passes_through(folding)  # type: ignore[return-value]

    return decorate


class RenamedAttribute:
    """A former attribute name (:data:`ATTRIBUTES`) that reads the present one, with a warning.

    Assigned in a class body under the former name: ``report = RenamedAttribute()``; the table
    names the present attribute.
    """

    def __init__(self) -> None:
        self.old = self.new = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.new = name, ATTRIBUTES[f"{owner.__module__}.{owner.__qualname__}"][name]
        self.__doc__ = f"Deprecated name of :attr:`{self.new}`, until faircompare {REMOVED_IN}."

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        kind = type(instance).__name__
        deprecated(f"{kind}.{self.old}", f"{kind}.{self.new}")
        return getattr(instance, self.new)
