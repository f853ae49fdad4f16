"""Sphinx configuration of faircompare's documentation.

Build it from the repository root with warnings as errors::

    python -m sphinx -W -b html docs docs/_build/html

The gallery (``docs/gallery``) is executed at every build and needs the paper's datasets: from
``$FAIRCOMPARE_MIRROR`` where it is set (or its former name ``$FAIRCOMPARE_DATA_MIRROR``), else
from ``../shared/data`` beside the repository
where that folder exists (the tests' convention), else downloaded from their pinned URLs. The API
reference is written from ``docs/api/public_names.txt``, the public names the test suite holds
the packages' ``__all__`` to.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import matplotlib
from sphinx.ext.autodoc import mock  # the function: importing its module by name hides it

import faircompare

matplotlib.use("Agg")
# numpydoc says what it cannot read (an unknown docstring section) as a Python warning, which
# `-W` does not see: an error here, so a docstring numpydoc misreads fails the build
warnings.filterwarnings("error", category=UserWarning, module="numpydoc")

DOCS = Path(__file__).parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS))  # the API pages' writer and the gallery's figure scraper

from api_pages import write_api_pages, write_if_changed  # noqa: E402
from citation_file import missing_extras  # noqa: E402
from citing_page import page as citing_page  # noqa: E402
from dataset_reference import page as dataset_page  # noqa: E402
from measure_reference import page as measure_page  # noqa: E402
from method_reference import classes as method_classes  # noqa: E402
from method_reference import page as method_page  # noqa: E402
from reproduction_page import page as reproduction_page  # noqa: E402
from results_schema import schema_page  # noqa: E402

_MIRROR = os.environ.get("FAIRCOMPARE_DATA_MIRROR") or ROOT.parent / "shared" / "data"  # former
if "FAIRCOMPARE_MIRROR" not in os.environ and Path(_MIRROR).is_dir():
    os.environ["FAIRCOMPARE_MIRROR"] = str(_MIRROR)

project = "faircompare"
author = "The faircompare developers"
copyright = "2026, The faircompare developers"  # noqa: A001
release = faircompare.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax served from the built site: formulas render offline
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_click",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = [
    "_build",
    "gallery/README.rst",
    "api/public_names.txt",
    "measured",
    "reproduction-cells.md",  # included by reproducing.md
]
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

autosummary_generate = True
# A module of an optional extra is documented without the extra: autodoc imports it with its
# missing dependency mocked (the docs build with the `docs` extra alone).
autodoc_mock_imports = missing_extras()
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


sphinx_gallery_conf = {
    "image_scrapers": ("matplotlib", "gallery_figures.scrape"),
    "examples_dirs": "gallery",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "write_computation_times": False,  # its pages fetch DataTables from a CDN: none offline
}

html_theme = "pydata_sphinx_theme"
html_title = f"faircompare {release}"
html_static_path = ["_static"]
html_css_files = ["tables.css"]  # long names in a table's cells wrap after their hyphens
html_sidebars = {"measures": [], "methods": []}  # their wide tables take the page's width
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}


# The reference pages written from the code at each build (each stops it on a gap).
_GENERATED = {
    "methods.md": method_page,
    "measures.md": measure_page,
    "datasets.md": dataset_page,
    "results.md": schema_page,
    "citing.md": citing_page,
    "reproduction-cells.md": reproduction_page,
    "api/algorithm-classes.rst": method_classes,
}


def setup(app: object) -> None:
    """Write the pages made from the code (API, methods, measures, datasets, results, citing).

    The optional extras missing here are mocked while they are written, as autodoc mocks them:
    the methods of AIF360 and torch are described from their classes all the same.
    """
    write_api_pages(DOCS)
    with mock(autodoc_mock_imports):
        for name, page in _GENERATED.items():
            write_if_changed(DOCS / name, page())
