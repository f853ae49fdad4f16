"""Continuous protected attributes (DiCiccio et al. §4.1): the studentized correlation test is
valid where FairTest's permutation of r is not. Tolerances: three binomial standard errors."""

import math

import numpy as np
import pytest

from faircompare.stats import correlation_test


def test_correlation_by_hand_and_a_clear_association():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    e = np.array([2.0, 4.0, 5.0, 9.0])
    result = correlation_test(x, e, permutations=100, rng=0)
    assert result.observed == pytest.approx(np.corrcoef(x, e)[0, 1])  # Pearson's r
    rng = np.random.default_rng(1)
    x = rng.normal(size=500)
    assert correlation_test(x, x + rng.normal(size=500), rng=1).pvalue < 0.01


@pytest.mark.slow
def test_studentized_test_is_valid_for_uncorrelatedness_and_fairtests_is_not():
    # §4.1: x ~ U(1e-5, 1), error = N(0, 1) / x^2: uncorrelated but dependent, so a test of
    # zero correlation should reject at the nominal 5%.
    rng = np.random.default_rng(0)
    n_sim, rejected = 1000, {True: 0, False: 0}
    for _ in range(n_sim):
        x = rng.uniform(1e-5, 1, 200)
        error = rng.normal(size=200) / x**2
        for studentize in (True, False):
            result = correlation_test(x, error, studentize=studentize, permutations=300, rng=rng)
            rejected[studentize] += result.pvalue <= 0.05
    tolerance = 3 * math.sqrt(0.05 * 0.95 / n_sim)
    assert abs(rejected[True] / n_sim - 0.05) <= tolerance
    assert rejected[False] / n_sim > 0.05 + tolerance
