"""Fairness interventions and baselines as scikit-learn-style estimators.

Every algorithm follows :class:`~faircompare.algorithms.base.FairEstimator`; the registry
(:mod:`faircompare.registry`) names them, and :mod:`~faircompare.algorithms.contract` checks
that a new one keeps the contract.
"""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "AlgorithmInputError": "faircompare.algorithms.base",
    "FairEstimator": "faircompare.algorithms.base",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)  # imported on first use

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.algorithms.base import AlgorithmInputError as AlgorithmInputError
    from faircompare.algorithms.base import FairEstimator as FairEstimator
