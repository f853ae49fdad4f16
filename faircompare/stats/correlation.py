"""Permutation tests of association between a continuous protected attribute and model error.

DiCiccio et al. §4.1: FairTest permutes the data and compares Pearson's correlation r itself,
which is not a valid test of zero correlation when the error's spread depends on the attribute.
Studentizing r by a consistent estimate of its asymptotic standard deviation,
tau^2 = E[(x - mu_x)^2 (e - mu_e)^2] / (var x var e) (DiCiccio & Romano, 2017), makes the
statistic sqrt(n) r / tau asymptotically pivotal, and the permutation test valid (Algorithm 1).
Permuting the errors leaves var x, var e and the centred values' squares unchanged, so every
permutation costs two matrix-vector products (chunked).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from faircompare._validation import check_choice
from faircompare.stats.permutation import (
    ALTERNATIVES,
    PERMUTATIONS,
    Alternative,
    PermutationTestResult,
    monte_carlo_pvalue,
)

_CHUNK = 2_000_000


def correlation_test(
    attribute: Any,
    error: Any,
    *,
    studentize: bool = True,
    alternative: Alternative = "two-sided",
    permutations: int = PERMUTATIONS,
    rng: np.random.Generator | int | None = None,
) -> PermutationTestResult:
    """Test whether a continuous attribute (age, say) is correlated with the model's error.

    Parameters
    ----------
    attribute, error
        One value per person: the protected attribute and the model's error (a residual, a
        loss, or an indicator of a wrong prediction).
    studentize
        Use sqrt(n) r / tau (valid); False permutes r itself, as FairTest does.
    alternative, permutations, rng
        As in :func:`~faircompare.stats.permutation.permutation_test`.

    Returns
    -------
    PermutationTestResult
        ``observed`` is Pearson's r; groups are ("attribute", "error").

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import correlation_test
    >>> rng = np.random.default_rng(0)
    >>> attribute = rng.normal(size=300)
    >>> error = (rng.random(300) < 0.2 + 0.1 * (attribute > 0)).astype(float)
    >>> result = correlation_test(attribute, error, permutations=500, rng=0)
    >>> round(result.observed, 3), result.pvalue < 0.05
    (0.148, True)
    """
    check_choice(alternative, ALTERNATIVES, what="alternative")
    rng = np.random.default_rng(rng)
    x = np.asarray(attribute, dtype=float)
    e = np.asarray(error, dtype=float)
    if x.shape != e.shape or x.ndim != 1 or len(x) < 3:
        raise ValueError("attribute and error must be 1-D with the same length (at least 3)")
    xc, ec = x - x.mean(), e - e.mean()
    n, sx, se = len(x), np.sqrt(np.mean(xc**2)), np.sqrt(np.mean(ec**2))
    if sx == 0 or se == 0:
        raise ValueError("attribute and error must both vary")

    def statistics(errors: np.ndarray) -> np.ndarray:  # rows: permutations of the centred errors
        r = errors @ xc / (n * sx * se)
        if not studentize:
            return r
        tau = np.sqrt((errors**2) @ (xc**2) / n) / (sx * se)
        return np.sqrt(n) * r / tau

    observed_r = float(xc @ ec / (n * sx * se))
    statistic = float(statistics(ec[None, :])[0])
    chunk = max(1, _CHUNK // n)
    null = np.concatenate(
        [
            statistics(rng.permuted(np.tile(ec, (min(chunk, permutations - start), 1)), axis=1))
            for start in range(0, permutations, chunk)
        ]
    )
    pvalue, interval = monte_carlo_pvalue(statistic, null, alternative)
    return PermutationTestResult(
        metric="pearson_correlation",
        groups=("attribute", "error"),
        observed=observed_r,
        statistic=statistic,
        pvalue=pvalue,
        pvalue_interval=interval,
        null_distribution=null,
        group_sizes=(n, n),
        studentized=studentize,
        alternative=alternative,
        within_outcome=False,
    )
