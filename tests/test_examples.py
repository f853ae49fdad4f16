"""Every public function and class of the statistics library and of the comparisons between
algorithms shows a runnable example in its docstring, and the example's output is the one shown.

``python -m pytest --doctest-modules faircompare/stats faircompare/analysis/compare.py`` runs
the same examples; this test also checks that no public name lacks one.
"""

import doctest
import importlib
import importlib.util
import inspect

import pytest

import faircompare.analysis.compare
import faircompare.stats

PACKAGES = (faircompare.stats, faircompare.analysis.compare)
NAMES = [
    pytest.param(package, name, id=f"{package.__name__}.{name}")
    for package in PACKAGES
    for name in package.__all__
    if inspect.isfunction(getattr(package, name)) or inspect.isclass(getattr(package, name))
]


@pytest.mark.parametrize(("package", "name"), NAMES)
def test_a_public_name_has_a_runnable_example_with_the_output_shown(package, name):
    obj = getattr(package, name)
    module = importlib.import_module(obj.__module__)
    finder = doctest.DocTestFinder(recurse=False)
    (test,) = finder.find(obj, name, module=module, globs=vars(module).copy())
    assert "Examples\n" in (obj.__doc__ or "") and test.examples, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_examples_cover_every_public_name_but_the_constants():
    covered = {(param.values[0].__name__, param.values[1]) for param in NAMES}
    public = {(package.__name__, name) for package in PACKAGES for name in package.__all__}
    assert public - covered == {
        ("faircompare.stats", "METRICS"),
        ("faircompare.stats", "RATES"),
        ("faircompare.analysis.compare", "REFERENCES"),
    }
