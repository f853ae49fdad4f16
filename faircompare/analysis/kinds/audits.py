"""The audits figure: each algorithm's share of splits whose audits reject, as a heatmap.

A row per algorithm as the report shows it, a column per test under the name the tables give it
(demographic parity, equal opportunity, individual T_n, ...): each cell the share of splits
rejecting among the verdicts their Monte Carlo error leaves decided, written in the cell as a
percentage. The last columns, set apart, are the shares of each audit's verdicts left undecided;
a test not run on any split (AUC for a model without scores, a metric undefined in a group, a
group below the audits' minimum) is "n/a", never a 0 % rejection. FlipTest's rates are not
shares of verdicts: its table gives them. A panel per dataset, attribute and variant, the rows
shared.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis import tidy
from faircompare.analysis.canvas import (
    BELOW,
    COLUMN,
    ROW_LINES,
    Layout,
    canvas,
    finish,
    row_names,
    text_width,
    widest,
)
from faircompare.analysis.kinds._panels import panel_title, shown_audits
from faircompare.analysis.selection import Selection, StudyFrames, configurations
from faircompare.analysis.style import paper_style
from faircompare.analysis.tables import AUDIT_NAMES, typeset

__all__ = ["AuditFrames", "draw", "frames", "shares"]

UNDECIDED = ("permutation undecided", "individual undecided")
CELL = 0.24  # inches a cell takes each way
COLOURS = "Oranges"


@dataclass(frozen=True)
class AuditFrames:
    """What the audits figure shows.

    Attributes
    ----------
    tables
        ``{panel title: shares}``: rows the algorithms' names, columns the tests' names, in
        [0, 1], NaN where no split gives one.
    rows
        The rows' names, top to bottom.
    undecided
        The columns that are shares of undecided verdicts (the tables' names of
        :data:`UNDECIDED`, by default).
    """

    tables: dict[str, pd.DataFrame]
    rows: list[str]
    undecided: list[str] = field(default_factory=lambda: [AUDIT_NAMES[c] for c in UNDECIDED])


def shares(outcomes: pd.DataFrame, selection: Selection | None = None) -> pd.DataFrame:
    """Return the shares an audits panel shows, from one configuration's audit outcomes.

    Parameters
    ----------
    outcomes
        :func:`~faircompare.analysis.tidy.audit_outcomes` of one configuration.
    selection
        The names to give the algorithms; their own (as the tables give them) by default.

    Returns
    -------
    pandas.DataFrame
        Rows the algorithms, columns the tests' rejection shares then the undecided shares,
        under the tables' names (:data:`~faircompare.analysis.tables.AUDIT_NAMES`).
    """
    selection = selection or Selection()
    tests = [c for c in outcomes.columns
             if c.startswith(("permutation", "individual")) and c not in UNDECIDED
             and c != "individual near-certain"]  # fmt: skip
    order = list(AUDIT_NAMES)  # the tables' order: the permutation tests, then the individual
    tests = sorted(tests, key=lambda c: order.index(c) if c in order else len(order))
    columns = [*tests, *(c for c in UNDECIDED if c in outcomes.columns)]
    names = [selection.label(a, s) for a, s in
             zip(outcomes["algorithm"], outcomes["setting"], strict=True)]  # fmt: skip
    table = outcomes[columns].set_axis(names).astype(float)
    return table.rename(columns=AUDIT_NAMES)


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> AuditFrames:
    """Compute the selected runs' audit shares, a panel per configuration.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs shown (as the report shows each algorithm) and their names.
    x, y
        Unused: the columns are the tests.

    Returns
    -------
    AuditFrames
        The shares.

    Raises
    ------
    ValueError
        Where no selected run was audited.
    """
    outcomes = tidy.audit_outcomes(shown_audits(study, selection))
    if outcomes.empty:
        raise ValueError(
            "the audits figure needs tested runs; the selection holds none (run the study with "
            "its audits, or `faircompare audit`; a group below the audits' minimum of test rows "
            "is not tested)"
        )
    found = configurations(outcomes, selection)
    tables = {}
    for configuration in found:
        mine = outcomes[(outcomes[tidy.WHERE] == pd.Series(configuration, tidy.WHERE)).all(axis=1)]
        order = selection.order(mine["algorithm"].unique())
        mine = mine.set_index("algorithm").loc[order].reset_index()
        title = panel_title(selection, configuration) if len(found) > 1 else ""
        tables[title] = shares(mine, selection)
    return AuditFrames(tables, list(dict.fromkeys(r for t in tables.values() for r in t.index)))


def draw(frames: AuditFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the audits heatmap.

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
    rows = frames.rows
    names, room = row_names(rows, layout.small)
    room += 0.2
    columns = max(len(t.columns) for t in frames.tables.values())
    tests = [line for t in frames.tables.values() for c in t.columns for line in _named(c)]
    below = widest(tests, layout.small) + 2 * layout.line  # the tests' names, the axis label
    cells = CELL * len(rows)
    cell = text_width("100", layout.small - 1) + 0.08  # a cell holds its share
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, len(frames.tables), [], aspect=1.0, label_room=room,
                       panel_height=cells + below - BELOW, least_panel=cell * columns,
                       shared_rows=True)  # fmt: skip
        for panel, (title, table) in zip(drawn.axes, frames.tables.items(), strict=True):
            _heatmap(panel, table.reindex(rows), frames.undecided, layout)
            panel.set_yticks(range(len(rows)), names, linespacing=ROW_LINES)
            panel.set_title(title)
            panel.set_xlabel("% of splits")
        return finish(drawn)


def _heatmap(ax: Axes, table: pd.DataFrame, undecided: list[str], layout: Layout) -> None:
    """Draw one panel's cells, each with its share written in it, "n/a" where none."""
    values = table.to_numpy(dtype=float)
    ax.imshow(np.ma.masked_invalid(values), cmap=COLOURS, vmin=0, vmax=1, aspect="auto")
    for (i, j), value in np.ndenumerate(values):
        text = "n/a" if np.isnan(value) else f"{100 * value:.0f}"
        colour = "white" if value > 0.6 else "black"
        ax.text(j, i, text, ha="center", va="center", fontsize=layout.small - 1, color=colour)
    split = [j for j, c in enumerate(table.columns) if c in undecided]
    if split:
        ax.axvline(split[0] - 0.5, color="white", linewidth=3)
    names = ["\n".join(_named(column)) for column in table.columns]
    ax.set_xticks(range(len(table.columns)), names, rotation=90, linespacing=1.0)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def _named(test: str) -> list[str]:
    """Return a test's name in lines of at most 20 characters: a column's label, upright."""
    return [typeset(line) for line in textwrap.wrap(test, 20)]  # lines as read, not typed
