"""The parameter sweeps reproduced, as curves: the published mean and faircompare's per setting.

A sweep file of the original (``sweeps/<Algorithm>-accuracy_<dataset>_<attribute>_<variant>
.csv``) holds one algorithm at every setting of its parameter (Feldman's lambda, Kamishima's
eta). Each becomes a row of panels, one per measure: the published mean over the original's
splits and faircompare's at each setting, each with its 95 % interval (1.96 standard errors of
the mean), and faircompare's run with every departure's switch on where it was run
(``--as-published``), dashed.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare.analysis.style import PrintFigure

__all__ = ["sweep_figure"]

_SIDES = (  # (prefix, label, line style)
    ("published", "published (original)", "-"),
    ("ours", "faircompare", "-"),
    ("as_published", "faircompare, as published", "--"),
)
_Z95 = 1.96


def sweep_figure(
    table: pd.DataFrame, measures: tuple[str, ...] = ("accuracy", "DIbinary")
) -> Figure | None:
    """Draw every sweep of a reproduction table, a row per sweep file, a panel per measure.

    Parameters
    ----------
    table
        :func:`~faircompare.reproduction.reproduction_table`'s rows (its sweep files' cells are
        drawn, the others ignored).
    measures
        The measures drawn, one column of panels each.

    Returns
    -------
    matplotlib.figure.Figure or None
        The figure; None where the table holds no sweep.
    """
    sweeps = table[table["sweep"]]
    if sweeps.empty:
        return None
    sweeps = sweeps.assign(setting=sweeps["original_params"].map(_setting))
    files = sorted(sweeps["file"].unique())
    figure = PrintFigure(figsize=(3.2 * len(measures), 2.2 * len(files)), layout="constrained")
    axes = figure.subplots(len(files), len(measures), squeeze=False)
    for row, file in zip(axes, files, strict=True):
        cells = sweeps[sweeps["file"] == file]
        for ax, measure in zip(row, measures, strict=True):
            _draw_panel(ax, cells[cells["measure"] == measure].sort_values("setting"))
            name = cells["original_params"].iloc[0].partition("=")[0]
            first = cells.iloc[0]
            ax.set_title(
                f"{first['algorithm']}, {first['dataset']} ({first['attribute']}): {measure}",
                fontsize=7,
            )
            ax.set_xlabel(name or "setting", fontsize=7)
            ax.tick_params(labelsize=6)
            if name == "eta":  # 0 to 300, most settings below 20
                ax.set_xscale("symlog", linthresh=1.0)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=7)
    return figure


def _draw_panel(ax: Axes, cells: pd.DataFrame) -> None:
    """Draw one measure's curves along the setting, each with its 95 % band."""
    x = cells["setting"].to_numpy(float)
    for (prefix, label, style), colour in zip(_SIDES, ("black", "C0", "C1"), strict=True):
        mean = cells[f"{prefix}_mean"].to_numpy(float)
        if np.isnan(mean).all():
            continue
        n = cells[f"{prefix}_n"].to_numpy(float)
        error = _Z95 * cells[f"{prefix}_sd"].to_numpy(float) / np.sqrt(np.maximum(n, 1))
        ax.plot(x, mean, style, color=colour, linewidth=1.0, label=label)
        ax.fill_between(x, mean - error, mean + error, color=colour, alpha=0.15, linewidth=0)


def _setting(params: str) -> float:
    """Return the value of a sweep row's one parameter (``lambda=0.35``: 0.35)."""
    found = re.search(r"=\s*([-+0-9.eE]+)", params)
    return float(found[1]) if found else np.nan
