"""Where a figure kind draws: its size, its grid of panels and its legend, computed before drawing.

Every figure kind (:mod:`faircompare.analysis.kinds`) draws on a canvas this module plans from
a :class:`Layout`: the report at :data:`REPORT`, a paper at the width its author asks for. The
figure's size is computed from what it holds (panels, legend entries, the longest names) before
anything is drawn; what cannot be read at the size asked raises :class:`FigureFitError`, naming
what would fit. Panels that do not fit side by side wrap onto more rows. Drawn into the user's
own axes (``ax=``), the text takes the layout's sizes too, whatever the axes were made with.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.textpath import TextToPath
from matplotlib.transforms import Bbox

from faircompare._validation import check_choice
from faircompare.analysis.style import PrintFigure
from faircompare.choices import COLUMN, FONT_SIZE, LEGENDS, PAGE, PAGE_HEIGHT

__all__ = ["COLUMN", "PAGE", "PAGE_HEIGHT", "REPORT", "FigureFitError", "Layout"]

MIN_PANEL = 1.2  # inches a panel needs, each way, for its ticks and points to be read
MAX_PANEL_HEIGHT = 2.8  # inches: a page-wide panel keeps a column panel's height
MARKER = 0.3  # inches a legend entry takes beside its text (marker and gaps)
LINE = 1.45  # a text line's height, in font sizes
ENTRY = 1.75  # a legend entry's height, in font sizes (its text and matplotlib's spacing)
BELOW = 0.55  # inches below a panel for its tick labels and axis label
LABEL_ROOM = 0.55  # inches beside a panel for its y tick labels and axis label
COLOUR_BAR = 0.75  # inches beside a panel for a colour bar and its label
# Inches a row's name takes before it breaks after a hyphen: the longest names ("optimized-
# preprocessing-logistic-regression", 2.1 in at 7 points) left a column's figure no panel
ROW_NAME = 1.4
ROW_LINES = 0.9  # a two-line row name's line spacing, in font sizes: it fits a 0.2 in row


class FigureFitError(ValueError):
    """The figure asked for cannot be drawn readably at the size asked."""


@dataclass(frozen=True)
class Layout:
    """The size and look of a figure.

    Attributes
    ----------
    width
        Inches: :data:`COLUMN` (3.5) for a column, :data:`PAGE` (7) for a page.
    height
        Inches; None follows the kind's aspect, with the room its legend takes.
    font_size
        Points of the text (ticks and legend one point less).
    legend
        ``"below"`` the panels, ``"right"`` of them, ``"inside"`` the first panel, or
        ``"off"``.
    sharey
        Whether the panels share their y axis; by default each has the range of its own data
        (Adult's accuracies and German's are both read, not both squashed).
    tallest
        Inches a figure sized by its kind may take at most: a paper's page
        (:data:`~faircompare.choices.PAGE_HEIGHT`) by default; None for a screen, which
        scrolls (the report's). A ``height`` given is drawn as asked.
    """

    width: float = COLUMN
    height: float | None = None
    font_size: float = FONT_SIZE
    legend: str = LEGENDS[0]
    sharey: bool = False
    tallest: float | None = PAGE_HEIGHT

    def __post_init__(self) -> None:
        check_choice(self.legend, LEGENDS, what="legend place")
        if self.width <= 0 or (self.height is not None and self.height <= 0):
            raise ValueError(f"a figure's size must be positive, got {self.width} x {self.height}")
        if self.font_size <= 1:
            raise ValueError(f"a figure's font size must be above 1 point, got {self.font_size}")

    @property
    def small(self) -> float:
        """Points of the ticks' and the legend's text."""
        return self.font_size - 1

    @property
    def line(self) -> float:
        """Inches a line of small text takes."""
        return LINE * self.small / 72

    @property
    def entry(self) -> float:
        """Inches a legend entry takes."""
        return ENTRY * self.small / 72


_TO_PATH = TextToPath()

#: The report's layout: a page wide, the legend beside the panels, as a screen reads it.
REPORT = Layout(width=PAGE, legend="right", tallest=None)


def text_width(text: str, font_size: float) -> float:
    """Return the inches ``text`` takes at ``font_size`` points in the default font.

    Parameters
    ----------
    text
        One line of text.
    font_size
        Its size in points.

    Returns
    -------
    float
        Its width in inches.
    """
    return _text_width(text, float(font_size))


def widest(texts: Iterable[str], font_size: float) -> float:
    """Return the inches the widest of ``texts`` takes at ``font_size`` points (0 for none).

    Parameters
    ----------
    texts
        Lines of text (a panel's row names, say).
    font_size
        Their size in points.

    Returns
    -------
    float
        The widest one's width in inches.
    """
    return max((text_width(str(t), font_size) for t in texts), default=0.0)


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, font_size: float) -> float:
    """Measure by the font's metrics (30 times faster than the outline's extents)."""
    width, _, _ = _TO_PATH.get_text_width_height_descent(
        text, FontProperties(size=font_size), ismath=False
    )
    return float(width) / 72


@dataclass(frozen=True)
class Canvas:
    """Where a kind draws: the figure and its panels, in reading order.

    Attributes
    ----------
    figure
        The figure: a new one, or the user's.
    axes
        One per panel; only the panels used (a grid's spare cells are hidden).
    layout
        The layout drawn at.
    legend_columns
        Columns of a legend below the panels; None where the user's axes are drawn into.
    panel_width
        Inches a panel takes across, which its title is wrapped to.
    """

    figure: Figure
    axes: list[Axes]
    layout: Layout
    legend_columns: int | None
    panel_width: float

    @property
    def users(self) -> bool:
        """Whether the kind draws into the user's axes."""
        return self.legend_columns is None


def canvas(
    layout: Layout,
    ax: Axes | None,
    panels: int,
    entries: Sequence[str],
    *,
    aspect: float,
    label_room: float = LABEL_ROOM,
    most_columns: int | None = None,
    titled: bool | None = None,
    panel_height: float | None = None,
    least_panel: float = MIN_PANEL,
    shared_rows: bool = False,
    height: float | None = None,
    whole: bool = False,
) -> Canvas:
    """Return the figure and panels to draw in: the user's axes (one panel), or a planned figure.

    The kind says what it needs through the arguments; the layout asked for is never rewritten
    by a kind (the canvas's :attr:`Canvas.layout` is the one drawn at).

    Parameters
    ----------
    layout
        The size and look asked for.
    ax
        The user's axes, or None for a new figure.
    panels
        How many panels the kind draws.
    entries
        The legend's entries (none: no legend).
    aspect
        A panel's height over its width.
    label_room
        Inches beside a panel for its tick and axis labels (its row names, say).
    most_columns
        The most panels a row holds (a kind whose panels pair up, as constraints do).
    titled
        Whether the panels carry a title line; by default when there are several.
    panel_height
        Inches a panel's height takes, where its rows set it rather than its width.
    least_panel
        Inches a panel needs across to be read (its cells' text, say).
    shared_rows
        Whether the panels' rows are the same (an algorithm each): one y axis for all, labelled
        on the first panel of each row of panels, whatever the layout's ``sharey``.
    height
        Inches of the whole figure, where the kind computes it (a matrix of square cells); the
        layout's height, where it gives one, comes first.
    whole
        One panel that is the whole figure, at the layout's width and ``panel_height``, with no
        margins: the kind places everything itself (a critical-difference diagram).

    Returns
    -------
    Canvas
        The figure and its axes.

    Raises
    ------
    FigureFitError
        Where the panels or the legend cannot be read at the size asked, naming what would.
    ValueError
        Where the user's axes are given for more than one panel.
    """
    if shared_rows:
        layout = replace(layout, sharey=True)
    if not entries:
        layout = replace(layout, legend="off")
    if ax is not None:
        if panels != 1:
            raise ValueError(f"ax= takes one panel; this selection draws {panels}")
        figure = ax.get_figure(root=True)
        assert isinstance(figure, Figure)
        width = float(ax.get_position().width * figure.get_size_inches()[0])
        return Canvas(figure, [ax], layout, None, width)
    if whole:
        figure = PrintFigure(figsize=(layout.width, layout.height or panel_height or layout.width))
        return Canvas(figure, [figure.add_axes((0.0, 0.0, 1.0, 1.0))], layout, 1, layout.width)
    titled = panels > 1 if titled is None else titled
    if height is not None and layout.height is None:
        layout = replace(layout, height=height)
    grid = _plan(
        layout, panels, entries, aspect, label_room, most_columns, titled, panel_height,
        max(least_panel, MIN_PANEL),
    )  # fmt: skip
    engine = ConstrainedLayoutEngine(w_pad=0.02, h_pad=0.02)
    figure = PrintFigure(figsize=grid.size, layout=engine)
    rows = math.ceil(panels / grid.columns)
    axes = figure.subplots(rows, grid.columns, squeeze=False, sharey=layout.sharey).ravel()
    for spare in axes[panels:]:
        spare.set_visible(False)
    return Canvas(figure, list(axes[:panels]), layout, grid.legend_columns, grid.panel)


@dataclass(frozen=True)
class _Grid:
    """The computed geometry of a figure: its size, panel columns and legend columns."""

    size: tuple[float, float]
    columns: int
    legend_columns: int
    panel: float  # inches across a panel


def _plan(
    layout: Layout,
    panels: int,
    entries: Sequence[str],
    aspect: float,
    label_room: float,
    most_columns: int | None,
    titled: bool,
    panel_height: float | None = None,
    least_panel: float = MIN_PANEL,
) -> _Grid:
    """Compute a figure's size, panel columns and legend columns, or say what does not fit."""
    legend = layout.legend if entries else "off"
    entry = widest(entries, layout.small) + MARKER
    width = layout.width - (entry if legend == "right" else 0.0)
    if legend != "off" and entry > layout.width:
        longest = max(entries, key=lambda name: widest([name], layout.small))
        raise FigureFitError(
            f"the legend's entry {longest!r} takes {entry:.1f} in, more than the figure's "
            f"{layout.width:g} in: give it a shorter label, draw the figure wider, or leave the "
            "legend off (legend 'off')"
        )
    columns = min(panels, most_columns or panels)
    while columns > 1 and _panel_width(width, columns, label_room, layout.sharey) < least_panel:
        columns -= 1
    panel = _panel_width(width, columns, label_room, layout.sharey)
    if panel < least_panel:
        raise FigureFitError(_fit_advice(layout, panels, entries, "wide", label_room))
    legend_columns, legend_height = 1, 0.0
    if legend == "below":
        legend_columns = max(1, min(len(entries), int(layout.width // entry)))
        legend_height = math.ceil(len(entries) / legend_columns) * layout.entry + 0.15
    rows = math.ceil(panels / columns)
    title = layout.font_size * LINE / 72 if titled else 0.0
    panel_height = panel_height or min(max(panel * aspect, MIN_PANEL), MAX_PANEL_HEIGHT)
    needed = rows * (panel_height + title + BELOW) + legend_height
    if legend == "right":
        needed = max(needed, len(entries) * layout.entry + 0.3)
    height = layout.height or needed
    if legend == "right" and len(entries) * layout.entry + 0.3 > height:
        raise FigureFitError(_fit_advice(layout, panels, entries, "tall", label_room))
    least = min(MIN_PANEL, panel_height) if panel_height else MIN_PANEL  # rows set its height
    if (height - legend_height) / rows - title - BELOW < least - 1e-9:
        raise FigureFitError(_fit_advice(layout, panels, entries, "tall", label_room))
    if layout.tallest is not None and layout.height is None and height > layout.tallest + 1e-9:
        raise FigureFitError(_too_tall(layout, height, panels, entries))
    return _Grid((layout.width, height), columns, legend_columns, panel)


def _too_tall(layout: Layout, height: float, panels: int, entries: Sequence[str]) -> str:
    """Say in one line that a figure is taller than a page, and what would fit."""
    legend = f" and a legend of {_counted(len(entries), 'entry', 'entries')}" if entries else ""
    remedies = ["select fewer algorithms, measures or configurations"]
    if layout.width < PAGE:
        remedies.append(f"draw it wider (width {PAGE:g} for a page)")
    if entries and layout.legend == "below":
        remedies.append("put the legend elsewhere (legend 'right' or 'off')")
    return (
        f"{_counted(panels, 'panel')}{legend} take{'s' * (panels == 1 and not entries)} "
        f"{height:.1f} in at {layout.width:g} in wide, more than the {layout.tallest:g} in a "
        f"page holds: {_either(remedies)}"
    )


def _either(remedies: Sequence[str]) -> str:
    """Join remedies as a reader says them: ``a``, ``a, or b``, ``a, b, or c``."""
    return ", or ".join([", ".join(remedies[:-1]), remedies[-1]] if remedies[1:] else remedies)


def _counted(count: int, thing: str, things: str | None = None) -> str:
    """Return ``count`` things, singular or plural: ``1 panel``, ``3 panels``, ``2 entries``."""
    return f"{count} {thing if count == 1 else things or thing + 's'}"


def _panel_width(width: float, columns: int, label_room: float, shared: bool) -> float:
    """Return a panel's width when ``columns`` panels share ``width`` inches."""
    rooms = label_room * (1 if shared else columns)
    return (width - rooms) / columns


def _fit_advice(
    layout: Layout, panels: int, entries: Sequence[str], short: str, label_room: float
) -> str:
    """Say in one line why a figure does not fit, and what would."""
    whose = "its" if panels == 1 else "their"
    names = f" ({whose} row names take {label_room:.1f} in)" if label_room > 1 else ""
    legend = f" and a legend of {_counted(len(entries), 'entry', 'entries')}" if entries else ""
    height = f"{layout.height:.1f}" if layout.height else "auto"
    where = "in" if short == "wide" else "above"
    remedies = ["select fewer algorithms or configurations"]
    if layout.width < PAGE:
        remedies.append(f"draw it wider (width {PAGE:g} for a page)")
    if short == "wide" and label_room > 1:  # row names take the room
        remedies.append("give the algorithms shorter labels")
    if short == "tall" and layout.height is not None:
        remedies.append("draw it taller, or leave its height to the figure")
    # a legend below takes height only, one on the right width and height
    if entries and (short == "tall" or layout.legend == "right"):
        elsewhere = [f"'{place}'" for place in ("below", "right", "off") if place != layout.legend]
        remedies.append(f"put the legend elsewhere (legend {' or '.join(elsewhere)})")
    return (
        f"{_counted(panels, 'panel')}{names}{legend} "
        f"do{'es' * (panels == 1 and not entries)} not fit {where} a "
        f"{layout.width:g} x {height} in figure at {layout.font_size:g} pt: {_either(remedies)}"
    )


def finish(canvas: Canvas) -> Figure:
    """Place the legend where the layout asks and size the user's axes' text; return the figure.

    Parameters
    ----------
    canvas
        The drawn canvas.

    Returns
    -------
    matplotlib.figure.Figure
        Its figure.
    """
    layout = canvas.layout
    for ax in canvas.axes:
        ax.set_title(wrapped(ax.get_title(), canvas.panel_width, layout.font_size))
    if canvas.users:
        _text_sizes(canvas.axes[0], layout)
        handles, names = canvas.axes[0].get_legend_handles_labels()
        if layout.legend != "off" and names:
            _users_legend(canvas.axes[0], handles, names, layout)
        return canvas.figure
    _legend(canvas)
    return canvas.figure


def wrapped(title: str, width: float, font_size: float, *, after: str = ", ") -> str:
    """Return a title broken after its commas into lines of at most ``width`` inches.

    Parameters
    ----------
    title
        The title (``German credit, sex, numerical+binary``); its own lines are kept.
    width
        Inches a line may take.
    font_size
        Points of its text.
    after
        Where a line may break: after each ``", "`` (a title's parts), or each ``"-"`` (a long
        measure's name, such as ``comparative-sensitive-TPR-diff``).

    Returns
    -------
    str
        The title, each line as long as fits (a part longer than the width alone on its line).
    """
    lines = []
    for line in title.split("\n"):
        parts = line.split(after)
        current = parts[0]
        for part in parts[1:]:
            if text_width(f"{current}{after}{part}", font_size) <= width:
                current = f"{current}{after}{part}"
            else:
                lines.append(current + after.rstrip())
                current = part
        lines.append(current)
    return "\n".join(lines)


def row_names(rows: Sequence[str], font_size: float) -> tuple[list[str], float]:
    """Return rows' names as a panel's y ticks set them, and the inches they take across.

    A name wider than :data:`ROW_NAME` breaks after a hyphen (drawn with line spacing
    :data:`ROW_LINES`).

    Parameters
    ----------
    rows
        The rows' names (algorithms).
    font_size
        Points of the tick labels.

    Returns
    -------
    tuple
        The names, a long one in lines, and the widest line's inches.
    """
    names = [wrapped(row, ROW_NAME, font_size, after="-") for row in rows]
    return names, widest([line for name in names for line in name.split("\n")], font_size)


def _text_sizes(ax: Axes, layout: Layout) -> None:
    """Give the user's axes the layout's text sizes (its ticks were made at the user's)."""
    ax.tick_params(labelsize=layout.small)
    for text in (ax.xaxis.label, ax.yaxis.label, ax.title):
        text.set_fontsize(layout.font_size)


def _legend(canvas: Canvas) -> None:
    """Place the legend of the axes' labelled artists (each label once) where asked."""
    labelled: dict[str, Artist] = {}
    for ax in canvas.axes:
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=True):
            labelled.setdefault(name, handle)
    layout = canvas.layout
    if not labelled or layout.legend == "off":
        return
    handles, names = list(labelled.values()), list(labelled)
    options: dict[str, Any] = {"frameon": False, "handletextpad": 0.3, "columnspacing": 0.8}
    if layout.legend == "inside":
        _inside(canvas.axes[0], handles, names, options)
    elif layout.legend == "right":
        canvas.figure.legend(handles, names, loc="outside right center", **options)
    else:
        options["ncols"] = canvas.legend_columns
        canvas.figure.legend(handles, names, loc="outside lower center", **options)


# Where an inside legend is tried, the emptier corners first.
_INSIDE: tuple[Literal["upper right", "upper left", "lower right", "lower left", "center right",
                       "center left", "upper center", "lower center"], ...] = (
    "upper right", "upper left", "lower right", "lower left", "center right", "center left",
    "upper center", "lower center",
)  # fmt: skip


def _inside(ax: Axes, handles: list[Artist], names: list[str], options: dict[str, Any]) -> None:
    """Put the legend in the first place inside the axes where it covers nothing drawn.

    Raises
    ------
    FigureFitError
        Where every place covers a point, a line or a bar, naming the places that do not.
    """
    figure = ax.get_figure(root=True)
    assert isinstance(figure, Figure)
    figure.draw_without_rendering()  # the layout's final places
    drawn = _drawn_boxes(ax)
    inside = ax.get_window_extent()
    for place in _INSIDE:
        legend = ax.legend(handles, names, loc=place, **options)
        box = legend.get_window_extent()
        if inside.contains(box.x0, box.y0) and inside.contains(box.x1, box.y1):
            if not any(box.overlaps(other) for other in drawn):
                return
        legend.remove()
    raise FigureFitError(
        "the legend covers the data wherever it goes inside the axes: draw it below or right "
        "(--legend below, --legend right; legend= in Python), or select fewer algorithms"
    )


def _drawn_boxes(ax: Axes) -> list[Bbox]:
    """Return the display boxes of what the axes draw: each point, line segment and bar."""
    boxes = []
    for collection in ax.collections:
        if isinstance(collection, PathCollection):
            offsets = collection.get_offset_transform().transform(collection.get_offsets())
            boxes += [_around(point) for point in offsets]
        else:
            boxes.append(collection.get_window_extent())
    for line in ax.lines:
        points = line.get_transform().transform(line.get_xydata())
        segments = zip(points[:-1], points[1:], strict=True)
        boxes += [Bbox(np.sort([a, b], axis=0)) for a, b in segments]
        boxes += [_around(point) for point in points]
    boxes += [patch.get_window_extent() for patch in ax.patches]
    return boxes


def _around(point: np.ndarray, pixels: float = 4.0) -> Bbox:
    """Return the box a marker drawn at ``point`` (display pixels) takes."""
    x, y = point
    return Bbox.from_extents(x - pixels, y - pixels, x + pixels, y + pixels)


def _users_legend(ax: Axes, handles: list[Artist], names: list[str], layout: Layout) -> None:
    """Place the legend of the user's axes where the layout asks, never over their data.

    Below the axes (under their tick labels and axis label), right of them, or inside where
    it covers nothing (:func:`_inside`).
    """
    options: dict[str, Any] = {"frameon": False, "fontsize": layout.small}
    if layout.legend == "inside":
        _inside(ax, handles, names, options)
        return
    if layout.legend == "right":
        ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.02, 1.0), **options)
        return
    figure = ax.get_figure(root=True)
    assert isinstance(figure, Figure)
    figure.draw_without_rendering()
    bottom = ax.get_tightbbox()
    assert bottom is not None
    below = ax.transAxes.inverted().transform((0.0, bottom.y0))[1]
    ax.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, below), ncols=2,
              **options)  # fmt: skip
