"""Saving a figure (:func:`save`), and the report's former drawing functions, deprecated.

:func:`save` writes a figure as PDF, SVG or PNG under one name. Every figure of the report is
drawn by a figure kind (:mod:`faircompare.analysis.kinds`), for the report and for
``faircompare figure`` alike; the ``plot_*`` functions here are deprecated until 0.4.0 (the
kinds' figures draw with those kinds, the others as they did).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._deprecations import former_forms
from faircompare._validation import check_choice
from faircompare.analysis.canvas import REPORT
from faircompare.analysis.compare import FriedmanTest
from faircompare.analysis.equal_fairness import CONSTRAINT_MEASURES, accuracy_limits
from faircompare.analysis.kinds import (
    audits,
    correlations,
    critical_difference,
    equal_fairness,
    individual,
    intervals,
    stability,
    tradeoff,
)
from faircompare.analysis.kinds._panels import family_panels
from faircompare.analysis.kinds.sweep import colours
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
from faircompare.analysis.tables import AUDIT_NAMES
from faircompare.analysis.tidy import individual_statistics
from faircompare.safe_write import replaced

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
    figure: Figure,
    folder: str | Path,
    name: str,
    *,
    root: str | Path | None = None,
    formats: Sequence[str] = FORMATS,
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
    formats
        The formats written, of :data:`FORMATS` (all of them by default).

    Returns
    -------
    list of Path
        The files written.
    """
    folder = Path(folder)
    paths = [folder / f"{name}.{check_choice(fmt, FORMATS, what='format')}" for fmt in formats]
    for path in paths:
        with replaced(path, Path(root or folder)) as temporary:
            figure.savefig(temporary, dpi=150 if path.suffix == ".png" else None)
    return paths


@former_forms
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

    Deprecated until 0.4.0: the runs figure kind draws it from a study
    (:mod:`~faircompare.analysis.kinds.runs`).

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
    return _runs(frame, x, y, styles, title=title, filled=filled)


def _runs(
    frame: pd.DataFrame,
    x: str,
    y: str,
    styles: dict[str, Style],
    *,
    title: str = "",
    filled: pd.Series | None = None,
) -> Figure:
    """Draw :func:`plot_runs`'s figure (for it and :func:`plot_preprocessing`, one warning)."""
    figure, ax = new_figure(
        (3.9 + LEGEND_COLUMN * legend_columns(frame["algorithm"].nunique()), 4.5)
    )
    _scatter_runs(ax, frame, x, y, styles, filled)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    figure.suptitle(title, fontsize=10, wrap=True)  # above the axes and the legend
    legend_outside(figure, ax)
    return figure


@former_forms
def plot_measure_pairs(
    frame: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    styles: dict[str, Style],
    *,
    title: str = "",
) -> Figure:
    """One panel per pair of measures, a point per run coloured by algorithm (Fig. 4).

    Deprecated until 0.4.0: the pairs figure kind draws it from a study
    (:mod:`~faircompare.analysis.kinds.pairs`).

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


@former_forms
def plot_preprocessing(pairs: pd.DataFrame, measure: str, styles: dict[str, Style]) -> Figure:
    """Plot a measure under numerical (x) and numerical+binary (y), a point per split (Fig. 2).

    Deprecated until 0.4.0: the preprocessing figure kind draws it from a study
    (:mod:`~faircompare.analysis.kinds.preprocessing`).

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
    figure = _runs(pairs, "numerical", "numerical+binary", styles, title=measure)
    ax = figure.axes[0]
    low = np.nanmin(pairs[["numerical", "numerical+binary"]].to_numpy())
    high = np.nanmax(pairs[["numerical", "numerical+binary"]].to_numpy())
    ax.plot([low, high], [low, high], color="#BBBBBB", linewidth=1, zorder=0)
    return figure


@former_forms
def plot_sweep(
    sweep: pd.DataFrame, x: str, y: str, algorithm: str, *, title: str | None = None
) -> Figure:
    """Plot one algorithm's parameter sweep, runs coloured by the parameter value (Fig. 8).

    Deprecated until 0.4.0: the sweep figure kind draws it from a study
    (:mod:`~faircompare.analysis.kinds.sweep`).

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
    points = ax.scatter(runs[x], runs[y], c=values, cmap="viridis", s=24, norm=colours(values))
    figure.colorbar(points, ax=ax, label=runs["parameter"].iloc[0])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    figure.suptitle(algorithm if title is None else title, fontsize=10, wrap=True)
    return figure


@former_forms
def plot_attributes(wide: pd.DataFrame, measure: str) -> Figure:
    """Plot a measure per algorithm for each sensitive attribute, a point per split (Fig. 9).

    Deprecated until 0.4.0: the attributes figure kind draws it from a study
    (:mod:`~faircompare.analysis.kinds.attributes`).

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


