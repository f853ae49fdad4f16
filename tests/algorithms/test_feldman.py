"""Feldman et al.'s repair: its defining properties on training and test data, both ways of ties.

The repair by value (the default) is checked against the authors' code, BlackBoxAuditing, which
Friedler et al.'s benchmark and AIF360's DisparateImpactRemover call; the repair with random
ties against its definition (each row's quantile, the groups' lower median quantile).
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ks_2samp

from faircompare.algorithms.base import AlgorithmInputError
from faircompare.algorithms.baselines import SVM
from faircompare.algorithms.feldman import (
    COLUMN_BLOCK,
    TIES,
    DisparateImpactRepair,
    FeldmanClassifier,
)


@pytest.fixture
def three_groups():
    """Groups of 300, 150 and 60 rows with shifted continuous, integer and binary features."""
    rng = np.random.default_rng(3)
    sizes = {"a": 300, "b": 150, "c": 60}
    s = np.repeat(list(sizes), list(sizes.values()))
    shift = pd.Series(s).map({"a": 0.0, "b": 1.0, "c": 2.5}).to_numpy()
    X = np.column_stack(
        [
            rng.normal(size=len(s)) + shift,
            rng.poisson(1 + shift).astype(float),
            (rng.random(len(s)) < 0.2 + 0.25 * shift).astype(float),
        ]
    )
    return X, s


def test_full_repair_with_random_ties_equalises_every_features_group_distributions(three_groups):
    X, s = three_groups
    repaired = DisparateImpactRepair(1.0, ties="random").fit_transform(X, sensitive_features=s)
    groups = np.unique(s)
    for j in range(X.shape[1]):
        for a in groups:
            for b in groups[groups > a]:
                before = ks_2samp(X[s == a, j], X[s == b, j]).statistic
                after = ks_2samp(repaired[s == a, j], repaired[s == b, j]).statistic
                # Each group's quantiles are stratified over the same target distribution, so
                # the two empirical CDFs differ by at most one step of each.
                assert after <= 1 / (s == a).sum() + 1 / (s == b).sum() + 1e-12
                assert before > 0.1  # the data really were different


@pytest.mark.parametrize("ties", TIES)
def test_zero_repair_is_the_identity(three_groups, ties):
    X, s = three_groups
    repair = DisparateImpactRepair(0.0, ties=ties)
    np.testing.assert_array_equal(repair.fit_transform(X, sensitive_features=s), X)
    np.testing.assert_array_equal(
        repair.transform(X[::7] + 0.01, sensitive_features=s[::7]), X[::7] + 0.01
    )


@pytest.mark.parametrize("ties", TIES)
def test_test_rows_are_repaired_with_the_training_quantiles_one_by_one(three_groups, ties):
    X, s = three_groups
    test = X[:20, :1] + 0.001  # continuous values not in the training data: no ties to break
    repair = DisparateImpactRepair(1.0, ties=ties).fit(X[:, :1], sensitive_features=s)
    batch = repair.transform(test, sensitive_features=s[:20])
    alone = [
        repair.transform(row[None], sensitive_features=s[i : i + 1])[0]
        for i, row in enumerate(test)
    ]
    np.testing.assert_array_equal(batch, np.array(alone))  # no test row depends on another


def hand_repairs() -> tuple[DisparateImpactRepair, DisparateImpactRepair]:
    """Full and half repairs fitted on group a: 1..4, b: 10..40, c: 100..400 (four each)."""
    X = np.array([[1.0], [2], [3], [4], [10], [20], [30], [40], [100], [200], [300], [400]])
    s = np.repeat(["a", "b", "c"], 4)
    return tuple(
        DisparateImpactRepair(level, ties="random").fit(X, sensitive_features=s)
        for level in (1, 0.5)
    )


def test_test_value_maps_to_the_median_of_the_groups_quantiles_by_hand():
    # A new value 2.5 in group a lies above 2 of a's 4 values: u = 2/4, and each group's inverse
    # ECDF at 1/2 is its 2nd value: 2, 20, 200. The median distribution gives 20; half repair
    # 11.25.
    full, half = hand_repairs()
    assert full.transform([[2.5]], sensitive_features=["a"])[0, 0] == 20
    assert half.transform([[2.5]], sensitive_features=["a"])[0, 0] == (2.5 + 20) / 2


def test_a_group_absent_from_training_takes_its_quantile_among_everyone_by_hand():
    # A new value 25 of group z, unseen in training, lies above 6 of the 12 training values
    # (1, 2, 3, 4, 10, 20): u = 1/2, whose quantiles are 2, 20, 200.
    full, half = hand_repairs()
    assert full.transform([[25.0]], sensitive_features=["z"])[0, 0] == 20
    assert half.transform([[25.0], [2.5]], sensitive_features=["z", "a"])[:, 0].tolist() == [
        (25 + 20) / 2,
        (2.5 + 20) / 2,
    ]


def test_a_bad_level_or_tie_rule_is_refused(three_groups):
    X, s = three_groups
    with pytest.raises(AlgorithmInputError, match="repair_level must lie in \\[0, 1\\], got 1.5"):
        DisparateImpactRepair(1.5).fit(X, sensitive_features=s)
    with pytest.raises(ValueError, match="unknown ties 'rank'.*valid choices: value, random"):
        DisparateImpactRepair(ties="rank").fit(X, sensitive_features=s)


@pytest.mark.parametrize("ties", TIES)
def test_classifier_trains_on_repaired_data_and_lowers_disparity(biased, ties):
    X, y, s = biased
    plain = SVM().fit(X, y).predict(X)
    repaired = FeldmanClassifier(SVM(), repair_level=1.0, ties=ties).fit(X, y, sensitive_features=s)
    gap = repaired.predict(X, sensitive_features=s)
    assert abs(gap[s == 1].mean() - gap[s == 0].mean()) < abs(
        plain[s == 1].mean() - plain[s == 0].mean()
    )
    assert not hasattr(repaired, "predict_proba")  # SVM has no probabilities
    assert hasattr(FeldmanClassifier(), "predict_proba")  # logistic regression has


def test_a_rows_repair_is_its_own_whatever_the_batch(three_groups):
    # Discrete features are full of ties, broken by draws that used to follow the rows' order.
    X, s = three_groups
    repair = DisparateImpactRepair(1.0, ties="random").fit(X[::2], sensitive_features=s[::2])
    test, groups = X[1::2], s[1::2]
    batch = repair.transform(test, sensitive_features=groups)
    reversed_batch = repair.transform(test[::-1], sensitive_features=groups[::-1])[::-1]
    alone = np.vstack(
        [
            repair.transform(row[None], sensitive_features=[g])
            for row, g in zip(test, groups, strict=True)
        ]
    )
    np.testing.assert_array_equal(batch, reversed_batch)
    np.testing.assert_array_equal(batch, alone)
    other_seed = DisparateImpactRepair(1.0, ties="random", random_state=1).fit(
        X[::2], sensitive_features=s[::2]
    )
    assert not np.array_equal(other_seed.transform(test, sensitive_features=groups), batch)


@pytest.mark.parametrize("ties", TIES)
def test_moving_an_untied_feature_a_little_changes_no_other_cell(three_groups, ties):
    # #78: the tie draws hashed the whole row, so a move of 1e-9 in a continuous feature drew
    # the row's other ties again (36 % of these rows changed in their integer or binary
    # features). Now a random tie's draw hashes the row's tied cells only, and the repair by
    # value reads no other cell at all.
    X, s = three_groups
    repair = DisparateImpactRepair(1.0, ties=ties).fit(X[::2], sensitive_features=s[::2])
    test, groups = X[1::2], s[1::2]
    test[:, 0] += 1e-3  # the continuous feature: no test value ties with a training value
    moved = test.copy()
    moved[:, 0] += 1e-9  # by far less than any gap between its values
    before = repair.transform(test, sensitive_features=groups)
    after = repair.transform(moved, sensitive_features=groups)
    np.testing.assert_array_equal(before[:, 1:], after[:, 1:])
    assert set(np.unique(after[:, 2])) <= set(np.unique(X[::2, 2]))  # still values of the data


def test_full_repair_of_new_data_still_equalises_the_groups(three_groups):
    # The row-hash draws are uniform and independent of the values, so the randomised
    # probability integral transform still makes each group's repaired values follow the
    # median distribution: the two-sample KS test no longer tells the groups apart (p > 0.01),
    # where it did before (p < 1e-4). The draws hash a row's tied cells only, so new rows are
    # told apart by their values that are training values: here, as on the benchmark's
    # discrete data, every one (each group's continuous values resampled from its own).
    X, s = three_groups
    rng = np.random.default_rng(11)
    shift = pd.Series(s).map({"a": 0.0, "b": 1.0, "c": 2.5}).to_numpy()
    s = np.repeat(s, 4)  # four new rows per training row
    shift = np.repeat(shift, 4)
    resampled = np.concatenate([rng.choice(X[s[::4] == g, 0], (s == g).sum()) for g in "abc"])
    fresh = np.column_stack([resampled, rng.poisson(1 + shift).astype(float)])
    repair = DisparateImpactRepair(1.0, ties="random").fit(X[:, :2], sensitive_features=s[::4])
    repaired = repair.transform(fresh, sensitive_features=s)
    for j in range(2):
        for a, b in (("a", "b"), ("a", "c"), ("b", "c")):
            before = ks_2samp(fresh[s == a, j], fresh[s == b, j]).pvalue
            after = ks_2samp(repaired[s == a, j], repaired[s == b, j]).pvalue
            assert before < 1e-4 and after > 0.01


@pytest.mark.parametrize("ties", TIES)
def test_two_groups_repair_to_values_of_the_data(ties):
    # Two groups: the median of two quantiles is the lower one, never their mean (0.5 for a
    # binary feature, a value no one has).
    rng = np.random.default_rng(5)
    s = np.repeat([0, 1], [300, 200])
    flag = (rng.random(500) < np.where(s == 1, 0.7, 0.3)).astype(float)
    repair = DisparateImpactRepair(1.0, ties=ties).fit(flag[:, None], sensitive_features=s)
    trained = repair.fit_transform(flag[:, None], sensitive_features=s)
    new = repair.transform(flag[::-1, None], sensitive_features=s)
    assert set(np.unique(trained)) <= {0.0, 1.0} and set(np.unique(new)) <= {0.0, 1.0}


@pytest.mark.data
def test_german_predictions_do_not_depend_on_the_batch(load):
    # The measurement: German, numerical+binary, sex, split 0, feldman-logistic-regression:
    # 19 of 333 predictions changed in reverse order, 41 one row at a time, on today's main.
    from faircompare.preprocessing import make_split, prepare

    split = make_split(prepare(load("german"), "numerical+binary", "sex"), 0)
    model = FeldmanClassifier().fit(
        split.X_train, split.y_train, sensitive_features=split.sensitive_features_train
    )
    X, groups = split.X_test, split.sensitive_features_test
    batch = model.predict(X, sensitive_features=groups)
    reverse = model.predict(X.iloc[::-1], sensitive_features=groups[::-1])[::-1]
    alone = [
        model.predict(X.iloc[[i]], sensitive_features=groups[i : i + 1])[0] for i in range(len(X))
    ]
    assert (batch != reverse).sum() == 0 and (batch != np.array(alone)).sum() == 0


def test_training_values_below_a_query_are_counted_as_binary_search_counts_them():
    # columns with 1, 2, 5 and 16 distinct values are counted by comparisons, the rest by search
    rng = np.random.default_rng(4)
    X = np.column_stack(
        [
            np.ones(500),
            rng.random(500) < 0.3,
            rng.integers(0, 5, 500),
            rng.integers(0, 16, 500),
            rng.integers(0, 40, 500),
            rng.normal(size=500),
        ]
    ).astype(float)
    repair = DisparateImpactRepair(ties="random").fit(X, sensitive_features=np.zeros(500))
    query = np.vstack([X[:100], X[:100] + rng.normal(scale=0.5, size=(100, 6))])
    (block,) = repair.engine_.blocks
    below, at_most = block.ecdfs[0].counts(query)
    reference = np.sort(X, axis=0)
    for j in range(X.shape[1]):
        np.testing.assert_array_equal(below[:, j], np.searchsorted(reference[:, j], query[:, j]))
        np.testing.assert_array_equal(
            at_most[:, j], np.searchsorted(reference[:, j], query[:, j], side="right")
        )
    assert len(block.ecdfs[0].many) == 2


@pytest.mark.parametrize("groups", [1, 2, 3, 4, 12])
def test_the_median_quantile_by_counting_is_the_median_of_the_groups_quantiles(groups):
    # The definition: every group's empirical quantile at u (its sorted values' entry
    # ceil(u n_h) - 1), then their lower median; against the counting of levels reached, on
    # columns with 1, 2, 5, 4 and 16 distinct values (counted) and 17 and continuous
    # (by binary search), groups of unequal sizes, and levels at 0, 1, exactly on the groups'
    # steps k / n_h and a double either side of them (where u n_h crosses a count).
    rng = np.random.default_rng(groups)
    s = rng.integers(groups, size=600)
    s[:groups] = np.arange(groups)  # every group present
    X = np.column_stack(
        [
            np.ones(600),
            rng.random(600) < 0.1 + 0.6 * s / groups,
            rng.integers(0, 5, 600) + (s % 2),
            rng.integers(0, 3, 600) + (s > 0),  # the groups but one start above the minimum
            rng.integers(0, 16, 600),
            rng.integers(0, 17, 600),
            rng.normal(size=600) + s,
        ]
    ).astype(float)
    (block,) = DisparateImpactRepair(ties="random").fit(X, sensitive_features=s).engine_.blocks
    steps = np.concatenate([np.arange(n + 1) / n for n in np.bincount(s)])
    beside = [np.nextafter(steps, 0), np.nextafter(steps, 1)]  # a double either side
    levels = rng.permutation(np.concatenate([rng.random(3000), steps, *beside]))
    u = np.vstack([np.zeros(7), np.ones(7), np.resize(levels, (len(levels) // 7 + 1, 7))])
    expected = _lower_median([_quantile(np.sort(X[s == g], axis=0), u) for g in range(groups)])
    np.testing.assert_array_equal(block.median.at(u), expected)
    assert len(block.median.many) == 2  # by binary search


@pytest.mark.parametrize("level", [0.4, 1.0])
def test_untied_new_values_are_repaired_by_the_definition(level):
    # A value equal to no training value of its group has the level F_s(x-) (no draw): the
    # lower median of the groups' quantiles there (ceil(u n_h) - 1), moved a share ``level``.
    # Columns with 2, 5 and 16 values take it from a table of places; in the same batch, rows
    # with ties take their own draws, as they do alone.
    rng = np.random.default_rng(8)
    s = rng.integers(3, size=700)
    X = np.column_stack(
        [rng.random(700) < 0.2 + 0.3 * s, rng.integers(0, 5, 700) + s, rng.integers(0, 16, 700)]
    ).astype(float)
    repair = DisparateImpactRepair(level, ties="random").fit(X, sensitive_features=s)
    assert all(table is not None for table in repair.engine_.blocks[0].untied)
    untied = X[:300] + rng.uniform(-1.5, 1.5, size=(300, 3)) + 0.25  # never a training value
    by_group = [np.sort(X[s == g], axis=0) for g in range(3)]
    u = np.empty_like(untied)
    for g, values in enumerate(by_group):
        rows = s[:300] == g
        for j in range(3):
            u[rows, j] = np.searchsorted(values[:, j], untied[rows, j]) / len(values)
    quantiles = [_quantile(values, u) for values in by_group]
    expected = (1 - level) * untied + level * _lower_median(quantiles)
    batch = np.vstack([untied, X[300:340]])  # with 40 rows of training values: ties
    repaired = repair.transform(batch, sensitive_features=s[:340])
    np.testing.assert_array_equal(repaired[:300], expected)
    alone = repair.transform(X[300:340], sensitive_features=s[300:340])
    np.testing.assert_array_equal(repaired[300:], alone)


@pytest.mark.parametrize("ties", TIES)
def test_a_wide_sparse_matrix_is_repaired_block_by_block_as_its_dense_values(ties):
    # 70 columns: three blocks of COLUMN_BLOCK; the sparse matrix repairs to a sparse matrix
    # with the values of the dense one's repair, in fit_transform and in transform
    from scipy import sparse

    rng = np.random.default_rng(5)
    s = rng.integers(3, size=900)
    X = np.column_stack([rng.normal(size=900) + s, np.eye(69)[rng.integers(69, size=900)]])
    assert X.shape[1] > 2 * COLUMN_BLOCK
    dense, wide = DisparateImpactRepair(0.8, ties=ties), DisparateImpactRepair(0.8, ties=ties)
    repaired = wide.fit_transform(sparse.csr_matrix(X), sensitive_features=s)
    assert sparse.issparse(repaired) and len(wide.engine_.blocks) == 3
    np.testing.assert_array_equal(repaired.toarray(), dense.fit_transform(X, sensitive_features=s))
    new = X[:50] + rng.normal(scale=0.1, size=(50, X.shape[1])) * (X[:50] != 0)
    np.testing.assert_array_equal(
        wide.transform(sparse.csr_matrix(new), sensitive_features=s[:50]).toarray(),
        dense.transform(new, sensitive_features=s[:50]),
    )


@pytest.mark.parametrize("ties", TIES)
def test_few_rows_are_repaired_through_merged_blocks_as_block_by_block(monkeypatch, ties):
    # 80 rows fill fewer cells than a merged block holds, so their repair runs over one block
    # of all 70 columns instead of the fit's three; with the cells down to one, block by block.
    # Tied and untied cells, a column with many values and a group absent from training.
    from faircompare.algorithms.feldman import columns

    rng = np.random.default_rng(6)
    s = rng.integers(3, size=900)
    X = np.column_stack([rng.normal(size=900) + s, np.eye(69)[rng.integers(69, size=900)]])
    repair = DisparateImpactRepair(0.7, ties=ties).fit(X, sensitive_features=s)
    engine = repair.engine_
    new = np.vstack([X[:40], X[40:80] + rng.normal(scale=0.1, size=(40, 70)) * (X[40:80] != 0)])
    groups = np.concatenate([s[:79], [7]])
    assert len(engine._transform_blocks(len(new))) == 1
    merged = repair.transform(new, sensitive_features=groups)
    monkeypatch.setattr(columns, "CELLS", 1)
    assert engine._transform_blocks(len(new)) is engine.blocks
    np.testing.assert_array_equal(merged, repair.transform(new, sensitive_features=groups))


def test_the_smoothing_joins_each_values_repair_by_straight_lines_by_hand():
    # hand_repairs: no ties, so the value v_k of group a (1..4) has the levels [k/4, (k+1)/4],
    # where the median of the groups' quantiles is b's value 10 (k + 1): the smoothing joins
    # (1, 10), (2, 20), (3, 30), (4, 40), slope 10; it is flat outside [1, 4], and at a value
    # takes the mean of both sides (5 at the ends). Group c's values are 100 apart: slope 0.1.
    full, half = hand_repairs()
    X = np.array([[0.5], [1.0], [1.5], [2.0], [4.0], [9.0], [150.0]])
    s = ["a", "a", "a", "a", "a", "a", "c"]
    np.testing.assert_allclose(
        full.slopes(X, sensitive_features=s)[:, 0], [0, 5, 10, 10, 5, 0, 0.1]
    )
    # A half repair moves halfway: (1 - 0.5) + 0.5 * slope; an unseen group, by x alone.
    np.testing.assert_allclose(
        half.slopes([[1.5], [1.5]], sensitive_features=["a", "z"])[:, 0], [5.5, 0.5]
    )


def tied_flags(rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A binary column, 60 % zeros in group 0 and 20 % in group 1, and a continuous one."""
    rng = np.random.default_rng(seed)
    s = np.repeat([0, 1], rows)
    flag = np.concatenate([np.arange(rows) >= 0.6 * rows, np.arange(rows) >= 0.2 * rows])
    return np.column_stack([flag.astype(float), rng.normal(size=2 * rows)]), s


