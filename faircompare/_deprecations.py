"""Public names that moved, kept working at their former place until :data:`REMOVED_IN`.

:data:`MOVED` is the one table of every move: each former module, and each name it held with the
module that holds it now. A former module calls :func:`moved_names` for its ``__getattr__``; a
module that no longer exists is a file of two lines doing only that. The changelog lists the
same moves, and ``tests/test_deprecations.py`` checks every entry of the table.
"""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

REMOVED_IN = "0.3.0"

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
        "COSTS": _FLIPTEST,
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
    "faircompare.results": {"Predictions": "faircompare.records"},
    # 0.2.0: benchmark/execute.py split by job.
    "faircompare.benchmark.execute": {
        "BACKENDS": "faircompare.benchmark.workers",
        **_all_to("faircompare.benchmark.schedule", "StaleResultsError", "Summary", "run_plan"),
        **_all_to("faircompare.benchmark.schedule", "longest_first", "shared_fits"),
        "worker_count": "faircompare.benchmark.schedule",
        "progress_printer": "faircompare.benchmark.progress",
    },
}

#: A former module's function that is now a module of the same name: calling the module calls
#: the function, with a warning.
MOVED_FUNCTIONS: dict[str, str] = {"faircompare.audits.fliptest": _FLIPTEST}


def deprecated(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated, naming ``new`` and the release that removes it.

    Parameters
    ----------
    old, new
        The former and the present name, as a user writes them.
    """
    warnings.warn(
        f"{old} has moved to {new}; the old name works until {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=3,
    )


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
