"""Figures of the audits' statistics on arrays, each drawn on a canvas at a layout (a column's).

The report's p-value histogram, threshold curve and transparency report are the figure kinds
:mod:`~faircompare.analysis.kinds.pvalues`, :mod:`~.kinds.threshold` and :mod:`~.kinds.flipset`,
which choose what a study's runs show and draw it with these functions.

- :func:`plot_pvalue_histogram`: p-values across simulations or runs; under the null they
  should be uniform, and an excess near 0 shows an invalid test (Fig. 1).
- :func:`threshold_curve` and :func:`plot_threshold_curve`: across decision thresholds, the
  observed difference of a metric between two groups against the 95th percentile of the
  permutation distribution of that difference (Fig. 2).
- :func:`plot_flipset_marginal`: a feature's distribution over a FlipTest flipset against its
  distribution over the whole group (Black et al. Fig. 3-5).
- :func:`plot_transparency_report`: the features that lead a flipset's transparency report.
- :func:`plot_statistic_heatmap`: the individual-fairness statistic T_n over a grid of
  logistic coefficients, with the rejection boundary T_n = delta (Maity et al. Fig. 1).
- :func:`plot_statistic_by_steps`: T_n against the number of attack steps, log-log (Fig. 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._deprecations import former_forms
from faircompare.analysis.canvas import (
    COLOUR_BAR,
    COLUMN,
    LABEL_ROOM,
    Layout,
    canvas,
    finish,
    widest,
)
from faircompare.analysis.style import PALETTE, paper_style
from faircompare.stats.individual import MONTE_CARLO_Z
from faircompare.stats.permutation import PERMUTATIONS, permutation_test


def threshold_curve(
    y_true: Any,
    scores: Any,
    sensitive_features: Any,
    *,
    group_a: Any,
    thresholds: Any,
    metric: str = "positive_rate",
    permutations: int = PERMUTATIONS,
    rng: np.random.Generator | int | None = None,
) -> pd.DataFrame:
    """Compute, per threshold, the observed difference and the 95th percentile under permutation.

    Parameters
    ----------
    y_true, scores
        Labels and the model's scores.
    sensitive_features
        Each row's group.
    group_a
        Group A, compared with everyone else.
    thresholds
        Decision thresholds: a score at or above one predicts 1.
    metric
        The metric compared (one of :data:`~faircompare.stats.permutation.PROPORTIONS`).
    permutations
        Permutations per test.
    rng
        Random generator or seed.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold``, ``observed`` (metric(A) - metric(B) when predicting 1 for scores
        at or above the threshold), ``percentile_95`` (of |difference| under permutation) and
        ``pvalue`` (of the studentized test).
    """
    rng = np.random.default_rng(rng)
    scores = np.asarray(scores, dtype=float)
    rows = []
    for threshold in thresholds:
        y_pred = (scores >= threshold).astype(int)
        test = {"metric": metric, "group_a": group_a, "permutations": permutations, "rng": rng}
        raw = permutation_test(y_true, y_pred, sensitive_features, studentize=False, **test)
        studentized = permutation_test(y_true, y_pred, sensitive_features, **test)
        rows.append(
            {
                "threshold": float(threshold),
                "observed": raw.observed,
                "percentile_95": float(np.quantile(np.abs(raw.null_distribution), 0.95)),
                "pvalue": studentized.pvalue,
            }
        )
    return pd.DataFrame(rows)


def plot_threshold_curve(
    curve: pd.DataFrame,
    ax: Axes | None = None,
    *,
    layout: Layout | None = None,
    title: str = "",
) -> Figure:
    """Plot |observed difference| and the permutation 95th percentile against the threshold.

    Parameters
    ----------
    curve
        :func:`threshold_curve`'s frame.
    ax
        Axes of your own to draw into.
    layout
        The figure's size and look (:class:`~faircompare.analysis.canvas.Layout`); a column's
        by default.
    title
        Its title (the run it shows, say).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [OBSERVED, PERCENTILE], aspect=ASPECT, titled=bool(title))
        (panel,) = drawn.axes
        panel.plot(curve["threshold"], curve["observed"].abs(), marker="o", markersize=3,
                   color=PALETTE[0], label=OBSERVED)  # fmt: skip
        panel.plot(curve["threshold"], curve["percentile_95"], linestyle="--", color=PALETTE[1],
                   label=PERCENTILE)  # fmt: skip
        panel.set_title(title)
        panel.set_xlabel("decision threshold (score)")
        panel.set_ylabel("difference between groups")
        return finish(drawn)


