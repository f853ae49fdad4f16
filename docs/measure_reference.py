"""Write the measures reference (``measures.md``) from the measure catalogue.

Every measure of :data:`faircompare.measures.MEASURES` gets its row, so a new measure cannot go
undocumented: one without a definition, or with an ideal value outside its range, stops the
build (``tests/test_measure_reference.py``).
"""

from __future__ import annotations

from collections.abc import Mapping

from faircompare.bibliography import Reference
from faircompare.measures.catalogue import Measure

_HEAD = """---
html_theme.sidebar_secondary.remove: true
---

# Measures reference

Every measure of the catalogue, written from it (`faircompare.measures.MEASURES`; `faircompare
list measures` prints the same, with each definition in words). The definitions use this
notation, each symbol defined once:

{notation}

A rate without a group ($\\mathrm{{TPR}}$) is its value over every row. A measure with per-group
values stores each group's value under its name in the `group` column of the
results store's `measures` table, and its aggregate (the mean the definition names) under the
empty group `""`. A value that is undefined for a group (no positives, no predicted positives)
is NaN, with a warning naming the measure and the group, never 0.

The *ideal* is the value of a perfect (or perfectly fair) classifier; the report reads the
distance from it (`Measure.gap`), and for a ratio of rates $r$ as $1 - \\min(r, 1/r)$, so that
$r$ and $1/r$ are equally far from parity. *Paper* is Friedler et al.'s name (with the
attribute's name for `{{attribute}}`: `sex-TPRRatio`); *as in the libraries* is how the measure
relates to the measure of its name (or meaning) in scikit-learn, fairlearn or AIF360, each
relation checked against that library on two groups and on several
(`tests/measures/test_relations.py`, `test_peers.py`); *defined in* links the works that define
it to their entries on the {{doc}}`citing` page (`faircompare.measures.references`).

Reading a value: `DIbinary` = 0.8 means that the other groups, pooled, receive the favourable
outcome at 80 % of the privileged group's rate, the threshold of the four-fifths rule of the US
employment guidelines that Feldman et al. certify against (1.25 is as far the other way); `CV` =
0.9 means their positive rate is 10 points below the privileged group's; a `comparative-...-diff`
of 1 and a `...-ratio` of 1 mean parity with the privileged group on that rate.
"""

_FAMILIES = {
    "Accuracy": "How often the predictions are right, over every row.",
    "Disparate impact and the Calders-Verwer score": (
        "The positive rates of the privileged group and of the rest (Friedler et al. §6; DI is "
        "Feldman et al.'s, CV Calders and Verwer's): a ratio or a difference, for every other "
        "group pooled (`binary`) or averaged over the other groups one by one (`avgall`)."
    ),
    "Group-conditioned and comparative": (
        "For each rate, its value in every group and their mean (`sensitive-`), and each other "
        "group's value against the privileged group's, as a ratio or as 1 minus the difference, "
        "with their mean (`comparative-`) (Friedler et al. §6)."
    ),
    "Group metrics of fairlearn and AIF360": (
        "The spreads between groups that fairlearn defines (max - min, or min / max, over every "
        "group), the average odds difference, and the AUC per group."
    ),
}
_BASE_RATES = ("DIbinary", "DIavgall", "CV", "CVavgall")


def family(measure: Measure) -> str:
    """Return the section of the reference a measure belongs to."""
    if measure.kind == "accuracy":
        return "Accuracy"
    if measure.name in _BASE_RATES:
        return "Disparate impact and the Calders-Verwer score"
    if measure.name.startswith(("sensitive-", "comparative-")) and measure.paper:
        return "Group-conditioned and comparative"
    return "Group metrics of fairlearn and AIF360"


def check(measure: Measure) -> None:
    """Refuse a measure the reference cannot define.

    Raises
    ------
    ValueError
        If it has no definition (``description`` in words, ``math`` as a formula), or its ideal
        value lies outside its range.
    """
    if not measure.description.strip():
        raise ValueError(f"measure {measure.name!r} has no definition (Measure.description)")
    if not measure.math.strip():
        raise ValueError(f"measure {measure.name!r} has no formula (Measure.math)")
    low, high = measure.bounds
    if not low <= measure.ideal <= high:
        raise ValueError(
            f"measure {measure.name!r}: its ideal {measure.ideal} is outside its range "
            f"{measure.bounds}"
        )


def _notation() -> str:
    from faircompare.measures.catalogue import NOTATION

    return "\n".join(f"- ${symbol}$: {meaning}" for symbol, meaning in NOTATION.items())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _cited(name: str, cited: Mapping[str, tuple[Reference, ...]]) -> str:
    """Return the works that define a measure, each linked to its entry on the Citing page."""
    if not cited.get(name):
        raise ValueError(
            f"measure {name!r} cites no work that defines it (faircompare.measures.references)"
        )
    return ", ".join(f"{{ref}}`{r.short} <{r.key}>`" for r in cited[name])


def reference(measures: Mapping[str, Measure], cited: Mapping[str, tuple[Reference, ...]]) -> str:
    """Return the reference page of a catalogue, a table per family.

    Parameters
    ----------
    measures
        The catalogue.
    cited
        Each measure's defining works (:func:`faircompare.measures.references.measure_references`).

    Raises
    ------
    ValueError
        For a measure :func:`check` refuses, or one that cites no work.
    """
    sections: dict[str, list[str]] = {name: [] for name in _FAMILIES}
    for measure in measures.values():
        check(measure)
        paper = measure.paper_name("", "{attribute}") or ""
        row = [
            f"`{measure.name}`",
            f"${measure.math}$",
            f"{measure.ideal:g}",
            measure.interval,
            f"`{paper}`" if paper else "",
            _cell(measure.peers),
            _cited(measure.name, cited),
        ]
        sections[family(measure)].append("| " + " | ".join(row) + " |")
    page = [_HEAD.format(notation=_notation())]
    for name, rows in sections.items():
        page += [
            f"\n## {name}\n\n{_FAMILIES[name]}\n",
            "| measure | definition | ideal | range | paper | as in the libraries | defined in |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    return "\n".join(page) + "\n"


def page() -> str:
    """Return the reference of the measure catalogue (``measures.md``)."""
    from faircompare.measures import MEASURES
    from faircompare.measures.references import measure_references

    return reference(MEASURES, measure_references())
