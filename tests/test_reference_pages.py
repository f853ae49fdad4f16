"""The reference pages written from the code: the measures reference from the catalogue and the
results schema from the store; a measure or a column they cannot define stops the build."""

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from faircompare.bibliography import reference_from
from faircompare.citing import every_reference
from faircompare.measures import MEASURES
from faircompare.measures.references import measure_references

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
from citing_page import citing  # noqa: E402
from dataset_reference import reference as dataset_page  # noqa: E402
from measure_reference import reference  # noqa: E402
from method_reference import METHODS, method_of  # noqa: E402
from method_reference import reference as method_page  # noqa: E402
from reproduction_page import MEASURED  # noqa: E402
from reproduction_page import page as reproduction_page  # noqa: E402
from results_schema import schema_page  # noqa: E402

from tests.conftest import SHARED  # noqa: E402


def test_every_measure_has_a_row_with_its_range_its_libraries_relation_and_its_works():
    page = reference(MEASURES, measure_references())
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(MEASURES)
    (average_odds,) = [row for row in rows if row.startswith("| `average_odds_difference`")]
    assert "[-1, 1]" in average_odds and "-AIF360 average_odds_difference" in average_odds
    (di,) = [row for row in rows if row.startswith("| `DIbinary`")]
    assert "[0, inf)" in di and "`DIbinary`" in di and r"$r_{\bar p} / r_p$" in di
    # DI is Feldman et al.'s four-fifths ratio, as Friedler et al. compute it: both linked
    assert di.endswith(
        "{ref}`Feldman et al. (2015) <feldman2015certifying>`, "
        "{ref}`Friedler et al. (2019) <friedler2019comparative>` |"
    )
    # every measure's works are entries of the Citing page
    linked = set(re.findall(r"\{ref\}`[^<`]+<([\w:-]+)>`", page))
    labels = set(re.findall(r"^\(([\w:-]+)\)=$", citing(every_reference()), re.M))
    assert {"matthews1975comparison", "hanley1982meaning"} <= linked <= labels
    assert "`{attribute}-TPRRatio`" in page
    # every symbol of the formulas is defined once, in the notation above the tables
    defined = re.findall(r"^- \$(.+?)\$: ", page, re.M)
    assert len(defined) == len(set(defined)) and r"\bar p" in defined
    # no "|" in a formula: a table would split its cell there
    assert all("|" not in m.math for m in MEASURES.values())


@pytest.mark.parametrize("field", ["description", "math"])
def test_a_measure_without_a_definition_in_words_or_as_a_formula_stops_the_build(field):
    undefined = replace(MEASURES["accuracy"], name="new-measure", **{field: ""})
    with pytest.raises(ValueError, match="measure 'new-measure' has no (definition|formula)"):
        reference({**MEASURES, "new-measure": undefined}, measure_references())


def test_a_measure_whose_ideal_lies_outside_its_range_stops_the_build():
    wrong = replace(MEASURES["average_odds_difference"], name="odd", bounds=(0.5, 1.0))
    with pytest.raises(ValueError, match="measure 'odd': its ideal 0 is outside its range"):
        reference({**MEASURES, "odd": wrong}, measure_references())


def test_a_measure_that_cites_no_work_stops_the_build():
    new = replace(MEASURES["accuracy"], name="new-measure")
    with pytest.raises(ValueError, match="measure 'new-measure' cites no work that defines it"):
        reference({**MEASURES, "new-measure": new}, measure_references())


def test_the_schema_page_gives_every_column_its_type_and_meaning():
    page = schema_page()
    assert "| `fit_seconds` | REAL | Wall-clock seconds of the fit" in page
    assert "## `predictions`" in page and "| `measures_validation` |" in page


@pytest.mark.data
def test_the_schema_pages_recipes_run_and_agree_with_each_other(tmp_path, monkeypatch):
    # issue #67: the page's means averaged a frontier's thirteen settings and raw ratios, and
    # its SQL did not say that `group` must be quoted; each block is run here as a reader
    # copies it, in order, on a small study with a grid (kamishima) and defaults (svm)
    import re
    import sqlite3

    from faircompare.benchmark import make_plan, run_plan
    from faircompare.config import BenchmarkConfig
    from faircompare.results import ResultStore

    monkeypatch.chdir(tmp_path)
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("svm", "kamishima"), grid=True, tune=True, splits=2,
        audits=False,
    )  # fmt: skip
    with ResultStore("results") as store:
        run_plan(make_plan(config).runs, store, BenchmarkConfig(audits=False, jobs=1))
    page = schema_page()
    scope: dict = {}
    for block in re.findall(r"```python\n(.*?)```", page, re.S):
        exec(block, scope)  # noqa: S102
    accuracy, di_gap = scope["accuracy"], scope["di_gap"]
    # one setting per algorithm: svm's defaults, kamishima tuned on validation data
    assert set(accuracy.index.get_level_values("setting")) == {"defaults", "tuned for accuracy"}
    assert ((di_gap >= 0) & (di_gap <= 1)).all()
    (sql,) = re.findall(r"```sql\n(.*?)```", page, re.S)
    with sqlite3.connect("results/results.sqlite") as db:
        rows = {algorithm: (mean, n) for _, algorithm, mean, n in db.execute(sql)}
    svm = accuracy.xs("svm", level="algorithm").iloc[0]
    assert rows["svm"][0] == pytest.approx(svm) and rows["svm"][1] == 2  # the same runs
    assert rows["kamishima"][1] > 2  # every grid value of every split: not the report's mean


