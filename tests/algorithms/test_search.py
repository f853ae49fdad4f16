"""Search spaces: declared beside each grid, nested for pipelines, checked for plugins (#82)."""

import subprocess
import textwrap

import pytest

from faircompare.algorithms.contract import check_contract
from faircompare.algorithms.search import Choice, Integer, Real, problems, space_of
from faircompare.registry import algorithms

AVAILABLE = {name: a for name, a in algorithms().items() if a.make is not None}


def within(value, dimension) -> bool:
    """Whether a value lies in a dimension's range (a choice: among its values)."""
    if isinstance(dimension, Choice):
        return value in dimension.values
    return dimension.low <= value <= dimension.high


@pytest.mark.parametrize("name", sorted(AVAILABLE))
def test_a_search_space_spans_its_grid_and_names_real_parameters(name):
    # the space a tuner draws from holds every value the authors' grid sweeps (Friedler et
    # al.'s grids: Feldman's repair 0 to 1, Kamishima's eta 0 to 300, Zafar's c 0.001 to 1)
    estimator = AVAILABLE[name].make()
    space = space_of(estimator)
    assert problems(estimator, space) == []
    for parameter, values in estimator.param_grid.items():
        if len(values) < 2:  # Calders' one beta, as Friedler et al. run it: nothing to tune
            continue
        assert parameter in space, f"{name}: its grid sweeps {parameter}, its space does not"
        assert all(within(v, space[parameter]) for v in values), (name, parameter)


def test_a_pipeline_brings_its_classifiers_space_under_the_nested_name():
    feldman = AVAILABLE["feldman-logistic-regression"].make()
    assert space_of(feldman) == {
        "repair_level": Real(0.0, 1.0),
        "estimator__C": Real(0.001, 1000.0, log=True),
    }
    # the yardstick is tuned as its baseline is: the frontier's constraint is not a parameter
    # a tuner draws (its tolerances are planned points of the frontier)
    assert space_of(AVAILABLE["unprocessed-logistic-regression"].make()) == {
        "estimator__C": Real(0.001, 1000.0, log=True)
    }
    tuned = feldman.set_params(estimator__C=0.01)  # the nested name reaches the classifier
    assert tuned.get_params()["estimator"].C == 0.01


def test_every_range_the_linear_models_svm_trees_and_boosting_draw_from():
    # the issue's scales: C on a log scale, a tree's depth, boosting's rate and trees' size
    assert space_of(AVAILABLE["logistic-regression"].make())["C"].log
    assert space_of(AVAILABLE["svm"].make())["C"].log
    assert isinstance(space_of(AVAILABLE["decision-tree"].make())["max_depth"], Integer)
    assert set(space_of(AVAILABLE["gradient-boosting"].make())) == {
        "learning_rate", "max_leaf_nodes"}  # fmt: skip
    assert space_of(AVAILABLE["threshold-optimizer"].make()) == {}  # nothing to tune


@pytest.mark.parametrize(
    ("dimension", "said"),
    [
        (Real(1.0, 1.0), "needs low < high; got 1.0 and 1.0"),
        (Real(0.0, 1.0, log=True), "a log scale needs low > 0; got 0.0"),
        (Integer(1, 3.5), "needs whole numbers; got 1 and 3.5"),
        (Integer(0, 8, log=True), "a log scale needs low >= 1; got 0"),
        (Choice(("a", "a")), "needs two distinct values or more; got ('a', 'a')"),
    ],
)
def test_a_malformed_dimension_is_named_with_what_is_wrong(dimension, said):
    estimator = AVAILABLE["logistic-regression"].make()
    assert problems(estimator, {"C": dimension}) == [f"search parameter 'C' {said}"]


def test_a_space_naming_no_parameter_or_an_unknown_type_is_refused():
    estimator = AVAILABLE["logistic-regression"].make()
    (wrong,) = problems(estimator, {"c": Real(0.1, 1.0)})
    assert wrong.startswith("search parameter 'c' is not a parameter; parameters: ['C',")
    (loose,) = problems(estimator, {"C": (0.1, 1.0)})
    assert loose == "search parameter 'C' must be a Real, an Integer or a Choice; got (0.1, 1.0)"


PLUGIN = textwrap.dedent(
    """
    from typing import ClassVar

    from faircompare.algorithms.baselines import LogisticRegressionBaseline
    from faircompare.algorithms.search import Real


    class Misspelled(LogisticRegressionBaseline):
        name: ClassVar[str] = "misspelled-space"
        version: ClassVar[str] = "1"
        library: ClassVar[str] = "scikit-learn"
        search_space: ClassVar[dict] = {"c": Real(0.001, 1000.0, log=True)}
    """
)


def test_check_plugin_fails_a_search_space_that_names_no_parameter(tmp_path):
    (tmp_path / "misspelled.py").write_text(PLUGIN)
    result = subprocess.run(
        ["faircompare", "check-plugin", str(tmp_path / "misspelled.py")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode != 0
    assert "search space names real parameters and ranges" in result.stdout
    assert "search parameter 'c' is not a parameter" in result.stdout


def test_the_contract_passes_every_built_in_space():
    from faircompare.algorithms.baselines import LogisticRegressionBaseline

    (check,) = [c for c in check_contract(LogisticRegressionBaseline) if "search" in c.name]
    assert check.passed and check.detail == ""
