"""Plans: the run grid, stable keys, shared split seeds."""

from dataclasses import replace

import pytest

from faircompare.benchmark import make_plan
from faircompare.config import PROFILES, BenchmarkConfig, ConfigError
from faircompare.config.profiles import PAPER_ALGORITHMS
from faircompare.exceptions import ChoiceError
from faircompare.registry import algorithms


def test_quick_profile_plans_the_grid_by_hand():
    # 2 datasets x 1 attribute x 2 splits x (1 + 1 + 21 + 17 + 1 + 10 + 5 + 13 settings):
    # logistic regression, decision tree, Feldman (21 repair levels), Kamishima (17 etas),
    # Calders (1), Zafar (10 bounds), grid search (5 weights), the logistic regression's
    # frontier (13 points); each on numerical+binary only.
    plan = make_plan(PROFILES["quick"])
    assert len(plan.runs) == 2 * 1 * 2 * (1 + 1 + 21 + 17 + 1 + 10 + 5 + 13)
    assert len({run.key for run in plan.runs}) == len(plan.runs)


def test_supported_variants_and_all_attributes_expand_per_algorithm():
    config = BenchmarkConfig(datasets=("german",), sensitive_attributes="all", variants="supported",
                             algorithms=("svm", "kamishima"), splits=1)  # fmt: skip
    plan = make_plan(config)
    pairs = {(r.algorithm, r.variant, r.sensitive_attribute) for r in plan.runs}
    # SVM accepts numerical and numerical+binary; Kamishima numerical+binary only.
    assert len(pairs) == 3 * (2 + 1)
    assert ("kamishima", "numerical", "sex") not in pairs


def test_keys_are_stable_and_seeds_derive_from_them():
    config = BenchmarkConfig(datasets=("ricci",), algorithms=("decision-tree",), splits=3)
    first, second = make_plan(config).runs, make_plan(config).runs
    assert [r.key for r in first] == [r.key for r in second]
    other_seed = make_plan(config.overridden(seed=1)).runs
    assert {r.key for r in first}.isdisjoint(r.key for r in other_seed)
    assert len({r.seed for r in first}) == 3


def test_every_algorithm_shares_the_split_seed():
    config = BenchmarkConfig(
        datasets=("german",), algorithms=("svm", "calders"), splits=2, sensitive_attributes="first"
    )
    runs = make_plan(config).runs
    for split_id in (0, 1):
        assert len({r.split_seed for r in runs if r.split_id == split_id}) == 1


def test_only_grid_runs_are_tuned():
    plan = make_plan(
        BenchmarkConfig(
            datasets=("ricci",), algorithms=("svm", "kamishima"), grid=True, tune=True, splits=1
        )
    )
    assert {(r.algorithm, r.tune) for r in plan.runs} == {("svm", False), ("kamishima", True)}


def test_unknown_and_unavailable_algorithms(tmp_path):
    with pytest.raises(ChoiceError, match="unknown algorithm 'kamishma'.*did you mean 'kamishima'"):
        make_plan(BenchmarkConfig(algorithms=("kamishma",)))
    (tmp_path / "broken.py").write_text("import faircompare_no_such_package\n")
    with pytest.raises(ConfigError, match="'broken' is unavailable: ModuleNotFoundError"):
        make_plan(BenchmarkConfig(algorithms=("broken",), plugins=str(tmp_path)))
    plan = make_plan(
        BenchmarkConfig(datasets=("ricci",), splits=1, plugins=str(tmp_path), algorithms="all")
    )
    registry = algorithms()  # without the torch extra, its algorithms are unavailable too
    unavailable = [name for name, a in registry.items() if a.make is None]
    assert [a.name for a in plan.unavailable] == [*unavailable, "broken"]
    assert {r.algorithm for r in plan.runs} == {n for n, a in registry.items() if a.make}


def test_a_plan_without_runs_is_an_error():
    with pytest.raises(ConfigError, match="plans no run"):
        make_plan(BenchmarkConfig(algorithms=("kamishima",), variants=("numerical",)))


def planned(profile: str) -> set[str]:
    return {r.algorithm for r in make_plan(PROFILES[profile].overridden(datasets=("ricci",))).runs}


def test_the_default_profile_leaves_out_the_algorithms_that_opt_out_and_extended_keeps_them():
    available = {n for n, a in algorithms().items() if a.make is not None}
    default, extended = planned("default"), planned("extended")
    costly = {n for n in available if not algorithms()[n].in_default_profile}
    assert extended == available
    assert default == available - costly
    if "lfr-svm" in available:  # the aif360 extra
        assert {"lfr-svm", "lfr-logistic-regression"} <= costly
    assert "kamishima" in default and "feldman-svm" in default
    # the SVM pipelines of the two costly pre-processings opt out by their builders
    assert {"correlation-remover-svm", "optimized-preprocessing-svm"} <= costly
    assert "correlation-remover-logistic-regression" in default