OBSERVED = "|observed difference|"
PERCENTILE = "permutation 95th percentile"
UNIFORM = "uniform (a valid test under the null)"
ASPECT = 0.6  # a panel's height over its width


def plot_pvalue_histogram(
    pvalues: Any,
    ax: Axes | None = None,
    bins: int = 20,
    *,
    layout: Layout | None = None,
    title: str = "",
) -> Figure:
    """Histogram of p-values with the uniform density a valid test gives under the null.

    Parameters
    ----------
    pvalues
        The p-values.
    ax
        Axes of your own to draw into.
    bins
        Bins over [0, 1].
    layout
        The figure's size and look; a column's by default.
    title
        Its title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [UNIFORM], aspect=ASPECT, titled=bool(title))
        (panel,) = drawn.axes
        panel.hist(np.asarray(pvalues, dtype=float), bins=bins, range=(0, 1), density=True,
                   color=PALETTE[0])  # fmt: skip
        panel.axhline(1.0, color="black", linestyle="--", linewidth=0.8, label=UNIFORM)
        panel.set_xlim(0, 1)
        panel.set_title(title)
        panel.set_xlabel("p-value")
        panel.set_ylabel("density")
        return finish(drawn)


def plot_flipset_marginal(
    values: Any,
    flipset: Any,
    feature: str,
    ax: Axes | None = None,
    bins: int = 30,
    *,
    layout: Layout | None = None,
) -> Figure:
    """Histogram of one feature over a flipset, against the group it is drawn from.

    Parameters
    ----------
    values
        The feature's value for each member of the group.
    flipset
        Whether each member is in the flipset.
    feature
        The feature's name, the axis' label.
    ax
        Axes of your own to draw into.
    bins
        Bins over the values' range.
    layout
        The figure's size and look; a column's by default.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    values = np.asarray(values, dtype=float)
    edges = np.histogram_bin_edges(values, bins=bins).tolist()
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, ["group", "flipset"], aspect=ASPECT)
        (panel,) = drawn.axes
        panel.hist(values, bins=edges, density=True, color=GREY, label="group")
        panel.hist(values[np.asarray(flipset, dtype=bool)], bins=edges, density=True,
                   histtype="step", linewidth=1.5, color=PALETTE[1], label="flipset")  # fmt: skip
        panel.set_xlabel(feature)
        panel.set_ylabel("density")
        return finish(drawn)


GREY = "#BBBBBB"
BAR = 0.2  # inches a bar of a transparency report takes


