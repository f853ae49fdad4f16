import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def biased():
    """600 rows where the privileged group (s = 1) has higher features and more positives.

    Columns: two continuous features, one integer feature with many ties, one one-hot pair.
    """
    rng = np.random.default_rng(7)
    n = 600
    s = (rng.random(n) < 0.6).astype(int)
    x1 = rng.normal(size=n) + 0.8 * s
    x2 = rng.exponential(size=n) + 0.5 * s
    count = rng.poisson(2 + s)
    flag = (rng.random(n) < 0.3 + 0.3 * s).astype(float)
    X = pd.DataFrame(
        {"x1": x1, "x2": x2, "count": count.astype(float), "flag": flag, "noflag": 1 - flag}
    )
    y = (rng.random(n) < 1 / (1 + np.exp(-(x1 + 0.5 * flag - 0.4)))).astype(int)
    return X, y, s


def positive_rate_gap(predicted, s):
    return predicted[s == 1].mean() - predicted[s == 0].mean()
