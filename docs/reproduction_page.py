"""Write the reproduction's cell-by-cell tables (``reproduction-cells.md``) from the measured file.

``docs/measured/reproduction.csv`` is the reproduction table's default-parameter cells as
``docs/measured/reproduction.py`` wrote them (``faircompare reproduce --as-published``, 10
splits); its first line says when and where. Each dataset and attribute gets a table: every
algorithm's accuracy and DIbinary, published and here, z (the difference in standard errors),
z with every departure's switch on (as published), and the cause of each difference.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from scipy import stats

from faircompare.reproduction import DEPARTURES
from faircompare.reproduction.table import AGREEMENT

MEASURED = Path(__file__).parent / "measured" / "reproduction.csv"
_SHOWN = ("accuracy", "DIbinary")


def page(measured: Path = MEASURED) -> str:
    """Return the departures' list and the tables' Markdown."""
    provenance = measured.read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
    every = pd.read_csv(measured, comment="#", keep_default_na=False)
    cells = every[every["measure"].isin(_SHOWN)]
    machine, _, command = provenance.partition("; ")
    measured_with = f"Measured with {machine}: `{command}`." if command else f"Measured: {machine}."
    lines = [*_departures(), "", measured_with, "", _counts(cells), "", _unexplained(every), ""]
    for (dataset, attribute), part in cells.groupby(["dataset", "attribute"], sort=False):
        lines += [f"### {dataset}, {attribute}", "", *_table(part), ""]
    return "\n".join(lines)


def _departures() -> list[str]:
    """Return the departures, each with what the original did and its switch."""
    lines = [
        "| departure | the original | here | the switch |",
        "|---|---|---|---|",
    ]
    for departure in DEPARTURES.values():
        switch = "; ".join(
            f"`{algorithm}`: " + ", ".join(f"`{key}={value!r}`" for key, value in params.items())
            for algorithm, params in departure.switch.items()
        )
        lines.append(f"| {departure.name} | {departure.original} | {departure.here} | {switch} |")
    return lines


def _counts(cells: pd.DataFrame) -> str:
    """Return the sentence that counts the agreeing cells, as run here and as published."""
    pairs = cells.groupby(["dataset", "attribute", "original"])
    here = pairs["verdict"].agg(lambda v: (v == "agrees").all())
    published = pairs["as_published_verdict"].agg(lambda v: (v == "agrees").all())
    return (
        f"Of the {len(here)} algorithms and datasets, {here.sum()} agree with the published "
        f"results within 3 standard errors in both accuracy and DIbinary as faircompare runs "
        f"them, and {published.sum()} with every departure's switch on (as published)."
    )


def _unexplained(every: pd.DataFrame) -> str:
    """Return the sentence on the differences no cause explains, beside what chance gives."""
    found = every[every["cause"] == "unexplained"]
    beyond = 2 * stats.norm.sf(AGREEMENT)  # two-sided, a cell that truly agrees
    named = "; ".join(
        f"{row.algorithm}'s {row.measure} on {row.dataset} ({row.attribute}), z {row.z:+.2f}"
        for row in found.itertuples()
    )
    return (
        f"Of all {len(every)} cells (every measure: accuracy, DIbinary, CV, TPR, TNR), "
        f"{len(found)} differ with no cause found{': ' + named if named else ''}; were every "
        f"cell to agree, chance alone would put {len(every) * beyond:.1f} of the {len(every)} "
        f"beyond {AGREEMENT:g} standard errors."
    )


def _table(part: pd.DataFrame) -> list[str]:
    """Return one dataset's table: a row per algorithm, its accuracy, DIbinary and causes."""
    rows = [
        "| algorithm (original's name) | accuracy | DIbinary | cause of a difference |",
        "|---|---|---|---|",
    ]
    for (original, algorithm), cells in part.groupby(["original", "algorithm"], sort=False):
        by_measure = cells.set_index("measure")
        entries = [
            _cell(by_measure.loc[measure]) if measure in by_measure.index else ""
            for measure in _SHOWN
        ]
        rows.append(f"| `{algorithm}` ({original}) | " + " | ".join(entries) + f" | "
                    f"{_causes(by_measure['cause'])} |")  # fmt: skip
    return rows


def _causes(causes: pd.Series) -> str:
    """Return a row's causes: one where its measures share it, else each with its measure."""
    found = causes[causes != ""]
    if found.nunique() <= 1:
        return found.iloc[0] if len(found) else ""
    return " · ".join(f"{measure}: {cause}" for measure, cause in found.items())


def _cell(cell: pd.Series) -> str:
    """Return a measure's cell: published, here, z, and z as published."""
    return (
        f"{_mean_sd(cell, 'published')} published, {_mean_sd(cell, 'ours')} here: "
        f"z {_z(cell['z'])} (as published {_z(cell['as_published_z'])})"
    )


def _mean_sd(cell: pd.Series, side: str) -> str:
    return f"{float(cell[f'{side}_mean']):.3f} ± {float(cell[f'{side}_sd']):.3f}"


def _z(value: object) -> str:
    if value == "" or pd.isna(value):
        return "not run"
    number = float(value)  # type: ignore[arg-type]
    shown = f"{number:+.1f}" if round(number, 1) else "0.0"  # never "-0.0"
    return f"**{shown}**" if abs(number) > 3 else shown
