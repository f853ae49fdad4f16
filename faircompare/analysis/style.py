"""The look every figure shares: the palette, each algorithm's colour and marker, the legends.

Figures are :class:`~matplotlib.figure.Figure` objects made outside pyplot's global state
(:func:`new_figure`). An algorithm keeps one colour and marker pair across every figure of every
study, set by its name (:func:`algorithm_styles`); a *hue group* (the baselines, or the
pipelines of one method, as the ``feldman-*`` ones) shares a hue. A hue group is not a
*family*: a family is where an intervention acts (pre-processing, in-processing,
post-processing, baseline), as :data:`faircompare.algorithms.base.FAMILIES` names them.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import matplotlib as mpl
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from faircompare.analysis.tidy import RETUNED_SUFFIX, SETTING_SUFFIXES, algorithm_of
from faircompare.choices import FONT_SIZE

__all__ = [
    "EMBEDDED_FONTS",
    "MARKERS",
    "PALETTE",
    "PrintFigure",
    "Style",
    "algorithm_styles",
    "legend_outside",
    "new_figure",
    "paper_style",
    "study_styles",
]

#: Paul Tol's "bright" scheme: distinguishable under every common colour-vision deficiency.
PALETTE = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB")

#: The markers of the algorithms, told apart in greyscale as the colours are in colour.
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
HATCHES = ("", "////", "\\\\", "xxx", "...", "+++", "ooo")  # for areas, where markers are not drawn
BASELINES = ("svm", "decision-tree", "gaussian-nb", "logistic-regression", "gradient-boosting")
# A hue group's colour map and its members, each at a shade of its own (its place here): the
# pipelines of a pre-processing share the baselines' places, so feldman-svm is to the other
# feldman-* pipelines what svm is to the baselines. A member's marker is its place shifted by
# its group's (the group's place in this table), so groups of close hues differ in markers too.
HUE_GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "": ("Greys", BASELINES),  # the baselines themselves
    "feldman-": ("Blues", BASELINES),
    "reductions-": ("Greens", ("eg-dp", "eg-eo", "gs-dp", "gs-eo")),
    "zafar-": ("Oranges", ("fairness", "accuracy")),
    "aif360-": ("Purples", ("reweighing", "calibrated-eo", "eq-odds", "reject-option")),
    "unprocessed-": ("Reds", BASELINES),
    "lfr-": ("RdPu", BASELINES),
    "correlation-remover-": ("YlOrBr", BASELINES),
    "optimized-preprocessing-": ("PuRd", BASELINES),
}
# An algorithm alone in its hue group takes a qualitative colour and a marker (Paul Tol's but
# the grey, which is the figures' background): the built-in ones in this order, any other name
# (a plugin's) at the pair its name hashes to. The order keeps any two built-in algorithms that
# share a marker at least 20 apart in CIELAB (tests/analysis/test_style.py): blues and greens
# first, so that they fall on other markers than the Feldman pipelines and the reductions.
SINGLE_COLOURS = (PALETTE[0], PALETTE[2], PALETTE[1], *PALETTE[3:6])
ALONE = ("kamishima", "calders", "threshold-optimizer", "gerryfair", "metafair",
         "adversarial-debiasing", "neural-network", "project-network", "sensr")  # fmt: skip
_PAIRS = len(SINGLE_COLOURS) * len(MARKERS)  # the (colour, marker) pairs of those alone
_BUDGET = re.compile(r" \((\d+) trials?\)$")  # a tuned run's name: kamishima (10 trials)
_BUILT_IN = {
    *ALONE,
    *(f"{prefix}{m}" for prefix, (_, members) in HUE_GROUPS.items() for m in members),
}
#: An algorithm's look: ``{"color": ..., "marker": ..., "hatch": ...}``.
Style = dict[str, str]


def algorithm_styles(algorithms: Sequence[str]) -> dict[str, Style]:
    """Give every algorithm its colour and marker (a hatch for areas), from its name alone.

    An algorithm looks the same in every figure of every study: its style depends on its name,
    not on the other algorithms of the study. A hue group shares a hue in shades, each member at
    a shade of its own (the ``feldman-*`` pipelines are blues, ``reductions-*`` greens, the
    baselines greys, ...); an algorithm alone in its group gets a qualitative colour and a
    marker, a plugin the pair its name hashes to, passed over to the next free pair where a
    built-in algorithm, or another name given here, has it. The tuned and pooled names of an
    algorithm (``kamishima-accuracy``, ``kamishima (grid)``) take its style, since a figure
    shows one of them; a name tuned with a budget (``kamishima (10 trials)``) its colour and a
    marker of its own, since a figure shows the budgets side by side. From names alone, a
    plugin named as a setting is (``my-method-accuracy``) is styled as the algorithm without
    that ending; :func:`study_styles`, given the algorithms, knows each name's algorithm.

    Parameters
    ----------
    algorithms
        The names to style, tuned and pooled names included.

    Returns
    -------
    dict
        ``{name: {"color": ..., "marker": ..., "hatch": ...}}``.
    """
    return _styles({name: _base(name) for name in sorted(set(algorithms))})


def _styles(bases: dict[str, str]) -> dict[str, Style]:
    """Style each name as its algorithm (``{name: algorithm}``), a budget's at its marker."""
    taken = set(range(len(ALONE)))
    looks: dict[str, tuple[str, int]] = {}
    for base in sorted(set(bases.values())):
        looks[base] = _grouped(base) or _alone(base, taken)
    return {name: _look(looks[base], _budget_shift(name)) for name, base in bases.items()}