def test_a_column_without_a_description_stops_the_build(monkeypatch):
    from faircompare.results import columns

    undescribed = {**columns.COLUMNS, "runs": dict(list(columns.COLUMNS["runs"].items())[:-1])}
    monkeypatch.setattr(columns, "COLUMNS", undescribed)
    with pytest.raises(ValueError, match="column runs.budget of the store has no description"):
        schema_page()


def test_every_registered_algorithm_belongs_to_a_method_that_names_the_paper_it_cites():
    from faircompare.bibliography import FRIEDLER_2019
    from faircompare.registry import algorithms

    for name, algorithm in algorithms().items():
        method = method_of(name)
        assert method is not None, name
        assert method.formula and method.where and method.assumptions and method.checked, name
        if algorithm.make is None:  # its references are its class's, not loaded here
            continue
        cited = [reference_from(r).short for r in algorithm.describe()["references"]]
        # "Feldman et al. (2015), §5.1-5.2": the section's paper is one the method cites
        assert any(short in method.section for short in [*cited, FRIEDLER_2019.short]), name


def test_the_methods_page_renders_each_formula_and_links_each_work_to_its_citing_entry():
    from faircompare.described import algorithm_listing

    described = [a | {"class": None} for a in algorithm_listing()]
    page = method_page(described)
    assert page.count("\n$$\n") == 2 * len(METHODS)  # a display formula per method
    assert r"x' = v_{p + \operatorname{round}(\lambda (t - p))}" in page  # Feldman's repair
    linked = set(re.findall(r"\{ref\}`[^<`]+<([\w:-]+)>`", page))
    labels = set(re.findall(r"^\(([\w:-]+)\)=$", citing(every_reference()), re.M))
    assert "feldman2015certifying" in linked and linked <= labels


def test_the_methods_page_lists_each_algorithm_with_the_registrys_grid():
    from faircompare.algorithms.kamishima import ETAS
    from faircompare.described import algorithm_listing

    page = method_page(algorithm_listing())
    # a grid longer than six values by its count and ends (Friedler et al.'s 17 etas, 0 to 300)
    grid = f"`eta` in {len(ETAS)} values, 0.0 to 300.0"
    assert f"| `kamishima` | in-processing | faircompare | 1 | numerical+binary | {grid} |" in page
    # its search space, a table of its own: the method's parameter and its C on a log scale
    assert "| `kamishima` | `eta`: 0 to 300; `C`: 0.001 to 1000, log scale |" in page
    assert page.count("\n## ") == len(METHODS) + 1  # the table at a glance, then each method


def test_an_algorithm_of_no_method_stops_the_build():
    plugin = {"name": "my-method", "family": "in-processing"}
    with pytest.raises(ValueError, match="algorithm 'my-method' has no entry in the methods ref"):
        method_page([plugin])


def test_every_built_in_dataset_has_its_rules_and_its_known_problems():
    from faircompare.datasets import BUILTIN

    page = dataset_page(BUILTIN)
    assert page.count("**Known problems.**") == len(BUILTIN)
    assert "keep the rows where `days_b_screening_arrest <= 30`" in page
    assert "`age` becomes `youth` below 25, `adult` from it" in page


def test_a_dataset_without_known_problems_stops_the_build():
    from dataclasses import replace

    from faircompare.datasets import BUILTIN

    new = replace(BUILTIN["ricci"], name="new-data")
    with pytest.raises(ValueError, match="dataset 'new-data' has no entry in the datasets ref"):
        dataset_page({**BUILTIN, "new-data": new})


def test_the_reproduction_tables_published_side_is_the_files_own_numbers():
    # the measured table the reproducing page shows: its published means and standard
    # deviations recomputed from the original's files, never typed in
    import pandas as pd

    folder = SHARED / "fairness-comparison-results"
    if not folder.is_dir():
        pytest.skip("the original's published results are not here")
    cells = pd.read_csv(MEASURED, comment="#", keep_default_na=False)
    assert len(cells) == 6 * 12 * 5  # six files, twelve algorithms, five measures
    for (dataset, attribute), part in cells.groupby(["dataset", "attribute"]):
        raw = pd.read_csv(folder / f"{dataset}_{attribute}_numerical-binsensitive.csv")
        for cell in part.itertuples():
            values = raw.loc[raw["algorithm"] == cell.original, cell.measure].astype(float)
            assert cell.published_n == values.notna().sum()
            assert cell.published_mean == pytest.approx(values.mean(), rel=1e-5)
            assert cell.published_sd == pytest.approx(values.std(), rel=1e-5, abs=1e-9)
    page = reproduction_page()
    from faircompare.reproduction import DEPARTURES

    # a row per algorithm and file; a switch per departure
    assert page.count("| `") == 6 * 12 + len(DEPARTURES)
    assert "Of the 72 algorithms and datasets" in page
    # every difference no cause explains is named, beside what chance gives (0.27 % a cell)
    unexplained = cells[cells["cause"] == "unexplained"]
    assert f"{len(unexplained)} differ with no cause found" in page
    assert f"chance alone would put {360 * 0.0027:.1f} of the 360" in page
