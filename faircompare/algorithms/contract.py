"""The contract every algorithm must meet, checked on small synthetic data.

``faircompare check-plugin`` runs these checks on a plugin file or a registered algorithm: the
declared variants and parameter grid are valid, ``clone`` round-trips, fit and predict give
well-formed outputs on every declared variant, fitting is deterministic, the sensitive
attribute is used at prediction time only when the algorithm declares it, predictions follow
the rows asked (a pandas output in another order, or predictions that change with the rows'
order, fail), no method changes its arguments in place, and each optional method of
:mod:`faircompare.algorithms.loss_oracle` that the algorithm provides is well formed.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone

from faircompare._timeout import RunTimeoutError, time_limit
from faircompare.algorithms.base import FairEstimator
from faircompare.algorithms.loss_oracle import (
    InputGradient,
    LogitCoefficients,
    OwnLossOracle,
    gradient_kind,
)
from faircompare.algorithms.outputs import checked_predictions, checked_scores, row_index
from faircompare.algorithms.search import problems, space_of
from faircompare.choices import FAMILIES
from faircompare.exceptions import FaircompareError
from faircompare.preprocessing import VARIANTS

__all__ = [
    "DECLARED",
    "Check",
    "check_contract",
    "run_check",
    "synthetic_data",
    "undeclared",
]

#: The class attributes a plugin should declare rather than inherit: its ``version`` (stored
#: runs of another version are recomputed) and the ``library`` whose code runs.
DECLARED = ("version", "library")

_N_TRAIN, _N_TEST = 240, 120


@dataclass(frozen=True)
class Check:
    """Outcome of one contract check.

    Attributes
    ----------
    name
        What was checked.
    passed
        Whether the estimator passed.
    detail
        Why it failed, or what the check found; empty when there is nothing to say.
    """

    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True, eq=False)
class _Data:
    X_train: pd.DataFrame
    y_train: np.ndarray
    sensitive_features_train: np.ndarray
    X_test: pd.DataFrame
    y_test: np.ndarray
    sensitive_features_test: np.ndarray


def synthetic_data(variant: str, seed: int = 0) -> _Data:
    """Draw small data in a variant's shape: numeric and one-hot (or categorical) features.

    The sensitive attribute is 0/1 in ``numerical+binary`` and takes three text values
    otherwise; the label depends on the features and on the group.

    Parameters
    ----------
    variant
        The preprocessing variant whose shape the data take.
    seed
        Seed of the draw.

    Returns
    -------
    _Data
        A training and a test part: features, labels and sensitive attribute of each.
    """
    rng = np.random.default_rng(seed)
    n = _N_TRAIN + _N_TEST
    group = rng.integers(0, 3, n)
    numeric = rng.normal(size=(n, 3)) + 0.5 * group[:, None]
    kind = rng.integers(0, 2, n)
    logit = numeric[:, 0] - 0.5 * numeric[:, 1] + 0.8 * (group == 0) + 0.3 * kind
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    X = pd.DataFrame(numeric, columns=["a", "b", "c"])
    if variant == "original":
        X["kind"] = pd.Categorical(np.where(kind == 1, "x", "y"))
    else:
        X["kind_x"], X["kind_y"] = kind.astype(float), 1.0 - kind
    s = (group == 0).astype(int) if variant == "numerical+binary" else np.array(list("pqr"))[group]
    train, test = slice(0, _N_TRAIN), slice(_N_TRAIN, n)
    return _Data(X.iloc[train], y[train], s[train], X.iloc[test], y[test], s[test])


def run_check(name: str, check: Callable[..., str | None], *args: object, timeout: float) -> Check:
    """Run one check: its problem, a crash (with its traceback) or a time-out fails it.

    Parameters
    ----------
    name
        What the check checks, as reported.
    check
        Returns None when the check holds, else what is wrong.
    *args
        The check's arguments.
    timeout
        Seconds the check may take before it is stopped and failed.

    Returns
    -------
    Check
        The outcome.
    """
    try:
        with time_limit(timeout):
            problem = check(*args)
    except RunTimeoutError:
        return Check(name, False, f"took longer than {timeout:g} s and was stopped")
    except FaircompareError as error:  # a fault the message says all about
        return Check(name, False, str(error))
    except Exception:  # a crashing check is a failed check, with its traceback
        return Check(name, False, traceback.format_exc(limit=3).strip())
    return Check(name, problem is None, problem or "")


def check_contract(
    make: Callable[[], FairEstimator], seed: int = 0, *, timeout: float = 60.0
) -> list[Check]:
    """Run every contract check on the estimator that ``make`` builds.

    (Named apart from scikit-learn's ``check_estimator``, which the suite also runs.)

    Parameters
    ----------
    make
        Builds the estimator with its default parameters.
    seed
        Seed of the synthetic data.
    timeout
        Seconds each check may take; a check still running then is stopped and failed.

    Returns
    -------
    list of Check
        One outcome per check, in order.
    """

    def run(name: str, check: Callable[..., str | None], *args: object) -> Check:
        return run_check(name, check, *args, timeout=timeout)

    checks = [run("declares valid variants", _variants, make)]
    checks.append(run("declares a known family", _family, make))
    checks.append(run("parameter grid names real parameters", _grid, make))
    checks.append(run("search space names real parameters and ranges", _search_space, make))
    checks.append(run("clone round-trips", _clone, make))
    for variant in sorted(make().supports & set(VARIANTS)):
        on_variant = [
            (f"fit and predict on {variant}", _outputs),
            (f"deterministic on {variant}", _deterministic),
            (f"sensitive attribute at predict ({variant})", _sensitive),
            (f"rows in the order asked ({variant})", _row_order),
            (f"leaves its inputs unchanged ({variant})", _inputs_kept),
        ]
        if variant != "original":  # the audit attacks numeric features only
            on_variant.append((f"audit hooks well formed ({variant})", _hooks))
        # each check its own draw: a plugin that changes its inputs in place spoils no other
        checks += [
            run(name, check, make, synthetic_data(variant, seed)) for name, check in on_variant
        ]
    return checks


def undeclared(estimator_class: type[FairEstimator]) -> list[str]:
    """Return the attributes of :data:`DECLARED` that a class inherits from FairEstimator.

    ``check-plugin`` warns about each: the defaults (version ``"1"``, library
    ``"faircompare"``) are rarely true of a plugin.

    Parameters
    ----------
    estimator_class
        The algorithm's class.

    Returns
    -------
    list of str
        The names no class between ``estimator_class`` and :class:`FairEstimator` sets, in
        :data:`DECLARED`'s order.
    """
    mro = estimator_class.__mro__
    own = mro[: mro.index(FairEstimator)]
    return [name for name in DECLARED if not any(name in vars(k) for k in own)]


def _variants(make: Callable[[], FairEstimator]) -> str | None:
    supports = make().supports
    unknown = set(supports) - set(VARIANTS)
    if not supports or unknown:
        return f"supports must be a non-empty subset of {VARIANTS}; got {sorted(supports)}"
    return None


def _family(make: Callable[[], FairEstimator]) -> str | None:
    family = type(make()).family
    return None if family in FAMILIES else f"family must be one of {FAMILIES}; got {family!r}"


def _grid(make: Callable[[], FairEstimator]) -> str | None:
    estimator = make()
    params = estimator.get_params()
    for key, values in estimator.param_grid.items():
        if key not in params:
            return f"grid parameter {key!r} is not a parameter; parameters: {sorted(params)}"
        if not isinstance(values, list) or not values:
            return f"grid values of {key!r} must be a non-empty list"
        for value in values:
            clone(estimator).set_params(**{key: value})
    return None


def _search_space(make: Callable[[], FairEstimator]) -> str | None:
    estimator = make()
    return "; ".join(problems(estimator, space_of(estimator))) or None


def _clone(make: Callable[[], FairEstimator]) -> str | None:
    estimator = make()
    copy = clone(estimator)
    if repr(copy) != repr(estimator) or copy.get_params().keys() != estimator.get_params().keys():
        return f"clone gives {copy!r}, not {estimator!r}"
    return None


def _fit_predict(
    make: Callable[[], FairEstimator], data: _Data
) -> tuple[FairEstimator, np.ndarray]:
    estimator = make()
    fitted = estimator.fit(
        data.X_train, data.y_train, sensitive_features=data.sensitive_features_train
    )
    if fitted is not estimator:
        raise AssertionError("fit must return self")
    predicted = estimator.predict(data.X_test, sensitive_features=data.sensitive_features_test)
    name = getattr(estimator, "name", type(estimator).__name__)
    rows = row_index(data.X_test)
    return estimator, checked_predictions(name, predicted, len(data.X_test), rows=rows)


def _outputs(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    estimator, _ = _fit_predict(make, data)  # the predictions are checked there
    n = len(data.X_test)
    if hasattr(estimator, "predict_proba"):
        proba = estimator.predict_proba(
            data.X_test, sensitive_features=data.sensitive_features_test
        )
        if proba.shape != (n, 2) or not np.allclose(proba.sum(1), 1) or (proba < 0).any():
            return f"predict_proba must return {n} rows of two probabilities summing to 1"
    if hasattr(estimator, "decision_function"):
        scores = estimator.decision_function(
            data.X_test, sensitive_features=data.sensitive_features_test
        )
        name = getattr(estimator, "name", "")
        checked_scores(name, scores, n, "decision_function", rows=row_index(data.X_test))
    return None


def _deterministic(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    first, second = _fit_predict(make, data)[1], _fit_predict(make, data)[1]
    if not np.array_equal(first, second):
        return "two fits with the same parameters and data predict differently (seed it)"
    return None


def _sensitive(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    estimator, predicted = _fit_predict(make, data)
    if estimator.uses_sensitive_at_predict:
        return None
    permuted = np.random.default_rng(1).permutation(data.sensitive_features_test)
    if not np.array_equal(estimator.predict(data.X_test), predicted) or not np.array_equal(
        estimator.predict(data.X_test, sensitive_features=permuted), predicted
    ):
        return "predictions depend on the sensitive attribute; declare uses_sensitive_at_predict"
    return None


def _row_order(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    """Predict the test rows shuffled, each with its index label: the output must follow them."""
    estimator, predicted = _fit_predict(make, data)
    order = np.random.default_rng(2).permutation(len(data.X_test))
    X, s = data.X_test.iloc[order], data.sensitive_features_test[order]
    output = estimator.predict(X, sensitive_features=s)
    if isinstance(output, pd.Series | pd.DataFrame) and not output.index.equals(X.index):
        return (
            "predict returned a pandas object whose rows are not in the order asked (its index "
            "is not X.index): scikit-learn and fairlearn read predictions by position, so "
            "return them in the rows' order (an array, or the Series reindexed by X.index)"
        )
    if not np.array_equal(np.asarray(output), predicted[order]):
        return "rows given in another order (each with its index label) get other predictions"
    return None


def _inputs_kept(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    """Call each method on copies and compare the arguments with the originals afterwards."""
    estimator = make()
    train = (data.X_train.copy(), data.y_train.copy(), data.sensitive_features_train.copy())
    estimator.fit(train[0], train[1], sensitive_features=train[2])
    changed = _changed(train, (data.X_train, data.y_train, data.sensitive_features_train))
    if changed:
        return f"fit changed its argument {changed} in place"
    for method in ("predict", "predict_proba", "decision_function"):
        if hasattr(estimator, method):
            test = (data.X_test.copy(), data.sensitive_features_test.copy())
            getattr(estimator, method)(test[0], sensitive_features=test[1])
            changed = _changed(test, (data.X_test, data.sensitive_features_test), ("X", "s"))
            if changed:
                return f"{method} changed its argument {changed} in place"
    return None


def _changed(
    given: tuple[Any, ...], originals: tuple[Any, ...], names: tuple[str, ...] = ("X", "y", "s")
) -> str | None:
    """Return the name of the first argument that differs from its original, or None."""
    for name, value, original in zip(names, given, originals, strict=True):
        same = (
            value.equals(original)
            if isinstance(value, pd.DataFrame)
            else np.array_equal(value, original)
        )
        if not same:
            return "sensitive_features" if name == "s" else name
    return None


def _hooks(make: Callable[[], FairEstimator], data: _Data) -> str | None:
    """Check the optional audit methods the estimator provides (none: nothing to check)."""
    estimator, _ = _fit_predict(make, data)
    X, s = data.X_test.to_numpy(float), data.sensitive_features_test
    n, d = X.shape
    if isinstance(estimator, LogitCoefficients):
        coef, intercept = estimator.logit_coefficients()
        if np.shape(coef) != (d,) or not np.isscalar(intercept):
            return f"logit_coefficients must return {d} coefficients and a scalar intercept"
        if hasattr(estimator, "predict_proba"):
            proba = estimator.predict_proba(data.X_test, sensitive_features=s)[:, 1]
            if not np.allclose(1 / (1 + np.exp(-(X @ coef + intercept))), proba, atol=1e-6):
                return "logit_coefficients disagree with predict_proba"
    if isinstance(estimator, OwnLossOracle):
        oracle = estimator.loss_oracle(np.zeros(d), np.ones(d))
        y = np.zeros(n)
        if np.shape(oracle.loss(X, y)) != (n,) or np.shape(oracle.gradient(X, y)) != (n, d):
            return f"loss_oracle must give {n} losses and {n} x {d} gradients"
    if isinstance(estimator, InputGradient) and gradient_kind(estimator) is not None:
        gradient = estimator.input_gradient(data.X_test, np.zeros(n), sensitive_features=s)
        if np.shape(gradient) != (n, d) or not np.isfinite(gradient).all():
            return f"input_gradient must return finite gradients of shape ({n}, {d})"
    return None