@former_forms
def plot_individual_statistics(
    statistics: pd.DataFrame, styles: dict[str, Style], *, title: str = ""
) -> Figure:
    """Plot each run's individual-fairness statistic, as the individual kind does (deprecated).

    Parameters
    ----------
    statistics
        One row per run (:func:`~.tidy.individual_statistics`): its configuration, algorithm,
        setting, statistic, kind and whether it rejects. The store's audit rows themselves,
        which this function took until 0.2.0, are still tidied here.
    styles
        Each algorithm's colour and marker (:func:`algorithm_styles`).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: a row per algorithm, a panel per dataset, attribute and variant.
    """
    runs = statistics if "kind" in statistics.columns else individual_statistics(statistics)
    return _titled(individual.draw(individual.arranged(runs, styles), REPORT), title)


@former_forms
def plot_correlations(matrix: pd.DataFrame, title: str = "") -> Figure:
    """Draw a correlation matrix as the correlations kind does (deprecated).

    Parameters
    ----------
    matrix
        A square matrix of correlations (:func:`~.tidy.correlation_matrix`).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    shown = correlations.CorrelationFrames(correlations.ordered(matrix), title)
    return correlations.draw(shown, correlations.widened(shown, REPORT))


@former_forms
def plot_tradeoff(
    frame: pd.DataFrame,
    styles: dict[str, Style],
    *,
    title: str = "",
    families: Mapping[str, str] | None = None,
) -> Figure:
    """Plot accuracy against the fairness gap per run, as the tradeoff kind does (deprecated).

    Parameters
    ----------
    frame
        One row per run with ``algorithm``, ``accuracy``, ``gap``, ``significant`` and
        ``pareto`` (:func:`~.tidy.tradeoff`).
    styles
        Each algorithm's colour and marker.
    title
        The figure's title.
    families
        Each algorithm's family: past eight algorithms, a panel per family.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    order = sorted(frame["algorithm"].unique())
    groups = family_panels(order, families or {})
    panel = {name: family for family, names in groups for name in names}
    named = frame["algorithm"]
    runs = frame.assign(configuration="", name=named, style=named, filled=frame["significant"],
                        panel=named.map(panel))  # fmt: skip
    shown = tradeoff.TradeoffFrames(runs, [f for f, _ in groups], order, styles,
                                    "fairness gap (a ratio r: 1 - min(r, 1/r))", "accuracy",
                                    context=len(groups) > 1)  # fmt: skip
    return _titled(tradeoff.draw(shown, REPORT), title)


