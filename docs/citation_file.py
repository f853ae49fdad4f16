"""Write ``CITATION.cff`` from the bibliography the code keeps.

Its references are every built-in method's, dataset's, audit's and statistic's
(:func:`faircompare.citing.every_reference`), its version the package's, its release date the
changelog's heading of that version. The methods of a missing extra (torch, AIF360) are read with
it mocked, as the documentation reads them, where Sphinx is installed. ``tests/test_release.py``
holds the file equal to what this writes; after a change, run from the repository root::

    python docs/citation_file.py > CITATION.cff
"""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import faircompare
from faircompare.bibliography import FAIRCOMPARE, FRIEDLER_2019, PROJECT_URL, Reference, unique
from faircompare.citing import every_reference

ROOT = Path(__file__).resolve().parents[1]

_TYPES = {
    "article": ("article", "journal"),
    "inproceedings": ("conference-paper", "collection-title"),
    "techreport": ("report", "institution"),
    "misc": ("generic", "publisher"),
}
_KEYWORDS = (
    "fairness",
    "machine learning",
    "benchmark",
    "permutation tests",
    "optimal transport",
    "individual fairness",
)


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _person(author: str, indent: str) -> list[str]:
    family, _, given = (part.strip() for part in author.partition(","))
    if not given:
        return [f"{indent}- name: {_quoted(family)}"]
    return [
        f"{indent}- family-names: {_quoted(family)}",
        f"{indent}  given-names: {_quoted(given)}",
    ]


def _reference(reference: Reference) -> list[str]:
    kind, venue = _TYPES[reference.kind]
    lines = [f"  - type: {kind}", f"    title: {_quoted(reference.title)}", "    authors:"]
    for author in reference.authors:
        lines += _person(author, "      ")
    if venue in ("institution", "publisher"):
        lines += [f"    {venue}:", f"      name: {_quoted(reference.venue)}"]
    else:
        lines.append(f"    {venue}: {_quoted(reference.venue)}")
    lines.append(f"    year: {reference.year}")
    volume, issue = reference.volume_and_issue
    if volume:
        lines.append(f"    volume: {_quoted(volume)}")
    if issue:
        lines.append(f"    issue: {_quoted(issue)}")
    start, _, end = reference.pages.partition("-")
    if start:
        lines.append(f"    start: {_quoted(start)}")
    if end:
        lines.append(f"    end: {_quoted(end)}")
    if reference.doi:
        lines.append(f"    doi: {_quoted(reference.doi)}")
    if reference.url:
        lines.append(f"    url: {_quoted(reference.url)}")
    if reference.note:
        lines.append(f"    notes: {_quoted(reference.note)}")
    return lines


def _released(version: str) -> str:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    found = re.search(rf"^## \[{re.escape(version)}\] - (\d{{4}}-\d\d-\d\d)$", changelog, re.M)
    if found is None:
        raise ValueError(f"CHANGELOG.md has no dated heading '## [{version}] - YYYY-MM-DD'")
    return found.group(1)


def missing_extras() -> list[str]:
    """Return the optional extras whose modules the docs and this file read mocked: the missing."""
    return [name for name in ("torch", "aif360") if find_spec(name) is None]


def _extras_mocked() -> Any:
    """Mock the optional extras that are missing, where Sphinx can (else read what is here)."""
    missing = missing_extras()
    if not missing or find_spec("sphinx") is None:
        return nullcontext()
    from sphinx.ext.autodoc import mock

    return mock(missing)


def render() -> str:
    """Return the text of ``CITATION.cff``."""
    version = faircompare.__version__
    with _extras_mocked():
        works = every_reference()
    listed = [r for part in works.values() for refs in part.values() for r in refs]
    lines = [
        "cff-version: 1.2.0",
        "# Written by docs/citation_file.py from the references in the code; do not edit by hand.",
        "message: >-",
        "  If you use faircompare, please cite it as below, and cite the papers of the methods,",
        "  datasets and audits you used: `faircompare cite --results RESULTS` prints the BibTeX",
        "  of everything a study used, and the references below list every built-in one.",
        f"title: {_quoted(FAIRCOMPARE.title)}",
        "type: software",
        "authors:",
        *_person(FAIRCOMPARE.authors[0], "  "),
        f"version: {_quoted(version)}",
        f"date-released: {_quoted(_released(version))}",
        "license: MIT",
        f"url: {_quoted(PROJECT_URL)}",
        f"repository-code: {_quoted(PROJECT_URL)}",
        "keywords:",
        *(f"  - {keyword}" for keyword in _KEYWORDS),
        "references:",
    ]
    for reference in unique([FRIEDLER_2019, *listed]):
        lines += _reference(reference)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
