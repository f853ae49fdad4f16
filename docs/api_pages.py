"""Write the API reference's pages from the list of public names (``api/public_names.txt``)."""

from __future__ import annotations

import importlib
import inspect
import operator
from collections import defaultdict
from pathlib import Path

from sphinx.pycode import ModuleAnalyzer

import faircompare

_INDEX_HEAD = """API reference
=============

Every public module of faircompare and the names it promises (its ``__all__``). A name that
moves or is renamed keeps working at its former place for one minor release, with a
``DeprecationWarning`` naming the new one; the :doc:`changelog <../changelog>` lists each.

.. toctree::
   :maxdepth: 1

"""


#: Pages of the API reference written elsewhere (``conf.py``'s generated pages).
EXTRA_PAGES = ("algorithm-classes",)


def public_names(docs: Path) -> dict[str, list[str]]:
    """Return each public module's names, in the order of ``api/public_names.txt``.

    Parameters
    ----------
    docs
        The documentation's folder.

    Returns
    -------
    dict of str to list of str
        Module name to its public names.
    """
    names: dict[str, list[str]] = defaultdict(list)
    for line in (docs / "api" / "public_names.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            module, name = line.split()
            names[module].append(name)
    return dict(names)


def _constant_comments() -> dict[str, str]:
    """Return the ``#:`` comment of every module-level name of faircompare, by name.

    Each module's source is read, not imported: a module whose optional dependency (torch,
    AIF360) is not installed is documented all the same.
    """
    comments: dict[str, str] = {}
    package = Path(faircompare.__file__).parent
    sources = [package / "__init__.py", *sorted(package.rglob("*.py"))]
    for source in dict.fromkeys(sources):
        module = ".".join(source.relative_to(package.parent).with_suffix("").parts)
        analyzer = ModuleAnalyzer.for_file(str(source), module.removesuffix(".__init__"))
        for (scope, name), lines in analyzer.find_attr_docs().items():
            if not scope:
                comments.setdefault(name, " ".join(line.strip() for line in lines).strip())
    return comments


def _is_constant(module: str, name: str) -> bool:
    value = operator.attrgetter(name)(importlib.import_module(module))  # or a class's member
    return not (inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value))


def _module_page(module: str, names: list[str], comments: dict[str, str]) -> str:
    title = f":mod:`{module}`"
    objects = [name for name in names if not _is_constant(module, name)]
    constants = [name for name in names if _is_constant(module, name)]
    page = f"{title}\n{'=' * len(title)}\n\n.. automodule:: {module}\n   :no-members:\n\n"
    page += f".. currentmodule:: {module}\n\n"
    if objects:
        listing = "".join(f"   {name}\n" for name in objects)
        page += f".. autosummary::\n   :toctree: generated/\n\n{listing}\n"
    if constants:
        page += ".. rubric:: Constants\n\n"
    for name in constants:
        if name not in comments:
            raise ValueError(f"{module}.{name} is public and has no #: comment to document it")
        page += f".. data:: {name}\n\n   {comments[name]}\n\n"
    return page


def write_api_pages(docs: Path) -> None:
    """Write ``api/index.rst`` and one page per public module, rewriting only what changed.

    Parameters
    ----------
    docs
        The documentation's folder.
    """
    modules = public_names(docs)
    comments = _constant_comments()
    pages = {
        f"{module}.rst": _module_page(module, names, comments) for module, names in modules.items()
    }
    listed = [*modules, *EXTRA_PAGES]
    pages["index.rst"] = _INDEX_HEAD + "".join(f"   {page}\n" for page in listed)
    for name, text in pages.items():
        write_if_changed(docs / "api" / name, text)


def write_if_changed(path: Path, text: str) -> None:
    """Write a generated page, or leave it untouched when its text is the same.

    An untouched page is not read again by Sphinx.

    Parameters
    ----------
    path
        The page.
    text
        Its text.
    """
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
