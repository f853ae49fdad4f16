"""A small real benchmark run (two datasets, three algorithms, audits) and its report."""

import pytest

from faircompare.analysis.report import write_report
from faircompare.benchmark import make_plan, run_plan
from faircompare.config import BenchmarkConfig
from faircompare.results import ResultStore

CONFIG = BenchmarkConfig(
    datasets=("ricci", "german"),
    variants=("numerical", "numerical+binary"),
    algorithms=("logistic-regression", "decision-tree", "zafar-fairness"),
    grid=True,
    tune=True,  # validation runs: algorithms run over a grid are reported tuned, as in the paper
    splits=2,
    permutations=200,
)


@pytest.fixture(scope="session")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    with ResultStore(folder) as store:
        summary = run_plan(make_plan(CONFIG).runs, store, BenchmarkConfig(permutations=200, jobs=2))
    assert summary.failed == 0
    return folder


@pytest.fixture(scope="session")
def frames(results):
    with ResultStore(results) as store:
        return store.measures(), store.audits()


@pytest.fixture(scope="session")
def report(results, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return write_report(results, out)
