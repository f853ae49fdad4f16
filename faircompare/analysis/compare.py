"""Which intervention is better, and is the difference real? Comparisons on shared splits.

Every algorithm of a benchmark is fitted on the same seeded train/test splits, so two
algorithms can be compared split by split. The splits share most of their training rows,
which makes the per-split differences correlated: the naive paired t-test over splits then
underestimates the variance of their mean and rejects far too often (Nadeau & Bengio, Machine
Learning 52, 2003; Bouckaert & Frank, PAKDD 2004). This module implements

- :func:`corrected_ttest`: Nadeau & Bengio's corrected resampled t-test (§4.3: the variance of
  the mean difference inflated from 1/J to 1/J + n_test/n_train for J random splits), with the
  matching confidence interval;
- :func:`correlated_bayesian_ttest`: Corani & Benavoli's correlated Bayesian t-test (Machine
  Learning 100, 2015, §3), whose posterior of the mean difference is a Student t with the same
  inflated scale, giving the probabilities that A is better, that the two are practically
  equivalent (within a region of practical equivalence, the *rope*), and that B is better;
- :func:`compare_pair` and :func:`pairwise` on the store's measures, all pairs Holm-adjusted,
  and :func:`wins_ties_losses`;
- :func:`friedman` across datasets (scipy's Friedman test on the algorithms' ranks, Demšar,
  JMLR 7, 2006, §3.2.2) with the Nemenyi critical difference for the post-hoc comparison;
- :func:`combined_test` and :func:`against_datasets`: one pair across datasets, each dataset's
  corrected t-test combined by Stouffer's weighted Z (Whitlock 2005), weighed by its test rows
  where ranks weigh every dataset alike.

Scores are oriented so that higher is better: accuracy as it is, a fairness measure as minus
its distance to its ideal value (a DI of 0.9 scores -0.1, like one of 1.1).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from faircompare._validation import check_choice
from faircompare.analysis.tidy import label, runs_wide
from faircompare.bibliography import Reference
from faircompare.measures import MEASURES
from faircompare.preprocessing.splits import TRAIN_FRACTION
from faircompare.stats.multitest import HOLM_1979, holm

__all__ = [
    "CombinedTest",
    "CorrectedTTest",
    "FriedmanTest",
    "REFERENCES",
    "PairComparison",
    "Posterior",
    "against_datasets",
    "combined_test",
    "compare_pair",
    "corrected_ttest",
    "detectable_difference",
    "correlated_bayesian_ttest",
    "friedman",
    "intervals",
    "pairwise",
    "score_bounds",
    "scores",
    "wins_ties_losses",
]

#: Nadeau and Bengio's corrected resampled t-test (§4.3).
NADEAU_BENGIO_2003 = Reference(
    key="nadeau2003inference",
    authors=("Nadeau, Claude", "Bengio, Yoshua"),
    title="Inference for the Generalization Error",
    year=2003,
    venue="Machine Learning",
    kind="article",
    volume="52(3)",
    pages="239-281",
    doi="10.1023/A:1024068626366",
)

#: Corani and Benavoli's correlated Bayesian t-test (§3).
CORANI_BENAVOLI_2015 = Reference(
    key="corani2015bayesian",
    authors=("Corani, Giorgio", "Benavoli, Alessio"),
    title="A Bayesian approach for comparing cross-validated algorithms on multiple data sets",
    year=2015,
    venue="Machine Learning",
    kind="article",
    volume="100(2-3)",
    pages="285-304",
    doi="10.1007/s10994-015-5486-z",
)

#: Benavoli et al.'s case for the Bayesian comparison, and its region of practical equivalence.
BENAVOLI_2017 = Reference(
    key="benavoli2017time",
    authors=("Benavoli, Alessio", "Corani, Giorgio", "Demšar, Janez", "Zaffalon, Marco"),
    title="Time for a Change: a Tutorial for Comparing Multiple Classifiers Through Bayesian "
    "Analysis",
    year=2017,
    venue="Journal of Machine Learning Research",
    kind="article",
    volume="18(77)",
    pages="1-36",
    url="https://jmlr.org/papers/v18/16-305.html",
)

#: Demšar's Friedman test across datasets and the Nemenyi critical difference (§3.2.2).
DEMSAR_2006 = Reference(
    key="demsar2006statistical",
    authors=("Demšar, Janez",),
    title="Statistical Comparisons of Classifiers over Multiple Data Sets",
    year=2006,
    venue="Journal of Machine Learning Research",
    kind="article",
    volume="7",
    pages="1-30",
    url="https://jmlr.org/papers/v7/demsar06a.html",
)

#: Stouffer's Z weighted by each study's information, for combining one-sided p-values.
WHITLOCK_2005 = Reference(
    key="whitlock2005combining",
    authors=("Whitlock, Michael C.",),
    title="Combining probability from independent tests: the weighted Z-method is superior to "
    "Fisher's approach",
    year=2005,
    venue="Journal of Evolutionary Biology",
    kind="article",
    volume="18(5)",
    pages="1368-1373",
    doi="10.1111/j.1420-9101.2005.00917.x",
)

#: The method of the report's ranks across datasets (its key in :data:`REFERENCES`).
RANKS = (
    "Friedman's and Iman and Davenport's tests across datasets with the Nemenyi critical difference"
)
#: The method of the report's comparisons across datasets weighed by their test rows.
COMBINED = "the corrected t-tests of each dataset combined by Stouffer's weighted Z"
#: The works behind the report's comparisons of algorithms, by the method each describes.
REFERENCES: dict[str, tuple[Reference, ...]] = {
    "the corrected resampled t-test": (NADEAU_BENGIO_2003,),
    "Holm's adjustment": (HOLM_1979,),
    "the correlated Bayesian t-test": (CORANI_BENAVOLI_2015, BENAVOLI_2017),
    RANKS: (DEMSAR_2006,),
    COMBINED: (WHITLOCK_2005, NADEAU_BENGIO_2003),
}

TEST_TO_TRAIN = (1 - TRAIN_FRACTION) / TRAIN_FRACTION  # n_test / n_train of the benchmark's splits


@dataclass(frozen=True)
class CorrectedTTest:
    """The corrected resampled t-test of a mean difference over J shared splits.

    Attributes
    ----------
    mean, sd
        Mean and standard deviation of the per-split differences.
    statistic
        t = mean / (sd * sqrt(1/J + n_test/n_train)).
    pvalue
        Two-sided, from Student's t with J - 1 degrees of freedom.
    interval
        The confidence interval of the mean difference with the same standard error.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import corrected_ttest
    >>> test = corrected_ttest(np.array([0.02, 0.03, 0.01, 0.04, 0.02]))
    >>> [round(end, 3) for end in test.interval]
    [-0.002, 0.05]
    """

    mean: float
    sd: float
    statistic: float
    pvalue: float
    interval: tuple[float, float]


def detectable_difference(
    half_width: Any, splits: Any, *, power: float = 0.8, confidence: float = 0.95
) -> np.ndarray:
    """Return the smallest mean difference the corrected t-test detects with ``power``.

    For a 95 % interval of half-width h over J splits, the difference's standard error is
    h / t_0.975 (on J - 1 degrees of freedom), and a true difference of
    (t_0.975 + t_power) h / t_0.975 is detected with probability ``power`` (the normal
    approximation to the noncentral t), at the level 1 - ``confidence``, before any adjustment
    for several comparisons.

    Parameters
    ----------
    half_width
        Half-widths of the corrected intervals.
    splits
        The number of splits of each.
    power, confidence
        The chance of detection; the interval's level.

    Returns
    -------
    numpy.ndarray
        The detectable differences.

    Examples
    --------
    >>> from faircompare.analysis.compare import detectable_difference
    >>> detectable_difference(0.02, 5).round(4)  # (2.7764 + 0.9410) / 2.7764 * 0.02
    np.float64(0.0268)
    """
    degrees = np.asarray(splits, dtype=float) - 1
    critical = stats.t.ppf(0.5 + confidence / 2, degrees)
    return np.asarray(half_width, dtype=float) * (1 + stats.t.ppf(power, degrees) / critical)


def corrected_ttest(
    differences: np.ndarray, test_to_train: float = TEST_TO_TRAIN, *, confidence: float = 0.95
) -> CorrectedTTest:
    """Test a mean difference over random train/test splits (Nadeau & Bengio 2003, §4.3).

    Parameters
    ----------
    differences
        One difference per split (for example A's accuracy minus B's).
    test_to_train
        n_test / n_train of every split (1/2 for the benchmark's 2/3 : 1/3 splits); 0 gives
        the naive paired t-test.
    confidence
        Level of the interval.

    Returns
    -------
    CorrectedTTest
        The mean, the statistic, its p-value and the interval. With no variation at all the
        statistic is 0 (p = 1) for a zero mean and infinite otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import corrected_ttest
    >>> test = corrected_ttest(np.array([0.02, 0.03, 0.01, 0.04, 0.02]))
    >>> round(test.mean, 3), round(test.pvalue, 3)
    (0.024, 0.066)
    """
    d = np.asarray(differences, dtype=float)
    if len(d) < 2:
        raise ValueError(f"a t-test needs at least two splits, got {len(d)}")
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    se = sd * np.sqrt(1 / len(d) + test_to_train)
    df = len(d) - 1
    if se > 0:
        statistic = mean / se
    else:
        statistic = 0.0 if mean == 0 else float(np.copysign(np.inf, mean))
    pvalue = float(2 * special.stdtr(df, -abs(statistic)))  # Student's t, as scipy.stats.t
    half = float(special.stdtrit(df, 0.5 + confidence / 2) * se)
    return CorrectedTTest(mean, sd, float(statistic), pvalue, (mean - half, mean + half))


@dataclass(frozen=True)
class CombinedTest:
    """One difference across datasets: each dataset's corrected t-test, combined.

    The one-sided p-values of the datasets' corrected t-tests (A better than B) are combined
    by Stouffer's Z, each weighted by the square root of its test rows (Whitlock 2005: weights
    as the square root of the sample size); the two-sided p-value is twice the smaller of the
    two directions'. Under the null that A and B score alike on every dataset, each
    dataset's p-value is uniform and the combination exact: a rejection says that on these
    datasets, weighed by their rows, one is ahead, and may rest on the largest one (its
    ``weight``). It says nothing of datasets in general: with five datasets no test of a mean
    difference over a population of datasets holds its level (the comparing guide's
    simulation).

    Attributes
    ----------
    mean
        The datasets' mean differences, averaged with weights proportional to their test rows.
    statistic
        Stouffer's weighted Z for A better than B.
    pvalue
        Two-sided.
    better, worse
        The datasets whose own corrected t-test (0.05, two-sided) finds A better, or worse.
    datasets
        The datasets combined.
    weight
        The largest dataset's share of the combination (its test rows over all of them).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import combined_test
    >>> german = np.array([0.02, 0.03, 0.01, 0.04, 0.02])  # 330 test rows
    >>> adult = np.array([0.012, 0.010, 0.015, 0.011, 0.013])  # 10,000 test rows
    >>> test = combined_test([german, adult], [330, 10_000])
    >>> round(test.mean, 4), round(test.statistic, 2), test.better, round(test.weight, 3)
    (0.0126, 3.43, 1, 0.968)
    """

    mean: float
    statistic: float
    pvalue: float
    better: int
    worse: int
    datasets: int
    weight: float


def combined_test(
    differences: Sequence[np.ndarray],
    test_rows: Sequence[float],
    test_to_train: float = TEST_TO_TRAIN,
) -> CombinedTest:
    """Combine one difference's corrected t-tests over datasets (Stouffer's weighted Z).

    Parameters
    ----------
    differences
        For each dataset, the per-split differences (A's score minus B's), two splits or more.
    test_rows
        Each dataset's test rows: its weight is their square root.
    test_to_train
        n_test / n_train of the splits.

    Returns
    -------
    CombinedTest
        The combined statistic, its p-value and the datasets' own verdicts.

    Raises
    ------
    ValueError
        For fewer than two datasets, or as many test rows as datasets not given.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import combined_test
    >>> small = np.array([0.05, -0.02, 0.04, 0.01, 0.03])  # 40 test rows: undecided alone
    >>> large = np.array([0.012, 0.010, 0.015, 0.011, 0.013])  # 10,000 rows: decided
    >>> test = combined_test([small, large], [40, 10_000])
    >>> test.better, round(test.weight, 3), test.pvalue < 0.05
    (1, 0.996, True)
    """
    if len(differences) < 2 or len(differences) != len(test_rows):
        raise ValueError(
            f"a combination needs two datasets or more and their test rows: got "
            f"{len(differences)} datasets and {len(test_rows)} row counts"
        )
    tests = [corrected_ttest(d, test_to_train) for d in differences]
    rows = np.asarray(test_rows, dtype=float)
    degrees = np.array([len(d) - 1 for d in differences], dtype=float)
    ahead = special.stdtr(degrees, -np.array([t.statistic for t in tests]))  # P(T >= t)
    ahead = np.clip(ahead, 1e-300, 1 - 1e-16)  # a difference without variation: decided
    weights = np.sqrt(rows)
    statistic = float(np.sum(weights * special.ndtri(1 - ahead)) / np.sqrt(np.sum(rows)))
    pvalue = float(min(1.0, 2 * special.ndtr(-abs(statistic))))
    decided = [t for t in tests if t.pvalue < 0.05]
    return CombinedTest(
        mean=float(np.sum(rows * [t.mean for t in tests]) / rows.sum()),
        statistic=statistic,
        pvalue=pvalue,
        better=sum(t.mean > 0 for t in decided),
        worse=sum(t.mean < 0 for t in decided),
        datasets=len(tests),
        weight=float(rows.max() / rows.sum()),
    )


@dataclass(frozen=True)
class Posterior:
    """Posterior probabilities that A is better, that A and B are equivalent, that B is better.

    Attributes
    ----------
    a_better, equivalent, b_better
        P(mu > rope), P(-rope <= mu <= rope) and P(mu < -rope) for the mean difference mu.
    rope
        Half-width of the region of practical equivalence.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import correlated_bayesian_ttest
    >>> posterior = correlated_bayesian_ttest(np.array([0.001, -0.002, 0.0, 0.001, -0.001]))
    >>> round(posterior.a_better + posterior.equivalent + posterior.b_better, 6), posterior.rope
    (1.0, 0.01)
    """

    a_better: float
    equivalent: float
    b_better: float
    rope: float


def correlated_bayesian_ttest(
    differences: np.ndarray, test_to_train: float = TEST_TO_TRAIN, *, rope: float = 0.01
) -> Posterior:
    """Compute the correlated Bayesian t-test's posterior (Corani & Benavoli 2015, §3).

    With correlation rho = n_test / n between the splits' results, the posterior of the mean
    difference is Student's t with J - 1 degrees of freedom, location the mean difference and
    scale sd * sqrt(1/J + rho / (1 - rho)), where rho / (1 - rho) = n_test / n_train.

    Parameters
    ----------
    differences
        One difference per split.
    test_to_train
        n_test / n_train of every split.
    rope
        Half-width of the region of practical equivalence (0.01: a point of accuracy).

    Returns
    -------
    Posterior
        The three probabilities.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.analysis.compare import correlated_bayesian_ttest
    >>> posterior = correlated_bayesian_ttest(np.array([0.02, 0.03, 0.01, 0.04, 0.02]))
    >>> round(posterior.a_better, 2), round(posterior.equivalent, 2)
    (0.89, 0.1)
    """
    d = np.asarray(differences, dtype=float)
    if len(d) < 2:
        raise ValueError(f"the test needs at least two splits, got {len(d)}")
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    scale = sd * np.sqrt(1 / len(d) + test_to_train)
    if scale > 0:  # Student's t CDF, as scipy.stats.t computes it, without its checks
        below = float(special.stdtr(len(d) - 1, (-rope - mean) / scale))
        above = float(special.stdtr(len(d) - 1, (mean - rope) / scale))
    else:  # every split gives the same difference: all the mass is at the mean
        below, above = float(mean < -rope), float(mean > rope)
    return Posterior(above, 1 - above - below, below, rope)


def scores(measures: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Return each run's score on ``measure``, oriented so that higher is better.

    Parameters
    ----------
    measures
        The store's test measures (long form), or the runs :func:`~.tidy.representative` chose.
    measure
        An aggregate measure of the catalogue.

    Returns
    -------
    pandas.DataFrame
        One row per run: the run's identifying columns, ``name`` (its label) and ``score``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import scores
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> scores(measures, "accuracy")[["algorithm", "split_id", "score"]].round(3).head(3)
      algorithm  split_id  score
    0        lr         0  0.751
    1        lr         1  0.749
    2        lr         2  0.756
    """
    check_choice(measure, MEASURES, what="measure")
    wide = runs_wide(measures[measures["measure"] == measure])
    names = [label(a, s) for a, s in zip(wide["algorithm"], wide["setting"], strict=True)]
    return wide.drop(columns=[measure]).assign(name=names, score=oriented(measure, wide[measure]))


