"""The contract every audit must meet, checked on a small synthetic run.

``faircompare check-plugin`` runs these checks on the audits a plugin file defines: the audit
follows the :class:`~faircompare.audits.protocol.Audit` protocol (a name and a version as text,
``applies`` and ``__call__``), and on a fitted model's run in each numeric variant ``applies``
answers True or False, the rows are :class:`~faircompare.records.AuditRow` of this audit with
p-values in [0, 1] and details the store can keep, and a second call gives the same rows.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import numpy as np

from faircompare._validation import NAME_RULE, is_name, quoted
from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.contract import Check, run_check, synthetic_data
from faircompare.audits.protocol import Audit, AuditedRun, AuditOptions
from faircompare.preprocessing import Split
from faircompare.records import AuditRow

VARIANTS = ("numerical+binary", "numerical")  # the audits' variants with a numeric model
_OPTIONS = AuditOptions(permutations=100)


def synthetic_run(variant: str, seed: int = 0) -> AuditedRun:
    """Return a logistic regression's run on small synthetic data in ``variant``.

    Parameters
    ----------
    variant
        ``"numerical+binary"`` (groups 1 and 0) or ``"numerical"`` (groups p, q and r).
    seed
        Seed of the data and the run.

    Returns
    -------
    AuditedRun
        The split, the fitted model and its test predictions and scores.
    """
    data = synthetic_data(variant, seed)
    n_train, n_test = len(data.y_train), len(data.y_test)
    split = Split(
        X_train=data.X_train,
        y_train=data.y_train,
        sensitive_features_train=data.sensitive_features_train,
        X_test=data.X_test,
        y_test=data.y_test,
        sensitive_features_test=data.sensitive_features_test,
        privileged=1 if variant == "numerical+binary" else "p",
        dataset="synthetic",
        variant=variant,
        sensitive_attribute="group",
        split_id=0,
        seed=seed,
        train_index=np.arange(n_train),
        test_index=np.arange(n_train, n_train + n_test),
    )
    s_train, s_test = data.sensitive_features_train, data.sensitive_features_test
    model = LogisticRegressionBaseline().fit(data.X_train, data.y_train, sensitive_features=s_train)
    y_pred = np.asarray(model.predict(data.X_test, sensitive_features=s_test)).astype(np.int8)
    scores = model.predict_proba(data.X_test, sensitive_features=s_test)[:, 1]
    return AuditedRun(split, model, y_pred, scores, seed=seed, data="synthetic")


def check_audit(audit: object, *, timeout: float = 60.0) -> list[Check]:
    """Run every contract check on an audit.

    Parameters
    ----------
    audit
        The audit object (an instance, as :func:`~faircompare.audits.register_audit` takes).
    timeout
        Seconds each check may take; a check still running then is stopped and failed.

    Returns
    -------
    list of Check
        One outcome per check, in order; only the protocol's when the audit does not follow it.
    """
    protocol = run_check("follows the Audit protocol", _protocol, audit, timeout=timeout)
    if not protocol.passed or not isinstance(audit, Audit):
        return [protocol]
    checks = [protocol]
    for variant in VARIANTS:
        run = synthetic_run(variant)
        for name, check in _RUN_CHECKS.items():
            checks.append(run_check(f"{name} ({variant})", check, audit, run, timeout=timeout))
    return checks


def _protocol(audit: object) -> str | None:
    if not isinstance(audit, Audit):
        return "an audit needs the attributes name and version, and applies() and __call__()"
    for attribute in ("name", "version"):
        value = getattr(audit, attribute)
        if not isinstance(value, str) or not value:
            return f"{attribute} must be non-empty text, got {value!r}"
    if not is_name(audit.name, lower_case=True):
        return f"name {quoted(audit.name)} is not a valid name: lower-case {NAME_RULE}"
    return None


def _applies(audit: Audit, run: AuditedRun) -> str | None:
    answer = audit.applies(run)
    return None if isinstance(answer, bool | np.bool_) else f"applies() returned {answer!r}"


def _rows(audit: Audit, run: AuditedRun) -> str | None:
    if not audit.applies(run):
        return None
    rows = audit(run, _OPTIONS)
    if not isinstance(rows, list) or not all(isinstance(row, AuditRow) for row in rows):
        return f"__call__ must return a list of AuditRow, got {type(rows).__name__}"
    for row in rows:
        problem = _row_problem(audit.name, row)
        if problem:
            return f"row {row.metric!r}: {problem}"
    return None


def _row_problem(name: str, row: AuditRow) -> str | None:
    if row.audit != name:
        return f"its audit is {row.audit!r}, not the audit's name {name!r}"
    if not isinstance(row.statistic, float | int):
        return f"statistic must be a number, got {row.statistic!r}"
    for field in ("pvalue", "adjusted_pvalue"):
        p = getattr(row, field)
        if p is not None and not (math.isnan(p) or 0 <= p <= 1):
            return f"{field} must be None, NaN or in [0, 1], got {p!r}"
    try:
        json.dumps(row.details)
    except (TypeError, ValueError) as error:
        return f"details must be JSON-serialisable: {error}"
    return None


def _deterministic(audit: Audit, run: AuditedRun) -> str | None:
    if not audit.applies(run):
        return None
    first, second = audit(run, _OPTIONS), audit(run, _OPTIONS)
    if json.dumps(first, default=str) != json.dumps(second, default=str):
        return "two calls on the same run gave different rows: seed the audit with run.seed"
    return None


_RUN_CHECKS: dict[str, Callable[[Audit, AuditedRun], str | None]] = {
    "applies() answers True or False": _applies,
    "rows well formed": _rows,
    "deterministic": _deterministic,
}


def plugin_audits(objects: list[object]) -> list[Audit]:
    """Return an instance of each audit class among a plugin's objects.

    Parameters
    ----------
    objects
        What a plugin module defines (:func:`faircompare.registry.defined_in`).

    Returns
    -------
    list of Audit
        One instance (built without arguments) per class with a ``name`` and an ``applies``
        method; :func:`check_audit` then checks the rest of the protocol.
    """
    return [
        cls()
        for cls in objects
        if isinstance(cls, type)
        and hasattr(cls, "name")
        and callable(getattr(cls, "applies", None))
    ]
