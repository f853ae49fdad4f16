"""The works faircompare implements and uses, as references a paper can cite.

Each :class:`Reference` is written once, in the module whose code implements the work: a
method's papers are its estimator class's :attr:`~faircompare.algorithms.base.FairEstimator.
references`, a dataset's its spec's :attr:`~faircompare.datasets.DatasetSpec.references`, an
audit's its ``references`` attribute, and the report's statistics beside the code that computes
them. :mod:`faircompare.citing` gathers those a study used (``faircompare cite --results R``);
the documentation's Citing page and ``CITATION.cff`` are written from the same objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from faircompare import __version__
from faircompare.escaping import bibtex_field, bibtex_link

__all__ = [
    "FAIRCOMPARE",
    "FRIEDLER_2019",
    "PROJECT_URL",
    "Reference",
    "as_record",
    "biblatex",
    "bibtex",
    "reference_from",
    "unique",
]

#: Where faircompare's source and documentation are published (also in ``pyproject.toml`` and
#: ``CITATION.cff``; ``tests/test_release.py`` holds the three equal).
PROJECT_URL = "https://github.com/faircompare/faircompare"

#: Each kind's BibTeX field for its venue; a software's ``misc`` entry names it as published.
_BIBTEX_VENUE = {
    "article": "journal",
    "inproceedings": "booktitle",
    "techreport": "institution",
    "misc": "howpublished",
}
#: Each kind as biblatex types it, and the field of its venue (biblatex manual, section 2.1).
_BIBLATEX = {
    "article": ("article", "journaltitle"),
    "inproceedings": ("inproceedings", "booktitle"),
    "techreport": ("report", "institution"),
    "misc": ("misc", "howpublished"),
}
_KINDS = tuple(_BIBTEX_VENUE)
_KEY = re.compile(r"[a-z][a-z0-9_:-]*")


@dataclass(frozen=True)
class Reference:
    """One citable work: a paper, a dataset's source or a software package.

    Parameters
    ----------
    key
        The BibTeX key (lower case letters, digits, ``_``, ``:`` and ``-``), unique in the
        bibliography: ``feldman2015certifying``.
    authors
        Each author as ``"Family, Given"``; a name without a comma is an organisation.
    title
        The work's title, capitalised as published.
    year
        Year of publication.
    venue
        The journal, the proceedings, or the publisher.
    kind
        The BibTeX entry type: ``article``, ``inproceedings``, ``techreport`` or ``misc``.
    volume
        The journal's volume, with its issue in brackets (``"21(2)"``), where it has one.
    pages
        First and last page joined by one hyphen, ``"277-292"``, or the article number.
    doi
        The DOI, without ``https://doi.org/``.
    url
        Where to read the work when it has no DOI (or the page that serves it).
    note
        What else a reader needs: a software's version, a court case's citation.

    Raises
    ------
    ValueError
        For a key that breaks the rule, an unknown kind, or a reference with neither a DOI
        nor a URL.
    """

    key: str
    authors: tuple[str, ...]
    title: str
    year: int
    venue: str
    kind: str = "inproceedings"
    volume: str = ""
    pages: str = ""
    doi: str = ""
    url: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "authors", tuple(self.authors))
        if not _KEY.fullmatch(self.key):
            raise ValueError(
                f"reference key {self.key!r} must be lower case letters, digits, '_', ':' or "
                "'-', starting with a letter"
            )
        if self.kind not in _KINDS:
            raise ValueError(f"reference {self.key!r}: kind {self.kind!r} is not one of {_KINDS}")
        if not self.authors:
            raise ValueError(f"reference {self.key!r} names no author")
        if not (self.doi or self.url):
            raise ValueError(f"reference {self.key!r} needs a DOI or a URL where to read it")

    @property
    def link(self) -> str:
        """The address of the work: its DOI's resolver, else its URL."""
        return f"https://doi.org/{self.doi}" if self.doi else self.url

    @property
    def volume_and_issue(self) -> tuple[str, str]:
        """The volume and the issue, read from ``"21(2)"``: ``("21", "2")``; ``""`` for none."""
        volume, _, issue = self.volume.removesuffix(")").partition("(")
        return volume, issue

    @property
    def short(self) -> str:
        """Author-year form: ``Feldman et al. (2015)``, ``Calders & Verwer (2010)``."""
        families = [_family(author) for author in self.authors]
        if len(families) == 1:
            who = families[0]
        elif len(families) == 2:
            who = f"{families[0]} & {families[1]}"
        else:
            who = f"{families[0]} et al."
        return f"{who} ({self.year})"

    def text(self) -> str:
        """Return the full reference in Markdown: authors, year, title, venue, link.

        Returns
        -------
        str
            ``Feldman, M., ... (2015). Certifying and removing disparate impact. *Proceedings
            of ...*, 259-268. <https://doi.org/...>``.
        """
        venue = self.venue.replace("*", "\\*")  # "FAT*" is no emphasis
        where = ", ".join(part for part in (f"*{venue}*", self.volume, self.pages) if part)
        note = f" {self.note}." if self.note else ""
        return f"{_listed(self.authors)} ({self.year}). {self.title}. {where}.{note} <{self.link}>"

    def bibtex(self) -> str:
        r"""Return the BibTeX entry, for natbib's ``\citep`` and ``\citet``.

        Returns
        -------
        str
            An ``@article``, ``@inproceedings``, ``@techreport`` or ``@misc`` entry; the
            title is braced so that no style changes its capitals. Every field is escaped
            (:func:`~faircompare.escaping.bibtex_field`, links
            :func:`~faircompare.escaping.bibtex_link`): a plugin's reference can hold any text.
        """
        return self._entry(self.kind, {_BIBTEX_VENUE[self.kind]: self.venue, "year": self.year})

    def biblatex(self) -> str:
        r"""Return the biblatex entry, for biblatex's ``\parencite`` and ``\textcite``.

        Returns
        -------
        str
            The same work in biblatex's data model: a journal is ``journaltitle``, the year a
            ``date``, a technical report a ``@report`` of ``type`` ``techreport``; escaped as
            :meth:`bibtex` escapes.
        """
        kind, venue = _BIBLATEX[self.kind]
        extra = {"type": "techreport"} if kind == "report" else {}
        return self._entry(kind, {venue: self.venue, "date": self.year, **extra})

    def _entry(self, kind: str, dialect: Mapping[str, object]) -> str:
        """Return an entry of this type: the fields both formats share, with the dialect's."""
        volume, number = self.volume_and_issue
        authors = [bibtex_field(a) if "," in a else f"{{{bibtex_field(a)}}}" for a in self.authors]
        fields = {
            "author": " and ".join(authors),
            "title": f"{{{bibtex_field(self.title)}}}",
            **{name: bibtex_field(str(value)) for name, value in dialect.items()},
            "volume": bibtex_field(volume),
            "number": bibtex_field(number),
            "pages": bibtex_field(self.pages).replace("-", "--"),
            "doi": bibtex_link(self.doi),
            "url": bibtex_link(self.url or self.link),
            "note": bibtex_field(self.note),
        }
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items() if value)
        return f"@{kind}{{{self.key},\n{body}\n}}"