def _look(look: tuple[str, int], shift: int) -> Style:
    """Return a colour and marker pair as a style, its marker and hatch moved by ``shift``."""
    colour, marker = look
    place = (marker + shift) % len(MARKERS)
    return {"color": colour, "marker": MARKERS[place], "hatch": HATCHES[place]}


def _budget_shift(name: str) -> int:
    """Return how far a tuned run's name moves its algorithm's marker: 0 for any other name.

    The budgets 1, 10 and 30 (and any two within a factor of two of each other apart) take
    markers of their own, so that one algorithm's budgets are told apart in a figure.
    """
    found = _BUDGET.search(name)
    if found is None:
        return 0
    return 1 + round(math.log2(int(found[1]))) % (len(MARKERS) - 1)


def _grouped(base: str) -> tuple[str, int] | None:
    """Return the colour and marker of a hue group's member, or None for a name alone."""
    groups = sorted(enumerate(HUE_GROUPS.items()), key=lambda group: -len(group[1][0]))
    for shift, (prefix, (colours, members)) in groups:  # the longest prefix first
        member = base.removeprefix(prefix)
        if (prefix and member == base) or not member:  # not of this group
            continue
        if member in members:
            place, places = members.index(member), len(members)
        elif prefix:  # a plugin of a known group: a shade of its own, from its name
            place, places = _hashed(base) % 100, 100
        else:
            continue
        shade = colormaps[colours](0.45 + 0.45 * place / max(places - 1, 1))
        return to_hex(shade), (place + shift) % len(MARKERS)
    return None


