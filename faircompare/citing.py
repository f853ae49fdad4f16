"""What to cite for a study: faircompare, and every method, dataset, audit and statistic it used.

:func:`study_citation` reads a results folder: the algorithms, datasets and audits of its runs,
each with the references its code declares (an algorithm's as the store recorded it when it
ran, so a plugin is cited without the plugin at hand), the release of faircompare that ran it,
and the statistics of the report (:data:`faircompare.analysis.compare.REFERENCES`).
:func:`every_reference` gathers the references of everything built in, for the documentation's
Citing page and ``CITATION.cff``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from faircompare import __version__
from faircompare.bibliography import (
    FAIRCOMPARE,
    FRIEDLER_2019,
    Reference,
    biblatex,
    bibtex,
    reference_from,
    unique,
)
from faircompare.cff import citation_file
from faircompare.choices import CITATION_STYLES
from faircompare.exceptions import FaircompareError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["STYLES", "StudyCitation", "every_reference", "software_citation", "study_citation"]

Cited = Mapping[str, tuple[Reference, ...]]

#: The files ``faircompare cite`` writes: a BibTeX or a biblatex ``.bib``, or a ``CITATION.cff``.
STYLES = CITATION_STYLES


class _Bib(NamedTuple):
    """A ``.bib`` style: its citation commands, the preamble they need, and its entries."""

    parenthetical: str
    textual: str
    preamble: str
    entries: Callable[[Iterable[Reference]], str]


_BIB = {
    "bibtex": _Bib("citep", "citet", r"\usepackage{natbib} and \bibliography{references}", bibtex),
    "biblatex": _Bib(
        "parencite",
        "textcite",
        r"\usepackage[style=authoryear]{biblatex} and \addbibresource{references.bib}",
        biblatex,
    ),
}


@dataclass(frozen=True)
class StudyCitation:
    """The works a study used, by role, and how to cite them.

    Attributes
    ----------
    release
        The release of faircompare that ran the study (most of its runs).
    algorithms
        Each algorithm's references (the method's paper, the library that ran it).
    datasets
        Each dataset's references (its source).
    audits
        Each audit's references (the test's paper).
    statistics
        The works behind the report's comparisons, by the method each describes.
    splits
        How many train/test splits the study ran.
    measures
        The works that define the measures the report reads first
        (:data:`~faircompare.analysis.tables.KEY_MEASURES`).
    """

    release: str
    algorithms: Cited
    datasets: Cited
    audits: Cited
    statistics: Cited
    splits: int
    measures: Cited = field(default_factory=dict)

    @property
    def software(self) -> Reference:
        """The reference of faircompare at the release that ran the study."""
        return replace(FAIRCOMPARE, note=f"Version {self.release}")

    @property
    def references(self) -> tuple[Reference, ...]:
        """Every reference once: faircompare and Friedler et al.'s study first."""
        parts = (self.algorithms, self.datasets, self.measures, self.audits, self.statistics)
        listed = (r for part in parts for refs in part.values() for r in refs)
        return unique([self.software, FRIEDLER_2019, *listed])

    @property
    def uncited(self) -> list[str]:
        """The algorithms, datasets and audits that declare no reference: cite them by hand."""
        parts = {"algorithm": self.algorithms, "dataset": self.datasets, "audit": self.audits}
        return [
            f"{role} {name}" for role, part in parts.items() for name, r in part.items() if not r
        ]

    def sentence(self, style: str = "bibtex") -> str:
        r"""Return a paragraph for a paper's methods section, with LaTeX citation commands.

        Parameters
        ----------
        style
            ``"bibtex"`` cites with natbib's ``\citep`` and ``\citet``; ``"biblatex"`` with
            biblatex's ``\parencite`` and ``\textcite``.

        Returns
        -------
        str
            The study's software, algorithms, datasets, measures, audits and statistics, each
            cited.
        """
        paren, textual, *_ = _bib(style)
        text = (
            f"We ran the study with faircompare {self.release}~\\{paren}{{{FAIRCOMPARE.key}}}, "
            "which follows the protocol of "
            f"\\{textual}{{{FRIEDLER_2019.key}}}: {_count(len(self.algorithms), 'algorithm')} "
            f"({_named(self.algorithms, paren)}) trained on the same "
            f"{_count(self.splits, 'random train/test split')} of "
            f"{_count(len(self.datasets), 'dataset')} ({_named(self.datasets, paren)})."
        )
        if self.measures:
            text += f" Each model was measured by {_named(self.measures, paren)}."
        if self.audits:
            text += f" Every trained model was audited with {_named(self.audits, paren)}."
        methods = [
            f"{method}~\\{paren}{{{', '.join(r.key for r in references)}}}"
            for method, references in self.statistics.items()
        ]
        return f"{text} Algorithms were compared with {_listing(methods)}." if methods else text

    def text(self, style: str = "bibtex") -> str:
        """Return the study's references as a file of one of :data:`STYLES`.

        Parameters
        ----------
        style
            ``"bibtex"`` or ``"biblatex"``: a ``.bib`` file, the paragraph of :meth:`sentence`
            first as a comment (which both ignore), with the preamble its commands need;
            ``"cff"``: a ``CITATION.cff`` citing the release that ran the study, its references
            the works the study used.

        Returns
        -------
        str
            The file's text: save it as ``references.bib`` or ``CITATION.cff``.
        """
        uncited = f"No reference is declared for: {', '.join(self.uncited)}."
        if style == "cff":
            message = (
                f"The study ran with faircompare {self.release}: cite it as below, and the "
                "works the study used (the references)."
            )
            return citation_file(
                [r for r in self.references if r.key != FAIRCOMPARE.key],
                version=self.release,
                message=f"{message} {uncited}" if self.uncited else message,
            )
        bib = _bib(style)
        lines = _wrapped(f"For the methods section (its commands need {bib.preamble}):", 96)
        lines += ["", *_wrapped(self.sentence(style), 96)]
        if self.uncited:
            lines += ["", uncited]
        comment = "\n".join(f"% {line}".rstrip() for line in lines)
        return f"{comment}\n\n{bib.entries(self.references)}"


