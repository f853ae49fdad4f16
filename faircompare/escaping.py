"""Text made safe for the file it is written to: LaTeX tables and BibTeX entries.

A name, label or reference can come from a plugin or a user's data, so it is escaped by its
destination where it is written (the report's HTML by :func:`html.escape`, where it is built).
The same hostile strings are fed to every writer in ``tests/test_escaping.py``.
"""

from __future__ import annotations

import re
from urllib.parse import quote

#: LaTeX's special characters, written as text.
_LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "±": r"$\pm$",
}  # fmt: skip
#: In BibTeX a brace counts towards a field's balance even after a backslash, so a brace of
#: the text is written as LaTeX's command for it, and an ``@`` braced, so that no tool that
#: looks for an entry's start (``@misc{``) finds one in a field.
_BIBTEX = _LATEX | {"{": r"\textbraceleft{}", "}": r"\textbraceright{}", "@": "{@}"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
#: Characters a BibTeX field's text may hold at most; a longer one is cut, with an ellipsis.
BIBTEX_FIELD_LENGTH = 1_000


def latex(text: str) -> str:
    r"""Return text as LaTeX prints it: every special character escaped.

    Parameters
    ----------
    text
        Any text.

    Returns
    -------
    str
        The text, each of ``\ & % $ # _ { } ~ ^`` written as text (``±`` as math).

    Examples
    --------
    >>> from faircompare.escaping import latex
    >>> print(latex(r"50% of a_b \input{x}"))
    50\% of a\_b \textbackslash{}input\{x\}
    """
    return "".join(_LATEX.get(character, character) for character in text)


def bibtex_field(text: str) -> str:
    r"""Return text as the value of a BibTeX field: one line, balanced, inert.

    Line breaks and other control characters become single spaces; LaTeX's special
    characters are escaped as :func:`latex` escapes them, braces as ``\textbraceleft{}`` and
    ``\textbraceright{}`` (so the field's braces balance whatever the text), ``@`` braced; text
    longer than :data:`BIBTEX_FIELD_LENGTH` characters is cut, with an ellipsis.

    Parameters
    ----------
    text
        A field's text (a title, a venue, an author's name).

    Returns
    -------
    str
        The text to write between the field's braces.

    Examples
    --------
    >>> from faircompare.escaping import bibtex_field
    >>> print(bibtex_field("a}\n@misc{y,"))
    a\textbraceright{} {@}misc\textbraceleft{}y,
    """
    one_line = _CONTROL.sub(" ", text).strip()
    if len(one_line) > BIBTEX_FIELD_LENGTH:
        one_line = one_line[: BIBTEX_FIELD_LENGTH - 1] + "…"
    return "".join(_BIBTEX.get(character, character) for character in one_line)


def bibtex_link(text: str) -> str:
    """Return a URL or DOI as a BibTeX field's value: characters outside URLs percent-encoded.

    A link is written as it is (``url`` and ``doi`` fields are read verbatim), so what would
    break out of the field (braces, a backslash, a space, a line break) is percent-encoded
    instead of escaped.

    Parameters
    ----------
    text
        The URL or DOI.

    Returns
    -------
    str
        The link, percent-encoded where needed.

    Examples
    --------
    >>> from faircompare.escaping import bibtex_link
    >>> bibtex_link("https://example.org/a b}")
    'https://example.org/a%20b%7D'
    """
    return quote(text[:BIBTEX_FIELD_LENGTH], safe=":/?#[]@!$&'()*+,;=%~-._")
