"""Figures of the permutation audits (DiCiccio et al. 2020, Fig. 1 and Fig. 2).

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

from faircompare._deprecations import renamed_arguments
from faircompare.analysis.style import PALETTE, new_figure
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


def plot_threshold_curve(curve: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Plot |observed difference| and the permutation 95th percentile against the threshold."""
    figure, ax = _axes(ax)
    ax.plot(curve["threshold"], curve["observed"].abs(), marker="o", label="|observed difference|")
    ax.plot(
        curve["threshold"],
        curve["percentile_95"],
        linestyle="--",
        label="permutation 95th percentile",
    )
    ax.set_xlabel("decision threshold")
    ax.set_ylabel("difference between groups")
    ax.legend(frameon=False)
    return figure


def plot_pvalue_histogram(pvalues: Any, ax: Axes | None = None, bins: int = 20) -> Figure:
    """Histogram of p-values with the uniform density a valid test gives under the null."""
    figure, ax = _axes(ax)
    ax.hist(np.asarray(pvalues), bins=bins, range=(0, 1), density=True, color="#4477AA")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1, label="uniform")
    ax.set_xlabel("p-value")
    ax.set_ylabel("density")
    ax.legend(frameon=False)
    return figure


def plot_flipset_marginal(
    values: Any, flipset: Any, feature: str, ax: Axes | None = None, bins: int = 30
) -> Figure:
    """Histogram of one feature over a flipset, against the group it is drawn from."""
    figure, ax = _axes(ax)
    values = np.asarray(values, dtype=float)
    edges = np.histogram_bin_edges(values, bins=bins)
    ax.hist(values, bins=edges.tolist(), density=True, color="#BBBBBB", label="group")
    ax.hist(
        values[np.asarray(flipset, dtype=bool)],
        bins=edges.tolist(),
        density=True,
        histtype="step",
        linewidth=2,
        color="#EE6677",
        label="flipset",
    )
    ax.set_xlabel(feature)
    ax.set_ylabel("density")
    ax.legend(frameon=False)
    return figure


@renamed_arguments
def plot_transparency_report(
    transparency: pd.DataFrame, flipset: str = "F+", top: int = 10, ax: Axes | None = None
) -> Figure:
    """Bar chart of a flipset's leading features: mean difference x - G(x), ranked.

    ``transparency`` is a :class:`~faircompare.stats.FlipTestResult`'s (formerly ``report=``,
    which still works with a :class:`DeprecationWarning`). Where it has a
    ``monte_carlo_error`` column (a map fitted to samples), each bar carries its 95% interval.
    """
    figure, ax = _axes(ax)
    rows = transparency[transparency["flipset"] == flipset].nsmallest(top, "rank_difference")[::-1]
    colours = np.where(rows["mean_difference"] > 0, "#4477AA", "#EE6677")
    error = rows.get("monte_carlo_error")
    xerr = None if error is None else MONTE_CARLO_Z * error.astype(float).fillna(0.0).to_numpy()
    ax.barh(rows["feature"], rows["mean_difference"], color=colours, xerr=xerr, ecolor="black")
    ax.axvline(0, color="black", linewidth=0.8)
    interval = "" if xerr is None else "\n(bars: 95% sampling interval)"
    ax.set_xlabel(f"mean of x - G(x) over {flipset}{interval}")
    return figure


def plot_statistic_heatmap(
    grid: pd.DataFrame, delta: float = 1.25, ax: Axes | None = None
) -> Figure:
    """Heatmap of T_n over (theta1, theta2), from :func:`~.individual.coefficient_grid`.

    Blue below delta (fairness not rejected), red above; the black line is T_n = delta.
    """
    figure, ax = _axes(ax)
    table = grid.pivot(index="theta2", columns="theta1", values="statistic")
    theta1, theta2 = table.columns.to_numpy(), table.index.to_numpy()
    values = np.log(table.to_numpy() / delta)  # diverging around delta, on a ratio scale
    limit = float(np.nanmax(np.abs(values)))
    mesh = ax.pcolormesh(theta1, theta2, values, cmap="RdBu_r", vmin=-limit, vmax=limit)
    ax.contour(theta1, theta2, values, levels=[0.0], colors="black", linewidths=1.5)
    colourbar = figure.colorbar(mesh, ax=ax)
    colourbar.set_label(f"log(T_n / {delta})")
    ax.set_xlabel("theta1")
    ax.set_ylabel("theta2")
    return figure


def plot_statistic_by_steps(
    curves: pd.DataFrame, delta: float = 1.25, ax: Axes | None = None
) -> Figure:
    """T_n against attack steps, one line per model, log-log (Maity et al. Fig. 2).

    ``curves`` has columns ``model``, ``steps`` and ``statistic``
    (see :func:`~.individual.statistic_by_steps`).
    """
    figure, ax = _axes(ax)
    for (model, curve), colour in zip(curves.groupby("model", sort=False), PALETTE, strict=False):
        ax.plot(curve["steps"], curve["statistic"], marker="o", color=colour, label=model)
    ax.axhline(delta, color="black", linestyle="--", linewidth=1, label=f"delta = {delta}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("attack steps T")
    ax.set_ylabel("T_n")
    ax.legend(frameon=False)
    return figure


def _axes(ax: Axes | None) -> tuple[Figure, Axes]:
    if ax is not None:
        figure = ax.get_figure(root=True)
        assert isinstance(figure, Figure)
        return figure, ax
    return new_figure((5, 3.5))
