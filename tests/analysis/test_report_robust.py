"""The report is written whole at one split, and one failing figure never loses the rest."""

import warnings

import pytest

from faircompare.analysis import kinds, report
from faircompare.benchmark import make_plan, run_plan
from faircompare.config import BenchmarkConfig
from faircompare.results import ResultStore

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def one_split(tmp_path_factory):
    folder = tmp_path_factory.mktemp("one-split")
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("logistic-regression", "kamishima"), splits=1,
        permutations=50,
    )  # fmt: skip
    with ResultStore(folder) as store:
        assert run_plan(make_plan(config).runs, store, BenchmarkConfig(permutations=50)).failed == 0
    return folder


def test_a_report_of_one_split_is_written_whole(one_split, tmp_path):
    # the paper profile's first run at one split ended in a KeyError, then a ValueError
    page = report.write_report(one_split, tmp_path).read_text()
    assert "Parts of this report that failed" not in page
    assert "Stability over splits (Fig. 7) (one split: no spread to show)" in page
    assert "One split: comparing interventions needs two splits or more" in page
    assert (tmp_path / "figures" / "stability-ricci-race-numerical-binary.png").exists()


def test_a_figure_that_fails_is_listed_and_the_rest_is_written(one_split, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("drawn on purpose to fail")

    monkeypatch.setattr(kinds.tradeoff, "draw", broken)
    lines = []
    page = report.write_report(one_split, tmp_path, say=lines.append).read_text()
    assert "Parts of this report that failed" in page
    assert "tradeoff: ricci, Race, numerical+binary" in page
    assert "RuntimeError: drawn on purpose to fail" in page
    assert any("tradeoff: ricci, Race, numerical+binary failed" in line for line in lines)
    assert (tmp_path / "figures" / "stability-ricci-race-numerical-binary.png").exists()
    assert (tmp_path / "tables" / "report-failures.csv").exists()
    assert not (tmp_path / "figures" / "tradeoff-ricci-race-numerical-binary.png").exists()


def test_the_attributes_figure_shows_the_tuned_fairness_aware_algorithms(tmp_path, monkeypatch):
    # Fig. 9 showed only the baselines on the paper study's store: the fairness-aware algorithms
    # ran over their grids, and only default-parameter runs were drawn
    config = BenchmarkConfig(
        datasets=("german",), algorithms=("logistic-regression", "kamishima"),
        sensitive_attributes="all", grid=True, tune=True, splits=2, audits=False,
    )  # fmt: skip
    with ResultStore(tmp_path / "results") as store:
        assert (
            run_plan(make_plan(config).runs, store, BenchmarkConfig(audits=False, jobs=2)).failed
            == 0
        )
    drawn = []
    original = kinds.attributes.draw

    def kept(frames, layout=None, ax=None):
        drawn.append(frames)
        return original(frames, layout, ax)

    monkeypatch.setattr(kinds.attributes, "draw", kept)
    report.write_report(tmp_path / "results", tmp_path / "report")
    (shown,) = drawn
    assert shown.measure == "CV"
    assert set(shown.runs["name"]) == {"logistic-regression", "kamishima-accuracy"}
    assert set(shown.runs["attribute"]) == {"sex", "age", "sex-age"}
    assert (tmp_path / "report" / "figures" / "attributes-german.png").exists()


def test_a_report_of_one_run_draws_without_a_library_warning(tmp_path):
    # issue #65: seaborn's "Attempting to set identical low and high xlims" reached the
    # terminal: an empty correlation heatmap was drawn for a study of one run
    config = BenchmarkConfig(
        datasets=("ricci",), algorithms=("logistic-regression",), splits=1, audits=False
    )
    with ResultStore(tmp_path / "results") as store:
        run_plan(make_plan(config).runs, store, BenchmarkConfig(audits=False, jobs=1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = report.write_report(tmp_path / "results", jobs=1).read_text()
    assert [str(warning.message) for warning in caught] == []
    assert "Parts of this report that failed" not in page
    assert "No correlations for numerical+binary (all sample): no two measures vary" in page
