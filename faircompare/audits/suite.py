"""The audits run on every benchmark run, from its test predictions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from faircompare.audits.fliptest import TransportMap, fliptest, transport
from faircompare.audits.individual import (
    FairMetric,
    individual_fairness_test,
    model_oracle,
    sensitive_subspace_metric,
)
from faircompare.audits.permutation import holm, permutation_test

RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")
# The benchmark's individual-fairness attack: App. F.4's lam and step (50, 0.01; a larger step
# makes forward Euler diverge on the metric term) for 100 of its 500 steps, on at most 200 test
# rows, with 2 antithetic pairs per derivative-free gradient: 80,000 predictions per run for
# models without gradients, so that an RBF SVM on Adult stays affordable on every run.
INDIVIDUAL_ATTACK = {"lam": 50.0, "steps": 100, "step_size": 0.01}
INDIVIDUAL_POINTS = 200
SMOOTHING_PAIRS = 2


def permutation_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    groups: np.ndarray,
    *,
    privileged: Any,
    scores: np.ndarray | None = None,
    permutations: int = 1000,
    rng: np.random.Generator | int | None = None,
) -> list[tuple[str, str, str, float, float, str]]:
    """Studentized permutation tests, privileged group against the rest, for each run metric.

    Demographic parity (positive rate), TPR, FPR and accuracy, and AUC when scores exist. The
    details hold the observed difference, the p-value's Monte Carlo interval and the
    Holm-adjusted p-value across the run's metrics. A metric that is undefined for a group
    (no negatives, say) gets a row with NaN and the reason.

    Returns
    -------
    list of tuple
        Rows (audit, metric, group, statistic, pvalue, details as JSON) for the audits table.
    """
    rng = np.random.default_rng(rng)
    metrics = RUN_METRICS + (("AUC",) if scores is not None else ())
    records = []
    for metric in metrics:
        try:
            result = permutation_test(
                y_true,
                y_pred,
                groups,
                metric=metric,
                group_a=privileged,
                scores=scores,
                permutations=permutations,
                rng=rng,
            )
            records.append(result.to_record())
        except ValueError as error:
            nan = float("nan")
            records.append(
                {
                    "audit": "permutation",
                    "metric": metric,
                    "group": "rest",
                    "statistic": nan,
                    "pvalue": nan,
                    "details": {"error": str(error)},
                }
            )
    tested = [i for i, r in enumerate(records) if not np.isnan(r["pvalue"])]
    for i, adjusted in zip(tested, holm([records[i]["pvalue"] for i in tested]), strict=True):
        records[i]["details"]["holm_pvalue"] = float(adjusted)
    return [
        (r["audit"], r["metric"], r["group"], r["statistic"], r["pvalue"], json.dumps(r["details"]))
        for r in records
    ]


@dataclass(frozen=True, eq=False)
class FlipTestSetup:
    """What one split's FlipTest audits share: the standardised groups and their map."""

    source: np.ndarray
    target: np.ndarray
    transport_map: TransportMap


def split_transport(
    X_test: np.ndarray, groups: np.ndarray, privileged: Any, rng: np.random.Generator | int
) -> FlipTestSetup:
    """Fit the FlipTest map of one split: unprivileged test rows to privileged ones.

    Features are standardised over the test rows first, so no feature's scale dominates the
    cost. The map depends on the data only, so one setup serves every algorithm's audit.
    """
    features = _standardised(X_test)
    unprivileged = groups != privileged
    source, target = features[unprivileged], features[~unprivileged]
    return FlipTestSetup(source, target, transport(source, target, rng=rng))


def fliptest_audit(
    setup: FlipTestSetup,
    y_pred: np.ndarray,
    groups: np.ndarray,
    *,
    privileged: Any,
    features: list[str],
    top: int = 5,
) -> list[tuple[str, str, str, float, float | None, str]]:
    """FlipTest rows for the audits table: each flipset's rate, size and leading features."""
    unprivileged = groups != privileged
    result = fliptest(
        setup.source,
        setup.target,
        y_pred[unprivileged],
        y_pred[~unprivileged],
        setup.transport_map,
        features=features,
    )
    rows = []
    for name, size, rate in zip(("F+", "F-"), result.sizes, result.rates, strict=True):
        report = result.report[result.report["flipset"] == name]
        leading = report.nsmallest(top, "rank_difference")
        features_by_difference = zip(leading["feature"], leading["mean_difference"], strict=True)
        details = {
            "size": size,
            "source_size": len(setup.source),
            "mean_cost": setup.transport_map.mean_cost,
            "leading_features": dict(features_by_difference),
        }
        rows.append(("fliptest", name, "unprivileged", rate, None, json.dumps(details)))
    return rows


@dataclass(frozen=True, eq=False)
class IndividualSetup:
    """What one split's individual-fairness audits share: audit rows and the fair metric.

    The attack runs in coordinates standardised over the test rows (features = mean + scale *
    z); the metric is learned there from the whole test split (Maity et al. App. F.4).
    """

    rows: np.ndarray
    Z: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    metric: FairMetric


def split_fair_metric(
    X_test: np.ndarray,
    s_test: np.ndarray,
    rng: np.random.Generator | int,
    *,
    points: int = INDIVIDUAL_POINTS,
) -> IndividualSetup:
    """Learn a split's sensitive-subspace metric and draw its audit rows (once per split)."""
    X = np.asarray(X_test, dtype=float)
    mean, scale = _standardisation(X)
    Z = (X - mean) / scale
    metric = sensitive_subspace_metric(Z, s_test)
    rng = np.random.default_rng(rng)
    rows = np.sort(rng.choice(len(X), min(points, len(X)), replace=False))
    return IndividualSetup(rows, Z[rows], mean, scale, metric)


def individual_audit(
    setup: IndividualSetup,
    model: Any,
    y_test: np.ndarray,
    s_test: np.ndarray,
    *,
    rng: np.random.Generator | int | None = None,
) -> list[tuple[str, str, str, float, float | None, str]]:
    """Individual-fairness rows for the audits table: T_n and T~_n with their details."""
    oracle = model_oracle(
        model,
        sensitive_features=s_test[setup.rows],
        mean=setup.mean,
        scale=setup.scale,
        directions=SMOOTHING_PAIRS,
        rng=rng,
    )
    result = individual_fairness_test(
        oracle, setup.Z, y_test[setup.rows], setup.metric, **INDIVIDUAL_ATTACK
    )
    return [
        ("individual", r["metric"], "all", r["statistic"], r["pvalue"], json.dumps(r["details"]))
        for r in result.to_records()
    ]


def _standardisation(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and standard deviations (1 for constant columns)."""
    spread = X.std(0)
    return X.mean(0), np.where(spread > 0, spread, 1.0)


def _standardised(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    mean, scale = _standardisation(X)
    return (X - mean) / scale
