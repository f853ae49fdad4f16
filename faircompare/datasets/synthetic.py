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
