"""Individual-fairness test of Maity et al. (2021): metric, attack, statistics, simulations."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from faircompare.algorithms.baselines import DecisionTree, LogisticRegressionBaseline
from faircompare.algorithms.loss_oracle import model_oracle
from faircompare.datasets.synthetic import maity_two_groups
from faircompare.stats.individual import (
    NEAR_CERTAIN_SHARE,
    LossOracle,
    clipped_log_loss,
    coefficient_grid,
    error_ratio_test,
    explicit_metric,
    gradient_flow_attack,
    individual_fairness_test,
    logistic_loss_ratios,
    logistic_oracle,
    loss_ratio_test,
    replicated_fairness_test,
    sensitive_subspace_metric,
    smoothed_gradient,
)

SIMULATION_ATTACK = {"lam": 100.0, "steps": 400, "step_size": 0.02, "decay": 2 / 3}  # App. E.3


def simulation(n, seed):
    data = maity_two_groups(n, seed)
    return data[["x1", "x2"]].to_numpy(), data["y"].to_numpy()


def rotated_metric(degrees):
    """Fig. 1's misspecified metrics: the discounted direction (1, 0) rotated by ``degrees``."""
    b = np.deg2rad(degrees)
    return explicit_metric([0.0, 1.0], [[np.cos(b), np.sin(b)], [-np.sin(b), np.cos(b)]])


def test_metric_distance_and_gradient_equal_the_dense_quadratic_form():
    rng = np.random.default_rng(0)
    directions = np.linalg.qr(rng.normal(size=(5, 2)))[0].T  # two orthonormal rows in R^5
    metric = explicit_metric([0.3, 2.0], directions, base=0.7)
    sigma = (
        0.7 * (np.eye(5) - directions.T @ directions)
        + directions.T @ np.diag([0.3, 2.0]) @ directions
    )
    x, x0 = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    v = x - x0
    np.testing.assert_allclose(metric.squared(x, x0), np.einsum("nd,de,ne->n", v, sigma, v))
    np.testing.assert_allclose(metric.gradient(x, x0), 2 * v @ sigma)


def test_explicit_metric_rejects_non_orthogonal_directions():
    with pytest.raises(ValueError, match="orthogonal"):
        explicit_metric([1.0, 1.0], [[1.0, 0.0], [1.0, 1.0]])


def test_learned_subspace_is_the_direction_that_predicts_the_attribute():
    # The attribute depends on feature 2 only, so the sensitive subspace is (close to) e_2 and the
    # metric ignores moves along it while charging full price for the others.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3000, 4))
    s = (X[:, 2] + 0.3 * rng.normal(size=3000) > 0).astype(int)
    metric = sensitive_subspace_metric(X, s)
    assert metric.directions.shape == (1, 4)
    assert abs(metric.directions[0, 2]) > 0.99
    moves = np.eye(4)
    np.testing.assert_allclose(metric.squared(moves, np.zeros((4, 4))), [1, 1, 0, 1], atol=2e-3)
    np.testing.assert_allclose(metric.project(moves)[2], 0.0, atol=0.05)


def test_loss_ratio_test_by_hand():
    # Ratios 1, 2, 3, 4: S = 2.5, V = sd(ddof=1) = 1.2910; T_n = S - 1.6449 V / 2 (Eq. 3.10).
    result = loss_ratio_test([1, 1, 1, 1], [1, 2, 3, 4], delta=1.25, calibration="normal")
    v = np.std([1, 2, 3, 4], ddof=1)
    assert result.mean == 2.5 and result.std == pytest.approx(v)
    assert result.lower_bound == pytest.approx(2.5 - norm.ppf(0.95) * v / 2)
    assert result.interval == pytest.approx((2.5 - 1.959964 * v / 2, 2.5 + 1.959964 * v / 2))
    assert result.reject  # 1.438 > 1.25
    assert result.pvalue == pytest.approx(norm.sf(2 * (2.5 - 1.25) / v))
    assert result.pvalue < 0.05
    assert result.near_certain == 0.0


