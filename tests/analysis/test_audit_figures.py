import numpy as np
import pytest

from faircompare.analysis.audit_figures import (
    plot_pvalue_histogram,
    plot_threshold_curve,
    threshold_curve,
)


def test_threshold_curve_values_and_figures(tmp_path):
    rng = np.random.default_rng(0)
    groups = np.repeat(["a", "b"], 200)
    y = rng.integers(0, 2, 400)
    scores = rng.random(400) + 0.3 * (groups == "a")
    curve = threshold_curve(
        y, scores, groups, group_a="a", thresholds=[0.2, 0.7, 2.0], permutations=200, rng=1
    )
    # At threshold 2 nobody is predicted positive: no difference. At 0.7, a's scores are shifted
    # up by 0.3, so a has clearly more positives: beyond the permutation 95th percentile.
    assert curve.loc[2, "observed"] == 0
    assert (
        curve.loc[1, "observed"] > curve.loc[1, "percentile_95"] and curve.loc[1, "pvalue"] < 0.01
    )
    assert (curve["percentile_95"] >= 0).all()
    for name, figure in (
        ("curve", plot_threshold_curve(curve)),
        ("hist", plot_pvalue_histogram(rng.random(100))),
    ):
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        assert path.stat().st_size > 5000  # a real picture, not an empty canvas


def test_histogram_draws_on_given_axes():
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots()
    assert plot_pvalue_histogram([0.1, 0.5, 0.9], ax=ax) is figure
    assert len(ax.patches) == 20  # one bar per bin


def test_individual_fairness_figures(tmp_path):
    from faircompare.analysis.audit_figures import plot_statistic_by_steps, plot_statistic_heatmap
    from faircompare.datasets.synthetic import maity_two_groups
    from faircompare.stats.individual import (
        coefficient_grid,
        explicit_metric,
        individual_fairness_test,
        logistic_oracle,
        statistic_by_steps,
    )

    data = maity_two_groups(200, 0)
    X, y = data[["x1", "x2"]].to_numpy(), data["y"].to_numpy()
    metric = explicit_metric([0, 1])
    attack = {"lam": 100.0, "step_size": 0.02, "decay": 2 / 3}
    grid = coefficient_grid(X, y, metric, [-2, 0, 2], [-2, 0, 2], steps=50, **attack)
    # Fig. 2: T_n grows with the number of steps for a model that uses x_1, and each point is
    # the statistic of an attack stopped at that step.
    oracle = logistic_oracle([2.0, 0.0], 0.0)
    curve = statistic_by_steps(oracle, X, y, metric, [10, 50, 200], **attack)
    assert curve["steps"].tolist() == [10, 50, 200]
    assert curve["statistic"].is_monotonic_increasing
    stopped = individual_fairness_test(oracle, X, y, metric, steps=50, **attack).loss.lower_bound
    assert curve["statistic"].iloc[1] == pytest.approx(stopped, rel=1e-4)
    curves = curve.assign(model="theta = (2, 0)")
    for name, figure in (
        ("heat", plot_statistic_heatmap(grid)),
        ("steps", plot_statistic_by_steps(curves)),
    ):
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        assert path.stat().st_size > 5000
