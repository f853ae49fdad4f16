"""Relaxed group thresholds: the ROC hull by hand, closed-form optima, and fairlearn as the peer."""

import numpy as np
import pytest
from fairlearn.postprocessing import ThresholdOptimizer

from faircompare.algorithms.postprocessing import _GivenScores
from faircompare.algorithms.thresholds import fit_group_thresholds, roc_hull


def calibrated_uniform(lows_highs, per_score=400, scores=200):
    """Scores uniform on each group's (low, high), with P(y = 1 | s) = s exactly.

    Each group has ``scores`` evenly spaced score values and ``per_score`` rows at each, of
    which round(per_score * s) are positive: the population itself, up to the grid, so the
    optimum on these rows is the closed-form one within a grid step.
    """
    s, y, g = [], [], []
    for group, (low, high) in enumerate(lows_highs):
        values = low + (high - low) * (np.arange(scores) + 0.5) / scores
        for value in values:
            positives = round(per_score * value)
            s += [value] * per_score
            y += [1] * positives + [0] * (per_score - positives)
            g += [group] * per_score
    return np.array(s), np.array(y), np.array(g)


def expected_accuracy(fitted, s, y, g):
    p = fitted.positive_probability(s, g)
    return float(np.mean(y * p + (1 - y) * (1 - p)))


def test_the_roc_hull_of_a_small_group_by_hand():
    # Scores 0.9 (y=1), 0.8 (y=0), 0.7 (y=1), 0.2 (y=0). Rules >= inf, 0.9, 0.8, 0.7, 0.2 give
    # (FPR, TPR) = (0, 0), (0, .5), (.5, .5), (.5, 1), (1, 1). The hull's vertices are all of
    # them but (.5, .5), which lies inside it. Rule >= 0.7 labels three of four 1 (two right):
    # selection rate 3/4, accuracy 3/4.
    hull = roc_hull(np.array([0.9, 0.8, 0.7, 0.2]), np.array([1, 0, 1, 0]))
    assert hull.thresholds.tolist() == [np.inf, 0.9, 0.7, 0.2]
    assert hull.FPR.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert hull.TPR.tolist() == [0.0, 0.5, 1.0, 1.0]
    assert hull.selection_rate.tolist() == [0.0, 0.25, 0.75, 1.0]
    assert hull.accuracy.tolist() == [0.5, 0.75, 0.75, 0.5]
    assert hull.upper.tolist() == [True, True, True, True]  # no vertex below the curve here


def test_a_point_inside_a_small_groups_hull_is_reached_as_error_parity_reaches_it():
    # Equalized odds at tolerance 0 between a large group whose score says little and a small
    # one (40 rows) whose score says much: the common point lies on the large group's curve,
    # strictly inside the small group's hull. Seeded: the program's own vertex mixes the rules
    # >= 0.686 and >= 0.131 with "nobody", seven chain vertices apart. Reached as error-parity
    # reaches it (Cruz & Hardt's RandomizedClassifier), the small group uses the two rules of
    # its hull's upper chain around the point's FPR, mixed with the diagonal ("nobody" and
    # "everybody", the lowest threshold).
    rng = np.random.default_rng(3)
    g = np.r_[np.zeros(4000, int), np.ones(40, int)]
    s = rng.uniform(size=len(g))
    y = (rng.uniform(size=len(g)) < np.where(g == 0, 0.3 + 0.4 * s, s)).astype(int)
    fitted = fit_group_thresholds(s, y, g, "equalized_odds", 0.0)
    small = roc_hull(s[g == 1], y[g == 1])
    chain = small.thresholds[small.upper]  # descending: "nobody" (inf) first
    rules = fitted.thresholds[1]
    assert rules[-1] == np.inf and rules[0] == chain[-1]  # the diagonal's two rules
    inner = np.flatnonzero(np.isin(chain, rules[1:-1]))
    assert len(inner) == 2 and inner[1] - inner[0] == 1  # two neighbours on the chain
    point = [fitted.rates[rate][1] for rate in ("FPR", "TPR")]
    assert point == pytest.approx([0.4540, 0.6770], abs=1e-4)  # the program's point, kept


@pytest.mark.parametrize("constraint", ["demographic_parity", "equalized_odds"])
@pytest.mark.parametrize("tolerance", [0.0, 0.02, 0.1])
def test_the_least_randomised_mix_keeps_the_programs_rates_and_accuracy(constraint, tolerance):
    # The re-expressed mix reaches the same point of every group's hull, so the rates and the
    # accuracy the linear program found (its own vertex weights, thresholds._solve) hold to
    # rounding, on three groups, one of them small.
    from faircompare.algorithms.thresholds import CONSTRAINTS, _solve

    rng = np.random.default_rng(4)
    g = np.r_[rng.integers(0, 2, 3000), np.full(60, 2)]
    s = rng.beta(2 + g, 2)
    y = (rng.uniform(size=len(g)) < s).astype(int)
    fitted = fit_group_thresholds(s, y, g, constraint, tolerance)
    hulls = [roc_hull(s[g == k], y[g == k]) for k in range(3)]
    shares = np.bincount(g) / len(g)
    solved = _solve(hulls, shares, CONSTRAINTS[constraint], tolerance)
    accuracy = sum(s * (w @ h.accuracy) for s, w, h in zip(shares, solved, hulls, strict=True))
    assert fitted.accuracy == pytest.approx(accuracy, abs=1e-9)
    for rate in CONSTRAINTS[constraint]:
        reached = [w @ getattr(h, rate) for w, h in zip(solved, hulls, strict=True)]
        assert fitted.rates[rate] == pytest.approx(reached, abs=1e-9)
    assert expected_accuracy(fitted, s, y, g) == pytest.approx(accuracy, abs=1e-9)
    assert all(len(weights) <= 4 for weights in fitted.weights)