def test_the_share_of_near_certain_points_counts_losses_below_the_log_of_0_999():
    # -log(0.999) = 1.0005e-3: p(true) = 0.9995 is near-certain, 0.998 and 0.5 are not.
    before = -np.log([0.9995, 0.998, 0.5, 1 - 1e-6])
    result = loss_ratio_test(before, np.full(4, np.log(2)))
    assert result.near_certain == 0.5
    # the floored point alone moves S_n by log(2) / 1e-6 / 4, about 1.7e5
    assert result.mean > 1e5


def test_error_ratio_test_by_hand():
    # Errors before: 2 of 8 (B = 0.25); after: 4 of 8 (A = 0.5), the two earlier ones included.
    before = np.array([1, 1, 0, 0, 0, 0, 0, 0])
    after = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    result = error_ratio_test(before, after, delta=1.25)
    a, b = 0.5, 0.25
    cov_aa, cov_bb, cov_ab = a * (1 - a), b * (1 - b), 0.25 - a * b  # E[after*before] = 2/8
    spread = a**2 * cov_bb + b**2 * cov_aa - 2 * a * b * cov_ab
    assert result.ratio == 2.0
    assert result.lower_bound == pytest.approx(2.0 - norm.ppf(0.95) / b**2 * math.sqrt(spread / 8))
    assert math.isnan(
        error_ratio_test(np.zeros(5), np.ones(5)).ratio
    )  # no errors before: undefined


def test_linear_models_get_the_exact_oracle_in_attack_coordinates():
    # The oracle of a model fitted on x, attacked in z = (x - m) / s, is the logistic oracle with
    # w_z = w_x * s and b_z = b + w_x'm; its gradient equals the model's own input_gradient
    # times s (chain rule), and its loss the log-loss of predict_proba.
    X, y = simulation(400, 0)
    model = LogisticRegressionBaseline(C=1e6).fit(X, y)
    m, s = X.mean(0), X.std(0)
    Z = (X - m) / s
    oracle = model_oracle(model, mean=m, scale=s)
    assert oracle.kind == "analytic" and oracle.ridge is not None
    np.testing.assert_allclose(
        oracle.gradient(Z, y), model.input_gradient(X, y) * s, rtol=1e-8, atol=1e-12
    )
    p = np.clip(model.predict_proba(X)[:, 1], 1e-6, 1 - 1e-6)
    np.testing.assert_allclose(
        oracle.loss(Z, y), -np.where(y == 1, np.log(p), np.log1p(-p)), rtol=1e-8
    )


def test_derivative_free_gradient_estimates_the_smooth_gradient():
    # On a smooth model the smoothed gradient is close to the true one (Gaussian smoothing with
    # a small radius); 200 antithetic directions keep the Monte Carlo error small.
    X, y = simulation(200, 1)
    model = LogisticRegressionBaseline().fit(X, y)
    exact = model_oracle(model).gradient(X, y)
    model_without = type("Opaque", (), {"predict_proba": model.predict_proba})()
    estimate = model_oracle(model_without, smoothing=0.02, pairs=200, rng=0)
    assert estimate.kind == "derivative-free"
    g = estimate.gradient(X, y)
    cosine = (g * exact).sum(1) / (np.linalg.norm(g, axis=1) * np.linalg.norm(exact, axis=1))
    assert np.median(cosine) > 0.95


def test_trees_are_audited_with_the_derivative_free_gradient():
    X, y = simulation(400, 2)
    tree = DecisionTree(max_depth=3).fit(X, y)
    audit_X, audit_y = simulation(300, 3)
    oracle = model_oracle(tree, rng=0)
    result = individual_fairness_test(
        oracle, audit_X, audit_y, explicit_metric([0, 1]), lam=100, steps=50, step_size=0.005
    )
    assert result.gradient == "derivative-free"
    assert np.isfinite(result.loss.lower_bound) and (result.loss.ratios > 0).all()


