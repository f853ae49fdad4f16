"""Every deprecated name of faircompare, one table per kind, each working until :data:`REMOVED_IN`.

A name that moves or is renamed keeps working for one release with a :class:`DeprecationWarning`
(a ``warning:`` line on the command line) in one form, :func:`message`: the former name, the
release that removes it, and the name to use. The tables:

- :data:`MOVED`, :data:`MOVED_FUNCTIONS`: public names that moved to another module; a former
  module's ``__getattr__`` is :func:`moved_names`.
- :data:`ARGUMENTS`: renamed keyword arguments, by function (:func:`renamed_arguments`).
- :data:`FOLDED`: keyword arguments that one settings object replaced (:func:`folded_keywords`).
- :data:`ATTRIBUTES`: renamed attributes, by class (:class:`RenamedAttribute`).
- :data:`CONFIG_KEYS`, :data:`ENVIRONMENT`, :data:`FLAGS`, :data:`BACKENDS`: renamed
  configuration keys, environment variables, command-line flags and backend names
  (:func:`renamed`, :func:`former_names`).

The changelog's *Deprecated* section lists the same entries, and ``tests/test_deprecations.py``
checks every one. This module imports only the standard library, so every layer may use it,
the statistics library included.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: The release that removes every name of the tables.
REMOVED_IN = "0.3.0"
#: The release that removes a name deprecated in the next one (the report's drawing functions,
#: whose kinds moved to :mod:`faircompare.analysis.kinds`): it works for all of 0.3.
REMOVED_NEXT = "0.4.0"

_STATS = "faircompare.stats"
_PERMUTATION = "faircompare.stats.permutation"
_INDIVIDUAL = "faircompare.stats.individual"
_FLIPTEST = "faircompare.stats.fliptest"
_MULTITEST = "faircompare.stats.multitest"


def _all_to(module: str, *names: str) -> dict[str, str]:
    return dict.fromkeys(names, module)


#: Each former module, and each name it held with the module that holds it now.
MOVED: dict[str, dict[str, str]] = {
    # 0.2.0: the statistics on arrays left faircompare.audits for faircompare.stats.
    "faircompare.audits": _all_to(
        _STATS,
        *("BootstrapTestResult", "FairMetric", "FlipTestResult", "GroupComparison", "METRICS"),
        *("PermutationTestResult", "benjamini_hochberg", "bootstrap_test", "compare_groups"),
        *("correlation_test", "holm", "individual_fairness_test", "permutation_test"),
        *("permutation_tests", "sensitive_subspace_metric", "transport"),
    ),
    "faircompare.audits.permutation": {
        **_all_to(_PERMUTATION, "ALTERNATIVES", "Alternative", "BootstrapTestResult"),
        **_all_to(_PERMUTATION, "GroupComparison", "METRICS", "PROPORTIONS"),
        **_all_to(_PERMUTATION, "PermutationTestResult", "bootstrap_test", "clopper_pearson"),
        **_all_to(_PERMUTATION, "draw_hypergeometric", "permutation_test"),
        **_all_to(_PERMUTATION, "shuffled_membership"),
        **_all_to(_MULTITEST, "benjamini_hochberg", "holm"),
    },
    "faircompare.audits.fliptest": {
        **_all_to(_FLIPTEST, "FlipTestResult", "TransportMap", "fliptest_by_label", "transport"),
        **_all_to(_FLIPTEST, "COSTS", "fliptest"),
    },
    "faircompare.audits.individual": _all_to(
        _INDIVIDUAL,
        *("ErrorRatioResult", "IndividualFairnessResult", "LossOracle", "LossRatioResult"),
        *("PROBABILITY_FLOOR", "Ridge", "clipped_log_loss", "coefficient_grid"),
        *("error_ratio_test", "explicit_metric", "gradient_flow_attack", "logistic_oracle"),
        *("loss_ratio_test", "statistic_by_steps"),
    ),
    "faircompare.audits.auc_null": _all_to(
        "faircompare.stats.auc_null", "GroupAUC", "draw_subsets"
    ),
    "faircompare.audits.correlation": {"correlation_test": "faircompare.stats.correlation"},
    "faircompare.audits.gan": _all_to(
        "faircompare.stats.gan", "GanTransport", "GanValidation", "gan_validation"
    ),
    "faircompare.audits.figures": _all_to(
        "faircompare.analysis.audit_figures",
        *("PALETTE", "new_figure", "plot_flipset_marginal", "plot_pvalue_histogram"),
        *("plot_statistic_by_steps", "plot_statistic_heatmap", "plot_threshold_curve"),
        *("plot_transparency_report", "threshold_curve"),
    ),
    "faircompare.audits.suite": {
        **_all_to("faircompare.audits.protocol", "Audit", "AuditOptions", "AuditOutcome"),
        "AuditedRun": "faircompare.audits.protocol",
        **_all_to("faircompare.audits.registry", "ENTRY_POINTS", "audit_run", "register_audit"),
        "registered_audits": "faircompare.audits.registry",
        "SplitCache": "faircompare.audits.cache",
        **_all_to("faircompare.audits.permutation", "PermutationAudit", "permutation_audit"),
        "RUN_METRICS": "faircompare.audits.permutation",
        **_all_to("faircompare.audits.fliptest", "FlipTestAudit", "FlipTestSetup"),
        "split_transport": "faircompare.audits.fliptest",
        **_all_to("faircompare.audits.individual", "IndividualAudit", "IndividualSetup"),
        **_all_to("faircompare.audits.individual", "INDIVIDUAL_ATTACK", "INDIVIDUAL_POINTS"),
        **_all_to("faircompare.audits.individual", "SMOOTHING_PAIRS", "split_fair_metric"),
    },
    "faircompare.measures.stats": {
        **_all_to("faircompare.measures.group_stats", "GroupStats", "UndefinedMeasureWarning"),
        "warn_undefined": "faircompare.measures.group_stats",
        **_all_to("faircompare.stats.rates", "ALL", "RATES", "binary_labels"),
    },
    "faircompare.rows": _all_to("faircompare.records", "AuditRow", "MeasureRow"),
    # after 0.2.0: the names a user chooses among, and the settings, in light modules
    "faircompare.algorithms.base": {"FAMILIES": "faircompare.names"},
    "faircompare.benchmark.workers": {"BACKENDS": "faircompare.benchmark.settings"},
    "faircompare.results": {"Predictions": "faircompare.records"},
    # 0.2.0: benchmark/execute.py split by job.
    "faircompare.benchmark.execute": {
        "BACKENDS": "faircompare.benchmark.settings",
        **_all_to("faircompare.benchmark.schedule", "StaleResultsError", "Summary", "run_plan"),
        **_all_to("faircompare.benchmark.schedule", "longest_first", "shared_fits"),
        "worker_count": "faircompare.benchmark.schedule",
        "progress_printer": "faircompare.benchmark.progress",
    },
}

#: A former module's function that is now a module of the same name: calling the module calls
#: the function, with a warning.
MOVED_FUNCTIONS: dict[str, str] = {"faircompare.audits.fliptest": _FLIPTEST}

_GROUPS = {"groups": "sensitive_features"}  # 0.2.0: fairlearn's name for the group labels
_SAY = {"report": "say"}  # 0.2.0: a callback given a line of text is `say`

#: Renamed keyword arguments: by function (``module.qualified_name``), each former name and the
#: present one.
ARGUMENTS: dict[str, dict[str, str]] = {
    "faircompare.stats.permutation.permutation_test": {**_GROUPS, "n_bootstrap": "resamples"},
    "faircompare.stats.permutation.bootstrap_test": _GROUPS,
    "faircompare.stats.permutation.compare_groups": _GROUPS,
    "faircompare.stats.individual.sensitive_subspace_metric": {"sensitive": "sensitive_features"},
    "faircompare.measures.group_stats.GroupStats.from_predictions": _GROUPS,
    "faircompare.measures.catalogue.evaluate": _GROUPS,
    "faircompare.audits.permutation.permutation_audit": _GROUPS,
    "faircompare.analysis.audit_figures.threshold_curve": _GROUPS,
    "faircompare.analysis.audit_figures.plot_transparency_report": {"report": "transparency"},
    "faircompare.analysis.report.write_report": {"progress": "say"},
    "faircompare.datasets.loading.fetch_raw": _SAY,
    "faircompare.datasets.loading.load_dataset": _SAY,
    "faircompare.datasets.fetch.fetch_file": _SAY,
    "faircompare.benchmark.study.plan_study": {"data_dir": "mirror", "cache_dir": "cache"},
    "faircompare.benchmark.study.run_benchmark": {"data_dir": "mirror", "cache_dir": "cache"},
    "faircompare.algorithms.hooks.model_oracle": {"directions": "pairs"},
}

_SETTINGS = ("jobs", "backend", "scheduler", "force", "retry_failed", "progress")

#: Keyword arguments folded into one settings object (:class:`~faircompare.benchmark.settings.
#: RunSettings`, after 0.2.0): by function, each former keyword and the settings' field.
FOLDED: dict[str, dict[str, str]] = {
    "faircompare.benchmark.schedule.run_plan": {
        **{name: name for name in _SETTINGS},
        "report": "progress",  # progress's name until 0.2.0
    },
    "faircompare.benchmark.study.run_benchmark": {name: name for name in _SETTINGS},
}

#: Renamed attributes: by class (``module.qualified_name``), each former name and the present one.
ATTRIBUTES: dict[str, dict[str, str]] = {
    "faircompare.preprocessing.variants.Prepared": {"s": "sensitive_features"},
    "faircompare.preprocessing.splits.Split": {
        "s_train": "sensitive_features_train",
        "s_test": "sensitive_features_test",
    },
    "faircompare.stats.fliptest.FlipTestResult": {"report": "transparency"},
}

#: Renamed keys of a configuration file (#27).
CONFIG_KEYS: dict[str, str] = {"sensitive": "sensitive_attributes"}

#: Renamed environment variables (0.2.0, the glossary's *mirror* and *cache*).
ENVIRONMENT: dict[str, str] = {
    "FAIRCOMPARE_DATA": "FAIRCOMPARE_CACHE",
    "FAIRCOMPARE_DATA_MIRROR": "FAIRCOMPARE_MIRROR",
}

#: Renamed command-line flags (0.2.0, as the environment variables).
FLAGS: dict[str, str] = {"--data-dir": "--mirror", "--cache-dir": "--cache"}

#: Renamed backends (0.2.0: the local worker pool is no longer loky's).
BACKENDS: dict[str, str] = {"loky": "processes"}


def message(old: str, new: str, removed_in: str = REMOVED_IN) -> str:
    """Return the one deprecation message: the former name, its last release, the present one.

    Parameters
    ----------
    old, new
        The former and the present name, as a user writes them.
    removed_in
        The release that removes it: :data:`REMOVED_IN` for the tables' names, a later one for
        a name deprecated since the last release (:data:`REMOVED_NEXT`).

    Returns
    -------
    str
        ``"{old} is deprecated and will be removed in faircompare {removed_in}; use {new}"``.
    """
    return f"{old} is deprecated and will be removed in faircompare {removed_in}; use {new}"


def deprecated(old: str, new: str, *, stacklevel: int = 3, removed_in: str = REMOVED_IN) -> None:
    """Warn that ``old`` is deprecated (:func:`message`), as a :class:`DeprecationWarning`.

    Parameters
    ----------
    old, new
        The former and the present name, as a user writes them.
    stacklevel
        Which caller the warning names: 3, the default, is the caller of the function that
        calls this one.
    removed_in
        The release that removes it.
    """
    warnings.warn(message(old, new, removed_in), DeprecationWarning, stacklevel=stacklevel)


def renamed(table: Mapping[str, str], name: str, what: str) -> str:
    """Return a name's present name: itself, or a former name's new one, with a warning.

    Parameters
    ----------
    table
        One of the tables of renamed names (:data:`BACKENDS`, ...).
    name
        A name as the user gave it.
    what
        What the name names, for the warning (``"the backend"``).

    Returns
    -------
    str
        The present name.
    """
    if name not in table:
        return name
    deprecated(f"{what} {name!r}", f"{what} {table[name]!r}", stacklevel=4)
    return table[name]


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

    if module in MOVED_FUNCTIONS:
        sys.modules[module].__class__ = _CallableModule
    return __getattr__


class _CallableModule(types.ModuleType):
    """A module standing where a function of its name was: calling it calls that function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        package, _, function = self.__name__.rpartition(".")
        home = MOVED_FUNCTIONS[self.__name__]
        deprecated(f"{package}.{function}()", f"{home}.{function}()")
        return getattr(importlib.import_module(home), function)(*args, **kwargs)


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
    return accepting_old_names  # type: ignore[return-value]