def test_the_smoothing_slope_is_the_finite_difference_of_the_mean_repair():
    # Group 1's ones take levels in [0.2, 1]; the median distribution (the lower of the two
    # groups' quantiles: group 0's) is 1 above level 0.6 only, so a one of group 1 repairs to 1
    # half the time and a zero never: the mean repair rises by 1/2 from 0 to 1, which is the
    # smoothing's slope between them (1/4 at each). The finite difference of the repair itself,
    # averaged over the tie draws of 500 rows (their continuous column takes each of group 1's
    # training values, so each row's tied cells differ), agrees: within 4 standard errors of a
    # mean of 500 draws of 0 or 1 (0.5 / sqrt(500) each).
    X, s = tied_flags(500)
    repair = DisparateImpactRepair(1.0, ties="random").fit(X, sensitive_features=s)
    slopes = repair.slopes([[0.0, 0], [0.5, 0], [1.0, 0]], sensitive_features=[1, 1, 1])
    np.testing.assert_allclose(slopes[:, 0], [0.25, 0.5, 0.25])
    rows = X[s == 1, 1]
    ones, zeros = (np.column_stack([np.full(len(rows), v), rows]) for v in (1.0, 0.0))
    group = np.ones(len(rows), dtype=int)
    mean_rise = (
        repair.transform(ones, sensitive_features=group)[:, 0].mean()
        - repair.transform(zeros, sensitive_features=group)[:, 0].mean()
    )
    assert mean_rise == pytest.approx(slopes[1, 0], abs=4 * 0.5 / np.sqrt(len(rows)))