@former_forms
def plot_transparency_report(
    transparency: pd.DataFrame,
    flipset: str = "F+",
    top: int = 10,
    ax: Axes | None = None,
    *,
    layout: Layout | None = None,
    title: str = "",
) -> Figure:
    """Bar chart of a flipset's leading features: mean difference x - G(x), the largest on top.

    Parameters
    ----------
    transparency
        A :class:`~faircompare.stats.FlipTestResult`'s (formerly ``report=``, which still
        works with a :class:`DeprecationWarning`). Where it has a ``monte_carlo_error``
        column (a map fitted to samples), each bar carries its 95% interval.
    flipset
        ``"F+"`` or ``"F-"``.
    top
        The features shown, those that move most.
    ax
        Axes of your own to draw into.
    layout
        The figure's size and look; a column's by default.
    title
        Its title (the run and its rate, say).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    rows = transparency[transparency["flipset"] == flipset].nsmallest(top, "rank_difference")
    error = rows.get("monte_carlo_error")
    sampled = error is not None and bool(error.notna().any())
    xerr = MONTE_CARLO_Z * error.astype(float).fillna(0.0).to_numpy() if sampled else None
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [], aspect=1.0, titled=bool(title),
                       label_room=widest(rows["feature"], layout.small) + 0.2,
                       panel_height=BAR * len(rows) + 0.4)  # fmt: skip
        (panel,) = drawn.axes
        colours = np.where(rows["mean_difference"] > 0, PALETTE[0], PALETTE[1])
        panel.barh(rows["feature"], rows["mean_difference"], color=colours, xerr=xerr,
                   ecolor="black")  # fmt: skip
        panel.axvline(0, color="black", linewidth=0.8)
        panel.invert_yaxis()  # the most moved feature on top
        panel.set_title(title)
        interval = "\n(bars: 95% sampling interval)" if sampled else ""
        panel.set_xlabel(f"mean of x - G(x) over {flipset}{interval}")
        return finish(drawn)


def plot_statistic_heatmap(
    grid: pd.DataFrame,
    delta: float = 1.25,
    ax: Axes | None = None,
    *,
    layout: Layout | None = None,
) -> Figure:
    """Heatmap of T_n over (theta1, theta2), from :func:`~.individual.coefficient_grid`.

    Blue below delta (fairness not rejected), red above; the black line is T_n = delta.

    Parameters
    ----------
    grid
        :func:`~faircompare.stats.individual.coefficient_grid`'s frame.
    delta
        The test's delta.
    ax
        Axes of your own to draw into.
    layout
        The figure's size and look; a column's by default.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    table = grid.pivot(index="theta2", columns="theta1", values="statistic")
    theta1, theta2 = table.columns.to_numpy(), table.index.to_numpy()
    values = np.log(table.to_numpy() / delta)  # diverging around delta, on a ratio scale
    limit = float(np.nanmax(np.abs(values)))
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [], aspect=0.8, label_room=LABEL_ROOM + COLOUR_BAR)
        (panel,) = drawn.axes
        mesh = panel.pcolormesh(theta1, theta2, values, cmap="RdBu_r", vmin=-limit, vmax=limit)
        panel.contour(theta1, theta2, values, levels=[0.0], colors="black", linewidths=1.2)
        drawn.figure.colorbar(mesh, ax=panel).set_label(f"log(T_n / {delta})")
        panel.set_xlabel("theta1")
        panel.set_ylabel("theta2")
        return finish(drawn)


def plot_statistic_by_steps(
    curves: pd.DataFrame,
    delta: float = 1.25,
    ax: Axes | None = None,
    *,
    layout: Layout | None = None,
) -> Figure:
    """T_n against attack steps, one line per model, log-log (Maity et al. Fig. 2).

    Parameters
    ----------
    curves
        Columns ``model``, ``steps`` and ``statistic``
        (see :func:`~.individual.statistic_by_steps`).
    delta
        The test's delta, a dashed line.
    ax
        Axes of your own to draw into.
    layout
        The figure's size and look; a column's by default.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    models = list(dict.fromkeys(curves["model"]))
    line = f"delta = {delta}"
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [*models, line], aspect=0.8)
        (panel,) = drawn.axes
        for model, colour in zip(models, PALETTE, strict=False):
            curve = curves[curves["model"] == model]
            panel.plot(curve["steps"], curve["statistic"], marker="o", markersize=3, color=colour,
                       label=model)  # fmt: skip
        panel.axhline(delta, color="black", linestyle="--", linewidth=0.8, label=line)
        panel.set_xscale("log")
        panel.set_yscale("log")
        panel.set_xlabel("attack steps T")
        panel.set_ylabel("T_n")
        return finish(drawn)