def oriented(measure: str, values: pd.Series) -> pd.Series:
    """Return a measure's values as scores, higher better (:func:`scores`' ``score``).

    An accuracy measure is its own score; a fairness measure's is its gap from its ideal,
    negated (:meth:`~faircompare.measures.Measure.gap`): for a ratio r such as DI,
    -(1 - min(r, 1/r)), in [-1, 0], the scale every figure draws it on, so that DI = 2 is as
    far from parity as DI = 0.5 and one run's DI of 478 does not outweigh every other run.
    """
    known = MEASURES[measure]
    if known.kind == "accuracy":
        return values
    return pd.Series(-known.gap(values), index=values.index, name=values.name)


def score_bounds(measure: str) -> tuple[float, float]:
    """Return the smallest and largest score of a measure (:func:`oriented`'s range).

    An accuracy measure's bounds; a fairness measure's largest gap from its ideal, negated,
    up to 0 (a ratio's gap is at most 1). An interval of a mean score is cut to this range:
    the mean lies in it, so the cut interval covers it as often.

    Parameters
    ----------
    measure
        An aggregate measure of the catalogue.

    Returns
    -------
    tuple of float
        The lowest and the highest score.

    Examples
    --------
    >>> from faircompare.analysis.compare import score_bounds
    >>> score_bounds("accuracy"), score_bounds("DIbinary"), score_bounds("CV")
    ((0.0, 1.0), (-1.0, 0.0), (-1.0, 0.0))
    """
    known = MEASURES[measure]
    if known.kind == "accuracy":
        return known.bounds
    low, high = known.bounds
    widest = 1.0 if known.ratio else max(known.ideal - low, high - known.ideal)
    return -widest, 0.0


