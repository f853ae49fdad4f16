"""The figure lint finds what makes a figure unreadable, and passes a clean one."""

import numpy as np
import pandas as pd
import pytest

from faircompare.analysis.lint import lint_figure
from faircompare.analysis.style import new_figure
from faircompare.choices import FAMILIES
from faircompare.registry import families


def scatter(x, y, title="a short title"):
    figure, ax = new_figure((4, 3))
    ax.scatter(x, y)
    ax.set_title(title)
    return figure


RNG = np.random.default_rng(0)
SPREAD = RNG.uniform(0, 1, (2, 50))


def test_a_clean_figure_has_no_problem():
    assert lint_figure(scatter(*SPREAD)) == []


def test_a_title_wider_than_the_figure_is_cut_off():
    # the tradeoff titles on the main of issue #29: "dult, race, numerical+binary: accuracy ..."
    title = "adult, race, numerical+binary: accuracy vs DIbinary gap, and a good deal more"
    problems = lint_figure(scatter(*SPREAD, title=title))
    assert problems == [f"text {title[:37] + '...'!r} leaves the figure"]


def test_overlapping_tick_labels_are_named():
    figure = scatter(*SPREAD)
    ax = figure.axes[0]
    ax.set_xticks(np.linspace(0, 1, 12), [f"label {i:02d}" for i in range(12)])
    problems = lint_figure(figure)
    assert problems and all(p.startswith("texts 'label ") for p in problems)
    assert "texts 'label 00' and 'label 01' overlap" in problems


def test_an_axis_stretched_by_a_few_values_is_named():
    # Adult's DIbinary gaps on the main of issue #29: two runs at 400 and 560, the rest near 0
    x = np.concatenate([RNG.uniform(0, 1, 98), [400.0, 560.0]])
    problems = lint_figure(scatter(x, RNG.uniform(0, 1, 100)))
    assert problems == [
        "98% of the points lie within 5% of the x axis (axes 'a short title'): a few values "
        "stretch it"
    ]


def test_a_tradeoff_of_25_algorithms_with_a_long_title_passes_the_lint():
    # 25 algorithms and "adult, race, numerical+binary: ..." cut the title on the main of #29
    from faircompare.analysis import figures
    from faircompare.registry import algorithms

    names = sorted(algorithms())[:25]
    frame = pd.DataFrame(
        {
            "algorithm": np.repeat(names, 4),
            "gap": RNG.uniform(0, 1, 100),
            "accuracy": RNG.uniform(0.6, 0.9, 100),
            "significant": RNG.random(100) < 0.5,
            "pareto": False,
        }  # fmt: skip
    )
    title = "adult, race, numerical+binary: accuracy vs DIbinary gap"
    styles = figures.algorithm_styles(names)
    with pytest.warns(DeprecationWarning, match="plot_tradeoff"):  # drawn by its kind (#63)
        figure = figures.plot_tradeoff(frame, styles, title=title)
    assert lint_figure(figure) == []
    # every algorithm, the Pareto front, and what filled and hollow points mean (#81)
    assert len(figure.legends[0].get_texts()) == 28
    # faceted by family: a panel each, the other families' runs in grey behind
    with pytest.warns(DeprecationWarning, match="plot_tradeoff"):
        faceted = figures.plot_tradeoff(frame, styles, title=title, families=families(names))
    assert lint_figure(faceted) == []
    panels = [ax for ax in faceted.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == [
        f for f in FAMILIES if f in set(families(names).values())
    ]
    assert len(faceted.legends[0].get_texts()) == 28
    for ax in panels:
        grey, *coloured = ax.collections
        assert len(grey.get_offsets()) + sum(len(c.get_offsets()) for c in coloured) == 100


def test_a_critical_difference_diagram_of_25_names_passes_the_lint():
    # its rank numbers ran together ("10111213...") at 25 algorithms on the main of issue #29
    from faircompare.analysis import kinds
    from faircompare.analysis.canvas import REPORT
    from faircompare.analysis.compare import FriedmanTest

    names = [f"correlation-remover-logistic-regression-{i}" for i in range(25)]
    ranks = pd.Series(np.linspace(1, 25, 25), index=names)
    test = FriedmanTest(ranks, 30.0, 0.01, 7.5, 10, 0.05)
    figure = kinds.critical_difference.draw(
        kinds.critical_difference.CriticalDifferenceFrames(test, "average rank"), REPORT
    )
    assert lint_figure(figure) == []
    numbers = [t for t in figure.axes[0].texts if t.get_text().isdigit()]
    renderer = figure.canvas.get_renderer()
    boxes = sorted(t.get_window_extent(renderer).x0 for t in numbers)
    widths = max(t.get_window_extent(renderer).width for t in numbers)
    assert min(np.diff(boxes)) > widths + 2  # a visible gap between neighbouring ranks
