"""Every figure the docs quote from a measuring script is its script's last output.

``docs/measured/*.py`` write a CSV beside themselves; a file with a ``quoted`` and a ``page``
column names, per row, the text its page prints. A rerun that moves a number fails here until
the page says the new one.
"""

import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
QUOTING = [
    path
    for path in sorted((ROOT / "docs" / "measured").glob("*.csv"))
    if {"quoted", "page"} <= set(pd.read_csv(path, comment="#", nrows=0).columns)
]


def flattened(text: str) -> str:
    """A page's text with its line breaks and runs of spaces made single spaces."""
    return re.sub(r"\s+", " ", text)


def test_the_measuring_scripts_write_quoting_files():
    # the scripts of the audits' error rates and costs (issue #80), Feldman's rejections (#78), the
    # tuned study (#82); a lost file would pass below
    assert {path.stem for path in QUOTING} >= {
        "across_datasets",
        "audit_error_rates",
        "audit_reproducibility",
        "dry_run_load",
        "feldman_individual",
        "sequential_audits",
        "tuned_study",
        "undecided_verdicts",
        "zafar_agreement",
    }


@pytest.mark.parametrize("path", QUOTING, ids=lambda path: path.stem)
def test_every_quoted_figure_is_on_its_page(path):
    figures = pd.read_csv(path, comment="#", keep_default_na=False)
    missing = []
    for page, rows in figures.groupby("page"):
        text = flattened((ROOT / page).read_text(encoding="utf-8"))
        missing += [
            f"{page}: {row.quantity}, {row.design}: {row.quoted!r}"
            for row in rows.itertuples()
            if row.quoted and row.quoted not in text
        ]
    assert not missing, "\n".join(missing)