def score_name(measure: str, shown: str | None = None) -> str:
    """Return the name of a measure's score: the measure, or ``-(DIbinary gap)``.

    ``shown`` is the name the measure is shown under (a paper's label); default its own.
    """
    known, shown = MEASURES[measure], shown or measure
    return shown if known.kind == "accuracy" else f"-({shown} gap)"


@dataclass(frozen=True)
class PairComparison:
    """Two algorithms compared on one measure over their shared splits.

    Attributes
    ----------
    a, b
        The algorithms' names (labels).
    measure
        The measure; differences are of scores, higher is better.
    splits
        Number of shared splits.
    test
        The corrected resampled t-test of the mean difference (A - B).
    posterior
        The correlated Bayesian t-test.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import compare_pair
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> pair = compare_pair(measures, "accuracy", "lr", "tree")
    >>> pair.a, pair.b, pair.measure, round(pair.posterior.a_better, 2)
    ('lr', 'tree', 'accuracy', 1.0)
    """

    a: str
    b: str
    measure: str
    splits: int
    test: CorrectedTTest
    posterior: Posterior


def compare_pair(
    measures: pd.DataFrame,
    measure: str,
    a: str,
    b: str,
    *,
    rope: float = 0.01,
    test_to_train: float = TEST_TO_TRAIN,
) -> PairComparison:
    """Compare two algorithms of one dataset, attribute and variant on their shared splits.

    Parameters
    ----------
    measures
        Test measures of one dataset, sensitive attribute and variant.
    measure
        The measure compared (its score: higher is better).
    a, b
        The algorithms' names as :func:`scores` labels them.
    rope
        Half-width of the region of practical equivalence.
    test_to_train
        n_test / n_train of the splits.

    Returns
    -------
    PairComparison
        The t-test and the posterior of score(A) - score(B).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import compare_pair
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> pair = compare_pair(measures, "accuracy", "lr", "tree")
    >>> pair.splits, round(pair.test.mean, 3), pair.test.pvalue < 0.05
    (5, 0.049, True)
    """
    by_split = _by_split(measures, measure)
    for name in (a, b):
        check_choice(name, by_split.columns, what="algorithm")
    i, j = by_split.columns.get_indexer([a, b])
    differences = _differences(by_split.to_numpy(dtype=float), i, j)
    return _compared(differences, measure, a, b, rope, test_to_train)


