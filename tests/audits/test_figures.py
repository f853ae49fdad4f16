import numpy as np

from faircompare.audits.figures import plot_pvalue_histogram, plot_threshold_curve, threshold_curve


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
