"""Write the Citing page (``citing.md``) from the references the code keeps.

Every built-in method, dataset, audit and statistic declares the works to cite
(:func:`faircompare.citing.every_reference`); the page lists each work once, under the first role
that cites it, with what cites it, its full reference and its BibTeX, and a label that the
methods reference links to (``{ref}`Feldman et al. (2015) <feldman2015certifying>```).
"""

from __future__ import annotations

from faircompare.bibliography import FAIRCOMPARE, FRIEDLER_2019, Reference, unique

_HEAD = f"""# Citing

Cite faircompare as its developers name themselves, with the release that ran your study:

> {FAIRCOMPARE.text()}

and cite the study whose protocol it follows, and the works your study used: each method's
paper and the library that ran it, each dataset's source, the works that define the measures
you report, each audit's paper, and the statistics behind the report's comparisons.
`faircompare cite --results RESULTS` prints all of them for one study, as a `.bib` file whose
first lines (comments) are a paragraph for the paper's methods section that cites each
(`faircompare cite --results results > references.bib` saves it; {{doc}}`guide/report` shows it).

The paragraph names each algorithm, dataset, measure and audit with its citation, the number of
splits, and the release of faircompare that ran the study (read from the runs, so a study cited
after an upgrade still names the release that made its numbers). A plugin's works are those it
declares (`references`, a tuple of {{py:class}}`~faircompare.bibliography.Reference`, see
{{doc}}`guide/plugins`); the store keeps them, so a study is cited without the plugin at hand.
An algorithm, dataset or audit that declares none is named at the end of the paragraph, to be
cited by hand. Without `--results`, `faircompare cite` prints the first two entries below.

`--format` chooses the file. `bibtex` (the default) writes BibTeX entries, and the paragraph
cites with `\\citep` and `\\citet`, which need the natbib package
(`\\usepackage{{natbib}}`, `\\bibliographystyle{{plainnat}}`, `\\bibliography{{references}}`).
`biblatex` writes biblatex's entries (`journaltitle`, `date`), and the paragraph cites with
`\\parencite` and `\\textcite` (`\\usepackage[style=authoryear]{{biblatex}}`,
`\\addbibresource{{references.bib}}`, read by biber); the comment's first line names the package
its commands need. `cff` writes a `CITATION.cff` (Citation File Format 1.2.0) citing the release
that ran the study, with the works it used as its references, for a study's own repository.

`CITATION.cff` at the repository's root holds every reference below, with faircompare itself as
its preferred citation, for GitHub's "Cite this repository" and for reference managers.

## faircompare

({FAIRCOMPARE.key})=
### {FAIRCOMPARE.short}

{FAIRCOMPARE.text()}

```bibtex
{FAIRCOMPARE.bibtex()}
```

({FRIEDLER_2019.key})=
### {FRIEDLER_2019.short}

{FRIEDLER_2019.text()}

```bibtex
{FRIEDLER_2019.bibtex()}
```
"""

_ROLES = {
    "algorithms": ("Methods and libraries", "algorithm"),
    "datasets": ("Datasets", "dataset"),
    "measures": ("Measures", "measure"),
    "audits": ("Audits", "audit"),
    "statistics": ("Statistics of the report", "the report's comparisons"),  # named by method
}


def citing(works: dict[str, dict[str, tuple[Reference, ...]]]) -> str:
    """Return the Citing page of the works, by role.

    Parameters
    ----------
    works
        ``{role: {name: references}}``, as :func:`faircompare.citing.every_reference` returns.

    Returns
    -------
    str
        The page, in MyST Markdown.

    Raises
    ------
    ValueError
        If two different works share a key (:func:`faircompare.bibliography.unique`).
    """
    unique([r for part in works.values() for refs in part.values() for r in refs])  # one key
    users: dict[str, list[str]] = {}
    placed: dict[str, tuple[str, Reference]] = {}
    above = {FAIRCOMPARE.key, FRIEDLER_2019.key}  # the page's first section has them
    for role, cited in works.items():
        for name, references in cited.items():
            for reference in references:
                if reference.key not in above:
                    placed.setdefault(reference.key, (role, reference))
                users.setdefault(reference.key, []).append(_user(role, name))
    page = [_HEAD]
    for role, (title, _) in _ROLES.items():
        entries = [ref for placed_role, ref in placed.values() if placed_role == role]
        if not entries:
            continue
        page.append(f"## {title}\n")
        for reference in sorted(entries, key=lambda r: (r.authors[0], r.year)):
            page.append(_entry(reference, users[reference.key]))
    return "\n".join(page)


def _user(role: str, name: str) -> str:
    kind = _ROLES[role][1]
    return name if role == "statistics" else f"{kind} `{name}`"


def _entry(reference: Reference, users: list[str]) -> str:
    shown = list(dict.fromkeys(users))
    cited_by = ", ".join(shown[:6]) + (f" and {len(shown) - 6} more" if len(shown) > 6 else "")
    return (
        f"({reference.key})=\n### {reference.short}\n\n{reference.text()}\n\n"
        f"Cited for: {cited_by}.\n\n```bibtex\n{reference.bibtex()}\n```\n"
    )


def page() -> str:
    """Return the Citing page of everything built in (``citing.md``)."""
    from faircompare.citing import every_reference

    return citing(every_reference())
