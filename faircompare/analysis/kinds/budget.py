"""The ranking-by-budget figure: each method at its defaults and tuned with each budget.

Each method tuned with the study's budgets (:attr:`~faircompare.config.BenchmarkConfig.
tuning_budgets`) is a line across its budgets (its defaults first), a marker at its mean test
score over splits and a bar of the corrected resampled 95 % interval (:func:`~faircompare.
analysis.budgets.by_budget`); a fairness measure is drawn as its gap from parity, lower fairer.
The methods are set a little apart at each budget, so that their bars do not hide one another.
An interval reaching past the scores the measure can take (a t with one degree of freedom, at
two splits, is 12.7) is cut at that edge. A panel per dataset, attribute and variant and per
measure; where the lines cross, the ranking changed with the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.budgets import by_budget
from faircompare.analysis.canvas import COLUMN, Layout, canvas, finish
from faircompare.analysis.kinds._panels import panel_title, y_labelled
from faircompare.analysis.selection import Selection, StudyFrames, configurations
from faircompare.analysis.style import Style, paper_style
from faircompare.measures import MEASURES

__all__ = ["BUDGET_AXIS", "MEASURES_SHOWN", "BudgetFrames", "draw", "frames"]

#: The measures the figure shows by default: accuracy, and DIbinary's gap.
MEASURES_SHOWN = ("accuracy", "DIbinary")
#: The axis across: the trials, 0 for each method at its defaults (short ticks, a column wide).
BUDGET_AXIS = "trials (0: defaults)"
_DODGE = 0.5  # of the space between two budgets, what the methods' markers spread over


@dataclass(frozen=True)
class BudgetFrames:
    """What the ranking-by-budget figure shows.

    Attributes
    ----------
    summary
        One row per panel, method and budget: ``panel``, ``axis`` (the panel's measure, as
        its axis names it), ``name`` (the legend's), ``style``, ``budget``, ``mean``,
        ``ci_low``, ``ci_high``.
    panels
        The panels' titles, in order.
    budgets
        The budgets across, in order (0: the defaults).
    order
        The methods' names, in the legend's order.
    styles
        Each style key's colour, marker and hatch.
    """

    summary: pd.DataFrame
    panels: list[str]
    budgets: list[int]
    order: list[str]
    styles: dict[str, Style]


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
    *,
    measures: tuple[str, ...] | None = None,
) -> BudgetFrames:
    """Compute each tuned method's mean and interval at each budget, per configuration.

    Parameters
    ----------
    study
        The study's frames: a study with tuned runs.
    selection
        The runs shown and their names.
    x
        Unused: the budgets run across.
    y
        The measure up; accuracy and DIbinary's gap by default (:data:`MEASURES_SHOWN`).
    measures
        Several measures, a panel each.

    Returns
    -------
    BudgetFrames
        The summaries and panels.

    Raises
    ------
    ValueError
        Where the selection holds no tuned run (a study run without ``--tuning-budget``).
    """
    names = measures or ((y,) if y else MEASURES_SHOWN)
    selected = selection.measures(study.measures)
    found = configurations(selected, selection)
    parts = []
    for measure in names:
        table = by_budget(selected, measure)
        axis = _axis(measure, selection)
        by_configuration = dict(iter(table.groupby(tidy.WHERE, sort=False)))
        for configuration in found:
            title = panel_title(selection, configuration) if len(found) > 1 else ""
            mine = by_configuration.get(tuple(configuration), table.iloc[:0])
            parts.append(mine.assign(panel=f"{title}\n{axis}".strip(), axis=axis))
    summary = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if summary.empty:
        raise ValueError(
            "the selection holds no tuned run: the ranking-by-budget figure needs a study run "
            "with --tuning-budget (the tuned profile runs 1, 10 and 30 trials)"
        )
    order = selection.order(summary["algorithm"].unique())
    rank = {a: i for i, a in enumerate(order)}
    summary = summary.sort_values(["algorithm", "budget"], key=lambda c: c.map(rank)
                                  if c.name == "algorithm" else c)  # fmt: skip
    summary = summary.assign(style=summary["algorithm"],
                             name=[selection.label(a) for a in summary["algorithm"]])  # fmt: skip
    panels = list(dict.fromkeys(summary["panel"]))
    return BudgetFrames(summary.reset_index(drop=True), panels,
                        sorted(summary["budget"].unique().tolist()),
                        list(dict.fromkeys(summary["name"])), study.styles)  # fmt: skip


def _axis(measure: str, selection: Selection) -> str:
    """Return a panel's axis: the measure, a fairness measure's as its gap."""
    shown = selection.label(measure)
    return shown if MEASURES[measure].kind == "accuracy" else f"{shown} gap"


def draw(frames: BudgetFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the ranking-by-budget figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw one panel into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: a line per method across the budgets, a bar per interval.
    """
    layout = layout or Layout(COLUMN)
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.panels), frames.order, aspect=0.75)
        methods = frames.order
        offsets = {
            name: (i - (len(methods) - 1) / 2) * _DODGE / max(len(methods), 1)
            for i, name in enumerate(methods)
        }
        position = {budget: i for i, budget in enumerate(frames.budgets)}
        for panel, title in zip(drawn.axes, frames.panels, strict=True):
            mine = frames.summary[frames.summary["panel"] == title]
            for name, line in mine.groupby("name", sort=False):
                _line(panel, line, frames.styles[line["style"].iloc[0]], position, offsets[name])
            panel.set_xticks(range(len(frames.budgets)), [str(b) for b in frames.budgets])
            panel.set_xlim(-0.5, len(frames.budgets) - 0.5)
            panel.set_title(title.split("\n")[0] if "\n" in title else "")
            panel.set_xlabel(BUDGET_AXIS)
            y_labelled(panel, mine["axis"].iloc[0] + " (mean, 95% CI)", layout)
        return finish(drawn)


def _line(
    ax: Axes, line: pd.DataFrame, style: Style, position: dict[int, int], offset: float
) -> None:
    """Draw one method across its budgets: markers at the means, bars over the intervals."""
    x = np.array([position[b] for b in line["budget"]], dtype=float) + offset
    mean = line["mean"].to_numpy(dtype=float)
    low, high = (line[end].to_numpy(dtype=float) for end in ("ci_low", "ci_high"))
    colour = style["color"]
    ax.plot(x, mean, color=colour, linewidth=0.8, marker=style["marker"], markersize=3.5,
            label=line["name"].iloc[0])  # fmt: skip
    ax.vlines(x, np.where(np.isnan(low), mean, low), np.where(np.isnan(high), mean, high),
              color=colour, linewidth=0.6, alpha=0.7)  # fmt: skip
