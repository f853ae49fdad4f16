"""The rows a run produces: one measure's value, one audit's result.

Measures (:func:`faircompare.measures.measure_rows`), the audit suite
(:func:`faircompare.audits.audit_run`), the worker's :class:`~faircompare.results.StoredRun` and
the results store all pass these two shapes; the store's ``measures`` and ``audits`` tables have
their fields as columns (with the run's key in front).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class MeasureRow(NamedTuple):
    """One measure's value for one group of one run.

    Attributes
    ----------
    part
        ``"test"``, or ``"validation"`` for the tuning fit's scores.
    measure
        The measure's name (see :data:`faircompare.measures.MEASURES`).
    group
        The group's value as text; ``""`` for the aggregate.
    value
        The value; NaN where the measure is undefined.
    """

    part: str
    measure: str
    group: str
    value: float


class AuditRow(NamedTuple):
    """One result of one audit of one run.

    Attributes
    ----------
    audit
        The audit's name (``"permutation"``, ``"fliptest"``, ``"individual"``, or a plugin's).
    metric
        What it tested or measured (``"TPR"``, ``"F+"``, ``"T_n"``, ...).
    group
        Whom it concerns (``"rest"``, ``"unprivileged"``, ``"all"``, a group's value).
    statistic
        The test statistic or the measured value; NaN when the test could not be run.
    pvalue
        The p-value; None for a measurement that is not a test.
    details
        Everything else the audit reports (stored as JSON).
    """

    audit: str
    metric: str
    group: str
    statistic: float
    pvalue: float | None
    details: dict[str, Any]