def test_unconstrained_thresholds_are_one_half_for_calibrated_scores():
    # With P(y = 1 | s) = s, labelling 1 pays where s > 1/2: the Bayes rule, in every group.
    s, y, g = calibrated_uniform([(0, 1), (0, 0.6)])
    fitted = fit_group_thresholds(s, y, g, None)
    for thresholds, weights in zip(fitted.thresholds, fitted.weights, strict=True):
        assert weights.tolist() == [1.0]
        assert thresholds[0] == pytest.approx(0.5, abs=1 / 200)


def test_demographic_parity_at_tolerance_zero_reaches_the_closed_form_thresholds():
    # Groups of equal size, scores uniform on (0, 1) and (0, 0.6), calibrated. A common rate r
    # puts the thresholds at t_a = 1 - r and t_b = 0.6 (1 - r); the accuracy's derivative in r is
    # sum_g w_g (2 t_g - 1), zero at (1 - r)(0.5 + 0.3) = 1/2 (Menon & Williamson 2018, Prop. 4,
    # by hand here): t_a = 0.625, t_b = 0.375, r = 0.375.
    s, y, g = calibrated_uniform([(0, 1), (0, 0.6)])
    fitted = fit_group_thresholds(s, y, g, "demographic_parity", 0.0)
    assert fitted.rates["selection_rate"] == pytest.approx([0.375, 0.375], abs=0.01)
    positive = fitted.positive_probability(s, g)
    step = 1 / 200
    for group, threshold, width in ((0, 0.625, 1.0), (1, 0.375, 0.6)):
        rows = g == group
        assert positive[rows & (s > threshold + 2 * step * width)].min() == 1.0
        assert positive[rows & (s < threshold - 2 * step * width)].max() == 0.0


@pytest.mark.parametrize("constraint", ["demographic_parity", "equalized_odds"])
def test_each_tolerance_holds_on_the_fitted_rows_and_buys_accuracy(constraint):
    rng = np.random.default_rng(0)
    n = 3000
    g = rng.integers(0, 3, n)
    s = rng.beta(2 + g, 2, n)
    y = (rng.uniform(size=n) < s).astype(int)
    accuracies = []
    for tolerance in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 1.0):
        fitted = fit_group_thresholds(s, y, g, constraint, tolerance)
        assert fitted.violation() <= tolerance + 1e-9
        assert expected_accuracy(fitted, s, y, g) == pytest.approx(fitted.accuracy, abs=1e-9)
        accuracies.append(fitted.accuracy)
    assert np.all(np.diff(accuracies) >= -1e-12)  # a looser constraint never costs accuracy
    unconstrained = fit_group_thresholds(s, y, g, None)
    assert accuracies[-1] == pytest.approx(unconstrained.accuracy, abs=1e-12)


def fairlearn_accuracy(s, y, g, constraint, tol=None):
    optimizer = ThresholdOptimizer(
        estimator=_GivenScores().fit(s[:, None], y), constraints=constraint,
        predict_method="predict_proba", prefit=True, tol=tol,
    ).fit(s[:, None], y, sensitive_features=g)  # fmt: skip
    p = optimizer._pmf_predict(s[:, None], sensitive_features=g)[:, 1]
    return float(np.mean(y * p + (1 - y) * (1 - p)))


@pytest.mark.parametrize(
    ("constraint", "tol"),
    [("demographic_parity", None), ("demographic_parity", 0.05), ("equalized_odds", None)],
)
def test_the_program_finds_fairlearns_optimum_where_fairlearn_solves_the_same_problem(
    constraint, tol
):
    # fairlearn searches 1,001 rates and interpolates its hull; the program solves it exactly,
    # so it is never worse and at most a grid step's accuracy better.
    rng = np.random.default_rng(1)
    n = 4000
    g = rng.integers(0, 2, n)
    s = np.round(rng.beta(2 + 2 * g, 2, n), 3)
    y = (rng.uniform(size=n) < s).astype(int)
    ours = fit_group_thresholds(s, y, g, constraint, tol or 0.0).accuracy
    theirs = fairlearn_accuracy(s, y, g, constraint, tol)
    assert theirs - 1e-6 <= ours <= theirs + 5e-4  # measured: 1e-6 to 1e-4 better


def test_bad_input_is_refused_naming_it():
    s, y, g = np.array([0.2, 0.8, 0.4, 0.6]), np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match="unknown constraint 'parity'.*'demographic_parity'"):
        fit_group_thresholds(s, y, g, "parity")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"tolerance must lie in \[0, 1\], got 1.5"):
        fit_group_thresholds(s, y, g, "demographic_parity", 1.5)
    with pytest.raises(ValueError, match="group 1 has one label only"):
        fit_group_thresholds(s, np.array([0, 1, 1, 1]), g, "equalized_odds")
