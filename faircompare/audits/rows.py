"""The store's rows of each audit's results, made in this one place.

Results of :mod:`faircompare.stats` become :class:`~faircompare.records.AuditRow` here.

Each row has the columns every audit shares (metric, scope, statistic, p-value, adjusted
p-value); what is particular to one audit goes in its ``details``, which the store returns as a
typed frame per audit (:func:`faircompare.results.audit_details`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from faircompare.audits.protocol import MIN_GROUP_ROWS
from faircompare.records import AuditRow
from faircompare.stats.fliptest import FlipTestResult
from faircompare.stats.individual import IndividualFairnessResult
from faircompare.stats.multitest import holm
from faircompare.stats.permutation import GroupComparison, PermutationTestResult

NAN = float("nan")


def permutation_rows(
    results: Mapping[str, PermutationTestResult | ValueError],
) -> list[AuditRow]:
    """Return one row per permutation test, Holm-adjusted across the tests that ran.

    Parameters
    ----------
    results
        Each metric's test, or the error that made it undefined (a row with NaN and the reason).

    Returns
    -------
    list of AuditRow
        The rows, in the order of ``results``; ``scope`` is the group compared with the
        privileged one (``"rest"``).
    """
    tested = {m: r for m, r in results.items() if isinstance(r, PermutationTestResult)}
    adjusted = dict(zip(tested, holm([r.pvalue for r in tested.values()]), strict=True))
    return [
        _permutation_row(metric, result, adjusted[metric])
        if isinstance(result, PermutationTestResult)
        else AuditRow("permutation", metric, "rest", NAN, NAN, None, {"error": str(result)})
        for metric, result in results.items()
    ]


def _permutation_row(metric: str, result: PermutationTestResult, adjusted: float) -> AuditRow:
    details = {
        "observed_difference": result.observed,
        "pvalue_interval": list(result.pvalue_interval),
        "group_sizes": list(result.group_sizes),
        "groups": list(result.groups),
        "studentized": result.studentized,
        "alternative": result.alternative,
        "within_outcome": result.within_outcome,
        "permutations": len(result.null_distribution),
    }
    if result.decided is not None:  # a sequential test: drawn until decided, or its cap
        details["decided"] = result.decided
    scope = result.groups[1]
    return AuditRow(
        "permutation", metric, scope, result.statistic, result.pvalue, float(adjusted), details
    )


def group_rows(comparison: GroupComparison, sizes: Mapping[str, int]) -> list[AuditRow]:
    """Return one row per group compared with the privileged one, on one metric.

    Parameters
    ----------
    comparison
        Every group against the privileged one (:func:`~faircompare.stats.compare_groups`).
    sizes
        Each group's test rows.

    Returns
    -------
    list of AuditRow
        ``scope`` is the group; ``adjusted_pvalue`` is max-T's, over the metric's groups, and
        ``pvalue_interval`` in the details its Monte Carlo interval.
    """
    rows = []
    for i, group in enumerate(comparison.groups):
        details = {
            "observed_difference": float(comparison.observed[i]),
            "size": sizes[group],
            "privileged": comparison.privileged,
            "adjustment": "max-T",
        }
        if comparison.adjusted_intervals is not None and not np.isnan(comparison.pvalues[i]):
            details["pvalue_interval"] = comparison.adjusted_intervals[i].tolist()
        rows.append(
            AuditRow(
                "permutation",
                comparison.metric,
                group,
                float(comparison.statistics[i]),
                float(comparison.pvalues[i]),
                float(comparison.adjusted_pvalues[i]),
                details,
            )
        )
    return rows


def short_group_rows(
    audit: str, metrics: tuple[str, ...], scope: str, short: tuple[str, int]
) -> list[AuditRow]:
    """Return the rows of an audit not run because a side of its comparison is too small.

    Parameters
    ----------
    audit, metrics
        The audit, and the metrics it would have given.
    scope
        The scope its rows have (``"rest"``, ``"unprivileged"``, ``"all"``).
    short
        The group below the minimum and its test rows
        (:attr:`~faircompare.audits.protocol.AuditedRun.short_group`).

    Returns
    -------
    list of AuditRow
        One row per metric, NaN with the reason: "too few rows in the privileged group 1 (n =
        12, needs 30)", or "too few rows outside the privileged group (n = 1, needs 30)".
    """
    group, size = short
    where = (
        "outside the privileged group" if group == "rest" else f"in the privileged group {group}"
    )
    return _not_tested(audit, metrics, scope, f"too few rows {where}", size, MIN_GROUP_ROWS)


def too_few_rows(
    audit: str,
    metrics: tuple[str, ...],
    group: str,
    size: int,
    needs: int,
    *,
    short: str | None = None,
) -> list[AuditRow]:
    """Return the rows of a group that cannot be audited: NaN and the reason, per metric.

    Parameters
    ----------
    audit, metrics
        The audit, and the metrics it would have tested.
    group
        The group the rows are about.
    size, needs
        The test rows of the group that is too small, and the rows the audit needs.
    short
        The group that is too small, where it is another one (the privileged group).

    Returns
    -------
    list of AuditRow
        One row per metric, ``details["error"]`` saying "too few rows (n = 3, needs 30)".
    """
    whose = f" in group {short}" if short is not None else ""
    return _not_tested(audit, metrics, group, f"too few rows{whose}", size, needs)


def _not_tested(
    audit: str, metrics: tuple[str, ...], scope: str, why: str, size: int, needs: int
) -> list[AuditRow]:
    """Return one row per metric of an audit not run: NaN, and why in its details."""
    reason = {"error": f"{why} (n = {size}, needs {needs})", "size": size}
    return [AuditRow(audit, metric, scope, NAN, NAN, None, dict(reason)) for metric in metrics]


def fliptest_rows(
    result: FlipTestResult,
    *,
    scope: str,
    mean_cost: float,
    top: int,
    errors: tuple[np.ndarray, pd.Series] | None = None,
) -> list[AuditRow]:
    """Return the F+ and F- rows of a FlipTest: each flipset's rate, size and leading features.

    Parameters
    ----------
    result
        The FlipTest of one source group's rows.
    scope
        The source group: ``"unprivileged"`` (pooled), or one group's value.
    mean_cost
        The transport map's mean cost.
    top
        Features kept per flipset, those whose ranks move most.
    errors
        The sampling errors of a map fitted on a sample
        (:func:`~faircompare.stats.fliptest.subsample_errors`); None for a map of every row.

    Returns
    -------
    list of AuditRow
        ``F+`` and ``F-``; ``source_size`` in the details is the rows the map sends (the
        flipsets' denominator: a sample of a large group); ``monte_carlo_error`` is the rate's
        sampling error (0 for a map of every row) and ``leading_errors`` each leading
        feature's (None where it cannot be estimated).
    """
    rows = []
    flipsets = zip(("F+", "F-"), result.sizes, result.rates, strict=True)
    for i, (name, size, rate) in enumerate(flipsets):
        report: pd.DataFrame = result.transparency[result.transparency["flipset"] == name]
        leading = report.nsmallest(top, "rank_difference")
        details = {
            "size": size,
            "source_size": result.source_size,
            "mean_cost": mean_cost,
            "leading_features": dict(
                zip(leading["feature"], leading["mean_difference"], strict=True)
            ),
            "monte_carlo_error": 0.0 if errors is None else float(errors[0][i]),
        }
        if errors is not None:
            spread = errors[1].reindex([(name, feature) for feature in leading["feature"]])
            details["leading_errors"] = {
                feature: None if np.isnan(error) else float(error)
                for feature, error in zip(leading["feature"], spread, strict=True)
            }
        rows.append(AuditRow("fliptest", name, scope, rate, None, None, details))
    return rows


def individual_rows(result: IndividualFairnessResult) -> list[AuditRow]:
    """Return the loss-ratio (T_n) and error-ratio (T~_n) rows of an individual-fairness test.

    Parameters
    ----------
    result
        The test of one model.

    Returns
    -------
    list of AuditRow
        ``loss-ratio`` (with its p-value) and ``error-ratio``, with scope ``"all"``; each one's
        details hold its Monte Carlo error and whether it leaves the verdict ``undecided``.
    """
    loss, error = result.loss, result.error
    shared = {"gradient": result.gradient, "n": len(loss.ratios), **result.settings}
    loss_details = {
        "mean": loss.mean,
        "std": loss.std,
        "interval": list(loss.interval),
        "delta": loss.delta,
        "reject": loss.reject,
        "near_certain": loss.near_certain,
        "critical": loss.critical,
        "calibration": loss.calibration,
        "monte_carlo_error": loss.monte_carlo_error,
        "undecided": loss.undecided,
        **shared,
    }
    error_details = {
        "ratio": error.ratio,
        "error_before": error.error_before,
        "error_after": error.error_after,
        "delta": error.delta,
        "reject": error.reject,
        "monte_carlo_error": error.monte_carlo_error,
        "undecided": error.undecided,
        **shared,
    }
    return [
        AuditRow(
            "individual", "loss-ratio", "all", loss.lower_bound, loss.pvalue, None, loss_details
        ),
        AuditRow("individual", "error-ratio", "all", error.lower_bound, None, None, error_details),
    ]