def folded_keywords(
    settings: type[Any], into: str = "settings"
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Accept the keywords a settings object replaced (:data:`FOLDED`), with a warning.

    Parameters
    ----------
    settings
        The settings' frozen dataclass.
    into
        The function's argument that takes it.

    Returns
    -------
    callable
        A decorator: the function accepts each former keyword, with a
        :class:`DeprecationWarning`, as the field of the settings it gives (the settings passed
        too, or the defaults, with that field replaced).
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        folded = FOLDED[f"{function.__module__}.{function.__qualname__}"]
        name = function.__qualname__

        @functools.wraps(function)
        def folding(*args: Any, **kwargs: Any) -> Any:
            given = {old: kwargs.pop(old) for old in list(kwargs) if old in folded}
            for old in given:
                field = f"{settings.__name__}({folded[old]}=...)"
                deprecated(f"{name}({old}=)", f"{name}({into}={field})")
            if given:
                base = kwargs.get(into) or settings()
                changes = {folded[old]: value for old, value in given.items()}
                kwargs[into] = dataclasses.replace(base, **changes)
            return folding.__wrapped__(*args, **kwargs)  # type: ignore[attr-defined]

        folding.folded = folded  # type: ignore[attr-defined]
        return folding  # type: ignore[return-value]

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
