"""Statistical methods for auditing classifiers, on arrays, as :mod:`scipy.stats` offers them.

Each method is a function of arrays returning a frozen result object; nothing here knows of
datasets, runs or the results store. Of faircompare the package imports only the modules of the
standard library's kind that every layer shares (its errors, choice check, deprecations and
lazy names); of the rest numpy, scipy, pandas, scikit-learn and POT, torch only in
:mod:`faircompare.stats.gan`. Each name is imported from its module when first used, so
``import faircompare.stats.rates`` loads numpy alone.

- Studentized permutation tests of a group-fairness metric (DiCiccio et al. 2020):
  :func:`permutation_test`, :func:`permutation_tests`, :func:`compare_groups`,
  :func:`bootstrap_test`, :func:`correlation_test`; the AUC's permutation null in
  :mod:`faircompare.stats.auc_null`.
- FlipTest (Black, Yeom & Fredrikson 2020): the optimal transport map :func:`transport`, and
  :func:`fliptest`'s flipsets and transparency report; the GAN approximation of the map in
  :mod:`faircompare.stats.gan`.
- The individual-fairness test (Maity et al. 2021): :func:`sensitive_subspace_metric`, the
  gradient-flow attack :func:`gradient_flow_attack`, and :func:`individual_fairness_test`.
- Sequential Monte Carlo tests (Ding, Gandy & Hahn 2020), drawn until their verdict is
  decided: :class:`SequentialPlan` (``sequential=`` of :func:`permutation_tests` and
  :func:`compare_groups`), in :mod:`faircompare.stats.sequential`.
- Multiple-testing corrections: :func:`holm`, :func:`benjamini_hochberg`.
- The rows counted per group, the one path every measure and test starts from:
  :class:`GroupCounts`; the confusion rates they share: :data:`RATES`.
"""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "METRICS": "faircompare.stats.permutation",
    "RATES": "faircompare.stats.rates",
    "SequentialPlan": "faircompare.stats.sequential",
    "BootstrapTestResult": "faircompare.stats.permutation",
    "ErrorRatioResult": "faircompare.stats.individual",
    "FairMetric": "faircompare.stats.individual",
    "FlipTestResult": "faircompare.stats.fliptest",
    "GroupComparison": "faircompare.stats.permutation",
    "GroupCounts": "faircompare.stats.groups",
    "IndividualFairnessResult": "faircompare.stats.individual",
    "LossOracle": "faircompare.stats.individual",
    "LossRatioResult": "faircompare.stats.individual",
    "PermutationTestResult": "faircompare.stats.permutation",
    "TransportMap": "faircompare.stats.fliptest",
    "benjamini_hochberg": "faircompare.stats.multitest",
    "bootstrap_test": "faircompare.stats.permutation",
    "compare_groups": "faircompare.stats.permutation",
    "correlation_test": "faircompare.stats.correlation",
    "explicit_metric": "faircompare.stats.individual",
    "fliptest": "faircompare.stats.fliptest",
    "gradient_flow_attack": "faircompare.stats.individual",
    "holm": "faircompare.stats.multitest",
    "individual_fairness_test": "faircompare.stats.individual",
    "logistic_oracle": "faircompare.stats.individual",
    "permutation_test": "faircompare.stats.permutation",
    "permutation_tests": "faircompare.stats.permutation",
    "replicated_fairness_test": "faircompare.stats.individual",
    "sensitive_subspace_metric": "faircompare.stats.individual",
    "transport": "faircompare.stats.fliptest",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)  # imported on first use

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.stats.correlation import correlation_test as correlation_test
    from faircompare.stats.fliptest import FlipTestResult as FlipTestResult
    from faircompare.stats.fliptest import TransportMap as TransportMap
    from faircompare.stats.fliptest import fliptest as fliptest
    from faircompare.stats.fliptest import transport as transport
    from faircompare.stats.groups import GroupCounts as GroupCounts
    from faircompare.stats.individual import ErrorRatioResult as ErrorRatioResult
    from faircompare.stats.individual import FairMetric as FairMetric
    from faircompare.stats.individual import IndividualFairnessResult as IndividualFairnessResult
    from faircompare.stats.individual import LossOracle as LossOracle
    from faircompare.stats.individual import LossRatioResult as LossRatioResult
    from faircompare.stats.individual import explicit_metric as explicit_metric
    from faircompare.stats.individual import gradient_flow_attack as gradient_flow_attack
    from faircompare.stats.individual import individual_fairness_test as individual_fairness_test
    from faircompare.stats.individual import logistic_oracle as logistic_oracle
    from faircompare.stats.individual import replicated_fairness_test as replicated_fairness_test
    from faircompare.stats.individual import sensitive_subspace_metric as sensitive_subspace_metric
    from faircompare.stats.multitest import benjamini_hochberg as benjamini_hochberg
    from faircompare.stats.multitest import holm as holm
    from faircompare.stats.permutation import METRICS as METRICS
    from faircompare.stats.permutation import BootstrapTestResult as BootstrapTestResult
    from faircompare.stats.permutation import GroupComparison as GroupComparison
    from faircompare.stats.permutation import PermutationTestResult as PermutationTestResult
    from faircompare.stats.permutation import bootstrap_test as bootstrap_test
    from faircompare.stats.permutation import compare_groups as compare_groups
    from faircompare.stats.permutation import permutation_test as permutation_test
    from faircompare.stats.permutation import permutation_tests as permutation_tests
    from faircompare.stats.rates import RATES as RATES
    from faircompare.stats.sequential import SequentialPlan as SequentialPlan
