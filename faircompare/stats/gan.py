"""A Wasserstein GAN approximation of the FlipTest map (Black et al. §3.1, App. C), in torch.

The generator G takes a source point x and returns its counterpart G(x). Its loss (Eq. 1) adds
the transport cost to the Wasserstein generator loss,

    L_G = (1/n) sum_x D(G(x)) + (lambda/n) sum_x c(x, G(x)),

so among the maps that push the source onto the target, the cheapest wins (Proposition 1).
Unlike the exact map, G is defined for points outside the training sample and is more stable
over resamples (§3.2). The defaults are the paper's configuration (App. C): two dense layers of
128 ReLU units in both networks, RMSprop at 5e-5, critic weights clipped at 0.01, five critic
steps per generator step, 20,000 generator steps; lambda and the batch size are the Lipton
experiment's. Two choices are ours, both documented on :class:`GanTransport`: features are
standardised over both groups, and the generator is residual, G(x) = x + f(x).

:func:`gan_validation` computes the checks of §5.1 and App. C: per-feature Kolmogorov-Smirnov
statistics between the target and the generated points, the gap in mean squared error of
linear regressions trained on the target to predict each feature from the others, and the mean
cost of the pairs compared with an exact map on a subsample.

torch is an optional dependency (``pip install faircompare[torch]``); importing this module
without it raises an ImportError that says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import ks_2samp
from sklearn.linear_model import LinearRegression

from faircompare._validation import check_choice
from faircompare.stats.fliptest import COSTS, exact_transport

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the GAN transport map needs torch: pip install 'faircompare[torch]'"
    ) from error


class GanTransport:
    """A transport map from a source group to a target group, learned by a Wasserstein GAN.

    Parameters
    ----------
    lam
        Weight of the transport cost in the generator's loss (lambda of Eq. 1).
    batch_size
        Points per batch from each group.
    steps
        Generator updates; the critic gets ``critic_steps`` updates before each.
    critic_steps
        Critic updates per generator update.
    clip
        The critic's weights are clipped to [-clip, clip] (the Lipschitz constraint of WGAN).
    learning_rate
        RMSprop learning rate of both networks.
    hidden
        Units in each of the two hidden layers of both networks.
    cost
        ``"sqeuclidean_l1"`` (the paper's squared L1 distance) or ``"sqeuclidean"``.
    seed
        Seeds the networks' initial weights and the batches.
    device
        torch device to train on; the map is returned to the CPU.

    Notes
    -----
    Two departures from App. C, both to make training converge in fewer steps without changing
    the objective: the features are standardised with the mean and standard deviation of both
    groups together (so lambda has the same meaning whatever the features' units; the costs are
    reported in those units), and the generator is residual, G(x) = x + f(x), so it starts at
    the identity, which is the optimal map between equal distributions (§5.1).
    """

    def __init__(
        self,
        *,
        lam: float = 1e-4,
        batch_size: int = 64,
        steps: int = 20_000,
        critic_steps: int = 5,
        clip: float = 0.01,
        learning_rate: float = 5e-5,
        hidden: int = 128,
        cost: str = "sqeuclidean_l1",
        seed: int = 0,
        device: str = "cpu",
    ) -> None:
        self.lam, self.batch_size, self.steps = lam, batch_size, steps
        self.critic_steps, self.clip, self.learning_rate = critic_steps, clip, learning_rate
        self.hidden, self.seed, self.device = hidden, seed, device
        self.cost = check_choice(cost, COSTS, what="transport cost")

    def fit(self, source: Any, target: Any) -> GanTransport:
        """Train the generator to map ``source`` rows onto the distribution of ``target``."""
        source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
        both = np.vstack([source, target])
        self.mean_ = both.mean(0)
        self.scale_ = np.where(both.std(0) > 0, both.std(0), 1.0)
        rng = np.random.default_rng(self.seed)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.seed)
            self.generator_ = _network(source.shape[1], source.shape[1], self.hidden)
            critic = _network(source.shape[1], 1, self.hidden)
        self.generator_.to(self.device)
        critic.to(self.device)
        self._train(self._tensor(source), self._tensor(target), critic, rng)
        self.generator_.cpu().eval()
        return self

    def __call__(self, X: Any) -> np.ndarray:
        """Counterparts G(x) of the rows of ``X``, in the units of the data."""
        x = torch.as_tensor((np.asarray(X, dtype=float) - self.mean_) / self.scale_)
        with torch.no_grad():
            mapped = self._generate(x.float()).double().numpy()
        return mapped * self.scale_ + self.mean_

    def _tensor(self, X: np.ndarray) -> torch.Tensor:
        scaled = (X - self.mean_) / self.scale_
        return torch.as_tensor(scaled, dtype=torch.float32, device=self.device)

    def _generate(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.generator_(x)

    def _pair_cost(self, x: torch.Tensor, mapped: torch.Tensor) -> torch.Tensor:
        if self.cost == "sqeuclidean":
            return ((x - mapped) ** 2).sum(1)
        return (x - mapped).abs().sum(1) ** 2

    def _train(
        self,
        source: torch.Tensor,
        target: torch.Tensor,
        critic: nn.Module,
        rng: np.random.Generator,
    ) -> None:
        """WGAN training (Arjovsky et al., Algorithm 1) with the generator loss of Eq. 1."""
        optimise_g = torch.optim.RMSprop(self.generator_.parameters(), lr=self.learning_rate)
        optimise_d = torch.optim.RMSprop(critic.parameters(), lr=self.learning_rate)

        def batch(points: torch.Tensor) -> torch.Tensor:
            return points[rng.integers(len(points), size=self.batch_size)]

        for _ in range(self.steps):
            for _ in range(self.critic_steps):
                with torch.no_grad():
                    fake = self._generate(batch(source))
                loss_d = critic(batch(target)).mean() - critic(fake).mean()
                optimise_d.zero_grad()
                loss_d.backward()
                optimise_d.step()
                with torch.no_grad():
                    for weight in critic.parameters():
                        weight.clamp_(-self.clip, self.clip)
            x = batch(source)
            mapped = self._generate(x)
            loss_g = critic(mapped).mean() + self.lam * self._pair_cost(x, mapped).mean()
            optimise_g.zero_grad()
            loss_g.backward()
            optimise_g.step()


def _network(inputs: int, outputs: int, hidden: int) -> nn.Module:
    """Two dense ReLU layers and a linear output layer (App. C)."""
    return nn.Sequential(
        nn.Linear(inputs, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, outputs),
    )


@dataclass(frozen=True)
class GanValidation:
    """The §5.1 checks of an approximate map.

    Attributes
    ----------
    features
        One row per feature: ``ks`` (two-sample Kolmogorov-Smirnov statistic between the target
        and the generated points), ``mse_target`` and ``mse_generated`` (mean squared error of a
        linear regression trained on the target to predict the feature from the others) and
        ``mse_difference`` (generated minus target).
    exact_cost
        Mean cost of a point and its counterpart under the exact map on a subsample.
    approximate_cost
        Mean cost of a source point and its generated counterpart.
    """

    features: pd.DataFrame
    exact_cost: float
    approximate_cost: float


def gan_validation(
    source: Any,
    target: Any,
    generated: Any,
    *,
    cost: str = "sqeuclidean_l1",
    exact_size: int = 2000,
    names: list[str] | None = None,
    rng: np.random.Generator | int | None = None,
) -> GanValidation:
    """Validate an approximate map as Black et al. do (§5.1, App. C).

    Parameters
    ----------
    source, target
        The two groups' feature matrices.
    generated
        The map's counterparts of the ``source`` rows, row for row.
    cost
        Cost of a pair, as for the maps.
    exact_size
        Points drawn from each group for the exact map whose mean cost is the reference (the
        paper uses 2,000).
    names
        Feature names; defaults to column positions.
    rng
        Seeds the subsample.
    """
    rng = np.random.default_rng(rng)
    source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
    generated = np.asarray(generated, dtype=float)
    names = names if names is not None else [str(j) for j in range(source.shape[1])]
    rows = []
    for j, name in enumerate(names):
        ks = ks_2samp(target[:, j], generated[:, j]).statistic
        mse_target, mse_generated = _regression_errors(target, generated, j)
        rows.append((name, ks, mse_target, mse_generated, mse_generated - mse_target))
    columns = ["feature", "ks", "mse_target", "mse_generated", "mse_difference"]
    size = min(exact_size, len(source), len(target))
    sample_s = source[rng.choice(len(source), size, replace=False)]
    sample_t = target[rng.choice(len(target), size, replace=False)]
    exact = exact_transport(sample_s, sample_t, cost=cost, rng=rng)
    power = 2 if cost == "sqeuclidean" else 1
    distance = (np.abs(source - generated) ** power).sum(1) ** (2 / power)
    return GanValidation(
        features=pd.DataFrame(rows, columns=columns),
        exact_cost=exact.mean_cost,
        approximate_cost=float(distance.mean()),
    )


def _regression_errors(target: np.ndarray, generated: np.ndarray, j: int) -> tuple[float, float]:
    """Mean squared errors of predicting feature j from the others, fitted on the target."""
    if target.shape[1] == 1:
        return float(target[:, 0].var()), float(
            ((generated[:, 0] - target[:, 0].mean()) ** 2).mean()
        )
    others = np.delete(np.arange(target.shape[1]), j)
    model = LinearRegression().fit(target[:, others], target[:, j])
    errors = [((model.predict(X[:, others]) - X[:, j]) ** 2).mean() for X in (target, generated)]
    return float(errors[0]), float(errors[1])
