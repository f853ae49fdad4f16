"""Measures of accuracy and fairness, computed together from per-group confusion counts.

>>> from faircompare.measures import evaluate
>>> evaluate([1, 0, 1, 0], [1, 0, 0, 0], ["a", "a", "b", "b"], privileged="a",
...          measures=["DIbinary"])
    measure group  value
0  DIbinary          0.0
"""

from faircompare.measures.catalogue import (
    GROUP_RATES,
    MEASURES,
    Measure,
    evaluate,
    get_measures,
    measure_rows,
)
from faircompare.measures.group_stats import GroupStats, UndefinedMeasureWarning
from faircompare.stats.rates import binary_labels

__all__ = [
    "GROUP_RATES",
    "MEASURES",
    "GroupStats",
    "Measure",
    "UndefinedMeasureWarning",
    "binary_labels",
    "evaluate",
    "get_measures",
    "measure_rows",
]
