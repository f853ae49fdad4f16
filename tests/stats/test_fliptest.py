"""FlipTest: exact transport maps, flipsets (Proposition 2) and transparency reports."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faircompare.datasets.synthetic import lipton_hiring
from faircompare.stats.fliptest import exact_transport, flipsets, fliptest, optimal_plan


@st.composite
def groups_and_classifier(draw):
    """Two groups of equal size and a classifier: any 0/1 function of the observed points.

    Half the examples give both groups the same number of positives (demographic parity holds
    on the observed points), so both directions of Proposition 2 are exercised.
    """
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, d = draw(st.integers(2, 30)), draw(st.integers(1, 4))
    source, target = rng.normal(size=(n, d)), rng.normal(1.0, 1.5, size=(n, d))
    k_source = draw(st.integers(0, n))
    k_target = k_source if draw(st.booleans()) else draw(st.integers(0, n))
    h_source = np.zeros(n, int)
    h_source[rng.choice(n, k_source, replace=False)] = 1
    h_target = np.zeros(n, int)
    h_target[rng.choice(n, k_target, replace=False)] = 1
    return source, target, h_source, h_target


@settings(max_examples=150, deadline=None)
@given(groups_and_classifier())
def test_proposition_2_flipsets_balance_exactly_under_demographic_parity(data):
    source, target, h_source, h_target = data
    result = fliptest(source, target, h_source, h_target, exact_transport(source, target))
    balanced = result.sizes[0] == result.sizes[1]
    assert balanced == (h_source.sum() == h_target.sum())


@pytest.mark.parametrize("cost", ["sqeuclidean_l1", "sqeuclidean"])
def test_exact_map_is_the_cheapest_pairing_found_by_brute_force(cost):
    rng = np.random.default_rng(3)
    source, target = rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
    power = 1 if cost == "sqeuclidean_l1" else 2
    pair_cost = np.array(
        [[np.sum(np.abs(s - t) ** power) ** (2 / power) for t in target] for s in source]
    )
    best = min(pair_cost[np.arange(6), list(p)].mean() for p in itertools.permutations(range(6)))
    transport = exact_transport(source, target, cost=cost)
    assert sorted(transport.counterparts) == list(range(6))  # a permutation
    assert transport.mean_cost == pytest.approx(best)


def test_unequal_groups_draw_counterparts_from_the_plan():
    # Two source points at 0 and 10, four target points at 0, 0, 10, 10: each source point's
    # plan row puts its mass on the two target points at its own place.
    source = np.array([[0.0], [10.0]])
    target = np.array([[0.0], [0.0], [10.0], [10.0]])
    for seed in range(5):
        counterparts = exact_transport(source, target, rng=seed).counterparts
        assert counterparts[0] in (0, 1) and counterparts[1] in (2, 3)


def test_transparency_report_by_hand():
    # Pairs (source - counterpart): row 0 (in F+) (2, -1), row 1 (in F+) (4, 1), row 2 (in F-) (0, -3).
    source = np.array([[2.0, 0.0], [4.0, 1.0], [0.0, 0.0]])
    target = np.array([[0.0, 1.0], [0.0, 0.0], [0.0, 3.0]])
    transport = exact_transport(source, target)
    counterpart = target[transport.counterparts]
    result = fliptest(source, target, [1, 1, 0], [0, 0, 1], transport, features=["a", "b"])
    assert result.sizes == (2, 1)
    f_plus = result.transparency.query("flipset == 'F+'").set_index("feature")
    difference = (source - counterpart)[:2]
    np.testing.assert_allclose(f_plus["mean_difference"], difference.mean(0))
    np.testing.assert_allclose(f_plus["mean_sign"], np.sign(difference).mean(0))
    assert (
        f_plus.loc[f_plus["rank_difference"] == 1].index[0]
        == ["a", "b"][np.argmax(np.abs(difference.mean(0)))]
    )


def test_lipton_data_follow_the_generating_rule():
    data = lipton_hiring(20_000, rng=0)
    men, women = data[data.gender == "man"], data[data.gender == "woman"]
    # Standardised pooled features; men have more experience (mean 11 vs 5 before scaling)
    # and shorter hair (35 * 2/9 = 7.8 vs 17.5), and are hired more often.
    assert data[["work_experience", "hair_length"]].mean().abs().max() < 1e-12
    assert men.work_experience.mean() > women.work_experience.mean()
    assert men.hair_length.mean() < women.hair_length.mean()
    assert men.hired.mean() > women.hired.mean()


def test_large_problems_reach_the_optimum_where_pots_default_limit_stops_early():
    import ot

    rng = np.random.default_rng(0)
    source, target = rng.normal(size=(2000, 10)), rng.normal(0.5, 1, size=(2000, 10))
    weights = np.full(2000, 1 / 2000)
    matrix = ot.dist(source, target, metric="cityblock") ** 2
    with pytest.warns(UserWarning, match="numItermax reached"):
        _, log = ot.emd(weights, weights, matrix, log=True)  # POT's default iteration limit
    assert log["result_code"] != 1  # measured here: stops early, cost 38.32 instead of 38.06
    assert exact_transport(source, target).mean_cost < log["cost"] - 0.1


def test_a_sampled_map_keeps_proposition_2_on_its_sample_and_measures_its_extra_cost():
    from faircompare.stats.fliptest import transport

    rng = np.random.default_rng(4)
    source, target = rng.normal(size=(1200, 3)), rng.normal(0.5, 1, size=(1200, 3))
    exact = transport(source, target)
    sampled = transport(source, target, max_points=300, rng=1)
    rows = sampled.source_rows
    assert len(rows) == 300 and len(set(sampled.counterparts)) == 300  # a bijection of samples
    h_source, h_target = (source[:, 0] > 0).astype(int), (target[:, 0] > 0.5).astype(int)
    result = fliptest(source, target, h_source, h_target, sampled)
    assert len(result.positive) == 300  # the flipsets are over the sampled rows
    mapped_target = h_target[sampled.counterparts]
    assert result.sizes[0] - result.sizes[1] == h_source[rows].sum() - mapped_target.sum()
    # OT between samples costs more than the optimum over all rows, but stays close
    # (measured: 7% here)
    assert exact.mean_cost < sampled.mean_cost < 1.3 * exact.mean_cost


def lipton_case_study(n_audit):
    """Black et al. §5.3: Zafar's demographic-parity-constrained model on Lipton's data."""
    from faircompare.algorithms.zafar import ZafarFairness
    from faircompare.stats.fliptest import transport

    features = ["work_experience", "hair_length"]
    train = lipton_hiring(10_000, rng=0)
    men_flag = (train.gender == "man").astype(int)
    model = ZafarFairness(c=0.0).fit(train[features], train.hired, sensitive_features=men_flag)
    audit = lipton_hiring(n_audit, rng=1)
    women, men = audit[audit.gender == "woman"][features], audit[audit.gender == "man"][features]
    h_women, h_men = model.predict(women), model.predict(men)
    result = fliptest(women, men, h_women, h_men, transport(women, men, rng=0), features=features)
    return h_women.mean(), h_men.mean(), result


def check_case_study(n_audit):
    women_rate, men_rate, result = lipton_case_study(n_audit)
    # Nearly equal hiring rates (demographic parity), yet large flipsets in both directions.
    assert abs(women_rate - men_rate) < 0.05
    assert min(result.rates) > 0.1
    top = result.transparency.query("rank_difference == 1").set_index("flipset")
    # Hired women whose male counterparts were not: longer hair (the model's proxy for gender).
    assert top.loc["F+", "feature"] == "hair_length" and top.loc["F+", "mean_difference"] > 1
    # Rejected women whose counterparts were hired: less work experience.
    assert top.loc["F-", "feature"] == "work_experience" and top.loc["F-", "mean_difference"] < -1


def test_lipton_case_study_on_a_smaller_audit_set():
    check_case_study(2_000)


@pytest.mark.slow
def test_lipton_case_study_as_in_the_paper():
    check_case_study(10_000)  # 10,000 + 10,000 audited: the map is solved in two batches


def test_equalized_odds_variant_balances_within_labels_under_equal_opportunity():
    from faircompare.stats.fliptest import fliptest_by_label

    rng = np.random.default_rng(8)
    source, target = rng.normal(size=(40, 2)), rng.normal(1, 1, size=(40, 2))
    labels = np.repeat([1, 0], 20)  # 20 positives and 20 negatives in each group
    h_source = np.r_[np.ones(12), np.zeros(8), np.ones(5), np.zeros(15)].astype(int)
    h_target = np.r_[np.ones(12), np.zeros(8), np.ones(9), np.zeros(11)].astype(int)
    results = fliptest_by_label(source, target, labels, labels, h_source, h_target)
    # Equal true positive counts (12 and 12): label-1 flipsets balance. False positives differ
    # (5 against 9): label-0 flipsets do not, by exactly the difference.
    assert results[1].sizes[0] == results[1].sizes[1]
    assert results[0].sizes[1] - results[0].sizes[0] == 9 - 5


def test_fliptest_figures_render(tmp_path):
    from faircompare.analysis.audit_figures import plot_flipset_marginal, plot_transparency_report

    _, _, result = lipton_case_study(500)
    audit = lipton_hiring(500, rng=1)
    hair = audit[audit.gender == "woman"]["hair_length"]
    for name, figure in (
        ("marginal", plot_flipset_marginal(hair, result.positive, "hair_length")),
        ("report", plot_transparency_report(result.transparency, "F-")),
    ):
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        assert path.stat().st_size > 5000


def test_the_l1_cost_equals_pots_bit_for_bit_on_one_hot_and_continuous_columns():
    """POT's ``ot.dist`` is the reference: the same sums, so stored maps stay the same."""
    import ot
    from scipy.spatial.distance import cdist

    from faircompare.stats.fliptest import cityblock_distances

    rng = np.random.default_rng(3)
    n_source, n_target = 300, 250
    codes = rng.choice(40, size=n_source + n_target, p=rng.dirichlet(np.full(40, 0.3)))
    columns = [
        np.eye(40)[codes],  # one-hot: rare, absent and common codes
        rng.integers(0, 2, size=(n_source + n_target, 1)),  # a balanced binary column
        np.zeros((n_source + n_target, 1)),  # one value in both groups
        np.r_[np.full(n_source, 1.0), np.full(n_target, -0.0)][:, None],  # one value per group
        rng.normal(size=(n_source + n_target, 3)),  # continuous
    ]
    X = np.hstack(columns)
    X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)  # as the audit
    source, target = X[:n_source], X[n_source:]
    ours = cityblock_distances(source, target)
    assert np.array_equal(ours, ot.dist(source, target, metric="cityblock"))
    np.testing.assert_allclose(ours, cdist(source, target, metric="cityblock"), rtol=1e-12)