def test_attack_with_a_free_direction_moves_along_it_only():
    # A logistic model that uses x_1 only; the metric charges for x_2 only. The flow moves every
    # point along x_1 (away from its label) and leaves x_2 where it was.
    X, y = simulation(100, 4)
    oracle = logistic_oracle([2.0, 0.0], 0.0)
    attacked = gradient_flow_attack(oracle, X, y, explicit_metric([0, 1]), **SIMULATION_ATTACK)
    np.testing.assert_allclose(attacked[:, 1], X[:, 1])
    assert (np.sign(attacked[:, 0] - X[:, 0]) == np.where(y == 1, -1, 1)).all()


def test_figure_1_statistic_depends_on_theta1_only_and_is_robust_to_rotation():
    # Maity et al. Fig. 1 on App. E's data: T_n stays below delta = 1.25 at theta1 = 0 for every
    # theta2 and exceeds it for large |theta1|; with the metric rotated by 5 and 10 degrees the
    # decision at theta1 = 0 is unchanged.
    X, y = simulation(400, 0)
    theta1, theta2 = [-4.0, -2.4, 0.0, 2.4, 4.0], np.round(np.arange(-4, 4.01, 0.8), 1)
    for degrees in (0, 5, 10):
        grid = coefficient_grid(X, y, rotated_metric(degrees), theta1, theta2, **SIMULATION_ATTACK)
        at_zero = grid[grid["theta1"] == 0.0]
        assert (~at_zero["reject"]).all(), degrees
        assert (at_zero["statistic"] < 1.15).all()
        if degrees == 0:
            assert grid.loc[grid["theta1"].abs() >= 2.4, "reject"].all()


def audit_ratios(theta, samples, n, seed):
    """Loss ratios of the simulation's logistic model ``theta`` on ``samples`` audit sets of n."""
    ratios = logistic_loss_ratios(
        theta, *simulation(400, 0), *simulation(samples * n, seed), explicit_metric([0, 1]),
        **SIMULATION_ATTACK,
    )  # fmt: skip
    return ratios.reshape(samples, n)


def rejection_rate(ratios, delta, calibration="bootstrap-t"):
    return np.mean(
        [
            loss_ratio_test(np.ones(len(r)), r, delta=delta, calibration=calibration).reject
            for r in ratios
        ]
    )


def test_the_bootstrap_t_critical_value_follows_the_ratios_skewness():
    # Hall (1992, §3.5): the studentized mean's upper 5% point lies above the normal one where
    # the data are skewed to the left (loss ratios near the boundary are, about -3), and below
    # it for right skew; by Cornish-Fisher about -skew (2 z^2 + 1) / (6 sqrt(n)) away, 0.33 for
    # a lognormal's skew of 6.2 at n = 400. Mirrored data, the same resamples: the left one's
    # point is minus the right one's lower 5% point.
    spread = np.random.default_rng(0).lognormal(size=400)
    normal = norm.ppf(0.95)
    left = loss_ratio_test(np.ones(400), 10 - spread)
    right = loss_ratio_test(np.ones(400), 1 + spread)
    assert left.critical > normal + 0.15 and right.critical < normal - 0.15
    # its decision is T_n = S - c V / sqrt(n) > delta, and its p-value the bootstrap's share
    assert left.lower_bound == pytest.approx(left.mean - left.critical * left.std / 20)
    assert left.calibration == "bootstrap-t" and 0 < left.pvalue < 1


