"""The p-values figure: a permutation test's p-values over the runs (DiCiccio et al. Fig. 1).

DiCiccio et al. (2020, Fig. 1) read a test's validity from the histogram of its p-values: under
the null hypothesis they are uniform (the dashed line), and an excess near 0 is either a test
that rejects too often or, over a study's runs, models that are unfair. The p-values of one
metric's permutation test (demographic parity by default) of every run selected (each grid
value and split), pooled in one panel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._validation import check_choice
from faircompare.analysis import tidy
from faircompare.analysis.audit_figures import plot_pvalue_histogram
from faircompare.analysis.canvas import Layout
from faircompare.analysis.kinds._panels import shown_audits
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.tables import AUDIT_NAMES
from faircompare.stats.permutation import METRICS

__all__ = ["BINS", "NAMES_MEASURES", "PValueFrames", "draw", "frames"]

#: Whether ``x`` names a stored measure: here it names the metric a permutation test tested.
NAMES_MEASURES = False

#: Bins of the histogram, each 0.05 wide.
BINS = 20


@dataclass(frozen=True)
class PValueFrames:
    """What the p-values figure shows.

    Attributes
    ----------
    pvalues
        Each run's p-value.
    test
        The test's name (``demographic parity``).
    """

    pvalues: np.ndarray
    test: str


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> PValueFrames:
    """Return the p-values of one metric's permutation test over the selected runs.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs whose tests are drawn.
    x
        The metric tested (``positive_rate``: demographic parity; ``TPR``, ``FPR``,
        ``accuracy``, ``AUC``).
    y
        Not used: the axis is the density.

    Returns
    -------
    PValueFrames
        The p-values.

    Raises
    ------
    ValueError
        Where no selected run has that test's p-value.
    """
    metric = check_choice(x or "positive_rate", METRICS, what="metric tested")
    audits = tidy.pooled_audits(shown_audits(study, selection, every=True))
    tested = audits[(audits["audit"] == "permutation") & (audits["metric"] == metric)]
    pvalues = tested["pvalue"].dropna().to_numpy(float)
    if not len(pvalues):
        raise ValueError(
            f"no selected run has a permutation test of {metric}: run the study with its audits "
            "(or `faircompare audit`), or choose a metric it tested"
        )
    return PValueFrames(pvalues, AUDIT_NAMES.get(f"permutation {metric}", metric))


def draw(frames: PValueFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the p-values figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    title = f"{frames.test}: {len(frames.pvalues)} runs"
    return plot_pvalue_histogram(frames.pvalues, ax, BINS, layout=layout, title=title)
