"""Figures that say what they show: each test failed on the main of issue #16."""

import numpy as np
import pandas as pd
from matplotlib.collections import PathCollection
from matplotlib.colors import SymLogNorm, to_rgb
from matplotlib.patches import Rectangle

from faircompare import registry
from faircompare.analysis import figures, tables
from faircompare.registry import algorithms


def individual_rows() -> pd.DataFrame:
    """Three runs' loss-ratio rows: fair, unfair, and very unfair but noisy (the case the old
    figure drew as the fairest: its lower bound, -226,645, was clipped to 1e-3)."""
    runs = {  # algorithm: (S_n, interval, T_n = one-sided lower bound, rejects)
        "fair": (1.02, (0.98, 1.06), 0.99, False),
        "unfair": (3.0, (2.2, 3.8), 2.3, True),
        "noisy": (5000.0, (-236_000.0, 246_000.0), -226_645.0, False),
    }
    return pd.DataFrame(
        [
            {
                "algorithm": name,
                "audit": "individual",
                "metric": "loss-ratio",
                "statistic": t_n,
                "details": {
                    "mean": mean,
                    "interval": list(interval),
                    "reject": reject,
                    "delta": 1.25,
                },
            }  # fmt: skip
            for name, (mean, interval, t_n, reject) in runs.items()
        ]
    )


def test_individual_statistics_plot_the_ratio_with_its_interval_unclipped():
    rows = individual_rows()
    styles = figures.algorithm_styles(rows["algorithm"])
    figure = figures.plot_individual_statistics(rows, styles, title="three runs")
    ax = figure.axes[0]
    points = [c for c in ax.collections if isinstance(c, PathCollection)]
    drawn = np.concatenate([c.get_offsets()[:, 1] for c in points])
    assert 5000.0 in drawn and -226_645.0 in drawn  # S_n and T_n as they are, nothing clipped
    bars = [c for c in ax.collections if not isinstance(c, PathCollection)]
    lows = np.concatenate([[s[0][1] for s in c.get_segments()] for c in bars])
    assert lows.min() == -236_000.0
    assert ax.get_yscale() == "symlog" and ax.get_ylim()[0] <= -236_000.0
    assert ax.get_title() == "three runs" and "T_n" in ax.get_ylabel()
    # S_n's marker is filled exactly where the test rejects (only "unfair", at x = 2 of 0..2)
    means = [c for c in points if c.get_offsets()[0, 1] in (1.02, 3.0, 5000.0)]
    filled = {float(c.get_offsets()[0, 0]): bool(c.get_facecolors()[0][3]) for c in means}
    assert filled == {0.0: False, 1.0: False, 2.0: True}


def test_stability_rectangles_span_mean_plus_minus_one_sd():
    summary = pd.DataFrame(
        {
            "algorithm": ["a", "a"],
            "measure": ["CV", "accuracy"],
            "mean": [0.9, 0.8],
            "sd": [0.1, 0.05],
        }  # fmt: skip
    )
    figure = figures.plot_stability(summary, "CV", "accuracy", figures.algorithm_styles(["a"]))
    (rectangle,) = [p for p in figure.axes[0].patches if isinstance(p, Rectangle)]
    assert np.allclose(rectangle.get_xy(), (0.8, 0.75))  # mean - sd
    assert np.isclose(rectangle.get_width(), 0.2) and np.isclose(rectangle.get_height(), 0.1)


def test_every_algorithm_gets_a_distinct_colour_marker_pair_and_families_share_a_hue():
    names = list(algorithms())
    styles = figures.algorithm_styles(
        [*names, *(f"{n}-accuracy" for n in names), *(f"{n} (grid)" for n in names)]
    )
    pairs = {(styles[n]["color"], styles[n]["marker"]) for n in names}
    assert len(pairs) == len(names)
    assert styles["kamishima-accuracy"] == styles["kamishima"] == styles["kamishima (grid)"]
    for family in ("feldman-", "reductions-"):
        members = [n for n in names if n.startswith(family)]
        colours = [to_rgb(styles[n]["color"]) for n in members]
        assert len(set(colours)) == len(members)
        blue = [np.argmax(c) for c in colours]
        assert len(set(blue)) == 1  # one dominant channel: one hue in shades
    assert all(np.argmax(to_rgb(styles[n]["color"])) == 2 for n in names if n.startswith("feldman"))


def test_a_test_that_was_not_run_is_not_drawn_as_no_rejection():
    outcomes = pd.DataFrame(
        {
            "algorithm": ["scored", "unscored"],
            "permutation AUC": [0.5, np.nan],
            "permutation TPR": [0.2, 0.0],
        }  # fmt: skip
    )
    figure = figures.plot_audit_shares(outcomes, ["permutation AUC", "permutation TPR"], title="t")
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert texts == ["n/a"]
    assert figure.axes[0].get_title() == "t"


