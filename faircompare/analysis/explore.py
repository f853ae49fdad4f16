"""The report's explorable chart: every run of the study, chosen and read in the page, offline.

One scatter of every run (each grid value and split) of one dataset, attribute and variant at a
time, any two of :data:`EXPLORED` on its axes, chosen from menus; hovering a point shows its
run: algorithm, parameters, split, its measures and its audits' verdicts with their p-values
(the demographic-parity permutation test, Holm-adjusted over the run's tests; the individual
test's statistic; FlipTest's F+ rate). A third menu highlights one algorithm on the chart and in
every table of the page. A run whose measure on either axis is flagged (:mod:`.flags`: one class
predicted, or a rate from few events) is drawn hollow, its reason read on hover. A run has its
algorithm's colour and marker of the static figures, which a legend below the chart names for
the configuration shown. The chart opens on the accuracy against the demographic-parity
difference, two measures in [0, 1] that a ratio's near-zero denominator cannot blow up. It is
drawn with Bokeh (standalone HTML, its JavaScript written into the page: no network, no server);
``perf/explore_libraries.py`` compares it with plotly on the page's size and the time to write
it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from faircompare.analysis import tidy
from faircompare.analysis.flags import ONE_CLASS
from faircompare.analysis.style import Style

__all__ = ["EXPLORED", "explore_html", "run_points"]

#: The measures a reader can put on the chart's axes, the accuracy first, then the fairness.
EXPLORED = (
    "accuracy",
    "BCR",
    "TPR",
    "TNR",
    "DIbinary",
    "CV",
    "demographic_parity_difference",
    "equalized_odds_difference",
)
_FIELDS = (
    "configuration",
    "algorithm",
    "params",
    "split",
    "parity_p",
    "individual",
    "flips",
    "flag",
)


def run_points(
    measures: pd.DataFrame, audits: pd.DataFrame, flagged: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Return one row per run: where it ran, its measures, and its audits' verdicts as text.

    Parameters
    ----------
    measures
        The store's long measures frame.
    audits
        The store's audit rows.
    flagged
        The runs' flagged measures (:func:`.flags.run_flags`), or None: none flagged.

    Returns
    -------
    pandas.DataFrame
        ``key``, ``configuration`` (dataset, attribute, variant), ``algorithm``, ``params``,
        ``split``, each of :data:`EXPLORED` the runs measured, ``parity_p``, ``individual``
        and ``flips`` (the audits' numbers as text, empty where not run), ``flagged`` (the
        measures of :data:`EXPLORED` flagged, space-separated) and ``flag`` (why, as text;
        both empty where none is).
    """
    wide = tidy.runs_wide(measures[measures["group"] == ""])
    shown = [m for m in EXPLORED if m in wide.columns]
    points = pd.DataFrame(
        {
            "key": wide["key"],
            "configuration": wide[tidy.WHERE].astype(str).agg(", ".join, axis=1),
            "algorithm": wide["algorithm"],
            "params": wide["setting"].astype(str),  # "defaults", or the parameters of a grid run
            "split": wide["split_id"].astype(int),
            **{m: wide[m].astype(float) for m in shown},
        }
    )
    verdicts = _verdicts(audits)
    for column in ("parity_p", "individual", "flips"):
        found = verdicts.get(column, {})
        points[column] = [found.get(key, "") for key in points["key"]]
    reasons = _flags(flagged)
    points["flagged"] = [reasons.get(key, ("", ""))[0] for key in points["key"]]
    points["flag"] = [reasons.get(key, ("", ""))[1] for key in points["key"]]
    return points.reset_index(drop=True)


def _flags(flagged: pd.DataFrame | None) -> dict[str, tuple[str, str]]:
    """Return each flagged run's measures of :data:`EXPLORED` and its reasons, as text."""
    if flagged is None or flagged.empty:
        return {}
    shown = flagged[flagged["measure"].isin(EXPLORED)]
    found = {}
    for key, rows in shown.groupby("key"):
        names = " ".join(rows["measure"].unique())
        reasons = "; ".join(
            reason if reason == ONE_CLASS else f"{reason}: {', '.join(part['measure'])}"
            for reason, part in rows.groupby("reason")
        )
        found[str(key)] = (names, reasons)
    return found


