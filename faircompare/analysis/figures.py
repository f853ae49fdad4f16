"""Figures of the analyses, in one colour-blind-safe style (Friedler et al. Fig. 2-9).

Every function returns a matplotlib Figure; :func:`save` writes it as PDF, SVG and PNG under
one name. Algorithms keep the same colour and marker in every figure of a report
(:func:`algorithm_styles`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.colors import SymLogNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform

from faircompare.analysis.compare import FriedmanTest
from faircompare.analysis.equal_fairness import (
    CONSTRAINT_MEASURES,
    accuracy_limits,
    frontier_accuracy,
)
from faircompare.analysis.style import (
    LEGEND_COLUMN,
    PALETTE,
    PrintFigure,
    Style,
    algorithm_styles,
    legend_columns,
    legend_height,
    legend_outside,
    new_figure,
)
from faircompare.analysis.tidy import individual_statistics
from faircompare.names import FAMILIES
from faircompare.safe_write import replaced
from faircompare.stats.individual import MONTE_CARLO_Z

__all__ = [
    "FORMATS",
    "algorithm_styles",
    "legend_outside",
    "plot_attributes",
    "plot_audit_shares",
    "plot_correlations",
    "plot_critical_difference",
    "plot_equal_fairness",
    "plot_individual_statistics",
    "plot_intervals",
    "plot_measure_pairs",
    "plot_preprocessing",
    "plot_runs",
    "plot_stability",
    "plot_sweep",
    "plot_tradeoff",
    "save",
]

#: The formats every figure is saved in.
FORMATS = ("pdf", "svg", "png")


def save(
    figure: Figure, folder: str | Path, name: str, *, root: str | Path | None = None
) -> list[Path]:
    """Write ``figure`` as ``folder/name.pdf``, ``.svg`` and ``.png``, each whole or not at all.

    Parameters
    ----------
    figure
        The figure.
    folder
        Where to write; created when missing.
    name
        File name without extension.
    root
        The folder the user named, holding ``folder``: no link between the two is written
        through (:mod:`faircompare.safe_write`). Default: ``folder``.

    Returns
    -------
    list of Path
        The files written.
    """
    folder = Path(folder)
    paths = [folder / f"{name}.{fmt}" for fmt in FORMATS]
    for path in paths:
        with replaced(path, Path(root or folder)) as temporary:
            figure.savefig(temporary, dpi=150 if path.suffix == ".png" else None)
    return paths


def plot_correlations(matrix: pd.DataFrame, title: str = "") -> Figure:
    """Draw the heatmap of measure correlations, rows and columns ordered by clustering (Fig. 3).

    Measures are clustered by average linkage on the distance 1 - r, so measures that move
    together (DI and CV, say) end up next to each other.

    Parameters
    ----------
    matrix
        A square matrix of correlations between measures (:func:`~.tidy.correlation_matrix`).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    matrix = matrix.dropna(how="all").dropna(axis=1, how="all")
    order = _cluster_order(matrix)
    ordered = matrix.iloc[order, order]
    size = 2.5 + 0.22 * len(ordered)
    figure, ax = new_figure((size + 1, size))
    sns.heatmap(
        ordered, ax=ax, cmap="RdBu", vmin=-1, vmax=1, square=True, xticklabels=True,
        yticklabels=True, cbar_kws={"shrink": 0.6, "label": "correlation"},
    )  # fmt: skip
    ax.tick_params(labelsize=7)
    ax.set_title(title)
    return figure


def _cluster_order(matrix: pd.DataFrame) -> np.ndarray:
    if len(matrix) < 3:
        return np.arange(len(matrix))
    distance = 1 - matrix.fillna(0).to_numpy()
    np.fill_diagonal(distance, 0)
    distance = (distance + distance.T) / 2
    condensed = squareform(distance.clip(min=0), checks=False)
    return leaves_list(linkage(condensed, "average", optimal_ordering=True))


