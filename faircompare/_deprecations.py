"""Every deprecated name of faircompare, one table per kind, each working until :data:`REMOVED_IN`.

A name that moves or is renamed keeps working for one release with a :class:`DeprecationWarning`
(a ``warning:`` line on the command line) in one form, :func:`message`: the former name, the
release that removes it, and the name to use, raised by :func:`deprecated`. The tables:

- :data:`SUPERSEDED`: deprecated functions, methods and classes, and what replaces each;
- :data:`ARGUMENTS`: renamed keyword arguments, by function;
- :data:`FOLDED`: keyword arguments that one settings object replaced, by function, and
  :data:`SETTINGS_ARGUMENT`, the argument that takes that object (and the former settings
  object, :data:`FORMER_SETTINGS`, given anywhere in a call);
- :data:`MOVED`: public names that moved to another module;
- :data:`ATTRIBUTES`: renamed attributes, by class;
- :data:`ENVIRONMENT`, :data:`FLAGS`: renamed environment variables and command-line flags.

A callable named in the first three tables takes the one decorator, :func:`former_forms`, which
reads its entries; a former module's ``__getattr__`` is :func:`moved_names`, and a renamed
attribute a :class:`RenamedAttribute`, each reading its table. The changelog's *Deprecated*
section lists the same entries, and ``tests/test_deprecations.py`` checks every one; its
*Removed* section lists what a release removed, with the replacement. This module imports only
the standard library, so every layer may use it, the statistics library included.
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

_KIND = "faircompare.analysis.kinds.{}.draw() (or faircompare figure {})"


def _kind(name: str) -> str:
    """Say which kind's drawing replaces a figure function."""
    return _KIND.format(name.replace("-", "_"), name)


_FIGURES = "faircompare.analysis.figures."

