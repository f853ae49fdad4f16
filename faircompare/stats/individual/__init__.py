"""Statistical inference for individual fairness (Maity, Xue, Yurochkin & Sun, ICLR 2021).

An auditor moves every audit point (x, y) along the gradient flow of

    l(f(x'), y) - lambda * d_x(x', x)^2                                  (§2, Eq. 2.6)

for a fixed number of forward Euler steps (Eq. 2.8), where d_x is a *fair metric*: moves that
the metric considers free (say, along a direction that encodes gender) should not change the
model's loss. The ratio of the loss after the attack to the loss before is at least 1 (Eq. 3.2);
its mean, the audit value, is tested against a tolerance delta (Eq. 3.3):

- :func:`loss_ratio_test`: the one-sided lower confidence bound T_n = S_n - z_{1-alpha} V_n /
  sqrt(n), rejecting fairness when T_n > delta (§3.1, Eq. 3.10), and the two-sided interval
  (Eq. 3.6);
- :func:`error_ratio_test`: the ratio of the 0-1 error rates after and before the attack, with
  its delta-method bound T~_n (§3.2, Eq. 3.13; App. C).

The attack is batched over all audit points at once. Gradients come from the model where it
has them (``input_gradient``: analytic for linear models and the networks, autograd for a
plugin's torch model) and from a Gaussian-smoothing estimate otherwise (trees, naive Bayes, SVM,
repaired pipelines), so every model can be audited; the result records which kind was used.
A model whose loss depends on x only through a few projections x'V (logistic regression, one
hidden layer) is attacked in the span of V and the metric's directions, exactly
(:class:`Ridge`).

The package holds one module per concern: :mod:`.metric` (the fair metric), :mod:`.oracle` (a
model's loss and its gradient), :mod:`.attack` (the gradient flow), :mod:`.inference` (the
tests) and :mod:`.diagnostics` (the statistic by step and by coefficients, a known model's
loss ratios); each name is importable from the package as well.
"""

from faircompare.stats.individual.attack import gradient_flow_attack as gradient_flow_attack
from faircompare.stats.individual.diagnostics import coefficient_grid as coefficient_grid
from faircompare.stats.individual.diagnostics import (
    logistic_loss_ratios as logistic_loss_ratios,
)
from faircompare.stats.individual.diagnostics import statistic_by_steps as statistic_by_steps
from faircompare.stats.individual.inference import BOOTSTRAP_RESAMPLES as BOOTSTRAP_RESAMPLES
from faircompare.stats.individual.inference import MAITY_2021 as MAITY_2021
from faircompare.stats.individual.inference import MONTE_CARLO_Z as MONTE_CARLO_Z
from faircompare.stats.individual.inference import NEAR_CERTAIN as NEAR_CERTAIN
from faircompare.stats.individual.inference import NEAR_CERTAIN_SHARE as NEAR_CERTAIN_SHARE
from faircompare.stats.individual.inference import ErrorRatioResult as ErrorRatioResult
from faircompare.stats.individual.inference import (
    IndividualFairnessResult as IndividualFairnessResult,
)
from faircompare.stats.individual.inference import LossRatioResult as LossRatioResult
from faircompare.stats.individual.inference import error_ratio_test as error_ratio_test
from faircompare.stats.individual.inference import (
    individual_fairness_test as individual_fairness_test,
)
from faircompare.stats.individual.inference import loss_ratio_test as loss_ratio_test
from faircompare.stats.individual.inference import (
    replicated_fairness_test as replicated_fairness_test,
)
from faircompare.stats.individual.metric import YUROCHKIN_2020 as YUROCHKIN_2020
from faircompare.stats.individual.metric import FairMetric as FairMetric
from faircompare.stats.individual.metric import explicit_metric as explicit_metric
from faircompare.stats.individual.metric import (
    sensitive_subspace_metric as sensitive_subspace_metric,
)
from faircompare.stats.individual.oracle import PROBABILITY_FLOOR as PROBABILITY_FLOOR
from faircompare.stats.individual.oracle import LossOracle as LossOracle
from faircompare.stats.individual.oracle import Ridge as Ridge
from faircompare.stats.individual.oracle import clipped_log_loss as clipped_log_loss
from faircompare.stats.individual.oracle import logistic_oracle as logistic_oracle
from faircompare.stats.individual.oracle import smoothed_gradient as smoothed_gradient
