"""The audits run on every benchmark run, from its stored test predictions."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from faircompare.audits.permutation import holm, permutation_test

RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")


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