@former_forms
def plot_stability(
    summary: pd.DataFrame,
    x: str,
    y: str,
    styles: dict[str, Style],
    *,
    title: str = "",
    families: Mapping[str, str] | None = None,
) -> Figure:
    """Draw each algorithm's mean +/- sd, as the stability kind does (deprecated).

    Parameters
    ----------
    summary
        One row per algorithm and measure with ``mean`` and ``sd`` (:func:`~.tidy.stability`).
    x, y
        The measures on the axes.
    styles
        Each algorithm's colour and marker.
    title
        The figure's title.
    families
        Each algorithm's family: past eight algorithms, a panel per family.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    table = summary.set_index(["algorithm", "measure"])[["mean", "sd"]].unstack("measure")
    order = list(table.index)
    groups = family_panels(order, families or {})
    panel = {name: family for family, names in groups for name in names}
    rows = pd.DataFrame({
        "panel": [panel[a] for a in order], "name": order, "style": order,
        "x_mean": table[("mean", x)], "x_sd": table[("sd", x)],
        "y_mean": table[("mean", y)], "y_sd": table[("sd", y)],
    }).reset_index(drop=True)  # fmt: skip
    shown = stability.StabilityFrames(rows, [f for f, _ in groups], order, styles,
                                      f"{x} (mean ± sd)", f"{y} (mean ± sd)",
                                      len(groups) > 1)  # fmt: skip
    return _titled(stability.draw(shown, REPORT), title)


@former_forms
def plot_intervals(
    panels: dict[str, pd.DataFrame],
    *,
    title: str = "",
    bounds: dict[str, tuple[float, float]] | None = None,
) -> Figure:
    """Plot each algorithm's mean and corrected interval, as the intervals kind does (deprecated).

    Parameters
    ----------
    panels
        ``{axis label: table}``, tables from :func:`~.compare.intervals`, ordered by the first.
    title
        The figure's title.
    bounds
        ``{axis label: (lowest, highest)}``: the scores each panel's measure can take.

    Returns
    -------
    Figure
        One row per algorithm; hollow: significantly worse than the best (Holm).
    """
    rows = list(next(iter(panels.values())).index)
    shown = intervals.IntervalsFrames({("", axis): table for axis, table in panels.items()},
                                      rows, dict(bounds or {}))  # fmt: skip
    return _titled(intervals.draw(shown, REPORT), title)


@former_forms
def plot_equal_fairness(
    points: pd.DataFrame,
    runs: pd.DataFrame,
    styles: dict[str, Style],
    *,
    title: str = "",
) -> Figure:
    """Plot the post-processed frontier and every other run, as the equal-fairness kind does.

    Deprecated.

    Parameters
    ----------
    points
        The frontier's points of one dataset, attribute and variant
        (:func:`~faircompare.analysis.equal_fairness.frontier_points`).
    runs
        The other runs: ``algorithm`` (their label), ``constraint``, ``violation`` and
        ``accuracy`` (:func:`~faircompare.analysis.equal_fairness.equal_fairness`).
    styles
        Each algorithm's colour and marker.
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    constraints = [c for c in CONSTRAINT_MEASURES if c in set(points["constraint"])]
    shown_runs = runs.assign(name=runs["algorithm"], style=runs["algorithm"], filled=True)
    limits = accuracy_limits(points, shown_runs)
    panels = [
        equal_fairness.Panel(
            c.replace("_", " "), CONSTRAINT_MEASURES[c], CONSTRAINT_MEASURES[c],
            points[points["constraint"] == c],
            shown_runs[(shown_runs["constraint"] == c) & shown_runs["violation"].notna()], limits,
        )
        for c in constraints
    ]  # fmt: skip
    order = sorted(shown_runs["algorithm"].unique())
    frontiers = list(points["frontier"].unique()[:1])
    shown = equal_fairness.EqualFairnessFrames(panels, constraints, order, styles, frontiers)
    return _titled(equal_fairness.draw(shown, REPORT), title)


@former_forms
def plot_critical_difference(test: FriedmanTest, *, title: str = "") -> Figure:
    """Draw Demšar's critical-difference diagram, as the critical-difference kind does.

    Deprecated.

    Parameters
    ----------
    test
        The Friedman test of the algorithms over datasets (:func:`~.compare.friedman`).
    title
        What is ranked.

    Returns
    -------
    Figure
        Rank 1 (best) on the left, a bar joining each group the Nemenyi test cannot tell apart.
    """
    shown = critical_difference.CriticalDifferenceFrames(test, title or "average rank")
    return critical_difference.draw(shown, REPORT)


@former_forms
def plot_audit_shares(outcomes: pd.DataFrame, columns: Sequence[str], *, title: str = "") -> Figure:
    """Draw the share of splits rejecting each audit, as the audits kind does (deprecated).

    Parameters
    ----------
    outcomes
        The audit outcomes of one configuration (:func:`~.tidy.audit_outcomes`), one row per
        algorithm and setting.
    columns
        The outcome columns to draw: shares of splits rejecting, in [0, 1].
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The heatmap; "n/a" where a test was not run.
    """
    table = outcomes.groupby("algorithm")[list(columns)].mean().rename(columns=AUDIT_NAMES)
    shown = audits.AuditFrames({"": table}, list(table.index), [])
    return _titled(audits.draw(shown, REPORT), title)


def _titled(figure: Figure, title: str) -> Figure:
    """Return the figure with its title above its panels, taller by the title's lines."""
    if title:
        width, height = figure.get_size_inches()
        figure.set_size_inches(width, height + 2 * REPORT.line)
        figure.suptitle(title, x=0.01, ha="left", wrap=True)  # clear of a legend on the right
    return figure