def _alone(base: str, taken: set[int]) -> tuple[str, int]:
    """Return the colour and marker of a name alone in its hue group, marking its pair taken.

    Pair k is colour c = k mod C (C colours) with marker (c + k // C) mod 7: the 7 C pairs are
    all distinct.
    """
    if base in ALONE:
        pair = ALONE.index(base)
    else:
        pair = _hashed(base) % _PAIRS
        while pair in taken and len(taken) < _PAIRS:
            pair = (pair + 1) % _PAIRS
        taken.add(pair)
    colours = len(SINGLE_COLOURS)
    return SINGLE_COLOURS[pair % colours], (pair % colours + pair // colours) % len(MARKERS)


def _hashed(name: str) -> int:
    """Return a number from a name, the same in every process (unlike :func:`hash`)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")


def study_styles(algorithms: Iterable[str], budgets: Iterable[int] = ()) -> dict[str, Style]:
    """Return the style of each name a study's figures give its algorithms.

    An algorithm is named by its setting (:func:`~faircompare.analysis.tidy.label`: its
    defaults, tuned for accuracy, its grid pooled); every name of every algorithm gets its
    algorithm's style (as :func:`algorithm_styles` gives it, the algorithm known rather than
    read from the name), so the report and a figure for a paper draw an algorithm alike.

    Parameters
    ----------
    algorithms
        The study's algorithms (registry names).
    budgets
        The study's tuning budgets: a tuned run's name (``kamishima (10 trials)``) takes its
        algorithm's style too.

    Returns
    -------
    dict
        ``{name: style}`` for every name of every algorithm.
    """
    return _styles(algorithm_of(algorithms, sorted(set(budgets))))


def _base(name: str) -> str:
    """Return the algorithm a setting's name names (``kamishima-accuracy``: ``kamishima``).

    A built-in algorithm's name is its own (``zafar-accuracy``); any other loses one setting's
    ending.
    """
    name = _BUDGET.sub("", name)
    if name in _BUILT_IN:
        return name
    for suffix in (RETUNED_SUFFIX, *filter(None, SETTING_SUFFIXES.values())):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


LEGEND_ROWS = 30  # entries per legend column (about what 4.5 inches hold at 7 points)
LEGEND_COLUMN = 2.6  # inches a column of algorithm names takes


def legend_columns(entries: int) -> int:
    """Return the columns a legend of ``entries`` takes beside the axes (one per 30 names).

    Parameters
    ----------
    entries
        The legend's entries.

    Returns
    -------
    int
        At least 1; a figure widens by :data:`LEGEND_COLUMN` inches for each.
    """
    return max(1, -(-entries // LEGEND_ROWS))


LEGEND_ENTRY = 0.15  # inches one legend entry takes at 7 points


def legend_height(entries: int, least: float) -> float:
    """Return a figure's height: ``least`` inches, or more where its legend needs them.

    Parameters
    ----------
    entries
        The legend's entries, in columns of :data:`LEGEND_ROWS`.
    least
        The height the axes need.

    Returns
    -------
    float
        Inches: the longest legend column, with room for the title, or ``least``.
    """
    return max(least, 0.6 + LEGEND_ENTRY * min(entries, LEGEND_ROWS))


def legend_outside(figure: Figure, *axes: Axes) -> None:
    """Put the axes' legend beside them, in the space the layout makes for it.

    A legend anchored outside the axes by hand is not seen by the constrained layout, which
    then lets it run over the data and the title; the figure's own legend, placed "outside",
    is. Past :data:`LEGEND_ROWS` entries the legend takes more columns.

    Parameters
    ----------
    figure
        The figure (constrained layout).
    *axes
        The axes whose labelled artists the legend lists, in order.
    """
    handles, labels = [], []
    for ax in axes:
        more_handles, more_labels = ax.get_legend_handles_labels()
        handles += more_handles
        labels += more_labels
    columns = legend_columns(len(labels))
    figure.legend(handles, labels, loc="outside right center", fontsize=7, frameon=False,
                  ncols=columns)  # fmt: skip


#: How text is saved, whatever the user's matplotlib settings: TrueType (Type 42) fonts in PDF
#: and PostScript, which ACM's and IEEE's checks accept (Type 3 they refuse), and SVG text kept
#: as text.
EMBEDDED_FONTS: dict[str, Any] = {"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none"}


class PrintFigure(Figure):
    """A figure whose text is saved as publishers ask, by any path (:data:`EMBEDDED_FONTS`).

    matplotlib reads how to embed fonts from its global settings when a figure is saved, so a
    figure saved outside a style's block embedded Type 3 fonts; this one saves with
    :data:`EMBEDDED_FONTS` in force, whoever calls :meth:`savefig` and wherever.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Make the figure as :class:`matplotlib.figure.Figure` is made.

        Parameters
        ----------
        *args, **kwargs
            Those of :class:`matplotlib.figure.Figure` (``figsize``, ``layout``, ...).
        """
        super().__init__(*args, **kwargs)

    def savefig(self, *args: Any, **kwargs: Any) -> None:
        """Save the figure as :meth:`matplotlib.figure.Figure.savefig` does, fonts embedded.

        Parameters
        ----------
        *args, **kwargs
            Those of :meth:`matplotlib.figure.Figure.savefig`.
        """
        with mpl.rc_context(EMBEDDED_FONTS):  # type: ignore[arg-type]  # keys typed as literals
            super().savefig(*args, **kwargs)


def new_figure(size: tuple[float, float]) -> tuple[Figure, Axes]:
    """Return a figure of ``size`` inches with one axes, outside pyplot's global state.

    A :class:`~matplotlib.figure.Figure` made directly needs no backend and is never kept by
    pyplot, so plotting never switches a notebook's backend nor leaks figures; Jupyter still
    shows it, and :meth:`~matplotlib.figure.Figure.savefig` writes it.

    Parameters
    ----------
    size
        Width and height in inches.

    Returns
    -------
    tuple of Figure and Axes
        The figure (constrained layout) and its axes.
    """
    figure = PrintFigure(figsize=size, layout="constrained")
    return figure, figure.subplots()


@contextmanager
def paper_style(font_size: float = FONT_SIZE) -> Iterator[None]:
    """Draw in the paper style within the block: small text and thin lines.

    The style :func:`faircompare.analysis.paper.draw` draws in: 8-point text for a figure
    printed at its size (a 3.5-inch column), lines and axes of 0.6 to 1 point. Colours and
    markers come from :func:`algorithm_styles`, distinct in greyscale and for colour-blind
    readers; fonts are embedded by :class:`PrintFigure` when the figure is saved, in the block
    or out of it.

    Parameters
    ----------
    font_size
        Points of the text; ticks and legend get one point less.
    """
    small = font_size - 1
    settings: dict[str, Any] = {
        "font.size": font_size,
        "axes.titlesize": font_size,
        "axes.labelsize": font_size,
        "xtick.labelsize": small,
        "ytick.labelsize": small,
        "legend.fontsize": small,
        "axes.linewidth": 0.6,
        "lines.linewidth": 1.0,
        "xtick.major.width": 0.6,
        "ytick.major.width": 0.6,
    }
    with mpl.rc_context(settings):  # type: ignore[arg-type]  # matplotlib types keys as literals
        yield