def _verdicts(audits: pd.DataFrame) -> dict[str, dict[str, str]]:
    """Return each run's audit numbers as text, by field and key."""
    if audits.empty:
        return {}
    pooled = tidy.pooled_audits(audits)
    of = pooled.set_index("key")
    parity = of[(of["audit"] == "permutation") & (of["metric"] == "positive_rate")]
    flips = of[(of["audit"] == "fliptest") & (of["metric"] == "F+")]
    individual = tidy.individual_statistics(pooled).set_index("key")
    individual = individual[individual["statistic"].notna()]
    verdict = individual["reject"].map({True: "rejects", False: "does not reject"})
    return {
        "parity_p": parity["adjusted_pvalue"].dropna().map("p = {:.3g} (Holm)".format).to_dict(),
        "individual": (
            verdict + individual["statistic"].map(" (statistic {:.3g})".format)
        ).to_dict(),
        "flips": flips["statistic"].dropna().map("F+ {:.1%}".format).to_dict(),
    }


def explore_html(points: pd.DataFrame, styles: dict[str, Style]) -> str:
    """Return the chart and its menus as one HTML fragment, Bokeh's JavaScript inlined.

    Parameters
    ----------
    points
        :func:`run_points`.
    styles
        Each algorithm's colour (:func:`~faircompare.analysis.style.study_styles`), as the
        static figures draw it.

    Returns
    -------
    str
        The fragment: Bokeh's scripts (no URL), the chart's element and its script.
    """
    from bokeh.document import Document
    from bokeh.embed import components
    from bokeh.layouts import column, row
    from bokeh.models import ColumnDataSource, CustomJS, HoverTool
    from bokeh.plotting import figure
    from bokeh.resources import Resources

    points = points.assign(**{c: "" for c in ("flagged", "flag") if c not in points})
    measures = [m for m in EXPLORED if m in points.columns and points[m].notna().any()]
    configurations = sorted(points["configuration"].unique())
    x, y = _axes(measures)
    look = {a: styles.get(a, {}) for a in points["algorithm"].unique()}
    everything = points.drop(columns="key").assign(
        colour=points["algorithm"].map(lambda a: look[a].get("color", "#444444")),
        marker=points["algorithm"].map(lambda a: _MARKERS[look[a].get("marker", "o")]),
    )
    data = {c: _column(everything[c]) for c in everything.columns}
    source = ColumnDataSource({**_empty(), "x": [], "y": []})
    plot = figure(frame_width=560, frame_height=340, output_backend="canvas",
                  tools="pan,wheel_zoom,reset", x_axis_label=x, y_axis_label=y)  # fmt: skip
    runs = plot.scatter("x", "y", source=source, size=7, marker="marker", fill_color="colour",
                        line_color="colour", fill_alpha="fill", line_alpha="alpha",
                        legend_field="algorithm")  # fmt: skip
    top = ColumnDataSource({c: [] for c in ("x", "y", "colour", "marker", "alpha", "fill")})
    plot.scatter("x", "y", source=top, size=7, marker="marker", fill_color="colour",
                 line_color="colour", fill_alpha="fill", line_alpha="alpha")  # fmt: skip
    key = plot.legend[0]
    key.update(ncols=_LEGEND_COLUMNS, label_text_font_size="8pt", glyph_height=12,
               glyph_width=12, label_height=12, spacing=0, padding=4, margin=4,
               border_line_alpha=0)  # fmt: skip
    plot.add_layout(key, "below")  # the chosen configuration's algorithms, as drawn
    plot.add_tools(HoverTool(renderers=[runs], tooltips=[
        ("algorithm", "@algorithm"), ("parameters", "@params"), ("split", "@split"),
        ("x, y", "@x{0.000}, @y{0.000}"), ("flag", "@flag"),
        ("demographic parity", "@parity_p"), ("individual", "@individual"),
        ("FlipTest", "@flips"),
    ]))  # fmt: skip
    menus = {
        "configuration": _menu("dataset, attribute, variant", configurations),
        "x": _menu("x", measures, x),
        "y": _menu("y", measures, y),
        "highlight": _menu("highlight", ["(none)", *sorted(points["algorithm"].unique())]),
    }
    update = CustomJS(args={"source": source, "top": top, "plot": plot, **menus}, code=_UPDATE)
    for menu in menus.values():
        menu.js_on_change("value", update)
    layout = column(row(*menus.values()), plot)
    document = Document()
    document.add_root(layout)
    document.js_on_event("document_ready", update)  # the first configuration, drawn at once
    script, element = components(layout)
    resources = Resources(mode="inline", components=["bokeh", "bokeh-widgets"])
    chart = _stable_ids(f"{script}\n{element}")  # one naming: the element the script fills
    return f"{resources.render_js()}\n{_data_block(data)}\n{chart}"


#: The element holding the chart's runs, read once by its menus' callback.
_DATA_ID = "faircompare-explore-runs"