def plot_runs(
    frame: pd.DataFrame,
    x: str,
    y: str,
    styles: dict[str, Style],
    *,
    title: str = "",
    filled: pd.Series | None = None,
) -> Figure:
    """Plot one point per run, coloured by algorithm (Fig. 4-6); hollow where ``filled`` is False.

    The figure widens with its legend, so that the axes keep their width.

    Parameters
    ----------
    frame
        One row per run, with its ``algorithm`` and the columns ``x`` and ``y``.
    x, y
        The columns on the axes.
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.
    filled
        Per row of ``frame``, whether its marker is filled; every marker is when None.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    figure, ax = new_figure(
        (3.9 + LEGEND_COLUMN * legend_columns(frame["algorithm"].nunique()), 4.5)
    )
    _scatter_runs(ax, frame, x, y, styles, filled)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    figure.suptitle(title, fontsize=10, wrap=True)  # above the axes and the legend
    legend_outside(figure, ax)
    return figure


def plot_measure_pairs(
    frame: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    styles: dict[str, Style],
    *,
    title: str = "",
) -> Figure:
    """One panel per pair of measures, a point per run coloured by algorithm (Fig. 4).

    Parameters
    ----------
    frame
        Runs with ``algorithm`` (as styled) and a column per measure.
    pairs
        The (x, y) measures of each panel.
    styles
        Each algorithm's colour and marker.
    title
        The figure's title.

    Returns
    -------
    Figure
        The panels side by side, one legend beside them.
    """
    entries = frame["algorithm"].nunique()
    width = 0.8 + 3.6 * len(pairs) + LEGEND_COLUMN * legend_columns(entries)
    figure = PrintFigure(figsize=(width, legend_height(entries, 4.2)), layout="constrained")
    axes = figure.subplots(1, len(pairs), squeeze=False)[0]
    for ax, (x, y) in zip(axes, pairs, strict=True):
        _scatter_runs(ax, frame, x, y, styles, None)
        ax.set_xlabel(x, fontsize=8)
        ax.set_ylabel(y, fontsize=8)
    figure.suptitle(title, fontsize=10, wrap=True)
    legend_outside(figure, axes[0])
    return figure


def _scatter_runs(
    ax: Axes,
    frame: pd.DataFrame,
    x: str,
    y: str,
    styles: dict[str, Style],
    filled: pd.Series | None,
) -> None:
    """Draw a point per run in its algorithm's style, labelled once per algorithm."""
    for algorithm, runs in frame.groupby("algorithm"):
        style = styles[algorithm]
        solid = filled.loc[runs.index] if filled is not None else pd.Series(True, runs.index)
        for is_solid, part in runs.groupby(solid):
            ax.scatter(
                part[x], part[y], marker=style["marker"], s=28,
                facecolors=style["color"] if is_solid else "none", edgecolors=style["color"],
                label=algorithm if is_solid or not solid.any() else None,
            )  # fmt: skip