def test_the_plan_splits_each_source_row_into_shares_that_sum_to_one():
    import ot

    rng = np.random.default_rng(5)
    source, target = rng.normal(size=(7, 2)), rng.normal(size=(4, 2))
    plan = optimal_plan(source, target)
    np.testing.assert_allclose(np.bincount(plan.rows, plan.shares), 1)
    # each target row receives 7/4 source rows' worth; a vertex has at most n + m - 1 pairs
    np.testing.assert_allclose(np.bincount(plan.columns, plan.shares), 7 / 4)
    assert len(plan.rows) <= 7 + 4 - 1
    # its mean cost is POT's optimal cost
    matrix = ot.dist(source, target, metric="cityblock") ** 2
    optimum = ot.emd2(np.full(7, 1 / 7), np.full(4, 1 / 4), matrix)
    assert plan.mean_cost == pytest.approx(optimum)


def test_plan_weighted_flipsets_are_the_randomised_maps_expected_flipsets():
    """4,000 draws of the randomised map (Black et al. §3): their mean F+ and F- rates and
    F+ transparency mean match the plan's weighted ones within 4 Monte Carlo errors."""
    rng = np.random.default_rng(6)
    source, target = rng.normal(size=(30, 2)), rng.normal(0.5, 1, size=(45, 2))
    h_source, h_target = (source.sum(1) > 0).astype(int), (target.sum(1) > 0.8).astype(int)
    plan = optimal_plan(source, target)
    expected = flipsets(
        source[plan.rows], target[plan.columns], h_source[plan.rows],
        h_target[plan.columns], weights=plan.shares,
    )  # fmt: skip
    draws = []
    for seed in range(4000):
        mapping = exact_transport(source, target, rng=seed)
        drawn = fliptest(source, target, h_source, h_target, mapping)
        draws.append(drawn.rates)
    draws = np.array(draws)
    error = draws.std(axis=0) / np.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - expected.rates) <= 4 * error + 1e-12)
    assert expected.source_size == 30 and 0 < expected.rates[0] < 1
