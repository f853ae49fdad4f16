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
- :mod:`.individual`: each run's individual-fairness statistic against delta (Maity et al.);
- :mod:`.pairs`: one measure against others, every run pooled (Friedler et al. Fig. 4);
- :mod:`.preprocessing`: a measure under the two numerical variants (Friedler et al. Fig. 2);
- :mod:`.sweep`: an algorithm over its parameter's grid (Friedler et al. Fig. 8);
- :mod:`.attributes`: a measure under each sensitive attribute (Friedler et al. Fig. 9);
- :mod:`.pvalues`: the permutation tests' p-values over the runs (DiCiccio et al. Fig. 1);
- :mod:`.threshold`: a run's gap between groups across thresholds (DiCiccio et al. Fig. 2);
- :mod:`.flipset`: the transparency report of the largest flipset (Black et al.);
- :mod:`.budget`: each tuned method at its defaults and at each budget (Aequitas Flow).

A kind's ``frames`` takes ``x`` and ``y`` (None where the kind fixes its axes) and the options
its signature names after them (:attr:`Kind.options`): the measures of a correlations,
intervals or pairs figure.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, TypeVar

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis.canvas import Layout
from faircompare.analysis.kinds import (
    attributes,
    audits,
    budget,
    correlations,
    critical_difference,
    equal_fairness,
    flipset,
    individual,
    intervals,
    pairs,
    preprocessing,
    pvalues,
    runs,
    stability,
    sweep,
    threshold,
    tradeoff,
)
from faircompare.choices import FIGURE_KINDS

__all__ = ["KINDS", "Kind"]


Frames = TypeVar("Frames")


@dataclass(frozen=True)
class Kind(Generic[Frames]):
    """A figure kind: its two steps, the second drawing what the first returns.

    Attributes
    ----------
    name
        Its name (``faircompare figure NAME``).
    shows
        What it shows, in one line.
    axes
        What ``x`` and ``y`` choose, and their defaults.
    frames
        Its data step: ``frames(study, selection, x, y, **options)``, the options those its
        signature names (:attr:`options`).
    draw
        Its drawing step: ``draw(frames, layout, ax)``.
    names_measures
        Whether its ``x`` and ``y`` name stored measures (checked against the store's before
        anything is drawn); False where ``x`` names a test's metric or a flipset (the module's
        ``NAMES_MEASURES``).
    """

    name: str
    shows: str
    axes: str
    frames: Callable[..., Frames]
    draw: Callable[[Frames, Layout | None, Axes | None], Figure]
    names_measures: bool = True

    @property
    def options(self) -> tuple[str, ...]:
        """The keyword options its ``frames`` takes besides ``x`` and ``y`` (``measures``)."""
        taken = inspect.signature(self.frames).parameters
        return tuple(name for name in taken if name not in _STEPS)


_STEPS = ("study", "selection", "x", "y")  # what every kind's frames takes

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
    "pairs": pairs,
    "preprocessing": preprocessing,
    "sweep": sweep,
    "attributes": attributes,
    "pvalues": pvalues,
    "threshold": threshold,
    "flipset": flipset,
    "budget": budget,
}
#: Every figure kind, by name (their texts: :data:`faircompare.choices.FIGURE_KINDS`).
KINDS: dict[str, Kind[Any]] = {
    name: Kind(
        name,
        shows,
        axes,
        _MODULES[name].frames,
        _MODULES[name].draw,
        getattr(_MODULES[name], "NAMES_MEASURES", True),
    )
    for name, (shows, axes) in FIGURE_KINDS.items()
}