def plot_tradeoff(
    frame: pd.DataFrame,
    styles: dict[str, Style],
    *,
    title: str = "",
    families: Mapping[str, str] | None = None,
) -> Figure:
    """Plot accuracy against the fairness gap per run, with the Pareto front.

    Filled markers are runs whose demographic-parity gap is significant after Holm's
    correction (:func:`~faircompare.analysis.tidy.tradeoff`); hollow ones are not. Given
    ``families`` and more than :data:`FACET_ABOVE` algorithms, each family gets its own panel
    on shared axes, the other families' runs in light grey behind it and the Pareto front of all
    runs in every panel.

    Parameters
    ----------
    frame
        One row per run with ``accuracy``, ``gap``, ``significant`` and ``pareto``
        (:func:`~.tidy.tradeoff`).
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.
    families
        Each algorithm's family; with it, past :data:`FACET_ABOVE` algorithms, a panel per
        family.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    groups = _family_groups(sorted(frame["algorithm"].unique()), families)
    columns = min(len(groups), 3)
    rows = -(-len(groups) // columns)
    width = 0.8 + 3.4 * columns + LEGEND_COLUMN * legend_columns(frame["algorithm"].nunique() + 1)
    figure = PrintFigure(figsize=(width, 0.8 + 3.6 * rows), layout="constrained")
    axes = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False).ravel()
    front = frame[frame["pareto"]].sort_values("gap")
    for ax, (family, names) in zip(axes, groups, strict=False):
        mine = frame["algorithm"].isin(names)
        if len(groups) > 1:
            ax.scatter(frame.loc[~mine, "gap"], frame.loc[~mine, "accuracy"], s=6,
                       color="#DDDDDD", zorder=0)  # fmt: skip
        ax.step(front["gap"], front["accuracy"], where="post", color="black", linewidth=1,
                label="Pareto front" if ax is axes[0] else None)  # fmt: skip
        _scatter_runs(ax, frame[mine], "gap", "accuracy", styles, frame["significant"])
        ax.set_title(family, fontsize=9)
    for ax in axes[len(groups) :]:
        ax.set_visible(False)
    for ax in axes[max(len(groups) - columns, 0) : len(groups)]:  # the lowest of each column
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.set_xlabel("fairness gap\n(a ratio r: 1 - min(r, 1/r))", fontsize=8)
    for ax in axes[::columns]:
        ax.set_ylabel("accuracy\n(filled: parity test significant after Holm)", fontsize=8)
    figure.suptitle(title, fontsize=10, wrap=True)
    legend_outside(figure, *axes[: len(groups)])
    return figure


def plot_equal_fairness(
    points: pd.DataFrame,
    runs: pd.DataFrame,
    styles: dict[str, Style],
    *,
    title: str = "",
) -> Figure:
    """Plot the post-processed frontier and every other run, a panel per constraint.

    Each split's frontier (:func:`~faircompare.analysis.equal_fairness.frontier_accuracy`) is a
    thin grey line, their mean over splits a black one; each other run is a point in its
    algorithm's style at its violation of the panel's constraint and its accuracy. A point above
    the lines beats the post-processed model at its own level of unfairness (Cruz & Hardt 2024).
    The accuracy axis shows the frontier and what lies near it
    (:func:`~faircompare.analysis.equal_fairness.accuracy_limits`): a run far below, such as
    naive Bayes at 0.38 on credit default where the frontier is at 0.82, would squeeze the
    rest into a line; it is drawn at the bottom edge and counted in the
    panel's title.

    Parameters
    ----------
    points
        The yardstick frontier's points of one dataset, attribute and variant
        (:func:`~faircompare.analysis.equal_fairness.frontier_points`).
    runs
        The other runs: ``algorithm`` (their label), ``constraint``, ``violation`` and
        ``accuracy`` (:func:`~faircompare.analysis.equal_fairness.equal_fairness`).
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    constraints = [c for c in CONSTRAINT_MEASURES if c in set(points["constraint"])]
    entries = runs["algorithm"].nunique() + 2
    width = 0.8 + 3.6 * len(constraints) + LEGEND_COLUMN * legend_columns(entries)
    figure = PrintFigure(figsize=(width, legend_height(entries, 4.2)), layout="constrained")
    axes = figure.subplots(1, len(constraints), sharey=True, squeeze=False).ravel()
    floor, top = accuracy_limits(points, runs)
    for ax, constraint in zip(axes, constraints, strict=True):
        mine = points[points["constraint"] == constraint]
        shown = runs[(runs["constraint"] == constraint) & runs["violation"].notna()]
        below = int((shown["accuracy"] < floor).sum())
        runs_below = f"{below} run{'s' if below > 1 else ''} below {floor:.2f}"
        edge = f"\n{runs_below}, at the bottom edge" if below else ""
        ax.set_xlabel(f"{CONSTRAINT_MEASURES[constraint]}\n(test)", fontsize=8)
        ax.set_title(constraint.replace("_", " ") + edge, fontsize=9)
        if mine["violation"].isna().all():
            _undefined(ax, CONSTRAINT_MEASURES[constraint])
            continue
        largest = np.nanmax([mine["violation"].max(), runs["violation"].max()])
        # every split's corners: each frontier and their mean are straight lines between them
        end = largest if largest > 0 else 1.0
        grid = np.unique([0.0, end, *mine["violation"].dropna()])
        curves = []
        for _, split in mine.groupby("split_id"):
            curves.append(frontier_accuracy(split, grid))
            ax.plot(grid, curves[-1], color="#BBBBBB", linewidth=0.7, zorder=1,
                    label="frontier, per split" if len(curves) == 1 else None)  # fmt: skip
        ax.plot(grid, np.mean(curves, axis=0), color="black", linewidth=1.6, zorder=2,
                label="frontier, mean over splits")  # fmt: skip
        clipped = shown.assign(accuracy=shown["accuracy"].clip(lower=floor))
        _scatter_runs(ax, clipped, "violation", "accuracy", styles, None)
    margin = 0.04 * (top - floor) or 0.01
    axes[0].set_ylim(floor - margin, top + margin)
    axes[0].set_ylabel("accuracy (test)", fontsize=8)
    frontier = points["frontier"].iloc[0] if len(points) else ""
    figure.suptitle(f"{title}\nyardstick: {frontier}", fontsize=10, wrap=True)
    drawn = [ax for ax in axes if ax.get_legend_handles_labels()[1]] or [axes[0]]
    legend_outside(figure, drawn[0])  # every drawn panel shows the same runs and lines
    return figure


