"""Fairness interventions and baselines as scikit-learn-style estimators.

Every algorithm follows :class:`~faircompare.algorithms.base.FairEstimator`; the registry
(:mod:`faircompare.registry`) names them, and :mod:`~faircompare.algorithms.contract` checks
that a new one keeps the contract.
"""

from faircompare.algorithms.base import AlgorithmInputError, FairEstimator

__all__ = ["AlgorithmInputError", "FairEstimator"]