#: Deprecated functions, methods and classes (``module.qualified_name``; a class by its
#: ``__new__`` or ``__post_init__``), and what to use instead.
SUPERSEDED: dict[str, str] = {
    # every report figure is drawn by a figure kind, for the report and for a paper alike
    **{
        _FIGURES + function: _kind(kind)
        for function, kind in {
            "plot_individual_statistics": "individual",
            "plot_correlations": "correlations",
            "plot_tradeoff": "tradeoff",
            "plot_stability": "stability",
            "plot_intervals": "intervals",
            "plot_equal_fairness": "equal-fairness",
            "plot_critical_difference": "critical-difference",
            "plot_audit_shares": "audits",
            "plot_runs": "runs",
            "plot_measure_pairs": "pairs",
            "plot_preprocessing": "preprocessing",
            "plot_sweep": "sweep",
            "plot_attributes": "attributes",
        }.items()
    },
    # a study's settings in one object
    "faircompare.benchmark.settings.RunSettings.__post_init__": (
        "BenchmarkConfig(jobs=..., backend=..., ...) and progress="
    ),
    "faircompare.benchmark.settings.Options.__new__": (
        "BenchmarkConfig(timeout=..., plugins=..., ...)"
    ),
    "faircompare.benchmark.settings.Options.from_config": (
        "config.overridden(cache=..., mirror=...)"
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

#: The argument that takes the settings (:class:`~faircompare.config.BenchmarkConfig`), by
#: function: a folded keyword (:data:`FOLDED`) sets its field, and a former settings object
#: (:data:`FORMER_SETTINGS`) given anywhere in the call its fields.
SETTINGS_ARGUMENT: dict[str, str] = {
    "faircompare.benchmark.schedule.run_plan": "settings",
    "faircompare.benchmark.study.plan_study": "config",
    "faircompare.benchmark.study.run_benchmark": "config",
}

#: The former settings object, accepted where :data:`SETTINGS_ARGUMENT` names a function that
#: ran a study; its ``applied_to(settings)`` returns the settings with its fields, and its
#: ``progress`` is the function's ``progress=``.
FORMER_SETTINGS = "faircompare.benchmark.settings.RunSettings"

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


#: What every deprecation message says (:func:`message`): the command line shows those as lines.
SAID = "is deprecated and will be removed in faircompare"


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
    return f"{old} {SAID} {REMOVED_IN}; use {new}"


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


def former_forms(function: Callable[P, R]) -> Callable[P, R]:
    """Accept a callable's former forms, each with a warning: the one decorator of the tables.

    The callable's entries (by ``module.qualified_name``) say what it accepts: a deprecated one
    (:data:`SUPERSEDED`) warns at each call; a renamed keyword (:data:`ARGUMENTS`) is passed
    under its present name; a folded keyword (:data:`FOLDED`) sets the field of the settings
    argument (:data:`SETTINGS_ARGUMENT`), and a former settings object (:data:`FORMER_SETTINGS`)
    given anywhere in a call to a function with ``progress=`` sets its fields and its progress.

    Parameters
    ----------
    function
        A function or method with an entry in those tables.

    Returns
    -------
    callable
        The function, accepting its former forms with a :class:`DeprecationWarning` that names
        the caller's line; a call that gives a keyword under both names is a
        :class:`TypeError`.

    Raises
    ------
    KeyError
        If no table names the function (so the tables are complete).
    """
    where = f"{function.__module__}.{function.__qualname__}"
    forms = Forms(
        SUPERSEDED.get(where), ARGUMENTS.get(where, {}), FOLDED.get(where, {}),
        SETTINGS_ARGUMENT.get(where),
    )  # fmt: skip
    if forms == Forms():
        raise KeyError(f"{where} has no former form in the deprecation tables")
    signature = inspect.signature(function)
    name = _called(function.__qualname__)
    whole = name if "." in function.__qualname__ else where  # a function by its module too
    # a dataclass's __post_init__ is called by its generated __init__: the user's line is above
    depth = 4 if function.__name__ == "__post_init__" else 3

    @functools.wraps(function)
    def accepting(*args: Any, **kwargs: Any) -> Any:
        if forms.superseded is not None:
            deprecated(f"{whole}()", forms.superseded, stacklevel=depth)
        for old, new in forms.renamed.items():
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{name}() got both {old}= and {new}=")
                deprecated(f"{name}({old}=)", f"{name}({new}=)")
                kwargs[new] = kwargs.pop(old)
        if forms.settings is not None:
            args, kwargs = _settings_given(signature, forms, name, args, kwargs)
        return accepting.__wrapped__(*args, **kwargs)  # type: ignore[attr-defined]

    accepting.former = forms  # type: ignore[attr-defined]
    return passes_through(accepting)  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class Forms:
    """A callable's former forms, from the tables (:func:`former_forms`).

    Attributes
    ----------
    superseded
        What replaces it, where it is deprecated as a whole.
    renamed
        Each renamed keyword and its present name.
    folded
        Each keyword folded into the settings, and the settings' field.
    settings
        The argument that takes the settings.
    """

    superseded: str | None = None
    renamed: Mapping[str, str] = dataclasses.field(default_factory=dict)
    folded: Mapping[str, str] = dataclasses.field(default_factory=dict)
    settings: str | None = None


def _called(qualified: str) -> str:
    """Name a callable as a user calls it: a class by its name, not its ``__new__``."""
    owner, _, method = qualified.rpartition(".")
    return owner if owner and method in ("__new__", "__init__", "__post_init__") else qualified


def _settings_given(
    signature: inspect.Signature,
    forms: Forms,
    name: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Return a call's arguments with its former settings and folded keywords in the settings."""
    into = str(forms.settings)
    takes_former = "progress" in signature.parameters  # a function that runs a study
    given_values = (*args, *kwargs.values()) if takes_former else ()
    former = [v for v in given_values if _qualified(type(v)) == FORMER_SETTINGS]
    given = {old: kwargs.pop(old) for old in list(kwargs) if old in forms.folded}
    if not former and not given:
        return args, kwargs
    if former:
        (settings,) = former  # it warned when made
        args = tuple(value for value in args if value is not settings)
        kwargs = {key: value for key, value in kwargs.items() if value is not settings}
    bound = signature.bind_partial(*args, **kwargs)
    if former:
        bound.arguments[into] = settings.applied_to(bound.arguments.get(into))
        bound.arguments.setdefault("progress", settings.progress)
    if given:
        settings_now = bound.arguments[into]
        for old in given:
            field = f"{type(settings_now).__name__}({forms.folded[old]}=...)"
            deprecated(f"{name}({old}=)", f"{name}({into}={field})", stacklevel=4)
        changes = {forms.folded[old]: value for old, value in given.items()}
        bound.arguments[into] = dataclasses.replace(settings_now, **changes)
    return bound.args, bound.kwargs


def _qualified(kind: type) -> str:
    """Return a class's ``module.qualified_name``."""
    return f"{kind.__module__}.{kind.__qualname__}"


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
