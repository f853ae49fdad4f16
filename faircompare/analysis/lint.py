"""A figure lint: what makes a figure unreadable, found by measuring what the renderer draws.

Each figure is drawn with matplotlib's Agg renderer and its texts and points measured in pixels:

- a text (title, axis label, tick label, legend entry, annotation) that leaves the figure is
  cut off in the saved file;
- two texts that overlap (tick labels, annotations, legend entries, titles) cannot be read;
- an axis on which 90 % of the points lie within 5 % of its span shows them as one line: a few
  extreme values stretched it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

TOLERANCE = 1.0  # pixels a text may cross the figure's edge or another label (antialiasing)
CROWDED_SHARE, CROWDED_SPAN = 0.9, 0.05  # 90 % of the points within 5 % of an axis' span
MIN_POINTS = 10  # an axis with fewer points is not judged crowded


def lint_figure(figure: Figure) -> list[str]:
    """Return the figure's readability problems, one sentence each (none: an empty list).

    Parameters
    ----------
    figure
        The figure, as it will be saved.

    Returns
    -------
    list of str
        Texts outside the figure, overlapping texts, crowded axes.
    """
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    problems = _outside(figure, renderer) + _overlapping(figure, renderer)
    for ax in figure.axes:
        problems += _crowded(ax)
    return problems


def _drawn(texts: Iterable[Text]) -> list[Text]:
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def _tick_labels(axis: Axis, drawn: bool) -> list[Text]:
    """Return an axis' tick labels: all, or those inside its view (the drawn ones)."""
    if drawn and not (axis.get_visible() and axis.axes.axison):
        return []
    low, high = sorted(axis.get_view_interval())
    margin = 1e-9 * (high - low)
    ticks = [*axis.get_major_ticks(), *axis.get_minor_ticks()]
    return [
        label
        for tick in ticks
        if not drawn or low - margin <= tick.get_loc() <= high + margin
        for label in (tick.label1, tick.label2)
    ]


def _texts(figure: Figure) -> list[Text]:
    """Return every text the figure draws (ticks outside an axis' view are not drawn)."""
    axes = [axis for ax in figure.axes for axis in (ax.xaxis, ax.yaxis)]
    ticks = {id(label) for axis in axes for label in _tick_labels(axis, drawn=False)}
    texts = [t for t in figure.findobj(Text) if id(t) not in ticks]
    return _drawn([*texts, *(label for axis in axes for label in _tick_labels(axis, drawn=True))])


def _outside(figure: Figure, renderer: RendererBase) -> list[str]:
    edge = figure.bbox.padded(TOLERANCE)
    problems = []
    for text in _texts(figure):
        box = text.get_window_extent(renderer)
        if not (edge.contains(box.x0, box.y0) and edge.contains(box.x1, box.y1)):
            problems.append(f"text {_quote(text)} leaves the figure")
    return problems


def _overlapping(figure: Figure, renderer: RendererBase) -> list[str]:
    """Name every two drawn texts (labels, ticks, legend entries, titles) that overlap."""
    boxes = [(t, t.get_window_extent(renderer).shrunk(1, 1)) for t in _texts(figure)]
    return [
        f"texts {_quote(a)} and {_quote(b)} overlap"
        for (a, box_a), (b, box_b) in combinations(boxes, 2)
        if _overlap(box_a, box_b) > TOLERANCE
    ]


def _overlap(a: Bbox, b: Bbox) -> float:
    """Return the smaller side of two boxes' intersection, in pixels (0 if they are apart)."""
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(0.0, min(width, height))


def _crowded(ax: Axes) -> list[str]:
    points = _points(ax)
    if len(points) < MIN_POINTS:
        return []
    box = ax.bbox
    problems = []
    for dimension, name, span in ((0, "x", box.width), (1, "y", box.height)):
        inside = points[:, dimension]
        share = _densest_share(inside, CROWDED_SPAN * span)
        if share >= CROWDED_SHARE:
            problems.append(
                f"{share:.0%} of the points lie within {CROWDED_SPAN:.0%} of the {name} axis "
                f"({_title(ax)}): a few values stretch it"
            )
    return problems


def _points(ax: Axes) -> np.ndarray:
    """Return every scattered point and line vertex inside the axes, in pixels."""
    drawn = [
        c.get_offset_transform().transform(np.asarray(c.get_offsets()))
        for c in ax.collections
        if isinstance(c, PathCollection)
    ]
    drawn += [
        line.get_transform().transform(xy)
        for line in ax.lines
        if isinstance(line, Line2D) and len(xy := np.asarray(line.get_xydata())) > 2
    ]  # a reference line's two ends are no data
    if not drawn:
        return np.empty((0, 2))
    points = np.concatenate(drawn)
    points = points[np.isfinite(points).all(axis=1)]
    box = ax.bbox
    keep = (points[:, 0] >= box.x0) & (points[:, 0] <= box.x1)
    keep &= (points[:, 1] >= box.y0) & (points[:, 1] <= box.y1)
    return points[keep]


def _densest_share(values: np.ndarray, width: float) -> float:
    """Return the largest share of ``values`` inside any interval of ``width``."""
    ordered = np.sort(values)
    ends = np.searchsorted(ordered, ordered + width, side="right")
    return float((ends - np.arange(len(ordered))).max() / len(ordered))


def _quote(text: Text) -> str:
    words = text.get_text().replace("\n", " ")
    return repr(words if len(words) <= 40 else f"{words[:37]}...")


def _title(ax: Axes) -> str:
    return f"axes {_quote(ax.title)}" if ax.get_title() else "untitled axes"