def _undefined(ax: Axes, measure: str) -> None:
    """Say in an empty panel that its measure was undefined on every split's test part."""
    ax.text(0.5, 0.5, f"{measure}\nis undefined on every split:\na group has no positives\n"
            "or no negatives in the test part", ha="center", va="center", fontsize=8,
            transform=ax.transAxes)  # fmt: skip
    ax.set_xticks([])


def plot_preprocessing(pairs: pd.DataFrame, measure: str, styles: dict[str, Style]) -> Figure:
    """Plot a measure under numerical (x) and numerical+binary (y), a point per split (Fig. 2).

    Parameters
    ----------
    pairs
        One row per algorithm and split with the measure's value under each variant
        (:func:`~.tidy.preprocessing_comparison`).
    measure
        The measure's name, the figure's title.
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    figure = plot_runs(pairs, "numerical", "numerical+binary", styles, title=measure)
    ax = figure.axes[0]
    low = np.nanmin(pairs[["numerical", "numerical+binary"]].to_numpy())
    high = np.nanmax(pairs[["numerical", "numerical+binary"]].to_numpy())
    ax.plot([low, high], [low, high], color="#BBBBBB", linewidth=1, zorder=0)
    return figure


FACET_ABOVE = 8  # algorithms in one stability figure before it is faceted by family


def plot_stability(
    summary: pd.DataFrame,
    x: str,
    y: str,
    styles: dict[str, Style],
    *,
    title: str = "",
    families: Mapping[str, str] | None = None,
) -> Figure:
    """Draw a rectangle per algorithm, centred on the mean (marked), spanning mean +/- sd (Fig. 7).

    With one split there is no standard deviation: each algorithm is its mean's marker alone.
    Given ``families`` (``{algorithm: family}``) and more than :data:`FACET_ABOVE` algorithms,
    each family gets its own panel on shared axes, so that a reader can tell the rectangles
    apart (25 algorithms in one panel overlap in a few hues).

    Parameters
    ----------
    summary
        One row per algorithm and measure with ``mean`` and ``sd`` over splits
        (:func:`~.tidy.stability`).
    x, y
        The measures on the axes.
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.
    families
        Each algorithm's family; with it, past :data:`FACET_ABOVE` algorithms, a panel per
        family.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    table = summary.pivot_table(
        index="algorithm", columns="measure", values=["mean", "sd"], dropna=False
    )
    groups = _family_groups(list(table.index), families)
    width = 0.8 + 3.2 * len(groups) + LEGEND_COLUMN * legend_columns(len(table))
    figure = PrintFigure(figsize=(width, 4.5), layout="constrained")
    axes = figure.subplots(1, len(groups), sharex=True, sharey=True, squeeze=False)[0]
    for ax, (family, names) in zip(axes, groups, strict=True):
        for algorithm in names:
            row, style = table.loc[algorithm], styles[algorithm]
            sd_x, sd_y = np.nan_to_num(row[("sd", x)]), np.nan_to_num(row[("sd", y)])  # 1 split
            corner = (row[("mean", x)] - sd_x, row[("mean", y)] - sd_y)
            colour = style["color"]
            ax.add_patch(Rectangle(corner, 2 * sd_x, 2 * sd_y, facecolor=colour, alpha=0.4,
                                   edgecolor=colour, hatch=style["hatch"]))  # fmt: skip
            ax.scatter(row[("mean", x)], row[("mean", y)], color=style["color"],
                       marker=style["marker"], s=18, label=algorithm)  # fmt: skip
        ax.autoscale_view()
        ax.set_title(family, fontsize=9)
        ax.set_xlabel(f"{x} (mean +/- sd over splits)", fontsize=8)
    axes[0].set_ylabel(f"{y} (mean +/- sd over splits)")
    figure.suptitle(title, fontsize=10, wrap=True)  # above the axes and the legend
    legend_outside(figure, *axes)
    return figure


