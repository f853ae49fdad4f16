"""The correlations figure (Friedler et al. Fig. 3): how the measures move together across runs.

The Pearson correlation of each pair of measures across the selected runs (every dataset,
algorithm and split, as in the paper's figure), blue for positive and red for negative. The
measures are ordered by average-linkage clustering on the distance 1 - r, so that those that
move together (DI and CV, say) sit side by side and the paper's clusters show as blocks; the
report draws every measure of the catalogue, a paper the ones it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform

from faircompare._validation import check_choice
from faircompare.analysis import tidy
from faircompare.analysis.canvas import COLUMN, FigureFitError, Layout, canvas, finish, widest
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.style import paper_style
from faircompare.measures import MEASURES

__all__ = ["CORRELATED", "CorrelationFrames", "draw", "frames", "least_width", "ordered", "widened"]

#: The measures the correlations figure shows unless asked for others.
CORRELATED = ("accuracy", "TPR", "TNR", "BCR", "DIbinary", "CV", "sensitive-TPR",
              "sensitive-calibration-")  # fmt: skip
BAR = 0.7  # inches the colour bar and its labels take


@dataclass(frozen=True)
class CorrelationFrames:
    """What the correlations figure shows.

    Attributes
    ----------
    matrix
        The correlations, rows and columns in the order drawn, indexed by the names shown.
    title
        The figure's title ("" for none).
    """

    matrix: pd.DataFrame
    title: str = ""


def frames(
    study: StudyFrames,
    selection: Selection,
    x: str | None = None,
    y: str | None = None,
    *,
    measures: Sequence[str] | None = None,
) -> CorrelationFrames:
    """Correlate the selected runs' measures.

    Parameters
    ----------
    study
        The study's frames.
    selection
        The runs correlated and the measures' names.
    x, y
        Unused: the figure shows ``measures``.
    measures
        The measures (:data:`CORRELATED` by default).

    Returns
    -------
    CorrelationFrames
        The clustered matrix.
    """
    names = [check_choice(name, MEASURES, what="measure") for name in measures or CORRELATED]
    selected = selection.measures(study.measures)
    correlations = tidy.measure_correlations(selected, by=(), names=names)
    matrix = tidy.correlation_matrix(correlations).reindex(index=names, columns=names)
    matrix = ordered(matrix)
    labels = [selection.label(n) for n in matrix.index]
    return CorrelationFrames(matrix.set_axis(labels, axis=0).set_axis(labels, axis=1))


def ordered(matrix: pd.DataFrame) -> pd.DataFrame:
    """Return a correlation matrix without its empty measures, ordered by clustering.

    Parameters
    ----------
    matrix
        A square matrix of correlations (:func:`~faircompare.analysis.tidy.correlation_matrix`).

    Returns
    -------
    pandas.DataFrame
        Rows and columns in the leaves' order of average linkage on 1 - r (optimal ordering).
    """
    matrix = matrix.dropna(how="all").dropna(axis=1, how="all")
    if len(matrix) < 3:
        return matrix
    distance = 1 - matrix.fillna(0).to_numpy()
    np.fill_diagonal(distance, 0)
    distance = (distance + distance.T) / 2
    condensed = squareform(distance.clip(min=0), checks=False)
    order = leaves_list(linkage(condensed, "average", optimal_ordering=True))
    return matrix.iloc[order, order]


def least_width(frames: CorrelationFrames, layout: Layout) -> float:
    """Return the inches the figure needs for each cell to hold a line of text.

    Parameters
    ----------
    frames
        What it shows.
    layout
        The layout (its font size counts).

    Returns
    -------
    float
        The least width.
    """
    return len(frames.matrix) * layout.line + _room(frames, layout) + BAR


def widened(frames: CorrelationFrames, layout: Layout) -> Layout:
    """Return ``layout``, wide enough for the matrix: the report's, for every measure.

    Parameters
    ----------
    frames
        What it shows.
    layout
        The layout asked for.

    Returns
    -------
    Layout
        The layout, its width at least :func:`least_width`.
    """
    return replace(layout, width=max(layout.width, least_width(frames, layout)))


def _room(frames: CorrelationFrames, layout: Layout) -> float:
    return widest(frames.matrix.index, layout.small) + 0.15


def draw(frames: CorrelationFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the correlations figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw it into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    FigureFitError
        Where a cell would be narrower than a line of text.
    """
    layout = layout or Layout(COLUMN)
    labels = list(frames.matrix.index)
    room = _room(frames, layout)
    if ax is None and layout.width < least_width(frames, layout) - 1e-9:
        raise FigureFitError(
            f"{len(labels)} measures need {least_width(frames, layout):.1f} in at "
            f"{layout.font_size:g} pt; the figure is {layout.width:g} in wide: select fewer "
            "measures or draw it wider"
        )
    cell = (layout.width - room - BAR) / max(len(labels), 1)
    title = layout.line * 1.5 if frames.title else 0.0
    height = cell * len(labels) + room + 0.1 + title
    with paper_style(layout.font_size):
        drawn = canvas(layout, ax, 1, [], aspect=1.0, height=height,
                       label_room=room + BAR, titled=bool(frames.title))  # fmt: skip
        panel = drawn.axes[0]
        image = panel.imshow(frames.matrix.to_numpy(float), cmap="RdBu", vmin=-1, vmax=1)
        ticks = np.arange(len(labels))
        panel.set_xticks(ticks, labels, rotation=90)
        panel.set_yticks(ticks, labels)
        panel.set_title(frames.title)
        bar = drawn.figure.colorbar(image, ax=panel, shrink=0.8)
        bar.set_label("Pearson correlation")
        return finish(drawn)
