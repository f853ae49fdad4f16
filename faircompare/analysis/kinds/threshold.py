"""The threshold figure: a run's gap between groups across thresholds (DiCiccio et al. Fig. 2).

DiCiccio et al. (2020, Fig. 2) move a scored model's decision threshold and compare, at each,
the observed difference of a metric between the groups with the 95th percentile of its
permutation distribution: where the observed difference is above, the test rejects at that
threshold. The run shown is the selected run with scores (each grid value and split a run)
whose permutation test of the metric has the smallest p-value, the clearest unfairness among
them, at ten thresholds from its scores' 5th to their 95th percentile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._validation import check_choice
from faircompare.analysis import tidy
from faircompare.analysis.audit_figures import plot_threshold_curve, threshold_curve
from faircompare.analysis.canvas import Layout
from faircompare.analysis.kinds._panels import run_name, shown_audits
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.stats.permutation import METRICS

__all__ = ["NAMES_MEASURES", "PERMUTATIONS", "THRESHOLDS", "ThresholdFrames", "draw", "frames"]

#: Whether ``x`` names a stored measure: here it names the metric a permutation test tested.
NAMES_MEASURES = False

#: The thresholds: quantiles of the run's scores.
THRESHOLDS = np.linspace(0.05, 0.95, 10)
#: Permutations of each threshold's test (seeded: the figure is the same at every draw).
PERMUTATIONS = 200


@dataclass(frozen=True)
class ThresholdFrames:
    """What the threshold figure shows.

    Attributes
    ----------
    curve
        One row per threshold: ``threshold``, ``observed`` and ``percentile_95``
        (:func:`~faircompare.analysis.audit_figures.threshold_curve`).
    run
        The run's name: dataset, attribute, variant, algorithm and split.
    """

    curve: pd.DataFrame
    run: str


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> ThresholdFrames:
    """Compute the threshold curve of the selected scored run the permutation test rejects most.

    Parameters
    ----------
    study
        The study's frames, read from an open store (its runs' scores are read from it).
    selection
        The runs considered and their names.
    x
        The metric tested (``positive_rate``: demographic parity).
    y
        Not used: the axis is the difference between the groups.

    Returns
    -------
    ThresholdFrames
        The curve and its run.

    Raises
    ------
    ValueError
        Where no selected run with scores has that permutation test, or the frames hold no
        store.
    """
    metric = check_choice(x or "positive_rate", METRICS, what="metric tested")
    if study.store is None:
        raise ValueError("the threshold figure reads runs' scores: read the frames from a store")
    audits = tidy.pooled_audits(shown_audits(study, selection, every=True))
    tested = audits[(audits["audit"] == "permutation") & (audits["metric"] == metric)]
    for _, run in tested.sort_values(["pvalue", "key"]).iterrows():
        stored = study.store.predictions(run["key"])
        if stored.scores is None:
            continue
        curve = threshold_curve(
            stored.y_true, stored.scores, stored.sensitive_features, group_a=stored.privileged,
            thresholds=np.quantile(stored.scores, THRESHOLDS), metric=metric,
            permutations=PERMUTATIONS, rng=0,
        )  # fmt: skip
        return ThresholdFrames(curve, run_name(run, selection))
    raise ValueError(
        f"no selected run with scores has a permutation test of {metric}: run the study with its "
        "audits, and select algorithms that score their rows"
    )


def draw(frames: ThresholdFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the threshold figure.

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
    return plot_threshold_curve(frames.curve, ax, layout=layout, title=frames.run)