def _family_groups(
    names: list[str], families: Mapping[str, str] | None
) -> list[tuple[str, list[str]]]:
    """Return the panels: one per family in :data:`FAMILIES` order, or one for all."""
    if families is None or len(names) <= FACET_ABOVE:
        return [("", names)]
    order = {family: i for i, family in enumerate(FAMILIES)}
    by_family: dict[str, list[str]] = {}
    for name in names:
        by_family.setdefault(families.get(name, "unspecified"), []).append(name)
    return sorted(by_family.items(), key=lambda item: order.get(item[0], len(order)))


def plot_sweep(
    sweep: pd.DataFrame, x: str, y: str, algorithm: str, *, title: str | None = None
) -> Figure:
    """Plot one algorithm's parameter sweep, runs coloured by the parameter value (Fig. 8).

    The title says what is shown (the report names the dataset, attribute and variant); the
    algorithm's name by default.

    A grid spanning more than two orders of magnitude (Kamishima's eta, Zafar's c) is coloured
    on a (symmetric) log scale, so its small values are not lost in one colour.

    Parameters
    ----------
    sweep
        One row per run of the algorithm's grid (:func:`~.tidy.parameter_sweep`), with its
        ``parameter``, ``value`` and the columns ``x`` and ``y``.
    x, y
        The measures on the axes.
    algorithm
        The algorithm swept.
    title
        The figure's title; the algorithm's name when None.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    figure, ax = new_figure((5.5, 4))
    runs = sweep[sweep["algorithm"] == algorithm]
    values = pd.to_numeric(runs["value"], errors="coerce")
    points = ax.scatter(runs[x], runs[y], c=values, cmap="viridis", s=24, norm=_sweep_norm(values))
    figure.colorbar(points, ax=ax, label=runs["parameter"].iloc[0])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    figure.suptitle(algorithm if title is None else title, fontsize=10, wrap=True)
    return figure


def _sweep_norm(values: pd.Series) -> SymLogNorm | None:
    """Return a symmetric log colour scale for a grid over orders of magnitude, else None."""
    positive = values[values > 0]
    if positive.empty or positive.max() / positive.min() < 100:
        return None
    return SymLogNorm(linthresh=float(positive.min()), vmin=values.min(), vmax=values.max())


def plot_attributes(wide: pd.DataFrame, measure: str) -> Figure:
    """Plot a measure per algorithm for each sensitive attribute, a point per split (Fig. 9).

    Parameters
    ----------
    wide
        One row per run and a column per measure (:func:`~.tidy.runs_wide`), with the runs'
        ``algorithm`` and ``sensitive_attribute``.
    measure
        The measure (a column of ``wide``) on the y axis.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    algorithms = sorted(wide["algorithm"].unique())
    attributes = sorted(wide["sensitive_attribute"].unique())
    figure, ax = new_figure((max(6, 0.6 * len(algorithms)), 4))
    width = 0.8 / len(attributes)
    for j, (attribute, colour) in enumerate(zip(attributes, PALETTE, strict=False)):
        for i, algorithm in enumerate(algorithms):
            values = wide.loc[
                (wide["algorithm"] == algorithm) & (wide["sensitive_attribute"] == attribute),
                measure,
            ]
            ax.scatter(np.full(len(values), i - 0.4 + (j + 0.5) * width), values, s=14,
                       color=colour, label=attribute if i == 0 else None)  # fmt: skip
    ax.set_xticks(range(len(algorithms)), algorithms, rotation=90, fontsize=7)  # no overlap
    ax.set_ylabel(measure)
    ax.legend(title="sensitive attribute", fontsize=7, frameon=False)
    return figure


