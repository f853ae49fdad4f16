"""Figures that say what they show: each test failed on the main of issue #16."""

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import SymLogNorm, rgb_to_hsv, to_rgb
from matplotlib.patches import Rectangle

from faircompare import registry
from faircompare.analysis import figures, kinds, tables, tidy
from faircompare.analysis.canvas import REPORT
from faircompare.analysis.style import study_styles
from faircompare.records import DEFAULTS
from faircompare.registry import algorithms


def twin(name, *args, **kwargs):
    """Call a deprecated drawing function of figures.py, which draws with its kind (#63)."""
    with pytest.warns(DeprecationWarning, match=rf"figures\.{name}\(\) is deprecated.*0\.4\.0"):
        return getattr(figures, name)(*args, **kwargs)


def individual_rows() -> pd.DataFrame:
    """Four runs' loss-ratio and error-ratio rows on two datasets: fair, unfair, very unfair but
    noisy (T_n = -226,645), and a tree whose probabilities are near-certain (T_n 1.4e6 is the
    loss's floor at work; T~_n = 1.4 is the statistic defined for it)."""
    runs = {  # algorithm: (dataset, T_n, T~_n, near-certain share, rejects by T_n, by T~_n)
        "fair": ("d1", 0.99, 1.1, 0.0, False, False),
        "unfair": ("d1", 2.3, 2.0, 0.01, True, True),
        "noisy": ("d2", -226_645.0, 0.9, 0.02, False, False),
        "tree": ("d2", 1.4e6, 1.4, 0.8, True, True),
    }
    rows = []
    for name, (dataset, t_n, t_error, near, reject_loss, reject_error) in runs.items():
        shared = {"key": name, "algorithm": name, "dataset": dataset, "audit": "individual",
                  "sensitive_attribute": "s", "variant": "numerical", "setting": "defaults"}  # fmt: skip
        rows.append(
            {
                **shared,
                "metric": "loss-ratio",
                "statistic": t_n,
                "details": {"near_certain": near, "reject": reject_loss, "delta": 1.25},
            }
        )
        rows.append({**shared, "metric": "error-ratio", "statistic": t_error,
                     "details": {"reject": reject_error, "delta": 1.25}})  # fmt: skip
    return pd.DataFrame(rows)


def test_each_run_shows_the_statistic_defined_for_it():
    chosen = tidy.individual_statistics(individual_rows()).set_index("algorithm")
    # the tree's share of near-certain points (0.8) is above 5 %: its error-rate ratio is read
    assert chosen.loc["tree", ["statistic", "kind"]].tolist() == [1.4, "error ratio"]
    assert chosen.loc["noisy", ["statistic", "kind"]].tolist() == [-226_645.0, "loss ratio"]
    assert chosen["kind"].value_counts().to_dict() == {"loss ratio": 3, "error ratio": 1}


def test_the_former_figure_draws_the_individual_kind_with_a_warning():
    rows = individual_rows()
    styles = figures.algorithm_styles(rows["algorithm"])
    with pytest.warns(DeprecationWarning, match=r"use faircompare.analysis.kinds.individual.draw"):
        figure = figures.plot_individual_statistics(rows, styles, title="four runs")
    assert [_title(ax) for ax in figure.axes] == [
        "d1, s, numerical, 2 runs",
        "d2, s, numerical, 2 runs, 1 at the left edge",
    ]
    assert figure.get_suptitle() == "four runs"


def _title(ax) -> str:
    return ax.get_title().replace("\n", " ")


def _individual(statistics: pd.DataFrame):
    styles = figures.algorithm_styles(statistics["algorithm"])
    return kinds.individual.draw(kinds.individual.arranged(statistics, styles), REPORT)


