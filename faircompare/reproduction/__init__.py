"""Friedler et al.'s published results beside faircompare's, each difference explained.

- :mod:`~faircompare.reproduction.published`: the original benchmark's result files, read as
  they are, its names mapped to faircompare's;
- :mod:`~faircompare.reproduction.departures`: where faircompare departs from the original, each
  departure with the switch that undoes it;
- :mod:`~faircompare.reproduction.study`: the runs a reproduction needs, stored and resumable;
- :mod:`~faircompare.reproduction.table`: the comparison in standard errors, with each
  difference's cause;
- :mod:`~faircompare.reproduction.reproduce`: all of it in one call, ``faircompare reproduce``.
"""

from faircompare.reproduction.departures import DEPARTURES, Departure
from faircompare.reproduction.published import MEASURES, read_published
from faircompare.reproduction.reproduce import Reproduction, reproduce
from faircompare.reproduction.table import reproduction_table, z_score

__all__ = [
    "DEPARTURES",
    "MEASURES",
    "Departure",
    "Reproduction",
    "read_published",
    "reproduce",
    "reproduction_table",
    "z_score",
]
