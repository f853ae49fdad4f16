"""Neural models (torch extra): the contract, their written-out gradients, SenSR against the
baselines."""

import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from faircompare.algorithms.contract import check_contract  # noqa: E402
from faircompare.algorithms.loss_oracle import model_oracle  # noqa: E402
from faircompare.algorithms.neural import NeuralNetwork, ProjectNetwork, SenSR  # noqa: E402
from faircompare.datasets.synthetic import maity_two_groups  # noqa: E402
from faircompare.preprocessing import prepare  # noqa: E402
from faircompare.stats.individual import (  # noqa: E402
    explicit_metric,
    gradient_flow_attack,
    individual_fairness_test,
    sensitive_subspace_metric,
)

QUICK = {"steps": 40}  # the contract checks behaviour, not accuracy


@pytest.mark.parametrize("cls", [NeuralNetwork, ProjectNetwork, SenSR])
def test_contract(cls):
    failures = [
        f"{c.name}: {c.detail}" for c in check_contract(lambda: cls(**QUICK)) if not c.passed
    ]
    assert failures == []


def test_input_gradient_equals_finite_differences():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] - X[:, 1] > 0).astype(int)
    model = NeuralNetwork(steps=300, learning_rate=1e-2).fit(X, y)
    oracle = model_oracle(model)  # the model's own torch oracle
    h = 1e-3
    finite = np.column_stack(
        [(oracle.loss(X + h * e, y) - oracle.loss(X - h * e, y)) / (2 * h) for e in np.eye(3)]
    )
    np.testing.assert_allclose(model.input_gradient(X, y), finite, atol=2e-3)
    np.testing.assert_allclose(oracle.gradient(X, y), finite, atol=2e-3)


def autograd_in_double(model, Z, y, mean, scale):
    """Each row's log-loss gradient by torch autograd on a double-precision copy (reference)."""
    network = copy.deepcopy(model.network_).double()
    inputs = torch.tensor(Z, dtype=torch.float64, requires_grad=True)
    x = (torch.tensor(mean) + torch.tensor(scale) * inputs - torch.tensor(model.mean_)) / (
        torch.tensor(model.scale_)
    )
    if isinstance(model, ProjectNetwork):
        directions = torch.tensor(model.metric_.directions)
        x = x - (x @ directions.T) @ directions
    logits = network(x).squeeze(1)
    losses = torch.nn.functional.binary_cross_entropy_with_logits(
        logits, torch.tensor(y, dtype=torch.float64), reduction="none"
    )
    return torch.autograd.grad(losses.sum(), inputs)[0].numpy()


@pytest.mark.parametrize("cls", [NeuralNetwork, ProjectNetwork])
def test_written_out_gradient_equals_autograd_in_double_precision(cls):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 5)) * [1, 2, 3, 1, 0.5] + [0, 1, 0, -2, 0]
    y = (X[:, 0] - X[:, 1] + X[:, 4] > 0).astype(int)
    model = cls(hidden=8, steps=300, learning_rate=1e-2).fit(X, y, sensitive_features=X[:, 4] > 0)
    mean, scale = X.mean(0), X.std(0)  # the audit's coordinates differ from the network's
    Z = (X - mean) / scale
    oracle = model_oracle(model, mean=mean, scale=scale)
    assert oracle.kind == "analytic" and oracle.ridge is not None
    want = autograd_in_double(model, Z, y, mean, scale)
    np.testing.assert_allclose(oracle.gradient(Z, y), want, rtol=1e-9, atol=1e-12)


def test_network_attack_in_the_span_equals_the_full_iteration():
    # The network's attack runs on the n x (hidden + k) coordinates of span{V, D}; forward Euler
    # on all d coordinates in double precision (here, by hand) must give the same points.
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 9))
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int)
    model = NeuralNetwork(hidden=6, steps=300, learning_rate=1e-2).fit(X, y)
    metric = sensitive_subspace_metric(X, np.column_stack([X[:, 2] > 0, X[:, 5] > 0]))
    oracle = model_oracle(model)
    x = X.copy()
    for _ in range(200):
        x += 0.01 * (oracle.gradient(x, y) - 50.0 * metric.gradient(x, X))
    reduced = gradient_flow_attack(oracle, X, y, metric, lam=50.0, steps=200, step_size=0.01)
    np.testing.assert_allclose(reduced, x, atol=1e-10)
    assert np.abs(reduced - X).max() > 0.1  # the attack did move the points


def simulation(n, seed):
    data = maity_two_groups(n, seed)
    return data[["x1", "x2"]].to_numpy(), data["y"].to_numpy(), data["group"].to_numpy()


def test_sensr_and_project_are_individually_fair_where_the_baseline_is_not():
    # Maity et al.'s 2-D data: within each group the label follows x_1, the direction that
    # separates the groups. The sensitive subspace learned from the group is (close to) x_1, so
    # SenSR and Project ignore it, while the baseline network uses it; audited with the true
    # metric (App. E settings), the baseline is rejected and the other two are not.
    X, y, group = simulation(2000, 0)
    audit_X, audit_y, _ = simulation(1000, 1)
    statistics = {}
    for model in (
        NeuralNetwork(steps=2000, learning_rate=1e-3),
        ProjectNetwork(steps=500),
        SenSR(steps=300),
    ):
        model.fit(X, y, sensitive_features=group)
        result = individual_fairness_test(
            model_oracle(model),
            audit_X,
            audit_y,
            explicit_metric([0, 1]),
            lam=100,
            steps=400,
            step_size=0.02,
            decay=2 / 3,
        )
        assert result.gradient == "analytic"
        statistics[type(model).__name__] = result.loss
    assert statistics["NeuralNetwork"].reject
    assert not statistics["ProjectNetwork"].reject and not statistics["SenSR"].reject


@pytest.mark.data
def test_adult_baseline_network_is_rejected_and_sensr_is_not(load):
    # Maity et al. Table 1 on one split of Adult (numerical+binary, sex and race both sensitive,
    # 80/20 split): the metric is learned on the test split, the attack is App. F.4's (lam 50,
    # 500 steps of 0.01) in coordinates standardised over the test split.
    dataset = load("adult")
    by_sex, by_race = (
        prepare(dataset, "numerical+binary", "sex"),
        prepare(dataset, "numerical+binary", "race"),
    )
    X, y = by_sex.X.to_numpy(float), by_sex.y
    sensitive = np.column_stack([by_sex.sensitive_features, by_race.sensitive_features])
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[: int(0.8 * len(y))], order[int(0.8 * len(y)) :]
    mean, scale = X[test].mean(0), X[test].std(0)
    scale[scale == 0] = 1.0
    Z = (X[test] - mean) / scale
    metric = sensitive_subspace_metric(Z, sensitive[test])
    statistics = {}
    for model in (NeuralNetwork(), SenSR()):
        model.fit(X[train], y[train], sensitive_features=sensitive[train])
        oracle = model_oracle(model, mean=mean, scale=scale)
        statistics[model.name] = individual_fairness_test(oracle, Z, y[test], metric).loss
    assert statistics["neural-network"].reject and statistics["neural-network"].lower_bound > 1.5
    assert not statistics["sensr"].reject and statistics["sensr"].lower_bound < 1.15