def test_individual_statistics_are_a_panel_per_configuration_on_a_readable_scale():
    d1, d2 = _individual(tidy.individual_statistics(individual_rows())).axes
    assert d1.get_xscale() == d2.get_xscale() == "log"
    # the tree is a square at T~_n = 1.4, not a circle at 1.4e6; the noisy T_n sits at the
    # left edge and the panel's title counts it
    drawn = np.concatenate([c.get_offsets()[:, 0] for c in d2.collections])
    assert sorted(drawn) == [kinds.individual.FLOOR, 1.4]
    assert _title(d2) == "d2, s, numerical, 2 runs, 1 at the left edge"
    # the share of decided runs rejecting, at the end of each algorithm's row (rows shared:
    # the other panel's algorithms have none here)
    assert sorted(t.get_text() for t in d2.texts) == ["0%", "100%"]
    # a row per algorithm, in the selection's order (sorted), named once: the panels share them
    assert [t.get_text() for t in d1.get_yticklabels()] == ["fair", "noisy", "tree", "unfair"]


def test_a_derivative_free_run_shows_its_monte_carlo_interval_and_an_open_verdict_filled():
    # "unfair" attacked without gradients: T_n = 2.3 with a Monte Carlo error of 0.6, so its
    # interval 2.3 +- 1.96 x 0.6 = [1.124, 3.476] holds delta = 1.25: undecided, drawn filled,
    # and left out of its row's share (no decided run: "-"); the interval is drawn up to the
    # axis' end (the higher of 2 delta and 1.2 times the runs' 90th percentile)
    rows = individual_rows()
    loss = (rows["key"] == "unfair") & (rows["metric"] == "loss-ratio")
    rows.loc[loss, "details"] = [rows.loc[loss, "details"].iloc[0] | {"monte_carlo_error": 0.6,
                                                                       "undecided": True}]  # fmt: skip
    statistics = tidy.individual_statistics(rows).set_index("algorithm")
    assert statistics.loc["unfair", ["monte_carlo_error", "undecided"]].tolist() == [0.6, True]
    assert statistics.loc["fair", ["monte_carlo_error", "undecided"]].tolist() == [0.0, False]
    d1, _ = _individual(statistics.reset_index()).axes
    (line,) = [c for c in d1.collections if isinstance(c, LineCollection)]
    (segment,) = line.get_segments()
    first = statistics[statistics["dataset"] == "d1"]
    top = max(2 * 1.25, 1.2 * first["statistic"].quantile(0.9))
    assert segment[:, 0].tolist() == pytest.approx([2.3 - 1.96 * 0.6, min(top, 3.476)], abs=1e-3)
    points = [c for c in d1.collections if isinstance(c, PathCollection) and len(c.get_offsets())]
    filled = [c.get_offsets()[0, 0] for c in points if len(c.get_facecolor())]  # not "none"
    assert filled == [2.3]
    assert sorted(t.get_text() for t in d1.texts) == ["-", "0%"]


def test_stability_rectangles_span_mean_plus_minus_one_sd():
    summary = pd.DataFrame(
        {
            "algorithm": ["a", "a"],
            "measure": ["CV", "accuracy"],
            "mean": [0.9, 0.8],
            "sd": [0.1, 0.05],
        }  # fmt: skip
    )
    figure = twin("plot_stability", summary, "CV", "accuracy", figures.algorithm_styles(["a"]))
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


def test_zafar_accuracy_is_an_orange_of_its_family_in_every_setting_it_is_shown_in():
    # its name ends as a tuned setting's does (-accuracy): it was styled as a plugin named
    # "zafar", in yellow (#CCBB44), beside zafar-fairness in orange (#81)
    styles = study_styles(["zafar-fairness", "zafar-accuracy"], budgets=[10])
    names = figures.algorithm_styles(["zafar-accuracy", "zafar-accuracy (tuned)"])
    shown = ["zafar-accuracy", "zafar-accuracy (tuned)", "zafar-accuracy (grid)"]
    assert all(
        styles[name] == styles["zafar-accuracy"] == names["zafar-accuracy"] for name in shown
    )
    hues = [rgb_to_hsv(to_rgb(styles[n]["color"]))[0] for n in ("zafar-fairness", "zafar-accuracy")]
    assert all(15 / 360 < hue < 35 / 360 for hue in hues), hues  # orange; yellow is 54 degrees
    assert styles["zafar-accuracy"]["color"] != styles["zafar-fairness"]["color"]


