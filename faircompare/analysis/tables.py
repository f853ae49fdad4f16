"""Paper-ready tables: algorithms by key measures (mean ± sd over splits) and audit outcomes.

Each table is written as CSV (numbers) and as a LaTeX ``booktabs`` tabular (formatted text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from faircompare.analysis.tidy import CONFIGURATION, labelled
from faircompare.choices import FAMILIES
from faircompare.escaping import latex
from faircompare.measures import MEASURES
from faircompare.safe_write import replaced, write_text

__all__ = [
    "audit_table",
    "group_table",
    "measure_table",
    "to_latex",
    "typeset",
    "write_table",
]

KEY_MEASURES = ("accuracy", "BCR", "DIbinary", "CV", "sensitive-TPR", "sensitive-calibration-")
# The audits' columns under the names of their papers (DiCiccio et al.; Maity et al.; Black et al.)
AUDIT_NAMES = {
    "permutation positive_rate": "demographic parity",
    "permutation TPR": "equal opportunity (TPR)",
    "permutation FPR": "FPR parity",
    "permutation accuracy": "accuracy parity",
    "permutation AUC": "AUC parity",
    "permutation undecided": "permutation undecided (Monte Carlo)",
    "individual loss-ratio": "individual T_n",
    "individual error-ratio": "individual T~_n",
    "individual near-certain": "near-certain (read T~_n)",
    "individual undecided": "individual undecided (Monte Carlo)",
    "FlipTest F+ rate": "FlipTest F+",
    "FlipTest F- rate": "FlipTest F-",
}
_STATISTIC = re.compile(r"T(~?)_n")  # Maity et al.'s T_n and T~_n, as a page writes them


def typeset(text: str, escape: Callable[[str], str] = str) -> str:
    r"""Return a name as print sets it: Maity et al.'s statistics in math, the rest escaped.

    A page and a CSV file read ``T_n`` and ``T~_n``; LaTeX and matplotlib's mathtext set
    them as :math:`T_n` and :math:`\tilde{T}_n`.

    Parameters
    ----------
    text
        A name (an audit's column, an axis label).
    escape
        What the text around the math becomes (:func:`~faircompare.escaping.latex` for LaTeX).

    Returns
    -------
    str
        The name with ``$T_n$`` and ``$\tilde{T}_n$`` in it.
    """
    parts, last = [], 0
    for found in _STATISTIC.finditer(text):
        parts += [escape(text[last : found.start()]), r"$\tilde{T}_n$" if found[1] else "$T_n$"]
        last = found.end()
    return "".join([*parts, escape(text[last:])])


def measure_table(
    summary: pd.DataFrame,
    attribute: str | None = None,
    families: Mapping[str, str] | None = None,
    *,
    interval: bool = False,
) -> pd.DataFrame:
    """Tabulate algorithms by measures, "mean ± sd", from one configuration's stability summary.

    Parameters
    ----------
    summary
        The stability summary of one dataset, attribute and variant
        (:func:`~.tidy.stability`); a ``flag`` column, where it has one, holds each cell's
        flag (:func:`~faircompare.analysis.flags.cell_flags`): a flagged cell shows its mean
        and its reasons, ``"478.827 (flag: few events on 5 of 5 splits)"``, and no spread.
    attribute
        The sensitive attribute; given, the headers are the paper's names (``sex-TPR``).
    families
        Each algorithm's family (:func:`faircompare.registry.families`); given, the rows are
        grouped by family, baselines first.
    interval
        Whether a cell shows the mean and the summary's interval, ``"0.811 [0.805, 0.817]"``,
        rather than the mean ± sd.

    Returns
    -------
    pandas.DataFrame
        Rows are algorithms, named by their setting (:func:`~.tidy.label`), under their family
        when ``families`` is given; a measure no split defines reads "undefined", and one
        without a spread (one split) its mean alone.
    """
    flagged = summary["flag"].fillna("") if "flag" in summary else pd.Series("", summary.index)
    spread = summary[["ci_low", "ci_high"]] if interval else summary[["sd"]]
    cells = [
        _spread(mean, *bounds, flag=flag)
        for mean, bounds, flag in zip(summary["mean"], spread.to_numpy(), flagged, strict=True)
    ]
    rows = labelled(summary).assign(cell=cells)
    index = ["algorithm"]
    if families is not None:
        family = summary["algorithm"].map(families).fillna("unspecified")
        rows = rows.assign(family=pd.Categorical(family, categories=FAMILIES, ordered=True))
        index = ["family", "algorithm"]
    table = rows.pivot_table(
        index=index, columns="measure", values="cell", aggfunc="first", observed=True
    )
    order = [m for m in KEY_MEASURES if m in table.columns] + sorted(
        set(table.columns) - set(KEY_MEASURES)
    )
    table = table[order].rename_axis(index=[None] * len(index), columns=None)
    if attribute is None:
        return table
    return table.rename(columns=lambda m: _paper_name(m, attribute))


def _spread(mean: float, *spread: float, flag: str = "") -> str:
    """Return a measure's cell: "mean ± sd" or "mean [low, high]".

    The mean alone without a spread, the mean and its flag's reasons, or "undefined".
    """
    if np.isnan(mean):
        return f"undefined (flag: {flag})" if flag else "undefined"
    if flag:
        return f"{mean:.3f} (flag: {flag})"
    if np.isnan(spread).any():
        return f"{mean:.3f}"
    if len(spread) == 1:
        return f"{mean:.3f} ± {spread[0]:.3f}"
    return f"{mean:.3f} [{spread[0]:.3f}, {spread[1]:.3f}]"


def _paper_name(measure: str, attribute: str) -> str:
    known = MEASURES.get(measure)
    return (known.paper_name("", attribute) if known else None) or measure


def audit_table(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Tabulate algorithms by audit outcome (share of splits rejecting, FlipTest rates), rounded.

    Columns carry the names the audits' papers use (:data:`AUDIT_NAMES`).

    Parameters
    ----------
    outcomes
        :func:`~.tidy.audit_outcomes` of one configuration.

    Returns
    -------
    pandas.DataFrame
        Indexed by algorithm; the outcomes under their papers' names, rounded; "n/a" where no
        split gives one (the test not run: a metric undefined in a group, a group below the
        audits' minimum; or every verdict undecided).
    """
    columns = [c for c in outcomes.columns if c not in CONFIGURATION]
    table = labelled(outcomes).set_index("algorithm")[columns].round(3)
    table = table.astype(object).where(table.notna(), "n/a")
    return table.rename_axis(index=None).rename(columns=AUDIT_NAMES)


def group_table(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Tabulate algorithms and groups by audit outcome (shares of splits rejecting, FlipTest rates).

    Parameters
    ----------
    outcomes
        :func:`~.tidy.group_outcomes` of one configuration.

    Returns
    -------
    pandas.DataFrame
        Indexed by algorithm and group; the metrics under their papers' names, the group's
        test rows and the note of a group too small to compare.
    """
    table = labelled(outcomes).set_index(["algorithm", "group"])
    table = table.drop(columns=[c for c in CONFIGURATION if c in table.columns])
    names = {c: AUDIT_NAMES.get(f"permutation {c}", AUDIT_NAMES.get(c, c)) for c in table.columns}
    return table.round(3).rename_axis(index=[None, None]).rename(columns=names)


def to_latex(
    table: pd.DataFrame, *, caption: str = "", bold: Mapping[str, object] | None = None
) -> str:
    """Format a table as a LaTeX ``booktabs`` tabular, special characters escaped.

    Parameters
    ----------
    table
        The table; its index becomes the first column (a column per level of a MultiIndex).
    caption
        The caption; none when empty.
    bold
        ``{column: row}``: the cells set in bold (each column's best value, say).

    Returns
    -------
    str
        The LaTeX source.
    """
    levels = table.index.nlevels  # a MultiIndex gives a column per level
    columns = [""] * levels + [str(c) for c in table.columns]
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        rf"\begin{{tabular}}{{{'l' * levels}{'r' * len(table.columns)}}}",
        r"\toprule",
        " & ".join(typeset(c, latex) for c in columns) + r" \\",
        r"\midrule",
    ]
    bold = bold or {}
    for index, row in table.iterrows():
        names = index if isinstance(index, tuple) else (index,)
        cells = [latex(str(name)) for name in names] + [
            rf"\textbf{{{latex(_cell(v))}}}" if bold.get(column) == index else latex(_cell(v))
            for column, v in row.items()
        ]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{latex(caption)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def _cell(value: object) -> str:
    if isinstance(value, float):
        return "" if pd.isna(value) else f"{value:.3f}"
    return str(value)


def write_table(
    table: pd.DataFrame,
    folder: str | Path,
    name: str,
    *,
    numbers: pd.DataFrame | None = None,
    caption: str = "",
    root: str | Path | None = None,
) -> Sequence[Path]:
    """Write ``folder/name.tex`` from ``table`` and ``folder/name.csv`` from ``numbers``.

    Each file is written whole or not at all, and never through a link between ``root`` (the
    folder the user named; default ``folder``) and it (:mod:`faircompare.safe_write`).

    ``numbers`` (default: ``table``) is the unformatted data behind the table, so the CSV keeps
    means and standard deviations as numbers.

    Parameters
    ----------
    table
        The formatted table, written as LaTeX.
    folder
        Where the files go.
    name
        The files' name, without suffix.
    numbers
        The data behind the table, written as CSV; ``table`` when None.
    caption
        The LaTeX table's caption.
    root
        The folder the user named, above ``folder``; ``folder`` when None.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    folder = Path(folder)
    root = Path(root or folder)
    csv, tex = folder / f"{name}.csv", folder / f"{name}.tex"
    with replaced(csv, root) as temporary:
        (table if numbers is None else numbers).to_csv(temporary, index=numbers is None)
    return csv, write_text(tex, to_latex(table, caption=caption), root)
