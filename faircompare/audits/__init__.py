"""Statistical audits of trained models: permutation tests (DiCiccio et al.)."""

from faircompare.audits.correlation import correlation_test
from faircompare.audits.permutation import (
    METRICS,
    GroupComparison,
    PermutationTestResult,
    benjamini_hochberg,
    bootstrap_test,
    compare_groups,
    holm,
    permutation_test,
)

__all__ = [
    "METRICS",
    "GroupComparison",
    "PermutationTestResult",
    "benjamini_hochberg",
    "bootstrap_test",
    "compare_groups",
    "correlation_test",
    "holm",
    "permutation_test",
]