def test_the_verdict_and_the_pvalue_agree_at_the_critical_value():
    # The critical value is the 100th largest of the 2,000 studentized draws (k = floor(0.05 x
    # 2,001)), so T_n > delta exactly when (1 + #{draws >= t}) / 2,001 <= 0.05. With the
    # interpolated quantile the verdict and the p-value disagreed in 9 of 12,822 audits, all
    # with delta within a hair of T_n: here every audit is set there, on both sides.
    rng = np.random.default_rng(3)
    for _ in range(100):
        ratios = rng.lognormal(sigma=rng.uniform(0.2, 1.5), size=int(rng.integers(20, 300)))
        at_zero = loss_ratio_test(np.ones(len(ratios)), ratios, delta=0.0)
        assert at_zero.critical == np.sort(at_zero.studentized_draws)[-100]
        for side in (-1, 1):
            delta = at_zero.lower_bound + side * 1e-9 * at_zero.std
            test = loss_ratio_test(np.ones(len(ratios)), ratios, delta=delta)
            assert test.reject == (test.lower_bound > delta) == (test.pvalue <= 0.05)
            assert test.reject == (side < 0)


@pytest.mark.slow
def test_rejection_rate_at_the_null_boundary_is_alpha():
    # Sharper than the fair model: delta set to the audit value itself (the mean ratio over
    # 400,000 fresh points) for an unfair model, theta = (1.6, 0). The paper's normal calibration
    # rejects alpha of the time at n = 2,000 (measured 0.058), but not at n = 200 or 400
    # (0.072 of 500 audits each: the ratios are skewed, about -3): the bootstrap-t calibration
    # keeps the level there, within 3 binomial SE of 500 simulations (measured 0.038 and 0.050).
    audit_value = audit_ratios([1.6, 0.0], samples=1, n=400_000, seed=1).mean()
    tolerance = 3 * math.sqrt(0.05 * 0.95 / 500)
    for n in (200, 400):
        ratios = audit_ratios([1.6, 0.0], samples=500, n=n, seed=2)
        assert rejection_rate(ratios, delta=audit_value, calibration="normal") > 0.05 + 0.015
        assert abs(rejection_rate(ratios, delta=audit_value) - 0.05) <= tolerance
    ratios = audit_ratios([1.6, 0.0], samples=600, n=2000, seed=2)
    assert abs(rejection_rate(ratios, delta=audit_value) - 0.05) <= 3 * math.sqrt(0.05 * 0.95 / 600)


def test_reduced_attack_on_linear_models_equals_the_full_one():
    # The linear-model attack runs in span{w, D}; the generic loop (forced by a callback) moves
    # in all d coordinates (in single precision). Both must give the same points.
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 12))
    y = (X[:, 0] - X[:, 3] + rng.normal(size=300) > 0).astype(int)
    metric = sensitive_subspace_metric(X, np.column_stack([X[:, 3] > 0, X[:, 5] > 0]))
    oracle = logistic_oracle(rng.normal(size=12), 0.3)
    settings = {"lam": 50.0, "steps": 200, "step_size": 0.01}
    reduced = gradient_flow_attack(oracle, X, y, metric, **settings)
    full = gradient_flow_attack(oracle, X, y, metric, callback=lambda t, x: None, **settings)
    np.testing.assert_allclose(reduced, full, atol=1e-4)
    assert np.abs(reduced - X).max() > 0.1  # the attack did move the points


def test_a_step_that_makes_euler_diverge_is_refused_with_the_largest_stable_one():
    X, y = simulation(20, 0)
    with pytest.raises(ValueError, match=r"step_size <= 0\.02"):
        gradient_flow_attack(
            logistic_oracle([1.0, 0.0], 0.0), X, y, explicit_metric([0, 1]), lam=50, step_size=0.05
        )


