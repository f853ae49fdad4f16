"""Write ``CITATION.cff`` from the bibliography the code keeps.

Its references are every built-in method's, dataset's, audit's and statistic's
(:func:`faircompare.citing.every_reference`), its version the package's, its release date the
changelog's heading of that version. The methods of a missing extra (torch, AIF360) are read with
it mocked, as the documentation reads them, where Sphinx is installed. ``tests/test_release.py``
holds the file equal to what this writes; after a change, run from the repository root::

    python docs/citation_file.py > CITATION.cff
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import faircompare
from faircompare.bibliography import FRIEDLER_2019, unique
from faircompare.cff import citation_file
from faircompare.citing import every_reference

ROOT = Path(__file__).resolve().parents[1]

_WRITTEN = (
    "# Written by docs/citation_file.py from the references in the code; do not edit by hand."
)
_MESSAGE = (
    "If you use faircompare, please cite it as below, and cite the papers of the methods, "
    "datasets and audits you used: `faircompare cite --results RESULTS` prints the references "
    "of everything a study used, and the references below list every built-in one."
)
_KEYWORDS = (
    "fairness",
    "machine learning",
    "benchmark",
    "permutation tests",
    "optimal transport",
    "individual fairness",
)


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
    text = citation_file(
        unique([FRIEDLER_2019, *listed]),
        version=version,
        message=_MESSAGE,
        released=_released(version),
        keywords=_KEYWORDS,
    )
    first, rest = text.split("\n", 1)
    return f"{first}\n{_WRITTEN}\n{rest}"


if __name__ == "__main__":
    print(render(), end="")
