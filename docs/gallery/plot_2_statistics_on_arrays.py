"""
The statistics library on plain arrays
======================================

:mod:`faircompare.stats` holds the three audits as functions of arrays, with nothing of
datasets, runs or stores, as :mod:`scipy.stats` offers its tests. Here each is used on its own:
a studentized permutation test of demographic parity (DiCiccio et al. 2020), a FlipTest flipset
and its transparency report (Black et al. 2020), and the individual-fairness test of a model's
attack (Maity et al. 2021).
"""

# %%
# A permutation test of demographic parity
# ----------------------------------------
# A model that predicts the positive class for 60 % of group ``a`` and 45 % of group ``b``.
# The studentized test stays valid when the groups' base rates differ; ``pvalue_interval`` is
# the Monte Carlo interval of the p-value.
import numpy as np

from faircompare.stats import permutation_test

rng = np.random.default_rng(0)
groups = np.repeat(["a", "b"], [400, 300])
y_true = rng.random(700) < 0.5
y_pred = rng.random(700) < np.where(groups == "a", 0.60, 0.45)
result = permutation_test(
    y_true, y_pred, groups, metric="positive_rate", group_a="a", permutations=2000, rng=1
)
low, high = result.pvalue_interval
print(f"difference {result.observed:.3f}, p = {result.pvalue:.4f} (MC {low:.4f}-{high:.4f})")

# %%
# FlipTest: who would be treated differently in the other group?
# ---------------------------------------------------------------
# The optimal transport map pairs each woman with a man; the flipset F- holds the women
# predicted negative whose counterpart is predicted positive (F+ the reverse). A classifier
# that reads the first feature, on which the groups differ, flips many, and the transparency
# report names that feature.
from faircompare.analysis.audit_figures import plot_transparency_report
from faircompare.stats import fliptest, transport

women = rng.normal([0.0, 0.0, 0.0], 1.0, size=(300, 3))
men = rng.normal([0.8, 0.0, 0.0], 1.0, size=(300, 3))


def model(rows):
    return (rows[:, 0] + 0.2 * rows[:, 1] > 0.4).astype(int)


pairs = transport(women, men, rng=0)
flips = fliptest(women, men, model(women), model(men), pairs, features=["x0", "x1", "x2"])
print("|F+|, |F-| =", flips.sizes)
figure = plot_transparency_report(flips.transparency, flipset="F-")
figure.axes[0].set_title("Transparency report: the feature that flips the decisions")

# %%
# The individual-fairness test
# ----------------------------
# Maity et al.'s two-group simulation: the groups differ along ``x1``, which a fair metric
# ignores. A logistic model that uses ``x1`` is attacked by moving people along it; the test
# rejects when the loss ratio's lower bound T_n exceeds delta = 1.25.
from faircompare.datasets.synthetic import maity_two_groups
from faircompare.stats import explicit_metric, individual_fairness_test, logistic_oracle

data = maity_two_groups(n=400, rng=2)
X, y = data[["x1", "x2"]].to_numpy(), data["y"].to_numpy()
metric = explicit_metric([0, 1])  # d^2 = (x2 - x2')^2: moves along x1 cost nothing
for name, coefficients in {"uses x1": [2.0, -0.1], "ignores x1": [0.0, -0.1]}.items():
    audit = individual_fairness_test(logistic_oracle(coefficients, 0.0), X, y, metric, steps=200)
    verdict = "rejects" if audit.loss.reject else "does not reject"
    print(f"{name}: T_n = {audit.loss.lower_bound:.2f}, the test {verdict} fairness")