def test_a_pipeline_with_a_classifiers_gradient_has_the_surrogate_one():
    # At repair level 0 every slope is 1 and the repair the identity: the chain rule gives the
    # classifier's own gradient. A tree has none, and neither has its pipeline.
    from faircompare.algorithms.baselines import DecisionTree, LogisticRegressionBaseline

    X, s = tied_flags(200)
    y = (X[:, 1] + X[:, 0] > 0.5).astype(int)
    plain = LogisticRegressionBaseline().fit(X, y)
    unrepaired = FeldmanClassifier(LogisticRegressionBaseline(), repair_level=0.0)
    unrepaired.fit(X, y, sensitive_features=s)
    assert unrepaired.gradient_kind == "surrogate"
    np.testing.assert_allclose(
        unrepaired.input_gradient(X[:50], y[:50], sensitive_features=s[:50]),
        plain.input_gradient(X[:50], y[:50]),
    )
    tree = FeldmanClassifier(DecisionTree()).fit(X, y, sensitive_features=s)
    assert tree.gradient_kind is None
    with pytest.raises(NotImplementedError, match="DecisionTree has no input gradient"):
        tree.input_gradient(X, y, sensitive_features=s)


@pytest.mark.parametrize("ties", TIES)
def test_a_repair_at_another_level_shares_the_fit_and_equals_a_fit_at_that_level(
    three_groups, ties
):
    X, s = three_groups
    fitted = DisparateImpactRepair(0.3, ties=ties).fit(X, sensitive_features=s)
    moved = fitted.at_level(0.7)
    assert moved.engine_ is fitted.engine_ and fitted.repair_level == 0.3
    fresh = DisparateImpactRepair(0.7, ties=ties)
    np.testing.assert_array_equal(
        moved.repaired_training(X), fresh.fit_transform(X, sensitive_features=s)
    )
    np.testing.assert_array_equal(
        moved.transform(X[::5] + 0.01, sensitive_features=s[::5]),
        fresh.transform(X[::5] + 0.01, sensitive_features=s[::5]),
    )
    with pytest.raises(AlgorithmInputError, match="got -0.1"):
        fitted.at_level(-0.1)


