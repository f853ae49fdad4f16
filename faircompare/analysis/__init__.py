"""Analyses of a results store: pure functions from stored results to tidy data frames."""

from faircompare.analysis.tuning import CRITERIA, tuned

__all__ = ["CRITERIA", "tuned"]
