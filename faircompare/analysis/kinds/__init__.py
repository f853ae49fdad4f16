"""The figure kinds, each drawn by one code for the report and for a paper.

A kind is a module with two steps: ``frames(study, selection, x, y)`` selects and computes what
the figure shows (from a :class:`~faircompare.analysis.selection.StudyFrames`, the frames of a
results store), and ``draw(frames, layout, ax=None)`` draws it at a
:class:`~faircompare.analysis.canvas.Layout`. The report calls both at its layout
(:data:`~faircompare.analysis.canvas.REPORT`), ``faircompare figure`` and
:func:`faircompare.analysis.paper.draw` at the user's: the same selection at the same layout is
the same figure. Every kind draws several datasets, a panel each, each with its own range.

- :mod:`.tradeoff`: accuracy against a fairness gap, a point per run, the Pareto front;
- :mod:`.stability`: each algorithm's mean over splits and +/- one sd (Friedler et al. Fig. 7);
- :mod:`.intervals`: each algorithm's mean score and corrected 95 % interval;
- :mod:`.equal_fairness`: every run against the post-processed frontier (Cruz & Hardt 2024);
- :mod:`.critical_difference`: average ranks over datasets (Demšar 2006, Fig. 1);
- :mod:`.correlations`: the measures' correlations across runs (Friedler et al. Fig. 3);
- :mod:`.audits`: each algorithm's share of splits whose audits reject, a heatmap;
- :mod:`.runs`: two measures of every run shown, a point each (Friedler et al. Figs. 4-5);
- :mod:`.individual`: each run's individual-fairness statistic against delta (Maity et al.).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from faircompare.analysis.kinds import (
    audits,
    correlations,
    critical_difference,
    equal_fairness,
    individual,
    intervals,
    runs,
    stability,
    tradeoff,
)
from faircompare.choices import FIGURE_KINDS

__all__ = ["KINDS", "Kind"]


@dataclass(frozen=True)
class Kind:
    """A figure kind.

    Attributes
    ----------
    name
        Its name (``faircompare figure NAME``).
    shows
        What it shows, in one line.
    axes
        What ``x`` and ``y`` choose, and their defaults.
    frames
        Its data step: ``frames(study, selection, x, y, **options)``.
    draw
        Its drawing step: ``draw(frames, layout, ax=None)``.
    """

    name: str
    shows: str
    axes: str
    frames: Callable[..., Any]
    draw: Callable[..., Any]


_MODULES: dict[str, ModuleType] = {
    "tradeoff": tradeoff,
    "stability": stability,
    "intervals": intervals,
    "equal-fairness": equal_fairness,
    "critical-difference": critical_difference,
    "correlations": correlations,
    "audits": audits,
    "runs": runs,
    "individual": individual,
}
#: Every figure kind, by name (their texts: :data:`faircompare.choices.FIGURE_KINDS`).
KINDS: dict[str, Kind] = {
    name: Kind(name, shows, axes, _MODULES[name].frames, _MODULES[name].draw)
    for name, (shows, axes) in FIGURE_KINDS.items()
}
