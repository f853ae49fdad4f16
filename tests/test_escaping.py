"""Hostile text, escaped by where it is written: a BibTeX entry and a LaTeX table (issue #83).

The strings a hostile plugin put in its reference: a brace that closes the field, a LaTeX
command that reads a file, an entry's start on a new line, and a field of 100,000 characters.
"""

import re

import pandas as pd
import pytest

from faircompare.analysis.tables import to_latex
from faircompare.bibliography import Reference
from faircompare.cff import citation_file
from faircompare.escaping import BIBTEX_FIELD_LENGTH, bibtex_field, latex

HOSTILE = ["}", r"\input{/etc/passwd}", "}\n@misc{y,\n title={x}}", "%", "a" * 100_000]
#: The LaTeX commands an escaped text may hold: each prints one character.
PRINTING = {r"\textbackslash", r"\textbraceleft", r"\textbraceright", r"\textasciitilde",
            r"\textasciicircum", r"\pm"}  # fmt: skip


def commands(text: str) -> set[str]:
    """The LaTeX commands in a text, but the escaped characters (``\\%``, ``\\{``)."""
    return set(re.findall(r"\\[A-Za-z]+", text))


def balanced(text: str) -> bool:
    """Whether every brace closes one opened before it, as BibTeX counts them (any backslash)."""
    depth = 0
    for character in text:
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_reference_gives_one_balanced_entry_that_runs_nothing(text):
    reference = Reference(
        key="plugin2026", authors=(text, f"Doe, {text}"), title=text, year=2026, venue=text,
        kind="article", volume=text, pages=text, url=f"https://example.org/{text}", note=text,
    )  # fmt: skip
    for entry in (reference.bibtex(), reference.biblatex()):  # natbib's and biblatex's
        lines = entry.splitlines()
        assert [line for line in lines if line.lstrip().startswith("@")] == [lines[0]]
        assert lines[0] == "@article{plugin2026," and lines[-1] == "}"
        for line in lines[1:-1]:  # one field a line, its value balanced within it
            name, _, value = line.strip().removesuffix(",").partition(" = ")
            assert re.fullmatch(r"[a-z]+", name) and value.startswith("{") and value.endswith("}")
            assert balanced(value), line
            assert len(value) <= 2 * BIBTEX_FIELD_LENGTH * len(r"\textbackslash{}")
        assert balanced(entry)
        assert commands(entry) <= PRINTING


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_reference_is_one_value_each_in_a_citation_file(text):
    yaml = pytest.importorskip("yaml")
    reference = Reference(
        key="plugin2026", authors=(text, f"Doe, {text}"), title=text, year=2026, venue=text,
        kind="article", volume=text, pages=text, url=f"https://example.org/{text}", note=text,
    )  # fmt: skip
    (read,) = yaml.safe_load(citation_file([reference], version="0.3.0", message=text))[
        "references"
    ]
    assert read["title"] == read["journal"] == read["notes"] == text  # as given, not parsed
    family, comma, given = (part.strip() for part in text.partition(","))
    named = {"family-names": family, "given-names": given} if comma else {"name": family}
    assert read["authors"][0] == named  # "Family, Given", as every reference's authors are read


def test_a_bibtex_field_keeps_ordinary_text_and_cuts_a_long_one():
    assert bibtex_field("Certifying and removing disparate impact") == (
        "Certifying and removing disparate impact"
    )
    assert bibtex_field("a\r\n\tb") == "a b"
    cut = bibtex_field("a" * 100_000)
    assert len(cut) == BIBTEX_FIELD_LENGTH and cut.endswith("…")


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_label_in_a_latex_table_is_text(text):
    escaped = latex(text)
    assert commands(escaped) <= PRINTING and balanced(escaped.replace(r"\{", "").replace(r"\}", ""))
    table = to_latex(pd.DataFrame({"accuracy": [0.5]}, index=[text]), caption=text)
    assert commands(table) - PRINTING == {
        r"\begin", r"\end", r"\toprule", r"\midrule", r"\bottomrule", r"\centering", r"\caption",
    }  # fmt: skip
