"""The built documentation reads offline: no script or stylesheet from the network (#85).

Run on a built site: ``FAIRCOMPARE_BUILT_DOCS=_build/html pytest tests/test_docs_offline.py``
(``.ci/run`` does after building the docs); skipped without one.
"""

import os
import re
from pathlib import Path

import pytest

BUILT = os.environ.get("FAIRCOMPARE_BUILT_DOCS")
pytestmark = pytest.mark.skipif(not BUILT, reason="no built documentation (FAIRCOMPARE_BUILT_DOCS)")

# a script's src, or a stylesheet's or a preloaded file's href, that leaves the site
FETCHED = re.compile(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"(https?:)?//", re.IGNORECASE)


def test_no_page_fetches_a_script_or_a_stylesheet_from_the_network():
    pages = sorted(Path(BUILT).rglob("*.html"))
    assert len(pages) > 100  # the whole site, not an empty folder
    fetching = [str(page) for page in pages if FETCHED.search(page.read_text(encoding="utf-8"))]
    assert fetching == []


def test_mathjax_is_served_from_the_site_and_the_formulas_are_on_their_pages():
    site = Path(BUILT)
    assert (site / "_static" / "mathjax" / "tex-chtml.js").stat().st_size > 100_000
    measures = (site / "measures.html").read_text(encoding="utf-8")
    assert 'src="_static/mathjax/tex-chtml.js' in measures and r"\frac" in measures