def plot_audit_shares(outcomes: pd.DataFrame, columns: Sequence[str], *, title: str = "") -> Figure:
    """Plot the share of splits rejecting each audit, per algorithm (grouped horizontal bars).

    A test that was not run for an algorithm (AUC for a model without scores) is written
    "n/a" where its bar would be, never drawn as a 0 % rejection.

    Parameters
    ----------
    outcomes
        The audit outcomes per configuration (:func:`~.tidy.audit_outcomes`), one row per
        algorithm and setting.
    columns
        The outcome columns to draw: shares of splits rejecting, in [0, 1].
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    table = outcomes.groupby("algorithm")[list(columns)].mean()
    height = 1.2 + 0.2 * len(table) * max(1.0, len(columns) / 3)
    figure, ax = new_figure((6.5, height))
    bar = 0.8 / len(columns)
    for j, (column, colour) in enumerate(zip(columns, PALETTE, strict=False)):
        positions = np.arange(len(table)) - 0.4 + (j + 0.5) * bar
        ax.barh(positions, table[column].fillna(0), height=bar, color=colour, label=column)
    for row, missing in enumerate(table.isna().to_numpy()):
        # one "n/a" per run of adjacent tests not run: a bar is too thin for a label each
        for first, last in _runs(missing):
            position = row - 0.4 + (first + last + 1) / 2 * bar
            ax.text(0.005, position, "n/a", va="center", fontsize=5, color="#444444")
    ax.set_yticks(range(len(table)), table.index, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of splits rejecting (n/a: test not run)")
    ax.set_title(title, fontsize=9)
    legend_outside(figure, ax)
    return figure


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Return the (first, last) positions of each run of True values in ``flags``."""
    edges = np.diff(np.r_[0, flags.astype(int), 0])
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1, strict=True))


INDIVIDUAL_FLOOR = 0.1  # statistics below are drawn at the bottom edge of the log axis


