"""The individual-fairness figure: each run's test statistic against delta (Maity et al. 2021, §3).

Each run audited for individual fairness is a point at its one-sided lower bound (T_n of
Eq. 3.10, or T~_n of Eq. 3.13 where the loss ratio is not defined:
:func:`~faircompare.analysis.tidy.individual_statistics`), jittered in its algorithm's row; a
circle is a loss ratio, a square an error-rate ratio. A run attacked without gradients carries
its Monte Carlo interval, +/- 1.96 Monte Carlo errors (a line), and is filled when that interval
holds delta (undecided). The test rejects individual fairness right of the dashed line (delta);
the share of decided runs rejecting is written at the end of each row. The axis is logarithmic
and follows the panel's runs, from the lower of 0.9 and their 5th percentile (no lower than
:data:`FLOOR`) to the higher of twice delta and their 90th percentile: the runs beyond
(negative bounds of noisy audits, the derivative-free attacks' loss ratios of 10^5) are drawn
at its edges and counted in the panel's title, so the runs near 1 and delta are not pressed
into one line. A row per algorithm as the report shows it, a panel per dataset, attribute and
variant (the individual audit runs on the numerical variants), the rows shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from faircompare.analysis import tidy
from faircompare.analysis.canvas import (
    COLUMN,
    ROW_LINES,
    Layout,
    canvas,
    finish,
    row_names,
    text_width,
)
from faircompare.analysis.kinds._panels import in_order, panel_title, shown_audits
from faircompare.analysis.selection import Selection, StudyFrames, configurations
from faircompare.analysis.style import Style, paper_style
from faircompare.analysis.tables import typeset
from faircompare.records import DEFAULTS, POOLED, TUNED
from faircompare.stats.individual import MONTE_CARLO_Z

__all__ = ["FLOOR", "IndividualFrames", "arranged", "draw", "frames", "statistic_range"]

#: The log axis never goes lower: a statistic below is drawn at its edge, and counted.
FLOOR = 0.1
ROW = 0.2  # inches a row takes
PANEL = 1.6  # inches a panel needs across, for its log axis' labels
LABEL = typeset("T_n (circles) or T~_n (squares)")
NAMED = (DEFAULTS, TUNED, POOLED)  # the settings a row is named by


@dataclass(frozen=True)
class IndividualFrames:
    """What the individual-fairness figure shows.

    Attributes
    ----------
    runs
        One row per audited run: ``panel``, ``name`` (its row's), ``style``, ``statistic``,
        ``kind`` (``"loss ratio"`` or ``"error ratio"``), ``delta``, ``reject``,
        ``monte_carlo_error`` and ``undecided``.
    panels
        The panels' titles, in order ("" for one panel).
    rows
        The rows' names, top to bottom.
    styles
        Each style key's colour and marker.
    """

    runs: pd.DataFrame
    panels: list[str]
    rows: list[str]
    styles: Mapping[str, Style]


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> IndividualFrames:
    """Return the selected runs' individual-fairness statistics, a panel per configuration.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown (as the report shows each algorithm) and their names.
    x, y
        Unused: the axis is the test's statistic, the rows the algorithms.

    Returns
    -------
    IndividualFrames
        The statistics.

    Raises
    ------
    ValueError
        Where no selected run was audited for individual fairness.
    """
    runs = tidy.individual_statistics(shown_audits(study, selection))
    if runs.empty:
        raise ValueError(
            "the individual figure needs runs audited for individual fairness; the selection "
            "holds none (the audit runs on the numerical variants: run the study with its "
            "audits, or `faircompare audit`)"
        )
    return arranged(runs, study.styles, selection)


def arranged(
    runs: pd.DataFrame, styles: Mapping[str, Style], selection: Selection | None = None
) -> IndividualFrames:
    """Return runs' individual-fairness statistics as the figure shows them.

    Parameters
    ----------
    runs
        One row per run (:func:`~faircompare.analysis.tidy.individual_statistics`), with its
        configuration, ``algorithm`` and ``setting``; the runs of a grid's points share a row,
        their algorithm's grid pooled (:data:`~faircompare.records.POOLED`).
    styles
        Each algorithm's colour and marker, by the name the report gives it in its setting
        (:func:`~faircompare.analysis.style.study_styles`).
    selection
        The names to give the algorithms, and their order; the report's by default.

    Returns
    -------
    IndividualFrames
        The runs by panel (a configuration each) and row (an algorithm each).
    """
    selection = selection or Selection()
    found = configurations(runs, selection)
    titles = {c: panel_title(selection, c) if len(found) > 1 else "" for c in found}
    where = [(str(d), str(a), str(v)) for d, a, v in runs[tidy.WHERE].to_numpy()]
    kept = runs["setting"].isin(NAMED) | runs["setting"].map(tidy.budget_of).notna()
    shown = runs["setting"].where(kept, POOLED)  # a grid's points pooled, each budget its own
    pairs = list(zip(runs["algorithm"], shown, strict=True))
    runs = runs.assign(
        panel=[titles[w] for w in where],
        name=[selection.label(a, s) for a, s in pairs],
        style=[tidy.label(a, s) for a, s in pairs],
    )
    runs = in_order(runs, selection.order(runs["algorithm"].unique()))
    return IndividualFrames(runs.reset_index(drop=True), list(titles.values()),
                            list(dict.fromkeys(runs["name"])), styles)  # fmt: skip


def statistic_range(runs: pd.DataFrame) -> tuple[float, float]:
    """Return the axis range of a panel of individual statistics (as the module says).

    Parameters
    ----------
    runs
        One panel's runs, with ``statistic`` and ``delta``.

    Returns
    -------
    tuple of float
        The lowest and highest statistic drawn inside the axis.
    """
    values = runs["statistic"].dropna()
    low = min(0.9, values.quantile(0.05) / 1.1) if len(values) else 0.9
    high = max(2 * runs["delta"].max(), values.quantile(0.9) * 1.2) if len(values) else 10.0
    return max(FLOOR, low), float(high)


def draw(frames: IndividualFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the individual-fairness figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default. The rows are shared by the panels.
    ax
        Axes of your own to draw one panel into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    layout = layout or Layout(COLUMN)
    names, room = row_names(frames.rows, layout.small)
    room += 0.2
    share = text_width("100%", layout.small - 1)  # each row's share, right of the axis
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), [], aspect=1.0, label_room=room + share,
                       panel_height=ROW * len(frames.rows) + 0.4, least_panel=PANEL,
                       shared_rows=True)  # fmt: skip
        jitter = np.random.default_rng(0)
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            counted = _panel(panel, frames, frames.runs[frames.runs["panel"] == title], jitter,
                             layout)  # fmt: skip
            panel.set_title(f"{title}, {counted}" if title else counted)
            panel.set_yticks(range(len(frames.rows)), names, linespacing=ROW_LINES)
            panel.set_xlabel(LABEL)
        return finish(drawn)


def _panel(
    ax: Axes,
    frames: IndividualFrames,
    runs: pd.DataFrame,
    jitter: np.random.Generator,
    layout: Layout,
) -> str:
    """Draw one panel (each row's runs, their Monte Carlo intervals, delta, the shares); count it.

    Returns the panel's count: its runs, and those drawn at the axis' edges.
    """
    low, high = statistic_range(runs)
    rows = {name: i for i, name in enumerate(frames.rows)}
    for name, mine in runs.groupby("name", sort=False):
        colour = frames.styles[mine["style"].iloc[0]]["color"]
        y = rows[name] + jitter.uniform(-0.3, 0.3, len(mine))
        x = mine["statistic"].clip(lower=low, upper=high).to_numpy()
        error = mine["monte_carlo_error"].to_numpy(float)
        open_ = mine["undecided"].to_numpy(bool)
        noisy = error > 0  # the attack's own randomness, one line per such run
        if noisy.any():
            centre = mine["statistic"].to_numpy(float)[noisy]
            left, right = (np.clip(centre + side * MONTE_CARLO_Z * error[noisy], low, high)
                           for side in (-1, 1))  # fmt: skip
            ax.hlines(y[noisy], left, right, colors=colour, linewidths=0.6, alpha=0.7)
        square = (mine["kind"] == "error ratio").to_numpy()
        for marker, shape in (("o", ~square), ("s", square)):
            for faces, chosen in (("none", shape & ~open_), (colour, shape & open_)):
                if chosen.any():
                    ax.scatter(x[chosen], y[chosen], marker=marker, s=14, facecolors=faces,
                               edgecolors=colour, linewidths=0.6, alpha=0.7)  # fmt: skip
        decided = mine.loc[~open_, "reject"]
        ax.annotate(f"{decided.mean():.0%}" if len(decided) else "-", (1.0, rows[name]),
                    xycoords=("axes fraction", "data"), xytext=(3, 0),
                    textcoords="offset points", va="center", fontsize=layout.small - 1)  # fmt: skip
    for delta in runs["delta"].unique():
        ax.axvline(delta, color="black", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlim(low / 1.05, high * 1.05)
    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(len(frames.rows) - 0.5, -0.5)
    below = int((runs["statistic"] < low).sum())
    above = int((runs["statistic"] > high).sum())
    edges = [f"{below} at the left edge" if below else "", f"{above} at the right" if above else ""]
    return ", ".join([f"{runs['key'].nunique()} runs", *(edge for edge in edges if edge)])
