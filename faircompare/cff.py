"""References as a Citation File Format file (``CITATION.cff``, CFF 1.2.0).

:func:`citation_file` writes faircompare's own metadata, its preferred citation and a list of
references: the repository's ``CITATION.cff`` (``docs/citation_file.py``) with every built-in
work, and ``faircompare cite --format cff`` with the works one study used. A value is written as
a JSON string, which is a YAML double-quoted scalar, so that any text a plugin declares stays
one value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from faircompare.bibliography import FAIRCOMPARE, PROJECT_URL, Reference

__all__ = ["citation_file"]

#: Each kind as CFF types it, and the key of its venue.
_TYPES = {
    "article": ("article", "journal"),
    "inproceedings": ("conference-paper", "collection-title"),
    "techreport": ("report", "institution"),
    "misc": ("generic", "publisher"),
}


def citation_file(
    references: Iterable[Reference],
    *,
    version: str,
    message: str,
    released: str | None = None,
    keywords: Sequence[str] = (),
) -> str:
    """Return a ``CITATION.cff`` that cites faircompare at a version, and the references.

    Parameters
    ----------
    references
        The works cited beside the software, in order (faircompare itself is the file's own
        metadata and its ``preferred-citation``, not a reference).
    version
        The release of faircompare to cite.
    message
        What the file asks of its reader (CFF's ``message``).
    released
        The release's date, ``YYYY-MM-DD``, where known.
    keywords
        The software's keywords.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> from faircompare.bibliography import FRIEDLER_2019
    >>> from faircompare.cff import citation_file
    >>> text = citation_file([FRIEDLER_2019], version="0.3.0", message="Cite it.")
    >>> print(text.splitlines()[5])
      - name: "The faircompare developers"
    """
    software = [
        f"title: {_quoted(FAIRCOMPARE.title)}",
        "type: software",
        "authors:",
        *(line for author in FAIRCOMPARE.authors for line in _person(author, "  ")),
        f"version: {_quoted(version)}",
    ]
    lines = [
        "cff-version: 1.2.0",
        f"message: {_quoted(message)}",
        *software,
        *([f"date-released: {_quoted(released)}"] if released else []),
        "license: MIT",
        f"url: {_quoted(PROJECT_URL)}",
        f"repository-code: {_quoted(PROJECT_URL)}",
        *(["keywords:", *(f"  - {_quoted(keyword)}" for keyword in keywords)] if keywords else []),
        "preferred-citation:",  # the software itself, as GitHub's "Cite this repository" shows it
        *(f"  {line}" for line in software),
        f"  year: {FAIRCOMPARE.year}",
        f"  url: {_quoted(PROJECT_URL)}",
        "references:",
    ]
    for reference in references:
        lines += _reference(reference)
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


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
    start, _, end = reference.pages.partition("-")
    optional = {
        "volume": volume,
        "issue": issue,
        "start": start,
        "end": end,
        "doi": reference.doi,
        "url": reference.url,
        "notes": reference.note,
    }
    return lines + [f"    {key}: {_quoted(value)}" for key, value in optional.items() if value]