@pytest.mark.parametrize("ties", TIES)
def test_a_pipeline_refitted_at_another_level_is_the_pipeline_fitted_there(biased, ties):
    # The benchmark fits a sweep's first level and refits the others (refit_params): the
    # classifier is fitted again on the rows repaired at the new level, the repair shared.
    X, y, s = biased
    first = FeldmanClassifier(SVM(), repair_level=0.3, ties=ties, random_state=4)
    first.fit(X, y, sensitive_features=s)
    before = first.decision_function(X, sensitive_features=s)
    refitted = first.refitted(repair_level=0.8)
    fresh = FeldmanClassifier(SVM(), repair_level=0.8, ties=ties, random_state=4)
    fresh.fit(X, y, sensitive_features=s)
    assert refitted.repair_level == 0.8 and refitted.repair_.engine_ is first.repair_.engine_
    np.testing.assert_array_equal(
        refitted.decision_function(X, sensitive_features=s),
        fresh.decision_function(X, sensitive_features=s),
    )
    np.testing.assert_array_equal(first.decision_function(X, sensitive_features=s), before)
    assert refitted.refitted().repair_level == 1.0  # a level not given takes the default


def _quantile(sorted_values: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The empirical quantile function of each column at levels ``u``: entry ceil(u n) - 1."""
    n = len(sorted_values)
    index = np.clip(np.ceil(u * n).astype(np.int64) - 1, 0, n - 1)
    return np.take_along_axis(sorted_values, index, axis=0)


def _lower_median(quantiles: list[np.ndarray]) -> np.ndarray:
    """The lower median of the groups' quantiles, cell by cell (the smaller of two)."""
    return np.sort(quantiles, axis=0)[(len(quantiles) - 1) // 2]


# The repair by value, as the authors' code does it (ties="value", the default).


def _authors_repair(X: np.ndarray, s: np.ndarray, level: float) -> np.ndarray:
    """BlackBoxAuditing's repair of the feature columns, each group a category (its numeric
    branch, which Friedler et al.'s benchmark and AIF360's DisparateImpactRemover run)."""
    repairers = pytest.importorskip("BlackBoxAuditing.repairers.CategoricRepairer")
    rows = [[str(g), *map(float, row)] for g, row in zip(s, X, strict=True)]
    repaired = repairers.Repairer(rows, 0, level, False).repair(rows)
    return np.array([row[1:] for row in repaired], dtype=float)


@pytest.mark.parametrize("level", [0.0, 0.05, 0.35, 0.5, 0.85, 1.0])
def test_the_repair_by_value_is_the_authors_code_value_for_value(level):
    # 40 random problems per level: 1 to 4 groups of unequal sizes, 5 to 200 rows, a column of
    # few integers, a rounded continuous one, a binary one and a Poisson one shifted by group.
    rng = np.random.default_rng(int(level * 100))
    for _ in range(40):
        n, groups = rng.integers(5, 200), rng.integers(1, 5)
        s = rng.integers(groups, size=n)
        s[:groups] = np.arange(groups)
        X = np.column_stack(
            [
                rng.integers(0, rng.integers(1, 30), n),
                rng.normal(size=n).round(rng.integers(0, 3)),
                rng.random(n) < 0.3,
                rng.poisson(3 + s),
            ]
        ).astype(float)
        ours = DisparateImpactRepair(level).fit_transform(X, sensitive_features=s)
        np.testing.assert_array_equal(ours, _authors_repair(X, s, level))


@pytest.mark.data
def test_the_repair_by_value_is_the_authors_code_on_german(load):
    # German credit, numerical+binary, sex, split 0's training rows: every feature column as the
    # authors' code repairs it (each column's repair reads that column and the groups alone).
    from faircompare.preprocessing import make_split, prepare

    split = make_split(prepare(load("german"), "numerical+binary", "sex"), 0)
    X, s = split.X_train.to_numpy(float), split.sensitive_features_train
    for level in (0.5, 1.0):
        ours = DisparateImpactRepair(level).fit_transform(X, sensitive_features=s)
        np.testing.assert_array_equal(ours, _authors_repair(X, s, level))


def test_the_repair_by_value_by_hand():
    # Groups a: 1..4, b: 10..40, c: 100..400: four distinct values each, so four buckets of one
    # value; bucket q's target is the lower median of (a_q, b_q, c_q), b's value: 10, 20, 30, 40.
    # At level 1/2 the value 1 (place 0 among the 12 distinct values) moves round(4 / 2) = 2
    # places toward 10 (place 4): to 3. A new value takes its nearest training value's repair
    # (2.5, between 2 and 3, the lower: 20). A value of a group unseen in training (25) takes
    # the pooled buckets' repair: the 12 values in four buckets of three, 25 nearest 20 (and
    # 30, the lower wins), in the second bucket (4, 10, 20), whose target is 20.
    X = np.array([[1.0], [2], [3], [4], [10], [20], [30], [40], [100], [200], [300], [400]])
    s = np.repeat(["a", "b", "c"], 4)
    full = DisparateImpactRepair(1.0).fit(X, sensitive_features=s)
    half = DisparateImpactRepair(0.5).fit(X, sensitive_features=s)
    np.testing.assert_array_equal(full.repaired_training(X)[:, 0], np.tile([10, 20, 30, 40], 3))
    assert half.repaired_training(X)[:4, 0].tolist() == [3, 4, 10, 20]
    new = [[2.4], [2.5], [2.6], [25.0]]
    repaired = full.transform(new, sensitive_features=["a", "a", "a", "z"])[:, 0]
    assert repaired.tolist() == [20, 20, 30, 20]


def test_the_repair_by_value_keeps_a_binary_column_every_group_has():
    # The measurement (#78): buckets of distinct values, not of people, so a 0/1 column
    # whose two values both groups have is left as it is, whatever the groups' shares of ones
    # (30 % and 70 % here), where random ties equalise the shares.
    rng = np.random.default_rng(5)
    s = np.repeat([0, 1], [300, 200])
    flag = (rng.random(500) < np.where(s == 1, 0.7, 0.3)).astype(float)[:, None]
    by_value = DisparateImpactRepair(1.0).fit_transform(flag, sensitive_features=s)
    np.testing.assert_array_equal(by_value, flag)
    random = DisparateImpactRepair(1.0, ties="random").fit_transform(flag, sensitive_features=s)
    assert abs(random[s == 0].mean() - random[s == 1].mean()) < 0.01


def test_a_new_value_is_repaired_monotonely_among_the_training_values(three_groups):
    X, s = three_groups
    repair = DisparateImpactRepair(0.6).fit(X, sensitive_features=s)
    grid = np.linspace(X[:, 0].min() - 1, X[:, 0].max() + 1, 400)
    for group in "abc":
        column = np.column_stack([grid, np.zeros((400, 2))])
        repaired = repair.transform(column, sensitive_features=[group] * 400)[:, 0]
        assert np.all(np.diff(repaired) >= 0)
        assert set(repaired) <= set(X[:, 0])  # every repaired value a value of the data


def test_the_repair_by_values_smoothing_joins_its_repaired_values_by_hand():
    # Groups a: 1..4, b: 10..40, c: 100..400 (test_the_repair_by_value_by_hand). A full repair
    # sends a's values to 10, 20, 30, 40: slope 10 between its knots, 5 at the end knots (the
    # mean of both sides), 0 outside; c's to the same, 100 apart: 0.1. At half repair a's values
    # go to 3, 4, 10, 20: slopes 1, 6 and 10, their mean 3.5 at the knot 2. At level 0 the
    # repair is the identity, whose slope is 1 everywhere (an unseen value is kept there too).
    X = np.array([[1.0], [2], [3], [4], [10], [20], [30], [40], [100], [200], [300], [400]])
    s = np.repeat(["a", "b", "c"], 4)
    full, half, none = (
        DisparateImpactRepair(level).fit(X, sensitive_features=s) for level in (1, 0.5, 0)
    )
    queries = np.array([[0.5], [1.0], [1.5], [2.0], [4.0], [9.0], [150.0]])
    groups = ["a"] * 6 + ["c"]
    np.testing.assert_allclose(
        full.slopes(queries, sensitive_features=groups)[:, 0], [0, 5, 10, 10, 5, 0, 0.1]
    )
    np.testing.assert_allclose(
        half.slopes([[1.5], [2.0]], sensitive_features=["a", "a"])[:, 0], [1, 3.5]
    )
    np.testing.assert_array_equal(none.slopes(queries, sensitive_features=groups), 1.0)
    assert none.transform([[2.5]], sensitive_features=["a"])[0, 0] == 2.5
