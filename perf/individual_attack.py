"""Time the individual-fairness attack on the Adult test split and audit Maity et al.'s models.

One benchmark split of Adult (numerical+binary, sex; race is a second sensitive column for the
metric and for Project/SenSR). The metric is learned on the test split; the attack is App.
F.4's (lam 50, T = 500 steps of 0.01) in coordinates standardised over the test split.

1. CPU time of the batched attack on the whole test split for logistic regression and the
   networks (each reduced to the span of its first layer and the sensitive directions), against
   the authors' per-point loop (timed on a few hundred points and scaled, as printed); for the
   baseline network also against the previous implementation (torch autograd in single
   precision over all d coordinates, kept here as the baseline), with both T_n.
   Models without gradients (Reductions here) are audited on 1,000 random test rows.
2. Maity et al. Table 1 on this split: balanced accuracy, T_n and T~_n with the decision, for
   the baseline network, Project, Reductions (exponentiated gradient, equalized odds, eps 0.03)
   and SenSR.

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/individual_attack.py
"""

import argparse
import time

import numpy as np
import torch
from scipy.special import expit
from threadpoolctl import threadpool_limits

from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.loss_oracle import model_oracle
from faircompare.algorithms.neural import NeuralNetwork, ProjectNetwork, SenSR
from faircompare.algorithms.reductions import ExponentiatedGradientReduction
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.stats.individual import (
    LossOracle,
    clipped_log_loss,
    gradient_flow_attack,
    individual_fairness_test,
    sensitive_subspace_metric,
)

ATTACK = {"lam": 50.0, "steps": 500, "step_size": 0.01}
DERIVATIVE_FREE_POINTS = 1000  # models audited without gradients: a random 1,000 test rows


def per_point_loop(oracle, Z, y, metric, points: int) -> float:
    """CPU seconds of the authors' loop (one point at a time), scaled to every row of Z."""
    start = time.process_time()
    for i in range(points):
        gradient_flow_attack(
            oracle, Z[i : i + 1], y[i : i + 1], metric, callback=lambda t, x: None, **ATTACK
        )
    return (time.process_time() - start) * len(Z) / points


def previous_oracle(model: NeuralNetwork, mean: np.ndarray, scale: np.ndarray) -> LossOracle:
    """The network's oracle before #19: torch autograd, single precision, all d coordinates."""
    factor = torch.as_tensor(scale / model.scale_, dtype=torch.float32)
    shift = torch.as_tensor((mean - model.mean_) / model.scale_, dtype=torch.float32)

    def loss(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            inputs = torch.addcmul(shift, torch.tensor(Z, dtype=torch.float32), factor)
            logits = model.network_(inputs).squeeze(1).double().numpy()
        return clipped_log_loss(expit(logits), np.asarray(y))

    def gradient(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        inputs = torch.tensor(Z, dtype=torch.float32, requires_grad=True)
        logits = model.network_(torch.addcmul(shift, inputs, factor)).squeeze(1)
        losses = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, torch.tensor(np.asarray(y), dtype=torch.float32), reduction="none"
        )
        return torch.autograd.grad(losses.sum(), inputs)[0].numpy()

    return LossOracle(loss, gradient, "autograd")


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    torch.set_num_threads(1)
    dataset = load_dataset("adult")
    by_sex = prepare(dataset, "numerical+binary", "sex")
    by_race = prepare(dataset, "numerical+binary", "race")
    split = make_split(by_sex, 0)
    race = by_race.sensitive_features
    train, test = split.train_index, split.test_index
    X_train, X_test = split.X_train.to_numpy(float), split.X_test.to_numpy(float)
    sensitive = np.column_stack([by_sex.sensitive_features, race])
    mean, scale = X_test.mean(0), X_test.std(0)
    scale[scale == 0] = 1.0
    Z = (X_test - mean) / scale
    metric = sensitive_subspace_metric(Z, sensitive[test])
    print(f"Adult split 0: {len(train):,} training rows, {len(test):,} test rows, d = {Z.shape[1]}")

    models = {
        "logistic regression": LogisticRegressionBaseline(),
        "baseline network": NeuralNetwork(),
        "project": ProjectNetwork(),
        "reductions (EG, EO)": ExponentiatedGradientReduction("equalized_odds", eps=0.03),
        "SenSR": SenSR(),
    }
    print(f"\n{'model':22s} {'fit s':>6s} {'bal-acc':>7s} {'T_n':>8s} {'T~_n':>6s} reject "
          f"{'gradient':>15s} {'attack CPU s':>12s}")  # fmt: skip
    for name, model in models.items():
        start = time.perf_counter()
        # Project and SenSR learn their subspace from sex and race; the others take one
        # attribute (the reductions' constraint is on sex).
        both = isinstance(model, ProjectNetwork | SenSR)
        groups = sensitive[train] if both else split.sensitive_features_train
        with threadpool_limits(1):
            model.fit(X_train, split.y_train, sensitive_features=groups)
        fit = time.perf_counter() - start
        pred = model.predict(X_test, sensitive_features=split.sensitive_features_test)
        balanced = np.mean([(pred[split.y_test == c] == c).mean() for c in (0, 1)])
        oracle = model_oracle(
            model, sensitive_features=split.sensitive_features_test, mean=mean, scale=scale, rng=0
        )
        rows = slice(None)
        if oracle.kind == "derivative-free":  # 16 predictions per point and step: subsample
            rows = np.random.default_rng(0).choice(len(Z), DERIVATIVE_FREE_POINTS, replace=False)
            subset = split.sensitive_features_test[rows]
            oracle = model_oracle(model, sensitive_features=subset, mean=mean, scale=scale, rng=0)
        start = time.process_time()
        with threadpool_limits(1):
            result = individual_fairness_test(oracle, Z[rows], split.y_test[rows], metric, **ATTACK)
        cpu = time.process_time() - start
        print(
            f"{name:22s} {fit:6.1f} {balanced:7.3f} {result.loss.lower_bound:8.3f} "
            f"{result.error.lower_bound:6.3f} {'yes' if result.loss.reject else 'no':>6s} "
            f"{result.gradient:>15s} {cpu:12.2f}",
            flush=True,
        )
        if name in ("logistic regression", "baseline network"):
            with threadpool_limits(1):
                loop = per_point_loop(oracle, Z, split.y_test, metric, points=200)
            print(f"{'':22s} per-point loop (200 points, scaled): {loop:8.1f} CPU s "
                  f"-> batched is {loop / cpu:,.0f}x faster")  # fmt: skip
        if name == "baseline network":
            start = time.process_time()
            with threadpool_limits(1):
                before = individual_fairness_test(
                    previous_oracle(model, mean, scale), Z, split.y_test, metric, **ATTACK
                )
            previous = time.process_time() - start
            print(
                f"{'':22s} previous implementation: {previous:.2f} CPU s (ratio "
                f"{previous / cpu:.1f}x); T_n {before.loss.lower_bound:.9f} against ours "
                f"{result.loss.lower_bound:.9f} (difference "
                f"{abs(before.loss.lower_bound - result.loss.lower_bound):.1e})",
                flush=True,
            )


if __name__ == "__main__":
    main()
