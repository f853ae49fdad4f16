"""Search spaces: the ranges a tuner may draw an algorithm's parameters from, beside its grid.

An algorithm's grid (:attr:`~faircompare.algorithms.base.FairEstimator.param_grid`) is the
values a sweep runs one by one; its search space
(:attr:`~faircompare.algorithms.base.FairEstimator.search_space`) is where a tuner with a budget
of trials may look: each parameter a :class:`Real`, an :class:`Integer` or a :class:`Choice`,
on a log scale where its values span orders of magnitude (C of a linear model, Zafar's
covariance bound). A space is declared with the class, as the grid is; a pipeline's classifier
brings its own, under scikit-learn's nested name (``estimator__C``): :func:`space_of` gathers
both. The types are light (no tuning library is imported to declare one); a tuner converts them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sklearn.base import BaseEstimator, clone

__all__ = ["Choice", "Dimension", "Integer", "Real", "problems", "space_of"]


@dataclass(frozen=True)
class Real:
    """A real parameter drawn from ``[low, high]``.

    Attributes
    ----------
    low, high
        The range's ends, both included.
    log
        Whether it is drawn on a log scale (``low`` then above 0).
    """

    low: float
    high: float
    log: bool = False

    def __str__(self) -> str:
        return f"{self.low:g} to {self.high:g}{', log scale' * self.log}"

    def _ends(self) -> tuple[float, ...]:
        """Return values a check sets: the ends and the middle (on the space's scale)."""
        middle = math.sqrt(self.low * self.high) if self.log else (self.low + self.high) / 2
        return (self.low, middle, self.high)

    def _problem(self) -> str | None:
        """Return what is wrong with the range, or None."""
        if not self.low < self.high:
            return f"needs low < high; got {self.low} and {self.high}"
        if self.log and self.low <= 0:
            return f"a log scale needs low > 0; got {self.low}"
        return None


@dataclass(frozen=True)
class Integer:
    """A whole-number parameter drawn from ``low`` to ``high``.

    Attributes
    ----------
    low, high
        The range's ends, both included.
    log
        Whether it is drawn on a log scale (``low`` then at least 1).
    """

    low: int
    high: int
    log: bool = False

    def __str__(self) -> str:
        return f"whole, {self.low} to {self.high}{', log scale' * self.log}"

    def _ends(self) -> tuple[int, ...]:
        """Return values a check sets: the ends and the middle."""
        return (self.low, (self.low + self.high) // 2, self.high)

    def _problem(self) -> str | None:
        """Return what is wrong with the range, or None."""
        if not (isinstance(self.low, int) and isinstance(self.high, int)):
            return f"needs whole numbers; got {self.low!r} and {self.high!r}"
        if not self.low < self.high:
            return f"needs low < high; got {self.low} and {self.high}"
        if self.log and self.low < 1:
            return f"a log scale needs low >= 1; got {self.low}"
        return None


@dataclass(frozen=True)
class Choice:
    """A parameter drawn from a few values.

    Attributes
    ----------
    values
        The values, two or more.
    """

    values: tuple[Any, ...]

    def __str__(self) -> str:
        return " or ".join(map(repr, self.values))

    def _ends(self) -> tuple[Any, ...]:
        """Return values a check sets: every one."""
        return self.values

    def _problem(self) -> str | None:
        """Return what is wrong with the values, or None."""
        if len(set(map(repr, self.values))) < 2:
            return f"needs two distinct values or more; got {self.values!r}"
        return None


#: A dimension of a search space.
Dimension = Real | Integer | Choice


def space_of(estimator: BaseEstimator) -> dict[str, Dimension]:
    """Return an estimator's search space: its class's, and its classifier's under nested names.

    Parameters
    ----------
    estimator
        An algorithm's estimator (a :class:`~faircompare.algorithms.base.FairEstimator`).

    Returns
    -------
    dict
        Each parameter a tuner may set, by the name ``set_params`` takes, and its dimension;
        a parameter whose value is an estimator with a space of its own (a pipeline's
        ``estimator``) adds that space as ``estimator__C`` and so on. Empty for an algorithm
        with nothing to tune.
    """
    space = dict(getattr(type(estimator), "search_space", {}))
    for name, value in estimator.get_params(deep=False).items():
        if isinstance(value, BaseEstimator):
            space |= {f"{name}__{inner}": d for inner, d in space_of(value).items()}
    return space


def problems(estimator: BaseEstimator, space: Mapping[str, Dimension]) -> list[str]:
    """Return what is wrong with a search space for an estimator (empty where nothing is).

    Each parameter must be one the estimator takes (nested names included), its dimension
    well formed, and the estimator must accept its ends and middle through ``set_params``.

    Parameters
    ----------
    estimator
        The estimator the space is for.
    space
        Its search space (:func:`space_of`).

    Returns
    -------
    list of str
        One line per problem, naming the parameter.
    """
    found = []
    params = estimator.get_params(deep=True)
    for name, dimension in space.items():
        if name not in params:
            found.append(f"search parameter {name!r} is not a parameter; parameters: "
                         f"{sorted(params)}")  # fmt: skip
            continue
        if not isinstance(dimension, Real | Integer | Choice):
            found.append(f"search parameter {name!r} must be a Real, an Integer or a Choice; "
                         f"got {dimension!r}")  # fmt: skip
            continue
        if (problem := dimension._problem()) is not None:
            found.append(f"search parameter {name!r} {problem}")
            continue
        for value in dimension._ends():
            try:
                clone(estimator).set_params(**{name: value})
            except Exception as error:  # a plugin's set_params may raise anything
                found.append(f"search parameter {name!r} refuses {value!r}: {error}")
                break
    return found