def _family(author: str) -> str:
    return author.partition(",")[0].strip()


def _initials(author: str) -> str:
    family, _, given = (part.strip() for part in author.partition(","))
    if not given:
        return family
    initials = " ".join(f"{name[0]}." for name in re.split(r"[\s.]+", given) if name)
    return f"{family}, {initials}"


def _listed(authors: tuple[str, ...]) -> str:
    names = [_initials(author) for author in authors]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" & {names[-1]}"


def unique(references: Iterable[Reference]) -> tuple[Reference, ...]:
    """Return the references once each, in order of first appearance.

    Parameters
    ----------
    references
        References, possibly repeated.

    Returns
    -------
    tuple of Reference
        Each distinct reference once.

    Raises
    ------
    ValueError
        If two different references share a key.
    """
    seen: dict[str, Reference] = {}
    for reference in references:
        known = seen.setdefault(reference.key, reference)
        if known != reference:
            raise ValueError(f"two different references have the key {reference.key!r}")
    return tuple(seen.values())


def bibtex(references: Iterable[Reference]) -> str:
    r"""Return the BibTeX entries of the references, each once, separated by blank lines.

    Parameters
    ----------
    references
        References, possibly repeated.

    Returns
    -------
    str
        A ``.bib`` file's text, for LaTeX with natbib (``\usepackage{natbib}``).

    Examples
    --------
    >>> from faircompare.bibliography import FRIEDLER_2019, bibtex
    >>> print(bibtex([FRIEDLER_2019, FRIEDLER_2019]).splitlines()[0])
    @inproceedings{friedler2019comparative,
    """
    return "\n\n".join(reference.bibtex() for reference in unique(references)) + "\n"


def biblatex(references: Iterable[Reference]) -> str:
    r"""Return the biblatex entries of the references, each once, separated by blank lines.

    Parameters
    ----------
    references
        References, possibly repeated.

    Returns
    -------
    str
        A ``.bib`` file's text, for LaTeX with biblatex (``\addbibresource``, read by biber).

    Examples
    --------
    >>> from faircompare.bibliography import FRIEDLER_2019, biblatex
    >>> print(biblatex([FRIEDLER_2019]).splitlines()[4])
      date = {2019},
    """
    return "\n\n".join(reference.biblatex() for reference in unique(references)) + "\n"


def reference_from(value: Reference | Mapping[str, Any]) -> Reference:
    """Return a reference given as itself or as the mapping of its fields (a stored record).

    Parameters
    ----------
    value
        A :class:`Reference`, or a mapping of its fields (as a TOML spec or the results
        store holds it).

    Returns
    -------
    Reference
        The reference.
    """
    return value if isinstance(value, Reference) else Reference(**dict(value))


def as_record(reference: Reference) -> dict[str, Any]:
    """Return a reference's fields as a JSON-ready mapping (:func:`reference_from` reads it).

    Parameters
    ----------
    reference
        The reference.

    Returns
    -------
    dict
        Its fields, the authors as a list.
    """
    record = asdict(reference)
    record["authors"] = list(reference.authors)
    return record


#: faircompare itself, at the installed version.
FAIRCOMPARE = Reference(
    key="faircompare",
    authors=("The faircompare developers",),
    title="faircompare: a benchmark of fairness interventions with statistical audits of every "
    "trained model",
    year=2026,
    venue="Software",
    kind="misc",
    url=PROJECT_URL,
    note=f"Version {__version__}",
)

#: The comparative study whose protocol, datasets and measures faircompare reproduces.
FRIEDLER_2019 = Reference(
    key="friedler2019comparative",
    authors=(
        "Friedler, Sorelle A.",
        "Scheidegger, Carlos",
        "Venkatasubramanian, Suresh",
        "Choudhary, Sonam",
        "Hamilton, Evan P.",
        "Roth, Derek",
    ),
    title="A comparative study of fairness-enhancing interventions in machine learning",
    year=2019,
    venue="Proceedings of the Conference on Fairness, Accountability, and Transparency (FAT* '19)",
    pages="329-338",
    doi="10.1145/3287560.3287589",
)
