"""Names of a package imported on first use (PEP 562), so importing the package costs nothing.

A worker process imports ``faircompare.benchmark.workers`` and, with it, the package's
``__init__``: were that to import every public name, each worker would load the coordinator's
stack (configuration, datasets, results store). The package instead lists where each name lives
and :func:`lazy_names` imports its module when the name is first read.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

from faircompare._deprecations import passes_through


def lazy_names(
    package: str,
    homes: Mapping[str, str],
    *,
    moved: Callable[[str], Any] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__`` for names imported on first use.

    Parameters
    ----------
    package
        The package's ``__name__``.
    homes
        Each public name and the module that defines it.
    moved
        The package's former names, each with a warning
        (:func:`faircompare._deprecations.moved_names`); None: the package has none.

    Returns
    -------
    tuple of callable
        ``__getattr__(name)``: the name from its module, kept in the package afterwards (a
        former name through ``moved``, an :class:`AttributeError` for any other);
        ``__dir__()``: the public names and the package's own.

    Notes
    -----
    A name that is also the name of the submodule defining it (``faircompare.stats.fliptest``,
    the function, in ``faircompare.stats.fliptest``, the module) is imported now: importing
    the submodule, as any other module may, sets the package's attribute to the module, which
    would then hide the name.
    """
    for name, home in homes.items():
        if home == f"{package}.{name}":
            setattr(sys.modules[package], name, getattr(importlib.import_module(home), name))

    def __getattr__(name: str) -> Any:
        if name not in homes:
            if moved is not None:
                return moved(name)
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(homes) | set(vars(sys.modules[package])))

    return passes_through(__getattr__), __dir__  # a former name's warning names the importer