def test_a_held_gradient_is_evaluated_every_kth_step_and_the_metric_at_every_step():
    # By hand, in one free coordinate (metric weight 0) with gradient -x: forward Euler moves
    # x by a factor (1 - eps) per step; with the gradient held for two steps, x_2 = x_0 (1 - 2
    # eps) and x_4 = x_0 (1 - 2 eps)^2. The charged coordinate (weight 1, lam 10, eps 0.01)
    # shrinks by (1 - 2 lam eps) at every step whatever the gradient does.
    calls = []

    def gradient(X, y):
        calls.append(1)
        return -X * np.array([1.0, 0.0], dtype=X.dtype)

    oracle = LossOracle(lambda X, y: np.zeros(len(X)), gradient, "derivative-free")
    metric = explicit_metric([0.0, 1.0])
    start = np.array([[1.0, 0.0]])
    eps, lam = 0.01, 10.0
    every = gradient_flow_attack(oracle, start, [1], metric, lam=lam, steps=4, step_size=eps)
    assert len(calls) == 4 and every[0, 0] == pytest.approx((1 - eps) ** 4, rel=1e-6)
    calls.clear()
    held = gradient_flow_attack(
        oracle, start, [1], metric, lam=lam, steps=4, step_size=eps, gradient_every=2
    )
    assert len(calls) == 2 and held[0, 0] == pytest.approx((1 - 2 * eps) ** 2, rel=1e-6)
    # a constant push g = 1 along the charged coordinate: e_{t+1} = (1 - 2 lam eps) e_t + eps,
    # so e_4 = eps (1 + 0.8 + 0.64 + 0.512) = 0.02952, held or not
    push = LossOracle(lambda X, y: np.zeros(len(X)),
                      lambda X, y: np.tile(np.array([0.0, 1.0], X.dtype), (len(X), 1)), "x")  # fmt: skip
    for k in (1, 3):
        x = gradient_flow_attack(
            push, start, [1], metric, lam=lam, steps=4, step_size=eps, gradient_every=k
        )
        assert x[0, 1] == pytest.approx(0.02952, rel=1e-6)
    with pytest.raises(ValueError, match="gradient_every must be a positive integer, got 0"):
        gradient_flow_attack(oracle, start, [1], metric, gradient_every=0)


def _step_oracle(seed: int, floor: float = 0.1) -> LossOracle:
    """A model with no gradient (its probability steps at z1 + z2 = 0), smoothed with a seed."""

    def loss(Z, y, s=None):
        return clipped_log_loss(floor + (1 - 2 * floor) * (Z.sum(axis=1) > 0), y)

    gradient = smoothed_gradient(loss, None, 0.1, 1, np.random.default_rng(seed))
    return LossOracle(loss, gradient, "derivative-free")


def test_the_monte_carlo_error_is_the_spread_of_the_statistic_over_seeds():
    # Simulation: one model, 200 points, the attack repeated under 200 seeds of its directions.
    # The Monte Carlo errors each audit estimates from its own two attacks must match how far
    # S_n, T_n and the error rate after the attack actually move with the seed (measured:
    # estimate / spread 0.91, 1.03, 0.91). With 200 seeds the spread's relative standard error
    # is 5 %; the bounds allow 5 of them.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 1] > 0).astype(int)
    metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    results = [
        replicated_fairness_test(_step_oracle(seed), X, y, metric, steps=50) for seed in range(200)
    ]
    loss = np.array([(r.loss.mean, r.loss.lower_bound, r.loss.monte_carlo_error) for r in results])
    error = np.array([(r.error.error_after, r.error.monte_carlo_error * r.error.error_before)
                      for r in results])  # fmt: skip
    for spread, estimate in (
        (np.std(loss[:, 0], ddof=1), loss[:, 2].mean()),  # S_n
        (np.std(loss[:, 1], ddof=1), loss[:, 2].mean()),  # T_n
        (np.std(error[:, 0], ddof=1), error[:, 1].mean()),  # the error rate after the attack
    ):
        assert 0.75 < estimate / spread < 1.33
    # a verdict is undecided exactly when delta lies within 1.96 Monte Carlo errors of T_n
    for r in results:
        assert r.loss.undecided == (
            abs(r.loss.lower_bound - 1.25) <= 1.96 * r.loss.monte_carlo_error
        )