def _compared(
    differences: np.ndarray, measure: str, a: str, b: str, rope: float, test_to_train: float
) -> PairComparison:
    return PairComparison(
        a,
        b,
        measure,
        len(differences),
        corrected_ttest(differences, test_to_train),
        correlated_bayesian_ttest(differences, test_to_train, rope=rope),
    )


def _differences(scores: np.ndarray, a: int, b: int) -> np.ndarray:
    """Return column ``a`` minus column ``b`` on the splits (rows) where both have a score."""
    shared = ~np.isnan(scores[:, a]) & ~np.isnan(scores[:, b])
    return scores[shared, a] - scores[shared, b]


def pairwise(
    measures: pd.DataFrame,
    measure: str,
    *,
    rope: float = 0.01,
    test_to_train: float = TEST_TO_TRAIN,
) -> pd.DataFrame:
    """Compare every pair of algorithms of one configuration, Holm-adjusting the p-values.

    Parameters
    ----------
    measures
        Test measures of one dataset, sensitive attribute and variant.
    measure
        The measure compared.
    rope
        Half-width of the region of practical equivalence.
    test_to_train
        n_test / n_train of the splits.

    Returns
    -------
    pandas.DataFrame
        One row per pair sharing two splits or more: ``a``, ``b``, ``splits``,
        ``mean_difference``, ``ci_low``, ``ci_high``, ``statistic``, ``pvalue``,
        ``holm_pvalue``, ``p_a_better``, ``p_equivalent``, ``p_b_better``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import pairwise
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> pairs = pairwise(measures, "accuracy")
    >>> pairs[["a", "b", "mean_difference", "holm_pvalue"]].round(3)
        a     b  mean_difference  holm_pvalue
    0  lr  tree            0.049        0.003
    """
    by_split = _by_split(measures, measure)
    by_split = by_split[sorted(by_split.columns)]
    scores = by_split.to_numpy(dtype=float)
    rows = []
    for (i, a), (j, b) in itertools.combinations(enumerate(by_split.columns), 2):
        differences = _differences(scores, i, j)
        if len(differences) < 2:  # tuned settings may share fewer splits than a test needs
            continue
        pair = _compared(differences, measure, a, b, rope, test_to_train)
        test, posterior = pair.test, pair.posterior
        rows.append(
            {
                "a": a,
                "b": b,
                "splits": pair.splits,
                "mean_difference": test.mean,
                "ci_low": test.interval[0],
                "ci_high": test.interval[1],
                "statistic": test.statistic,
                "pvalue": test.pvalue,
                "p_a_better": posterior.a_better,
                "p_equivalent": posterior.equivalent,
                "p_b_better": posterior.b_better,
            }  # fmt: skip
        )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    return table.assign(holm_pvalue=holm(table["pvalue"].to_numpy()))


