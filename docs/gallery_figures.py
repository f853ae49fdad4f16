"""Show the figures a gallery block made outside pyplot, as faircompare's plots make them.

faircompare draws on :class:`~matplotlib.figure.Figure` objects that pyplot never holds
(:func:`faircompare.analysis.audit_figures.new_figure`), so sphinx-gallery's own scraper, which
asks pyplot, misses them; :func:`scrape` finds them among the example's variables.
"""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from sphinx_gallery.scrapers import figure_rst

_SHOWN: dict[str, set[int]] = {}  # per example, the figures already shown


def scrape(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
    """Save each new figure outside pyplot that the example holds in a variable.

    Parameters
    ----------
    block
        The code block just executed.
    block_vars
        sphinx-gallery's variables of the block: the example's globals and image paths.
    gallery_conf
        sphinx-gallery's configuration.

    Returns
    -------
    str
        The reStructuredText showing the figures.
    """
    shown = _SHOWN.setdefault(str(block_vars["src_file"]), set())
    figures = [
        value
        for value in block_vars["example_globals"].values()
        if isinstance(value, Figure)
        and getattr(value, "number", None) is None  # pyplot's figures are the default scraper's
        and id(value) not in shown
    ]
    paths = []
    for figure, path in zip(figures, block_vars["image_path_iterator"], strict=False):
        figure.savefig(path)
        shown.add(id(figure))
        paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])