def test_a_logarithmic_grid_is_coloured_on_a_log_scale():
    sweep = pd.DataFrame(
        {
            "algorithm": "kamishima",
            "parameter": "eta",
            "value": [0.0, 1.0, 10.0, 100.0, 300.0],
            "DIbinary": np.linspace(0.5, 1, 5),
            "accuracy": np.linspace(0.8, 0.7, 5),
        }  # fmt: skip
    )
    figure = figures.plot_sweep(sweep, "DIbinary", "accuracy", "kamishima")
    assert isinstance(figure.axes[0].collections[0].norm, SymLogNorm)
    linear = sweep.assign(value=[0.1, 0.2, 0.3, 0.4, 0.5])
    figure = figures.plot_sweep(linear, "DIbinary", "accuracy", "kamishima")
    assert not isinstance(figure.axes[0].collections[0].norm, SymLogNorm)


def test_table_headers_use_the_papers_names():
    summary = pd.DataFrame(
        {
            "dataset": "german",
            "sensitive_attribute": "sex",
            "variant": "numerical",
            "algorithm": "svm",
            "setting": "defaults",
            "measure": ["DIbinary", "sensitive-TPR"],
            "mean": [0.9, 0.8],
            "sd": [0.01, 0.02],
        }  # fmt: skip
    )
    assert list(tables.measure_table(summary, "sex").columns) == ["DIbinary", "sex-TPR"]
    outcomes = summary.iloc[:1][tables.CONFIGURATION].assign(
        **{"permutation positive_rate": 0.5, "individual loss-ratio": 0.1}
    )
    assert list(tables.audit_table(outcomes).columns) == ["demographic parity", "individual T_n"]


def test_the_measure_table_groups_algorithms_by_family_baselines_first():
    algorithms = ["zafar-fairness", "svm", "feldman-svm", "threshold-optimizer", "kamishima"]
    summary = pd.DataFrame(
        {
            "dataset": "german",
            "sensitive_attribute": "sex",
            "variant": "numerical+binary",
            "algorithm": algorithms,
            "setting": "defaults",
            "measure": "accuracy",
            "mean": 0.7,
            "sd": 0.01,
        }  # fmt: skip
    )
    family = registry.families(algorithms)
    table = tables.measure_table(summary, "sex", family)
    assert table.index.tolist() == [
        ("baseline", "svm"),
        ("pre-processing", "feldman-svm"),
        ("in-processing", "kamishima"),
        ("in-processing", "zafar-fairness"),
        ("post-processing", "threshold-optimizer"),
    ]
    assert table["accuracy"].eq("0.700 ± 0.010").all()


def test_stability_at_one_split_marks_each_mean_without_a_rectangle():
    # a KeyError ('sd', 'CV') on the main of issue #30: one split has no standard deviation
    summary = pd.DataFrame(
        {
            "algorithm": ["a", "a", "b", "b"],
            "measure": ["CV", "accuracy"] * 2,
            "mean": [0.9, 0.8, 0.7, 0.6],
            "sd": [np.nan] * 4,
        }  # fmt: skip
    )
    styles = figures.algorithm_styles(["a", "b"])
    figure = figures.plot_stability(summary, "CV", "accuracy", styles)
    rectangles = [p for p in figure.axes[0].patches if isinstance(p, Rectangle)]
    assert [(r.get_width(), r.get_height()) for r in rectangles] == [(0, 0), (0, 0)]
    means = sorted(tuple(c.get_offsets()[0]) for c in figure.axes[0].collections)
    assert means == [(0.7, 0.6), (0.9, 0.8)]
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["a", "b"]


def test_stability_of_many_algorithms_is_faceted_by_family():
    # 25 algorithms in one panel were overlapping rectangles in 7 hues on the main of issue #29
    names = [f"{family}-{i}" for family in ("pre", "in", "base") for i in range(4)]
    families = {n: {"pre": "pre-processing", "in": "in-processing", "base": "baseline"}[
        n.split("-")[0]] for n in names}  # fmt: skip
    summary = pd.DataFrame(
        [(n, m, 0.5 + 0.01 * i, 0.02) for i, n in enumerate(names) for m in ("CV", "accuracy")],
        columns=["algorithm", "measure", "mean", "sd"],
    )
    styles = figures.algorithm_styles(names)
    figure = figures.plot_stability(summary, "CV", "accuracy", styles, families=families)
    titles = [ax.get_title() for ax in figure.axes]
    assert titles == ["baseline", "pre-processing", "in-processing"]  # FAMILIES order
    for ax, prefix in zip(figure.axes, ("base", "pre", "in"), strict=True):
        shown = [c.get_label() for c in ax.collections]
        assert shown == [f"{prefix}-{i}" for i in range(4)]
    few = figures.plot_stability(summary[:16], "CV", "accuracy", styles, families=families)
    assert len(few.axes) == 1  # 8 algorithms: one panel