def plot_individual_statistics(
    statistics: pd.DataFrame, styles: dict[str, Style], *, title: str = ""
) -> Figure:
    """Plot each run's individual-fairness statistic, a panel per dataset (Maity et al. §3).

    Each run is a point at its one-sided lower bound (T_n of Eq. 3.10, or T~_n of Eq. 3.13
    where the loss ratio is not defined: :func:`~.tidy.individual_statistics`), jittered in
    its algorithm's column; a circle is a loss ratio, a square an error-rate ratio. A run
    attacked without gradients carries its Monte Carlo interval, +- 1.96 Monte Carlo errors (a
    vertical line), and is filled when that interval holds delta (undecided). The test rejects
    individual fairness above the dashed line (delta); the share of decided runs rejecting is
    written above each column. The axis is logarithmic: statistics below
    :data:`INDIVIDUAL_FLOOR` (negative bounds of noisy audits included) are drawn at its
    bottom edge and counted in the panel's title.

    Parameters
    ----------
    statistics
        One row per run (:func:`~.tidy.individual_statistics`): its dataset, algorithm,
        statistic, kind and whether it rejects. The store's audit rows themselves, which this
        function took until 0.2.0, are still tidied here, with a :class:`DeprecationWarning`.
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    runs = statistics
    if "kind" not in statistics.columns:  # the store's audit rows, as before 0.2.0
        warnings.warn(
            "plot_individual_statistics() takes tidy.individual_statistics(audits), not the "
            "audit rows themselves; the rows work until 0.3.0",
            DeprecationWarning,
            stacklevel=2,
        )
        runs = individual_statistics(statistics)
    algorithms = sorted(runs["algorithm"].unique())
    datasets = sorted(runs["dataset"].unique())
    top = max(10.0, 3 * runs["statistic"].max())
    size = (max(6.0, 0.45 * len(algorithms) + 1.5), 1.2 + 2.4 * len(datasets))
    figure = PrintFigure(figsize=size, layout="constrained")
    axes = figure.subplots(len(datasets), 1, sharex=True, squeeze=False)[:, 0]
    jitter = np.random.default_rng(0)
    for ax, dataset in zip(axes, datasets, strict=True):
        part = runs[runs["dataset"] == dataset]
        below = int((part["statistic"] < INDIVIDUAL_FLOOR).sum())
        for i, algorithm in enumerate(algorithms):
            mine = part[part["algorithm"] == algorithm]
            if mine.empty:
                continue
            colour = styles[algorithm]["color"]
            x = i + jitter.uniform(-0.3, 0.3, len(mine))
            y = mine["statistic"].clip(lower=INDIVIDUAL_FLOOR)
            square = (mine["kind"] == "error ratio").to_numpy()
            error = mine.get("monte_carlo_error", pd.Series(0.0, index=mine.index)).to_numpy()
            open_ = mine.get("undecided", pd.Series(False, index=mine.index)).to_numpy(bool)
            for run in np.flatnonzero(error > 0):  # the attack's own randomness
                low, high = (mine["statistic"].iloc[run] + side * MONTE_CARLO_Z * error[run]
                             for side in (-1, 1))  # fmt: skip
                ax.vlines(x[run], max(low, INDIVIDUAL_FLOOR), max(high, INDIVIDUAL_FLOOR),
                          colors=colour, linewidths=0.6, alpha=0.7)  # fmt: skip
            for marker, shape in (("o", ~square), ("s", square)):
                for faces, chosen in (("none", shape & ~open_), (colour, shape & open_)):
                    ax.scatter(x[chosen], y[chosen], marker=marker, s=14, facecolors=faces,
                               edgecolors=colour, linewidths=0.6, alpha=0.7)  # fmt: skip
            decided = mine.loc[~open_, "reject"]
            share = f"{decided.mean():.0%}" if len(decided) else "-"
            ax.text(i, top, share, ha="center", va="bottom", fontsize=6)
        for delta in part["delta"].unique():
            ax.axhline(delta, color="black", linestyle="--", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_ylim(INDIVIDUAL_FLOOR / 1.5, top * 4)
        edge = f"; {below} at the bottom edge (< {INDIVIDUAL_FLOOR})" if below else ""
        ax.set_title(f"{dataset}: {part['key'].nunique()} runs{edge}", fontsize=8)
        ax.set_ylabel("T_n (o) or T~_n (s)", fontsize=8)
    axes[-1].set_xticks(range(len(algorithms)), algorithms, rotation=90, fontsize=7)
    figure.suptitle(title, fontsize=10, wrap=True)
    return figure


def plot_critical_difference(test: FriedmanTest, *, title: str = "") -> Figure:
    """Draw average ranks on one axis, joining algorithms closer than the CD (Demšar Fig. 1).

    Parameters
    ----------
    test
        The Friedman test of the algorithms over datasets (:func:`~.compare.friedman`).
    title
        The figure's title; the Friedman p-value and the critical difference are added.

    Returns
    -------
    Figure
        Rank 1 (best) on the left; a thick bar joins each maximal group of algorithms whose
        average ranks differ by less than the critical difference (not significantly different
        by the Nemenyi test), and a scale bar shows the CD itself.
    """
    ranks, k = test.ranks, len(test.ranks)
    half = (k + 1) // 2  # names on the left; the others on the right
    step = 0.6  # between the names of one side
    bottom = -(half + 1) * step
    # the names take about 5 inches beside the axis; each rank gets at least 0.2 inch of it
    figure, ax = new_figure((5.0 + max(2.0, 0.2 * k), 1.2 + 0.5 * (2.2 - bottom)))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(bottom, 2.2)
    ax.axhline(0, color="black", linewidth=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.15], color="black", linewidth=1)
        ax.text(r, 0.3, str(r), ha="center", fontsize=7)
    for i, (name, rank) in enumerate(ranks.items()):
        left = i < half
        level = -(i + 1) * step if left else -(k - i) * step
        edge = 0.6 if left else k + 0.4
        ax.plot([rank, rank, edge], [0, level, level], color="#444444", linewidth=0.8)
        ax.text(edge - 0.05 if left else edge + 0.05, level, f"{name} ({rank:.2f})",
                ha="right" if left else "left", va="center", fontsize=7)  # fmt: skip
    for j, (low, high) in enumerate(test.groups()):
        y = -0.25 - 0.18 * j
        ax.plot([low - 0.05, high + 0.05], [y, y], color="black", linewidth=3)
    ax.plot([1, 1 + test.critical_difference], [1.4, 1.4], color="black", linewidth=1.5)
    ax.text(1 + test.critical_difference / 2, 1.55, "CD", ha="center", fontsize=7)
    ax.set_axis_off()
    ax.set_title(
        f"{title}\nFriedman p = {test.pvalue:.3g} over {test.datasets} datasets; "
        f"Nemenyi CD = {test.critical_difference:.2f} (alpha {test.alpha})",
        fontsize=9,
    )
    return figure


def _mean_span(means: np.ndarray) -> tuple[float, float]:
    """Return an axis range around ``means``: their span with twice its width on each side."""
    finite = means[np.isfinite(means)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    margin = 2 * max(high - low, 0.01 * max(abs(low), abs(high), 1.0))
    return low - margin, high + margin


def plot_intervals(
    panels: dict[str, pd.DataFrame],
    *,
    title: str = "",
    bounds: dict[str, tuple[float, float]] | None = None,
) -> Figure:
    """Plot each algorithm's mean and corrected 95 % interval, one panel per measure.

    Parameters
    ----------
    panels
        ``{axis label: table}``, tables from :func:`~.compare.intervals`; the algorithms are
        ordered by the first panel, best on top.
    title
        The figure's title.
    bounds
        ``{axis label: (lowest, highest)}``, the scores a panel's measure can take (accuracy:
        0 and 1); its axis stays within them.

    Returns
    -------
    Figure
        One row per algorithm; a filled marker is an algorithm the corrected test (Holm)
        cannot tell from the best, a hollow one is significantly worse. Each axis spans the
        means (with margins of twice their spread): an interval reaching past it, as with few
        splits (a t with one degree of freedom is 12.7), is cut at the edge and marked there
        with an arrow, so the means stay readable.
    """
    order = list(next(iter(panels.values())).index)
    figure = PrintFigure(figsize=(4.0 * len(panels), 1.2 + 0.3 * len(order)), layout="constrained")
    axes = figure.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    positions = np.arange(len(order))[::-1]
    for ax, (name, table) in zip(axes, panels.items(), strict=True):
        table = table.reindex(order)
        low, high = _mean_span(table["mean"].to_numpy(dtype=float))
        lowest, highest = (bounds or {}).get(name, (-np.inf, np.inf))
        low, high = max(low, lowest), min(high, highest)
        left, right = table["ci_low"].clip(lower=low), table["ci_high"].clip(upper=high)
        ax.hlines(positions, left, right, color="#4477AA", linewidth=1.5)
        for edge, cut, marker in ((low, table["ci_low"] < low, "<"),
                                  (high, table["ci_high"] > high, ">")):  # fmt: skip
            ax.scatter(np.full(cut.sum(), edge), positions[cut.to_numpy()], marker=marker,
                       s=14, color="#4477AA")  # fmt: skip
        worse = table["worse_than_best"].fillna(False).astype(bool).to_numpy()
        ax.scatter(table["mean"], positions, s=24, color="#4477AA",
                   facecolors=np.where(worse, "none", "#4477AA"))  # fmt: skip
        ax.set_xlim(low, high)
        ax.set_xlabel(name, fontsize=8)
        ax.grid(axis="x", linewidth=0.3)
    axes[0].set_yticks(positions, order, fontsize=7)
    figure.suptitle(f"{title}\nfilled: not significantly worse than the best (Holm, 5 %)",
                    fontsize=9)  # fmt: skip
    return figure