def test_the_paper_profile_is_the_papers_study():
    # Friedler et al. §5: four baselines, four Feldman pipelines, Calders, Kamishima, Zafar x 2;
    # every attribute, variant and grid value, 10 splits: 27,820 runs (the #30 decision's count)
    assert planned("paper") == set(PAPER_ALGORITHMS) and len(PAPER_ALGORITHMS) == 12
    paper = PROFILES["paper"]
    assert (paper.sensitive_attributes, paper.variants, paper.grid, paper.tune, paper.splits) == (
        "all", "supported", True, True, 10,
    )  # fmt: skip
    assert len(make_plan(paper).runs) == 27_820


def test_algorithms_above_their_row_limit_are_left_out_with_the_reason():
    config = BenchmarkConfig(
        datasets=("ricci",),
        algorithms=("svm", "feldman-svm", "logistic-regression"),
        splits=2,
        audits=False,
    )  # fmt: skip
    plan = make_plan(config)
    # the RBF SVM declares 50,000 training rows; Feldman's pipeline inherits its classifier's
    assert plan.row_limits == {"svm": 50_000, "feldman-svm": 50_000}
    assert plan.within_row_limits({"ricci": 118}) == plan  # Ricci's 79 training rows fit
    # 75,000 rows give 50,000 training rows: still within; one more row is not
    assert plan.within_row_limits({"ricci": 75_000}).runs == plan.runs
    large = plan.within_row_limits({"ricci": 245_673})
    assert {run.algorithm for run in large.runs} == {"logistic-regression"}
    assert large.too_large == (
        "svm on ricci: 163,782 training rows, more than the 50,000 it fits in reasonable time "
        "(2 runs left out)",
        "feldman-svm on ricci: 163,782 training rows, more than the 50,000 it fits in "
        "reasonable time (2 runs left out)",
    )


def test_a_frontiers_points_are_planned_with_or_without_the_grid_and_never_tuned():
    # unprocessed-*: its defaults (no constraint) and 2 constraints x 6 tolerances, always
    for grid in (False, True):
        config = BenchmarkConfig(datasets=("german",), algorithms=("unprocessed-logistic-regression",),
                                 grid=grid, tune=True, splits=2)  # fmt: skip
        runs = make_plan(config).runs
        assert len(runs) == 2 * (1 + 2 * 6)
        assert {run.params for run in runs} == {()} | {
            (("constraint", c), ("tolerance", t))
            for c in ("demographic_parity", "equalized_odds")
            for t in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)
        }
        assert not any(run.tune for run in runs)
        assert {run.refit_params for run in runs} == {("constraint", "tolerance")}


def test_a_frontiers_unconstrained_end_is_its_baselines_fit_and_its_points_its_seed():
    config = BenchmarkConfig(datasets=("adult",), splits=1, sensitive_attributes=("race", "sex"),
                             algorithms=("gradient-boosting", "unprocessed-gradient-boosting"))  # fmt: skip
    runs = make_plan(config).runs
    baseline = {run.fit_key for run in runs if run.algorithm == "gradient-boosting"}
    frontier = [run for run in runs if run.algorithm == "unprocessed-gradient-boosting"]
    assert len(baseline) == 1  # the baseline's fit is shared by the attributes and variants
    ends = [run for run in frontier if not run.params]
    assert ends and {run.fit_key for run in ends} == baseline  # the very same fit
    points = [run for run in frontier if run.params]
    assert {run.fit_key for run in points}.isdisjoint(baseline)  # a fit of their own ...
    seed = {run.fit_seed for run in runs if run.algorithm == "gradient-boosting"}
    assert {run.fit_seed for run in points} == seed  # ... seeded as the baseline's


def test_without_audit_frontier_a_frontiers_runs_alone_are_not_audited():
    config = BenchmarkConfig(datasets=("german",), splits=1, audit_frontier=False,
                             algorithms=("logistic-regression", "unprocessed-logistic-regression"))  # fmt: skip
    audited = {run.algorithm: run.audited for run in make_plan(config).runs}
    assert audited == {"logistic-regression": True, "unprocessed-logistic-regression": False}
    every = make_plan(replace(config, audit_frontier=True)).runs
    assert all(run.audited for run in every)
    # the setting is an input of the frontier's runs: a stored audited run is stale, not reused
    inputs = {run.key: dict(run.inputs)["audits"] for run in make_plan(config).runs}
    assert {dict(run.inputs)["audits"] != inputs[run.key] for run in every} == {False, True}


def test_the_frontiers_join_the_default_modern_and_extended_profiles_not_the_papers():
    frontiers = {"unprocessed-gradient-boosting", "unprocessed-logistic-regression"}
    for profile in ("default", "modern", "extended"):
        planned = make_plan(PROFILES[profile].overridden(splits=1)).runs
        assert frontiers <= {run.algorithm for run in planned}
    assert not frontiers & set(PAPER_ALGORITHMS)
