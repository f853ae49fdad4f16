"""Synthetic data generators for the audits' validation studies."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit


def lipton_hiring(n_per_group: int, rng: np.random.Generator | int | None = None) -> pd.DataFrame:
    """Lipton et al.'s synthetic hiring data, as used by FlipTest (Black et al. §5.3).

    Per person, by gender: work experience Poisson(31) - Normal(20, 0.2) for men and
    Poisson(25) - Normal(20, 0.2) for women; hair length 35 Beta(2, 7) for men and
    35 Beta(2, 2) for women; hired with probability sigmoid(2.5 work experience - 25.5), the same
    rule for both. Both features are then standardised over the pooled data.

    Returns
    -------
    pandas.DataFrame
        Columns ``work_experience``, ``hair_length`` (standardised), ``gender`` ("man" for the
        first ``n_per_group`` rows, then "woman") and ``hired`` (1 or 0).
    """
    rng = np.random.default_rng(rng)
    n = n_per_group
    experience = np.r_[rng.poisson(31, n), rng.poisson(25, n)] - rng.normal(20, 0.2, 2 * n)
    hair = 35 * np.r_[rng.beta(2, 7, n), rng.beta(2, 2, n)]
    hired = (rng.random(2 * n) < expit(2.5 * experience - 25.5)).astype(int)

    def standard(values: np.ndarray) -> np.ndarray:
        return (values - values.mean()) / values.std()

    return pd.DataFrame(
        {
            "work_experience": standard(experience),
            "hair_length": standard(hair),
            "gender": np.repeat(["man", "woman"], n),
            "hired": hired,
        }
    )


def maity_two_groups(n: int = 400, rng: np.random.Generator | int | None = None) -> pd.DataFrame:
    """Draw the 2-D simulation of Maity et al. (App. E.1), whose groups differ along x_1.

    G ~ Bernoulli(0.1); X ~ N(mu_G, 0.25^2 I) with mu_0 = (-1.5, 0) and mu_1 = (1.5, 0);
    Y = 1{w_G' (X - mu_G) + N(0, 1e-4) > 0} with w_0 = (-0.2, -0.01) and w_1 = (0.2, -0.01).
    Eq. E.1 prints w_G' X without centring, which makes every label 1 (w_G' mu_G = 0.3 against
    a spread of 0.05); the authors' generator centres on the group mean, and so do we. The fair
    metric that fits the data ignores x_1: d^2 = (x_2 - x'_2)^2.

    Returns
    -------
    pandas.DataFrame
        Columns ``x1``, ``x2``, ``group`` (1 for the minority) and ``y``.
    """
    rng = np.random.default_rng(rng)
    group = (rng.random(n) < 0.1).astype(int)
    centres = np.where(group[:, None] == 1, [1.5, 0.0], [-1.5, 0.0])
    X = centres + 0.25 * rng.standard_normal((n, 2))
    weights = np.where(group[:, None] == 1, [0.2, -0.01], [-0.2, -0.01])
    noise = rng.normal(0.0, 1e-2, n)  # variance 1e-4
    y = ((weights * (X - centres)).sum(1) + noise > 0).astype(int)
    return pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "group": group, "y": y})