def _data_block(data: Mapping[str, object]) -> str:
    """Return the runs as a JSON block of the page, which its script parses when it opens.

    JSON parses faster than the JavaScript literal it would be in the callback's code (the
    ``paper`` study's 27,820 runs are 2.8 MB), and once, not at each menu's change. Each
    ``<`` is written as its JSON escape, so no text in it closes the block.
    """
    text = json.dumps(data, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{_DATA_ID}">{text}</script>'


# The static figures' markers (matplotlib's) as Bokeh names them; its filled plus is "plus",
# and it has no filled x: a star stands for it.
_MARKERS = {"o": "circle", "s": "square", "^": "triangle", "D": "diamond",
            "v": "inverted_triangle", "P": "plus", "X": "star"}  # fmt: skip
_LEGEND_COLUMNS = 3  # below the chart's 560 pixels: 3 names of about 30 characters each

# Bokeh names its models p1001, p1002, ... (a count that runs on in a process) and its
# document and root elements by random UUIDs; named again in order of first sight, the same
# study writes the same page (the report's parts are reused when their inputs are the same).
_IDS = re.compile(r"\b(?:p\d{4,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b")


def _stable_ids(text: str) -> str:
    """Return Bokeh's output with each model's and element's id the same from run to run."""
    named: dict[str, str] = {}
    return _IDS.sub(lambda m: named.setdefault(m.group(), f"fcx{len(named) + 1}"), text)


def _menu(title: str, options: list[str], value: str | None = None) -> Any:
    """Return a menu of ``options``, ``value`` (or the first) chosen."""
    from bokeh.models.widgets import Select

    choices: list[str | tuple[Any, str]] = list(options)
    return Select(title=title, value=value or options[0], options=choices)


def _axes(measures: list[str]) -> tuple[str, str]:
    """Return the axes a reader sees first: a bounded fairness measure across, accuracy up."""
    bounded = "demographic_parity_difference"
    return (bounded if bounded in measures else measures[-1]), measures[0]


def _column(values: pd.Series) -> list[object] | dict[str, list[object]]:
    """Return a column as JSON holds it compactly.

    A number to 4 decimals (a missing one as null); any other value as its code among the
    column's distinct values, ``{"names": [...], "codes": [...]}``: a study's 27,820 runs repeat
    a few dozen configurations and algorithms.
    """
    if values.dtype.kind == "f":
        return [None if np.isnan(v) else round(float(v), 4) for v in values]
    codes, names = pd.factorize(values)
    return {"names": names.tolist(), "codes": codes.tolist()}


def _empty() -> dict[str, list[object]]:
    return {name: [] for name in (*_FIELDS, "colour", "marker", "alpha", "fill")}


# The menus' callback: the chosen configuration's runs at the chosen measures, the highlighted
# algorithm opaque, drawn again on top (the legend keeps its order, the hover reads the runs
# once) and its rows marked in every table of the page.
_UPDATE = """
const all = window.faircompareRuns ??= JSON.parse(document.getElementById("__RUNS__").text);
const at = (name, i) => all[name].names ? all[name].names[all[name].codes[i]] : all[name][i];
const keep = [];
for (let i = 0; i < all.split.codes.length; i++) {
  if (at("configuration", i) === configuration.value && all[x.value][i] !== null
      && all[y.value][i] !== null) keep.push(i);
}
keep.sort((i, j) => at("algorithm", i).localeCompare(at("algorithm", j)));  // the legend's order
const pick = (name) => keep.map((i) => at(name, i));
const marked = highlight.value;
const alpha = keep.map((i) => marked === "(none)" || at("algorithm", i) === marked ? 0.8 : 0.12);
const hollow = keep.map((i) => at("flagged", i).split(" ").some((m) => m === x.value
                                                                   || m === y.value));
const fill = alpha.map((a, n) => hollow[n] ? 0 : a);  // a flagged run: its outline only
source.data = {
  x: pick(x.value), y: pick(y.value), configuration: pick("configuration"),
  algorithm: pick("algorithm"), params: pick("params"), split: pick("split"),
  parity_p: pick("parity_p"), individual: pick("individual"), flips: pick("flips"),
  flag: pick("flag"), colour: pick("colour"), marker: pick("marker"), alpha, fill,
};
const over = keep.flatMap((i, n) => at("algorithm", i) === marked ? [n] : []);
const lift = (name) => over.map((n) => source.data[name][n]);
top.data = {x: lift("x"), y: lift("y"), colour: lift("colour"), marker: lift("marker"),
            alpha: lift("alpha"), fill: lift("fill")};  // the highlighted runs, over the rest
plot.below[0].axis_label = x.value;
plot.left[0].axis_label = y.value;
if (window.highlightAlgorithm) window.highlightAlgorithm(marked);  // the page's tables
""".replace("__RUNS__", _DATA_ID)