def against_datasets(
    measures: pd.DataFrame,
    measure: str,
    reference: str,
    test_rows: pd.Series,
    *,
    test_to_train: float = TEST_TO_TRAIN,
) -> pd.DataFrame:
    """Compare every algorithm with one, across datasets weighed by their test rows.

    Parameters
    ----------
    measures
        Test measures of one variant over several datasets and sensitive attributes (each a
        block), every algorithm in every block.
    measure
        The measure compared (its score: higher is better).
    reference
        The algorithm every other is compared with (in its setting of each block, as the
        ranks across datasets read it).
    test_rows
        Each block's test rows, indexed by ``(dataset, sensitive_attribute)``.
    test_to_train
        n_test / n_train of the splits.

    Returns
    -------
    pandas.DataFrame
        One row per other algorithm (``algorithm``), its :class:`CombinedTest` against the
        reference (``mean``, ``statistic``, ``pvalue``, ``better``, ``worse``,
        ``datasets``, ``weight``) and ``holm_pvalue``, Holm-adjusted over the algorithms.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import against_datasets
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [(dataset, algorithm, split, mean + sd * rng.standard_normal())
    ...      for dataset, sd in (("small", 0.05), ("large", 0.004))
    ...      for algorithm, mean in (("best", 0.80), ("worse", 0.78))
    ...      for split in range(5)],
    ...     columns=["dataset", "algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), sensitive_attribute="sex", variant="numerical+binary",
    ...     setting="defaults", measure="accuracy", group="",
    ... )
    >>> test_rows = pd.Series({("large", "sex"): 10_000, ("small", "sex"): 40})
    >>> table = against_datasets(measures, "accuracy", "best", test_rows)
    >>> table[["algorithm", "mean", "worse", "holm_pvalue"]].round(3)
      algorithm   mean  worse  holm_pvalue
    0     worse -0.017      1        0.016
    """
    grouped = measures.groupby(["dataset", "sensitive_attribute"], sort=True)
    blocks = [_by_split(block, measure, by="algorithm") for _, block in grouped]
    rows = [float(test_rows.loc[key]) for key, _ in grouped]
    names = sorted(set.intersection(*(set(block.columns) for block in blocks)) - {reference})
    found = []
    for name in names:
        differences = [(block[name] - block[reference]).dropna().to_numpy() for block in blocks]
        test = combined_test(differences, rows, test_to_train)
        found.append({"algorithm": name, **dataclasses.asdict(test)})
    table = pd.DataFrame(found)
    if table.empty:
        return table
    return table.assign(holm_pvalue=holm(table["pvalue"].to_numpy()))


