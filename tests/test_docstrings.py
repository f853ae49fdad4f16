"""The public API's docstrings: numpydoc's validation, and every example run as a doctest.

The public API is what each ``faircompare`` package exports in ``__all__``, with the public
methods of its classes. numpydoc's checks PR01 (a parameter undocumented), PR02 (a documented
parameter that does not exist), RT01 (no Returns section) and SS05 (a summary in the third
person, "Returns" for "Return") must hold on every one of them. A data class documents its
fields once, under Attributes (they are its constructor's parameters too), so for classes
PR01 and PR02 are checked against Parameters and Attributes together.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import faircompare

numpydoc_validate = pytest.importorskip("numpydoc.validate")
docscrape = pytest.importorskip("numpydoc.docscrape")

CHECKS = ("PR01", "PR02", "RT01", "SS05")


OPTIONAL = {"torch", "aif360"}  # extras whose modules are checked only where installed


def _modules() -> list:
    names = [faircompare.__name__] + [
        info.name for info in pkgutil.walk_packages(faircompare.__path__, "faircompare.")
    ]
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError as error:  # a module of an optional extra, without the extra
            missing = error if isinstance(error, ModuleNotFoundError) else error.__cause__
            if getattr(missing, "name", None) not in OPTIONAL:
                raise
    return modules


def _public_api() -> list[str]:
    """Qualified names of the exported functions and classes (exceptions aside), and methods."""
    names: dict[str, None] = {}
    for module in _modules():
        for exported in getattr(module, "__all__", ()):
            obj = getattr(module, exported)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue  # an exception's one parameter is its message
            home = f"{obj.__module__}.{obj.__qualname__}"
            names[home] = None
            if inspect.isclass(obj):
                for method, member in vars(obj).items():
                    if (
                        not method.startswith("_")
                        and inspect.isfunction(member)
                        and member.__module__.startswith("faircompare")  # not a library's
                    ):
                        names[f"{home}.{method}"] = None
    return sorted(names)


def _class_parameter_errors(cls: type) -> list[str]:
    """PR01 and PR02 of a class, its Attributes counting as documented parameters.

    A class made with a library's ``__init__`` (a matplotlib figure's) is documented there.
    """
    init = cls.__init__
    if inspect.isfunction(init) and not init.__module__.startswith("faircompare"):
        return []
    doc = docscrape.NumpyDocString(inspect.getdoc(cls) or "")
    documented = {
        name.strip()
        for section in ("Parameters", "Attributes")
        for item in doc[section]
        for name in item.name.split(",")
    }
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    parameters = {
        p.name for p in inspect.signature(cls).parameters.values() if p.kind not in variadic
    }
    named = {name.strip() for item in doc["Parameters"] for name in item.name.split(",")}
    errors = [f"PR01: {name} not documented" for name in sorted(parameters - documented)]
    return errors + [f"PR02: {name} does not exist" for name in sorted(named - parameters)]


@pytest.mark.parametrize("name", _public_api())
def test_public_docstrings_pass_numpydoc_validation(name):
    result = numpydoc_validate.validate(name)
    obj = numpydoc_validate.Validator._load_obj(name)
    own = ("PR01", "PR02") if inspect.isclass(obj) else ()
    errors = [
        f"{code}: {message}"
        for code, message in result["errors"]
        if code in CHECKS and code not in own
    ]
    if inspect.isclass(obj):
        errors += _class_parameter_errors(obj)
    assert not errors, f"{name}:\n" + "\n".join(errors)


@pytest.mark.parametrize("module", _modules(), ids=lambda module: module.__name__)
def test_docstring_examples_run(module):
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module):
        runner.run(test)
    failed, _ = runner.summarize(verbose=False)
    assert failed == 0


ROOT = Path(faircompare.__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize(
    "document", [d for d in DOCUMENTS if ">>> " in d.read_text()], ids=lambda d: d.name
)
def test_the_examples_of_the_readme_and_the_guide_run(document):
    result = doctest.testfile(
        str(document),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 1 and result.failed == 0