@pytest.mark.parametrize("floor", [0.1, 0.0005])
def test_a_replicated_audit_is_attacked_again_until_its_defined_verdicts_are_decided(floor):
    # A model without a gradient (its probability steps from floor to 1 - floor), delta set at
    # its T_n, where many seeds leave the loss ratio open after two attacks. At floor 0.1 the
    # loss ratio is its statistic: the audit attacks again, doubling (2, 4, 8), until it is
    # decided. At 0.0005 the model is near-certain (assumption A3 fails: the loss ratio reads
    # the loss's floor; on the default study of issue #80 all 12 loss ratios left open at 32
    # attacks were such, their Monte Carlo errors in the thousands): only its error ratio,
    # decided here at once, is attacked for, and its loss ratio is left open without waste.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 1] > 0).astype(int)
    metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])
    first = replicated_fairness_test(_step_oracle(0, floor), X, y, metric, steps=50)
    assert (first.loss.near_certain > NEAR_CERTAIN_SHARE) == (floor < 0.01)
    delta = first.loss.lower_bound  # at the boundary: many seeds leave T_n open at first
    attacks, open_loss = [], 0
    for seed in range(30):
        result = replicated_fairness_test(
            _step_oracle(seed, floor), X, y, metric, steps=50, most_replicates=8, delta=delta
        )
        attacks.append(result.settings["replicates"])
        assert not result.error.undecided
        if result.settings["replicates"] < 8 and floor > 0.01:
            assert not result.loss.undecided  # stopped early: decided
        open_loss += result.loss.undecided
    assert set(attacks) <= {2, 4, 8}  # the attacks double (individual audit version 8)
    if floor > 0.01:
        assert max(attacks) > 2  # some were attacked again
    else:
        assert set(attacks) == {2} and open_loss > 0  # open, and not attacked for


def test_a_replicated_audit_needs_two_attacks():
    X, y = np.zeros((4, 2)), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="at least two attacks, got 1"):
        replicated_fairness_test(_step_oracle(0), X, y, explicit_metric([0.0, 1.0]), replicates=1)


def test_directions_within_a_subspace_estimate_its_projection_with_less_variance():
    # A linear loss w'z, w all ones in d = 20: an antithetic pair's estimate is (w'u) u exactly.
    # Drawn in every direction, its first coordinate has mean w_1 = 1 and variance
    # 2 w_1^2 + sum_{j > 1} w_j^2 = 21 (Gaussian moments, by hand); drawn within e_1 (u = g e_1)
    # it is w_1 g^2, mean 1 and variance 2, and every other coordinate is 0.
    d, draws = 20, 4000
    w = np.ones(d)

    def loss(Z, y, s=None):
        return Z @ w

    Z, y = np.zeros((draws, d)), np.zeros(draws)
    within = np.eye(d)[:1]
    full = smoothed_gradient(loss, None, 0.1, 1, np.random.default_rng(0))(Z, y)
    sub = smoothed_gradient(loss, None, 0.1, 1, np.random.default_rng(0), within)(Z, y)
    assert full[:, 0].mean() == pytest.approx(1, abs=0.25)
    assert full[:, 0].var() == pytest.approx(21, rel=0.15)
    assert sub[:, 0].mean() == pytest.approx(1, abs=0.1)
    assert sub[:, 0].var() == pytest.approx(2, rel=0.15)
    assert np.abs(sub[:, 1:]).max() == 0


def test_a_sensitive_subspace_metric_frees_its_sensitive_directions_only():
    metric = explicit_metric([0.0, 1.0], [[1, 0], [0, 1]])  # base 0: every direction as cheap
    assert metric.free_directions() is None
    rng = np.random.default_rng(0)
    sex = rng.integers(0, 2, 300)
    X = np.column_stack([sex + 0.1 * rng.normal(size=300), rng.normal(size=(300, 2))])
    learned = sensitive_subspace_metric(X, sex)
    np.testing.assert_array_equal(learned.free_directions(), learned.directions)
