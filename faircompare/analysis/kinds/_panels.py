"""What the figure kinds share: panel titles, families as panels, runs drawn in their styles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from faircompare.analysis import tidy
from faircompare.analysis.canvas import Layout
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import Style
from faircompare.choices import FAMILIES

FACET_ABOVE = 8  # algorithms in one configuration's panel before it is split by family


def panel_title(selection: Selection, configuration: Sequence[str]) -> str:
    """Return a configuration's panel title in the selection's labels (``German, Sex, ...``)."""
    return ", ".join(selection.label(part) for part in configuration)


def family_panels(names: Sequence[str], families: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """Return a panel per family in :data:`~faircompare.choices.FAMILIES` order, or one for all.

    A configuration's runs are split by family past :data:`FACET_ABOVE` algorithms (25 in one
    panel overlap in a few hues), where the families are known (``families`` not empty).
    """
    if not families or len(names) <= FACET_ABOVE:
        return [("", list(names))]
    order = {family: i for i, family in enumerate(FAMILIES)}
    by_family: dict[str, list[str]] = {}
    for name in names:
        by_family.setdefault(families.get(name, "unspecified"), []).append(name)
    return sorted(by_family.items(), key=lambda item: order.get(item[0], len(order)))


def run_name(run: pd.Series, selection: Selection) -> str:
    """Return a run's name in the selection's labels: ``German, sex, numerical, svm, split 3``.

    ``run`` holds the run's configuration, ``algorithm``, ``setting`` and ``split_id``.
    """
    where = panel_title(selection, [str(run[column]) for column in tidy.WHERE])
    return f"{where}, {selection.label(run['algorithm'], run['setting'])}, split {run['split_id']}"


def in_order(frame: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """Return rows in the order of their algorithms, an algorithm's budgets increasing.

    Parameters
    ----------
    frame
        Rows with ``algorithm`` and ``setting`` columns.
    order
        The algorithms, in the order shown.

    Returns
    -------
    pandas.DataFrame
        The rows sorted (stably): by the algorithm's place, then its runs at their parameters
        before its tuned ones, by budget (1 trial before 10 before 30).
    """
    rank = {a: i for i, a in enumerate(order)}
    budget = frame["setting"].map(lambda s: tidy.budget_of(s) or 0)
    keys = frame.assign(_rank=frame["algorithm"].map(rank), _budget=budget)
    return frame.loc[keys.sort_values(["_rank", "_budget"], kind="stable").index]


def styled(wide: pd.DataFrame, selection: Selection) -> tuple[pd.DataFrame, list[str]]:
    """Name and style each run of a wide frame, in the selection's order of its algorithms.

    Returns the runs, sorted, with ``name`` (the legend's), ``style`` (the key of its style)
    and ``filled`` (True), and the algorithms in order.
    """
    order = selection.order(wide["algorithm"].unique())
    wide = in_order(wide, order)
    pairs = list(zip(wide["algorithm"], wide["setting"], strict=True))
    named = wide.assign(
        name=[selection.label(a, s) for a, s in pairs],
        style=[tidy.label(a, s) for a, s in pairs],
        filled=True,
    )
    return named.reset_index(drop=True), order


def shown_audits(study: StudyFrames, selection: Selection, *, every: bool = False) -> pd.DataFrame:
    """Return the audit rows of the selected runs as the report shows them, with their settings.

    Each algorithm's runs are those :meth:`~faircompare.analysis.selection.StudyFrames.shown`
    chooses, or with ``every`` each of its runs (every grid value and split); each row carries
    its run's ``setting`` (how it was chosen, or its parameters).
    """
    selected = selection.measures(study.measures)
    chosen = selected if every else study.shown(selected)
    settings = chosen.drop_duplicates("key").set_index("key")["setting"]
    audits = study.audits[study.audits["key"].isin(settings.index)]
    return audits.assign(setting=audits["key"].map(settings))


def y_labelled(ax: Axes, label: str, layout: Layout) -> None:
    """Label a panel's y axis: every panel, or the first of each row where they share it."""
    spec = ax.get_subplotspec()
    if not layout.sharey or spec is None or spec.is_first_col():
        ax.set_ylabel(label)


def panels_of(
    frame: pd.DataFrame, order: Sequence[str], families: Mapping[str, str], selection: Selection
) -> tuple[pd.Series, list[str], bool]:
    """Return each row's panel, the panels in order, and whether they are families.

    Rows of several configurations: a panel per configuration, titled in the selection's
    labels. Of one configuration: a panel per family where :func:`family_panels` makes them
    (more than :data:`FACET_ABOVE` algorithms, known families), else one untitled panel.
    """
    where = [(str(d), str(a), str(v)) for d, a, v in frame[tidy.WHERE].to_numpy()]
    configurations = selection.arranged(where)
    groups = family_panels(order, families if len(configurations) == 1 else {})
    if len(groups) > 1:
        family = {a: f for f, members in groups for a in members}
        return frame["algorithm"].map(family), [f for f, _ in groups], True
    if len(configurations) > 1:
        titles = [panel_title(selection, w) for w in where]
        return pd.Series(titles, index=frame.index), [
            panel_title(selection, w) for w in configurations
        ], False  # fmt: skip
    return pd.Series("", index=frame.index), [""], False


def scatter(
    ax: Axes,
    runs: pd.DataFrame,
    x: str,
    y: str,
    styles: Mapping[str, Style],
    order: Sequence[str],
) -> None:
    """Draw each name's runs at (x, y) in its style, hollow where ``filled`` is False.

    ``runs`` holds ``name`` (the legend's), ``style`` (the key of its style) and ``filled``.
    """
    for name in order:
        mine = runs[runs["name"] == name]
        if mine.empty:
            continue
        style = styles[mine["style"].iloc[0]]
        colour, marker = style["color"], style["marker"]
        faces = np.where(mine["filled"].to_numpy(bool), colour, "none")
        ax.scatter(mine[x], mine[y], s=14, marker=marker, linewidths=0.7, edgecolors=colour,
                   facecolors=faces)  # fmt: skip
        ax.scatter([], [], s=14, marker=marker, color=colour, label=name)  # the legend's, filled


CONTEXT = "#DDDDDD"  # the other families' runs, behind a family's panel


def behind(ax: Axes, same: pd.DataFrame, title: str, x: str, y: str) -> None:
    """Draw the runs of a panel's configuration that other panels show, in light grey behind.

    ``same`` holds the configuration's runs, each with its ``panel``: a family's panel shows the
    other families' runs as context.
    """
    rest = same[same["panel"] != title]
    ax.scatter(rest[x], rest[y], s=5, color=CONTEXT, zorder=0)


def same_limits(axes: Sequence[Axes]) -> None:
    """Give panels that compare parts of one configuration the union of their ranges."""
    for get, set_ in (("get_xlim", "set_xlim"), ("get_ylim", "set_ylim")):
        limits = np.array([getattr(ax, get)() for ax in axes])
        for ax in axes:
            getattr(ax, set_)(limits[:, 0].min(), limits[:, 1].max())


FAR = 2.0  # values this many times the others' span from them are off the chart
FEW = 0.25  # the largest share of the values that may be off the chart


def chart_range(values: Sequence[float] | np.ndarray) -> tuple[float, float] | None:
    """Return an axis' range that leaves far outliers off the chart, or None when none is far.

    A few values (at most a quarter) whose gap to the others is more than :data:`FAR` times
    the others' span would leave them less than a third of the axis, such as the naive Bayes
    pipelines at 0.24 accuracy beside 28 algorithms between 0.69 and 0.85: they are drawn at
    the edge instead, and :func:`note_off_chart` writes their values there.
    """
    ordered = np.sort(np.asarray(values, dtype=float))
    ordered = ordered[np.isfinite(ordered)]
    low, high = 0, len(ordered) - 1
    for _ in range(2):  # the widest gap, then the widest of the rest: one at each end at most
        if high - low < 3:
            break
        gaps = np.diff(ordered[low : high + 1])
        cut = low + int(np.argmax(gaps))  # the last value below the widest gap
        few, gap = FEW * (high - low + 1), gaps.max()
        if cut - low + 1 <= few and gap > FAR * (ordered[high] - ordered[cut + 1]):
            low = cut + 1
        elif high - cut <= few and gap > FAR * (ordered[cut] - ordered[low]):
            high = cut
        else:
            break
    if low == 0 and high == len(ordered) - 1:
        return None
    margin = 0.08 * max(float(ordered[high] - ordered[low]), 1e-3)
    return float(ordered[low] - margin), float(ordered[high] + margin)


def note_off_chart(ax: Axes, values: np.ndarray, limits: tuple[float, float]) -> None:
    """Say in a panel's title what lies beyond its y range, at its edge: ``3 below: 0.24``."""
    values = np.asarray(values, dtype=float)
    notes = []
    for side, beyond in (("below", values < limits[0]), ("above", values > limits[1])):
        if beyond.any():
            low, high = values[beyond].min(), values[beyond].max()
            shown = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f} to {high:.2f}"
            notes.append(f"{int(beyond.sum())} {side}: {shown}")
    if notes:
        ax.set_title("\n".join(filter(None, [ax.get_title(), *notes])))
