"""Statistical methods for auditing classifiers, on arrays, as :mod:`scipy.stats` offers them.

Each method is a function of arrays returning a frozen result object; nothing here knows of
datasets, runs or the results store, and the package imports nothing else from faircompare
(numpy, scipy, pandas, scikit-learn and POT; torch only in :mod:`faircompare.stats.gan`).

- Studentized permutation tests of a group-fairness metric (DiCiccio et al. 2020):
  :func:`permutation_test`, :func:`permutation_tests`, :func:`compare_groups`,
  :func:`bootstrap_test`, :func:`correlation_test`; the AUC's permutation null in
  :mod:`faircompare.stats.auc_null`.
- FlipTest (Black, Yeom & Fredrikson 2020): the optimal transport map :func:`transport`, and
  :func:`fliptest`'s flipsets and transparency report; the GAN approximation of the map in
  :mod:`faircompare.stats.gan`.
- The individual-fairness test (Maity et al. 2021): :func:`sensitive_subspace_metric`, the
  gradient-flow attack :func:`gradient_flow_attack`, and :func:`individual_fairness_test`.
- Multiple-testing corrections: :func:`holm`, :func:`benjamini_hochberg`.
- The rows counted per group, the one path every measure and test starts from:
  :class:`GroupCounts`; the confusion rates they share: :data:`RATES`.
"""

from faircompare.stats.correlation import correlation_test
from faircompare.stats.fliptest import FlipTestResult, TransportMap, fliptest, transport
from faircompare.stats.groups import GroupCounts
from faircompare.stats.individual import (
    ErrorRatioResult,
    FairMetric,
    IndividualFairnessResult,
    LossOracle,
    LossRatioResult,
    explicit_metric,
    gradient_flow_attack,
    individual_fairness_test,
    logistic_oracle,
    sensitive_subspace_metric,
)
from faircompare.stats.multitest import benjamini_hochberg, holm
from faircompare.stats.permutation import (
    METRICS,
    BootstrapTestResult,
    GroupComparison,
    PermutationTestResult,
    bootstrap_test,
    compare_groups,
    permutation_test,
    permutation_tests,
)
from faircompare.stats.rates import RATES

__all__ = [
    "METRICS",
    "RATES",
    "BootstrapTestResult",
    "ErrorRatioResult",
    "FairMetric",
    "FlipTestResult",
    "GroupComparison",
    "GroupCounts",
    "IndividualFairnessResult",
    "LossOracle",
    "LossRatioResult",
    "PermutationTestResult",
    "TransportMap",
    "benjamini_hochberg",
    "bootstrap_test",
    "compare_groups",
    "correlation_test",
    "explicit_metric",
    "fliptest",
    "gradient_flow_attack",
    "holm",
    "individual_fairness_test",
    "logistic_oracle",
    "permutation_test",
    "permutation_tests",
    "sensitive_subspace_metric",
    "transport",
]
