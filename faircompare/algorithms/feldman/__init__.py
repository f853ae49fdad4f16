"""Feldman et al. (KDD 2015) disparate-impact repair, followed by any classifier.

Each feature is repaired so that its distribution is the same in every group (Feldman et al.
§5): a value of group s goes to its quantile in that group, then to the "median distribution",
whose quantile function is the (lower) median over groups of theirs; a partial repair moves each
value part of the way (§5.2). The modules, by concern:

- :mod:`~faircompare.algorithms.feldman.repair`: the transformer, :class:`DisparateImpactRepair`;
- :mod:`~faircompare.algorithms.feldman.values`: the repair as the authors' code does it, each
  distinct value of a group to one value (``ties="value"``, the default);
- :mod:`~faircompare.algorithms.feldman.ranks`: ties broken at random, each row its own
  quantile (``ties="random"``);
- :mod:`~faircompare.algorithms.feldman.smoothing`: the piecewise-linear smoothing whose slopes
  the individual-fairness audit's attack follows;
- :mod:`~faircompare.algorithms.feldman.columns`: the blocks of columns both repairs work in;
- :mod:`~faircompare.algorithms.feldman.pipeline`: the repair, then a classifier,
  :class:`FeldmanClassifier` (the ``feldman-*`` algorithms).
"""

from faircompare.algorithms.feldman.columns import COLUMN_BLOCK
from faircompare.algorithms.feldman.pipeline import (
    REPAIR_LEVELS,
    SURROGATE,
    TEST_REPAIRS,
    FeldmanClassifier,
)
from faircompare.algorithms.feldman.repair import FELDMAN_2015, TIES, DisparateImpactRepair

__all__ = [
    "COLUMN_BLOCK",
    "FELDMAN_2015",
    "REPAIR_LEVELS",
    "SURROGATE",
    "TEST_REPAIRS",
    "TIES",
    "DisparateImpactRepair",
    "FeldmanClassifier",
]