def cielab(colour: str) -> np.ndarray:
    """sRGB (D65) to CIE 1976 L*a*b* (CIE 15:2004, §8.2.1), by hand."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ linear / [0.95047, 1.0, 1.08883]  # fmt: skip
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_two_algorithms_sharing_a_marker_differ_plainly_in_colour_and_none_is_background_grey():
    # the paper figure's reader saw #35a063 and #4bb062 (optimized preprocessing and a
    # reduction) as one colour, both diamonds, and a plugin in the background grey (#81)
    names = list(algorithms())
    styles = figures.algorithm_styles([*names, *(f"plugin-{i}" for i in range(40))])
    assert cielab("#ffffff") == pytest.approx([100, 0, 0], abs=0.02)  # the white point
    assert np.linalg.norm(cielab("#35a063") - cielab("#4bb062")) < 20  # the pair seen as one
    for a, b in itertools.combinations(names, 2):
        if styles[a]["marker"] == styles[b]["marker"]:
            gap = np.linalg.norm(cielab(styles[a]["color"]) - cielab(styles[b]["color"]))
            assert gap >= 20, (a, b, styles[a], styles[b])  # delta E 10 reads as one colour
    assert "#BBBBBB" not in {style["color"].upper() for style in styles.values()}


def test_an_algorithm_looks_the_same_in_every_study_plugins_included():
    # issue #63: logistic regression was a dark-grey x in one results folder and a yellow
    # square in another; a style now follows from the name alone
    names = list(algorithms())
    everything = figures.algorithm_styles([*names, "my-method", "group-quantile-threshold"])
    rng = np.random.default_rng(0)
    for _ in range(20):  # studies of a few algorithms each, a plugin among them
        study = [*rng.choice(names, size=4, replace=False), "my-method"]
        styles = figures.algorithm_styles(study)
        assert all(styles[name] == everything[name] for name in study)
    # a plugin never takes a built-in algorithm's look
    builtin = {(everything[n]["color"], everything[n]["marker"]) for n in names}
    for plugin in ("my-method", "group-quantile-threshold"):
        assert (everything[plugin]["color"], everything[plugin]["marker"]) not in builtin


def test_a_test_that_was_not_run_is_not_drawn_as_no_rejection():
    outcomes = pd.DataFrame(
        {
            "algorithm": ["scored", "unscored"],
            "permutation AUC": [0.5, np.nan],
            "permutation TPR": [0.2, 0.0],
        }  # fmt: skip
    )
    shares = kinds.audits.shares(outcomes.assign(setting=DEFAULTS))
    figure = kinds.audits.draw(kinds.audits.AuditFrames({"t": shares}, list(shares.index), []))
    texts = [t.get_text() for t in figure.axes[0].texts]  # row by row: AUC parity, TPR
    assert texts == ["20", "50", "0", "n/a"]  # percent; the unscored model: AUC not run
    assert figure.axes[0].get_title() == "t"
    # the tables' names and order, a long one in two lines
    assert [t.get_text().replace("\n", " ") for t in figure.axes[0].get_xticklabels()] == [
        "equal opportunity (TPR)", "AUC parity"]  # fmt: skip


def test_maitys_statistics_are_set_in_math_in_print_and_plain_on_the_page():
    # the paper figure's columns read "individual T~_n", the LaTeX table's
    # "individual T\textasciitilde{}\_n" (#81)
    outcomes = pd.DataFrame({"algorithm": ["a"], "individual loss-ratio": [0.2],
                             "individual error-ratio": [0.4]})  # fmt: skip
    shares = kinds.audits.shares(outcomes.assign(setting=DEFAULTS))
    assert list(shares.columns) == ["individual T_n", "individual T~_n"]  # as the page reads
    figure = kinds.audits.draw(kinds.audits.AuditFrames({"t": shares}, list(shares.index), []))
    ticks = [t.get_text() for t in figure.axes[0].get_xticklabels()]
    assert ticks == ["individual $T_n$", "individual $\\tilde{T}_n$"]  # as long as read
    figure.canvas.draw()  # mathtext parses them
    header = tables.to_latex(shares).splitlines()[4]
    assert header == r" & individual $T_n$ & individual $\tilde{T}_n$ \\"


def test_a_logarithmic_grid_is_coloured_on_a_log_scale():
    # the sweep kind's colours: eta from 0 to 300 spans orders of magnitude, 0.1 to 0.5 does not
    frames = kinds.sweep.SweepFrames(
        pd.DataFrame({"panel": "", "parameter": "eta", "value": [0.0, 1.0, 10.0, 100.0, 300.0],
                      "x": np.linspace(0.5, 1, 5), "y": np.linspace(0.8, 0.7, 5)}),
        [""], "DIbinary", "accuracy",
    )  # fmt: skip
    figure = kinds.sweep.draw(frames)
    assert isinstance(figure.axes[0].collections[0].norm, SymLogNorm)
    linear = frames.runs.assign(value=[0.1, 0.2, 0.3, 0.4, 0.5])
    figure = kinds.sweep.draw(kinds.sweep.SweepFrames(linear, [""], "DIbinary", "accuracy"))
    assert not isinstance(figure.axes[0].collections[0].norm, SymLogNorm)
    assert figure.axes[1].get_ylabel() == "eta"  # the colour bar names the parameter


def test_a_sweeps_panel_says_when_its_grid_values_give_the_same_points():
    # the paper page's zafar-accuracy panel was a dot per split, every gamma on it: a reader
    # saw two runs of its twelve (#81)
    one_model = pd.DataFrame(
        {
            "panel": "z",
            "parameter": "gamma",
            "value": [0.1, 0.5, 1.0] * 2,
            "x": [0.93] * 3 + [1.04] * 3,
            "y": [0.841] * 3 + [0.8406] * 3,
        }
    )
    figure = kinds.sweep.draw(kinds.sweep.SweepFrames(one_model, ["z"], "DIbinary", "accuracy"))
    assert figure.axes[0].get_title() == "z\n6 runs at 2 points"
    apart = one_model.assign(x=np.linspace(0.9, 1.0, 6))  # each value its own point
    figure = kinds.sweep.draw(kinds.sweep.SweepFrames(apart, ["z"], "DIbinary", "accuracy"))
    assert figure.axes[0].get_title() == "z"


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
    figure = twin("plot_stability", summary, "CV", "accuracy", styles)
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
    figure = twin("plot_stability", summary, "CV", "accuracy", styles, families=families)
    titles = [ax.get_title() for ax in figure.axes]
    assert titles == ["baseline", "pre-processing", "in-processing"]  # FAMILIES order
    for ax, prefix in zip(figure.axes, ("base", "pre", "in"), strict=True):
        shown = [c.get_label() for c in ax.collections]
        assert shown == [f"{prefix}-{i}" for i in range(4)]
    few = twin("plot_stability", summary[:16], "CV", "accuracy", styles, families=families)
    assert len(few.axes) == 1  # 8 algorithms: one panel


def test_the_runs_of_a_grid_s_points_share_their_algorithm_s_pooled_row():
    # the report draws every audited run: ten points of a grid are one row, not ten
    statistics = tidy.individual_statistics(individual_rows())
    grid = statistics["algorithm"] == "fair"
    statistics.loc[grid, "setting"] = '{"c": 0.1}'
    styles = study_styles(statistics["algorithm"])
    shown = kinds.individual.arranged(statistics, styles)
    assert shown.rows == ["fair (grid)", "noisy", "tree", "unfair"]