def software_citation(style: str = "bibtex") -> str:
    """Return the references of faircompare, as installed, and of Friedler et al.'s study.

    Parameters
    ----------
    style
        One of :data:`STYLES`: a BibTeX or a biblatex ``.bib`` file, or a ``CITATION.cff``.

    Returns
    -------
    str
        The file's text (``faircompare cite`` prints it).

    Examples
    --------
    >>> from faircompare.citing import software_citation
    >>> print(software_citation("biblatex").splitlines()[0])
    @misc{faircompare,
    """
    if style == "cff":
        message = "Cite faircompare as below, and the study whose protocol it follows."
        return citation_file([FRIEDLER_2019], version=__version__, message=message)
    return _bib(style).entries([FAIRCOMPARE, FRIEDLER_2019])


def _bib(style: str) -> _Bib:
    """Return a ``.bib`` style, refusing any other name."""
    try:
        return _BIB[style]
    except KeyError:
        raise FaircompareError(
            f"unknown citation style {style!r}; choose one of {', '.join(STYLES)}"
        ) from None


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _named(cited: Cited, command: str) -> str:
    """List the names, those of the same references together, each group with its citation."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, references in cited.items():
        groups.setdefault(tuple(r.key for r in references), []).append(name)
    parts = [
        ", ".join(f"\\texttt{{{_tex(name)}}}" for name in names)
        + (f"~\\{command}{{{', '.join(keys)}}}" if keys else " (no reference)")
        for keys, names in groups.items()
    ]
    return "; ".join(parts)


def _tex(name: str) -> str:
    """Return a name as LaTeX text: its underscores escaped (a name may hold them)."""
    return name.replace("_", r"\_")


def _wrapped(text: str, width: int) -> list[str]:
    lines: list[str] = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def study_citation(store: Any, plugins: Any = None) -> StudyCitation:
    """Return what to cite for the study stored in ``store``.

    Parameters
    ----------
    store
        The study's :class:`~faircompare.results.ResultStore`.
    plugins
        The plugins folder the study ran with, for an algorithm the store recorded without its
        references (a store written before 0.3.0).

    Returns
    -------
    StudyCitation
        The study's works; an algorithm, dataset or audit that the code does not know is listed
        without references (:attr:`StudyCitation.uncited`).
    """
    runs = store.runs()
    done = runs[runs["status"] == "done"]
    return StudyCitation(
        release=_release(done["versions"]),
        algorithms=_algorithms(sorted(done["algorithm"].unique()), store.algorithms(), plugins),
        datasets=_datasets(sorted(done["dataset"].unique())),
        audits=_audits(sorted(store.audits()["audit"].unique())),
        statistics=_statistics(done),
        splits=int(done["split_id"].nunique()),
        measures=_measures(),
    )


def _release(versions: Iterable[str]) -> str:
    """Return the release that ran most of the runs (the installed one where none says)."""
    releases = [json.loads(v or "{}").get("faircompare") for v in versions]
    counted = [r for r in releases if r]
    return max(set(counted), key=counted.count) if counted else __version__


def _measures() -> Cited:
    """Return the works that define the measures the report reads first."""
    from faircompare.analysis.tables import KEY_MEASURES
    from faircompare.measures.references import measure_references

    cited = measure_references()
    return {name: cited[name] for name in KEY_MEASURES}


def _algorithms(names: list[str], recorded: Mapping[str, Mapping[str, Any]], plugins: Any) -> Cited:
    from faircompare.registry import find_algorithm

    cited: dict[str, tuple[Reference, ...]] = {}
    for name in names:
        described = recorded.get(name, {})
        if "references" not in described:
            try:
                described = find_algorithm(name, plugins).describe()
            except (FaircompareError, ImportError):  # a plugin no longer at hand: cited by hand
                described = {}
        cited[name] = tuple(reference_from(r) for r in described.get("references", ()))
    return cited


def _datasets(names: list[str]) -> Cited:
    from faircompare.datasets import get_spec

    cited: dict[str, tuple[Reference, ...]] = {}
    for name in names:
        try:
            cited[name] = get_spec(name).references
        except FaircompareError:  # a user's spec, known only to its TOML file
            cited[name] = ()
    return cited


def _audits(names: list[str]) -> Cited:
    from faircompare.audits import registered_audits

    known = registered_audits()
    return {name: tuple(getattr(known.get(name), "references", ())) for name in names}


def _statistics(done: pd.DataFrame) -> Cited:
    """Return the report's comparisons that the study's done runs make it run.

    The pairwise comparisons need two splits; the ranks across datasets and the combined
    tests beside them, a variant with two datasets and attributes and three algorithms run on
    each; the comparison at equal fairness, two splits and a frontier (``unprocessed-*``); the
    tuning at an equal budget, a tuned run.
    """
    from faircompare.analysis import compare, equal_fairness
    from faircompare.benchmark import trials

    if done["split_id"].nunique() < 2:
        return {}
    frontier = done["algorithm"].str.startswith(equal_fairness.FRONTIER_PREFIX)
    across = (compare.RANKS, compare.COMBINED)  # both read the ranked datasets
    statistics = {k: v for k, v in compare.REFERENCES.items() if k not in across}
    if _ranked(done[~frontier]):
        statistics |= {key: compare.REFERENCES[key] for key in across}
    statistics |= equal_fairness.REFERENCES if frontier.any() else {}
    tuned = "budget" in done and done["budget"].notna().any()  # a store of 0.3.0 has none
    return statistics | (trials.REFERENCES if tuned else {})


def _ranked(done: pd.DataFrame) -> bool:
    """Whether some variant has two datasets and attributes with three algorithms run on each."""
    for _, part in done.groupby("variant"):
        blocks = part.groupby(["dataset", "sensitive_attribute"])["algorithm"].agg(set)
        if len(blocks) >= 2 and len(set.intersection(*blocks)) >= 3:
            return True
    return False


def every_reference() -> dict[str, Cited]:
    """Return the references of everything built in, by role and name.

    Returns
    -------
    dict
        ``{"algorithms": {name: references}, "datasets": ..., "measures": ..., "audits": ...,
        "statistics": {method: references}}``; an algorithm whose optional extra is missing here
        has none (the documentation and ``CITATION.cff`` read them with the extra mocked).
    """
    from faircompare.analysis import compare, equal_fairness
    from faircompare.audits import registered_audits
    from faircompare.benchmark import trials
    from faircompare.datasets.builtin import BUILTIN
    from faircompare.measures.references import measure_references
    from faircompare.registry import algorithms, cited

    return {
        "algorithms": {
            name: cited(a.create()) if a.make is not None else ()
            for name, a in algorithms().items()
        },
        "datasets": {name: spec.references for name, spec in BUILTIN.items()},
        "measures": measure_references(),
        "audits": _audits(sorted(registered_audits())),
        "statistics": compare.REFERENCES | equal_fairness.REFERENCES | trials.REFERENCES,
    }