def wins_ties_losses(pairs: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """Count, per algorithm, the pairs it wins and loses significantly (Holm), and the ties.

    Parameters
    ----------
    pairs
        The result of :func:`pairwise`.
    alpha
        Level of the Holm-adjusted p-values.

    Returns
    -------
    pandas.DataFrame
        Indexed by algorithm: ``wins``, ``ties``, ``losses``, by wins then losses.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import pairwise, wins_ties_losses
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> wins_ties_losses(pairwise(measures, "accuracy"))
          wins  ties  losses
    lr       1     0       0
    tree     0     0       1
    """
    significant = pairs["holm_pvalue"] < alpha
    a_wins = significant & (pairs["mean_difference"] > 0)
    b_wins = significant & (pairs["mean_difference"] < 0)
    names = sorted(set(pairs["a"]) | set(pairs["b"]))
    table = pd.DataFrame(0, index=names, columns=["wins", "ties", "losses"])
    for winners, losers in ((pairs["a"][a_wins], pairs["b"][a_wins]),
                            (pairs["b"][b_wins], pairs["a"][b_wins])):  # fmt: skip
        table["wins"] += winners.value_counts().reindex(names, fill_value=0)
        table["losses"] += losers.value_counts().reindex(names, fill_value=0)
    for side in ("a", "b"):
        table["ties"] += pairs[side][~significant].value_counts().reindex(names, fill_value=0)
    return table.sort_values(["wins", "losses"], ascending=[False, True])


@dataclass(frozen=True)
class FriedmanTest:
    """Algorithms ranked over several datasets (Demšar 2006, §3.2.2).

    Attributes
    ----------
    ranks
        Each algorithm's average rank (1 best), best first.
    statistic, pvalue
        Friedman's chi-square statistic and its p-value (scipy); :attr:`iman_davenport` is
        the F statistic Demšar recommends beside it.
    critical_difference
        The Nemenyi critical difference of average ranks at ``alpha``.
    datasets
        Number of datasets (blocks) ranked.
    alpha
        The level of the critical difference.

    Examples
    --------
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import friedman
    >>> scores = {"lr": [0.80, 0.70, 0.90], "tree": [0.75, 0.65, 0.80], "nb": [0.70, 0.60, 0.85]}
    >>> test = friedman(pd.DataFrame(scores, index=["adult", "german", "ricci"]))
    >>> test.datasets, round(test.critical_difference, 2)
    (3, 1.91)
    """

    ranks: pd.Series
    statistic: float
    pvalue: float
    critical_difference: float
    datasets: int
    alpha: float

    @property
    def iman_davenport(self) -> tuple[float, float]:
        """Return Iman and Davenport's F statistic and its p-value (Demšar 2006, Eq. (4)).

        Friedman's chi-square is conservative; F = (N - 1) chi2 / (N (k - 1) - chi2), on
        k - 1 and (k - 1)(N - 1) degrees of freedom, is the statistic Demšar recommends.
        Where every block ranks the algorithms alike (chi2 = N (k - 1)), F is infinite and
        its p-value 0.

        Returns
        -------
        tuple of float
            ``(F, p)``.

        Examples
        --------
        Demšar's example (§3.2.2: four algorithms, 14 datasets, chi2 = 9.28) reads F = 3.69:

        >>> import pandas as pd
        >>> from faircompare.analysis.compare import FriedmanTest
        >>> ranks = pd.Series([1.964, 2.0, 2.893, 3.143], index=["a", "b", "c", "d"])
        >>> test = FriedmanTest(ranks, 9.28, 0.026, 1.25, 14, 0.05)
        >>> round(test.iman_davenport[0], 2)
        3.69
        """
        k, n, chi2 = len(self.ranks), self.datasets, self.statistic
        room = n * (k - 1) - chi2
        if room <= 0:
            return float("inf"), 0.0
        statistic = (n - 1) * chi2 / room
        return statistic, float(stats.f.sf(statistic, k - 1, (k - 1) * (n - 1)))

    def groups(self) -> list[tuple[float, float]]:
        """Return the maximal groups the Nemenyi test cannot tell apart, as rank spans.

        Returns
        -------
        list of tuple of float
            The lowest and highest average rank of each maximal run of algorithms (in rank
            order) whose ranks span less than the critical difference; a critical-difference
            diagram joins each with a bar (Demšar Fig. 1).
        """
        ranks = self.ranks.to_numpy(dtype=float)
        spans: list[tuple[int, int]] = []
        for start in range(len(ranks)):
            end = start
            while end + 1 < len(ranks) and ranks[end + 1] - ranks[start] < self.critical_difference:
                end += 1
            if end > start and not any(s <= start and end <= e for s, e in spans):
                spans.append((start, end))
        return [(float(ranks[s]), float(ranks[e])) for s, e in spans]


def friedman(table: pd.DataFrame, *, alpha: float = 0.05) -> FriedmanTest:
    """Rank algorithms over datasets and test that their average ranks are equal.

    Parameters
    ----------
    table
        One row per dataset (or dataset and attribute), one column per algorithm, each cell a
        score (higher is better; the mean over splits, say). Rows with a missing score are
        left out.
    alpha
        Level of the Nemenyi critical difference, CD = q_alpha sqrt(k (k + 1) / (6 N)), with
        q_alpha the studentized range quantile over sqrt 2 (Demšar's Eq. (5)).

    Returns
    -------
    FriedmanTest
        Average ranks, the test, and the critical difference.

    Examples
    --------
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import friedman
    >>> table = pd.DataFrame(
    ...     {
    ...         "lr": [0.80, 0.70, 0.90, 0.85],
    ...         "tree": [0.75, 0.65, 0.80, 0.84],
    ...         "nb": [0.70, 0.60, 0.85, 0.83],
    ...     },
    ...     index=["adult", "german", "ricci", "compas"],
    ... )
    >>> test = friedman(table)
    >>> test.ranks.to_dict()
    {'lr': 1.0, 'tree': 2.25, 'nb': 2.75}
    >>> round(test.pvalue, 3)
    0.039
    """
    complete = table.dropna()
    blocks, k = complete.shape
    if k < 3 or blocks < 2:
        raise ValueError(
            f"the Friedman test needs at least three algorithms and two datasets, got {k} "
            f"algorithms on {blocks} complete dataset{'s' * (blocks != 1)}"
        )
    ranks = complete.rank(axis=1, ascending=False).mean().sort_values()
    statistic, pvalue = stats.friedmanchisquare(*complete.to_numpy().T)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    difference = float(q * np.sqrt(k * (k + 1) / (6 * blocks)))
    return FriedmanTest(ranks, float(statistic), float(pvalue), difference, blocks, alpha)


def _by_split(measures: pd.DataFrame, measure: str, by: str = "name") -> pd.DataFrame:
    """Scores with one row per split and one column per algorithm (its label, or ``by``)."""
    scored = scores(measures, measure)
    keys = ["dataset", "sensitive_attribute", "variant"]
    if len(scored.drop_duplicates(keys)) > 1:
        raise ValueError(
            "compare one dataset, sensitive attribute and variant at a time; got "
            f"{len(scored.drop_duplicates(keys))} of them"
        )
    return scored.pivot_table(index="split_id", columns=by, values="score")


def intervals(
    measures: pd.DataFrame,
    measure: str,
    *,
    test_to_train: float = TEST_TO_TRAIN,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Return each algorithm's mean score, its corrected interval, and how it compares to the best.

    Parameters
    ----------
    measures
        Test measures of one dataset, sensitive attribute and variant.
    measure
        The measure (its score: higher is better).
    test_to_train
        n_test / n_train of the splits.
    confidence
        Level of the intervals.

    Returns
    -------
    pandas.DataFrame
        Indexed by algorithm (label), best first: ``mean``, ``ci_low``, ``ci_high`` (the
        corrected interval of the mean score, as :func:`corrected_ttest` widens it) and
        ``worse_than_best`` (whether the corrected test, Holm-adjusted over the algorithms,
        finds the algorithm worse than the best one at 1 - ``confidence``; false where the two
        share fewer than two splits, so that no test is possible).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from faircompare.analysis.compare import intervals
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [("lr", split, 0.75 + 0.01 * rng.standard_normal()) for split in range(5)]
    ...     + [("tree", split, 0.70 + 0.01 * rng.standard_normal()) for split in range(5)],
    ...     columns=["algorithm", "split_id", "value"],
    ... )
    >>> measures = runs.assign(
    ...     key=runs.index.astype(str), dataset="german", sensitive_attribute="sex",
    ...     variant="numerical+binary", setting="defaults", measure="accuracy", group="",
    ... )
    >>> intervals(measures, "accuracy").round(3)
           mean  ci_low  ci_high  worse_than_best
    lr    0.750   0.740    0.760            False
    tree  0.701   0.676    0.727             True
    """
    by_split = _by_split(measures, measure)
    rows = {}
    for name in by_split.columns:
        values = by_split[name].dropna().to_numpy()
        if len(values) < 2:
            continue
        # An interval of one algorithm's mean: the test of its values against 0, shifted.
        test = corrected_ttest(values, test_to_train, confidence=confidence)
        low, high = np.clip(test.interval, *score_bounds(measure))
        rows[name] = {"mean": test.mean, "ci_low": low, "ci_high": high}
    if not rows:  # no algorithm with two splits or more
        return pd.DataFrame(columns=["mean", "ci_low", "ci_high", "worse_than_best"])
    table = pd.DataFrame.from_dict(rows, orient="index").sort_values("mean", ascending=False)
    best = table.index[0]
    scores, column = by_split.to_numpy(dtype=float), by_split.columns.get_loc
    differences = {name: _differences(scores, column(best), column(name)) for name in table.index}
    others = [name for name in table.index if name != best and len(differences[name]) >= 2]
    pvalues = [corrected_ttest(differences[name], test_to_train).pvalue for name in others]
    worse = dict(zip(others, holm(pvalues) < 1 - confidence, strict=True)) if others else {}
    return table.assign(worse_than_best=[worse.get(name, False) for name in table.index])
