"""Write ``across_datasets.csv`` beside this file: how tests of one difference across datasets err.

Two algorithms are compared over k = 5 datasets, as the ``default`` study compares them: on
each dataset, J = 5 splits whose per-split differences are correlated by the overlap of their
training sets (correlation 1/3, the benchmark's 2/3 : 1/3 splits, so the corrected variance
s^2 (1/J + 1/2) is unbiased for the mean's), each dataset's true difference the pooled one plus
a between-dataset deviation of standard deviation tau. The per-split standard deviations are
equal (0.01 on each dataset) or as unequal as the ``default`` study's accuracy differences
(0.05, 0.02, 0.01, 0.01, 0.004: Ricci's 40 test rows to Adult's 10,054; a dataset's test rows
are taken as proportional to its inverse variance). Each test reads the five datasets' mean
differences and corrected variances (and their test rows):

- the report's test, :func:`faircompare.analysis.compare.combined_test`: each dataset's
  corrected t-test, combined by Stouffer's Z weighted by the square roots of the test rows;
- the random-effects tests of a mean difference over a population of datasets (DerSimonian and
  Laird's tau^2): their normal test (DerSimonian & Laird 1986), Hartung and Knapp's t test
  (IntHout et al. 2014), and its modification (Röver et al. 2015), as statsmodels'
  ``combine_effects`` computes them;
- the t test of the five mean differences, unweighted;
- Wilcoxon's signed-rank test of the five mean differences, Demšar's (2006) test of two
  classifiers over datasets (with five, its smallest two-sided p-value is 1/16).

The rejection rate at 0.05 is each test's level where its null holds: no difference on any
dataset (tau 0, pooled difference 0) for every test; a zero mean over a population of
datasets (tau 0.01, pooled difference 0) for the random-effects tests, the unweighted t test
and Wilcoxon's, where the combined test's rejections are of a real difference on the datasets
drawn. It is their power when the pooled difference is 0.01 or 0.02. The comparing guide quotes
the figures and the choice they make; the file's first line says when, on what machine and
under what load it was made.

    python docs/measured/across_datasets.py [--simulations 4000]
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import numpy as np
from audit_error_rates import Figure, rate, write  # the script beside this one
from scipy import stats

from faircompare.analysis.compare import combined_test

GUIDE = "docs/guide/comparing.md"
DATASETS, SPLITS = 5, 5
OVERLAP = 1 / 3  # correlation of two splits' differences: n_test / (n_test + n_train)
TEST_TO_TRAIN = 0.5
SPREADS = {"equal": (0.01,) * DATASETS, "unequal": (0.05, 0.02, 0.01, 0.01, 0.004)}
QUOTED = ((0.0, 0.0), (0.01, 0.0), (0.0, 0.01))  # the guide's table: unequal precision
TESTS = ("combined", "dersimonian-laird", "hksj", "modified hksj", "unweighted t", "wilcoxon")


def simulated(
    spread: tuple[float, ...], tau: float, pooled: float, rng: np.random.Generator
) -> np.ndarray:
    """Return the per-split differences of one study: a row per dataset, a column per split."""
    sd = np.asarray(spread)
    truth = pooled + tau * rng.standard_normal(DATASETS)
    shared = np.sqrt(OVERLAP) * rng.standard_normal((DATASETS, 1))  # the splits' overlap
    own = np.sqrt(1 - OVERLAP) * rng.standard_normal((DATASETS, SPLITS))
    return truth[:, None] + sd[:, None] * (shared + own)


def random_effects(means: np.ndarray, variances: np.ndarray, method: str) -> float:
    """Return a random-effects test's two-sided p-value of the mean over datasets."""
    fixed = 1 / variances
    k = len(means)
    q = np.sum(fixed * (means - np.sum(fixed * means) / fixed.sum()) ** 2)
    tau2 = max(0.0, (q - (k - 1)) / (fixed.sum() - np.sum(fixed**2) / fixed.sum()))
    w = 1 / (variances + tau2)
    mean, model = np.sum(w * means) / w.sum(), 1 / w.sum()
    if method == "dersimonian-laird":
        return float(2 * stats.norm.sf(abs(mean) / np.sqrt(model)))
    scale = np.sum(w * (means - mean) ** 2) / (k - 1)  # Hartung and Knapp's
    if method == "modified hksj":
        scale = max(scale, 1.0)
    return float(2 * stats.t.sf(abs(mean) / np.sqrt(scale * model), k - 1))


def pvalues(differences: np.ndarray, rows: np.ndarray) -> dict[str, float]:
    """Return each test's two-sided p-value of one study's difference."""
    means = differences.mean(axis=1)
    variances = differences.var(axis=1, ddof=1) * (1 / SPLITS + TEST_TO_TRAIN)
    found = {"combined": combined_test(list(differences), rows, TEST_TO_TRAIN).pvalue}
    for method in ("dersimonian-laird", "hksj", "modified hksj"):
        found[method] = random_effects(means, variances, method)
    found["unweighted t"] = float(stats.ttest_1samp(means, 0.0).pvalue)
    found["wilcoxon"] = float(stats.wilcoxon(means).pvalue)
    return found


def figures(simulations: int, seed: int = 0) -> list[Figure]:
    """Return every test's rejection rate at 0.05 in every design."""
    rng = np.random.default_rng(seed)
    found = []
    for (name, spread), tau, pooled in (
        (design, tau, pooled)
        for design in SPREADS.items()
        for tau in (0.0, 0.01)
        for pooled in (0.0, 0.01, 0.02)
    ):
        rows = 1 / np.asarray(spread) ** 2  # test rows, as the inverse variance
        rejected = dict.fromkeys(TESTS, 0)
        for _ in range(simulations):
            for test, p in pvalues(simulated(spread, tau, pooled, rng), rows).items():
                rejected[test] += p < 0.05
        design = f"{name} precision, tau {tau:g}, pooled difference {pooled:g}"
        measured = [rate(f"{_kind(test, tau, pooled)}: {test}", design, hits, simulations, GUIDE)
                    for test, hits in rejected.items()]  # fmt: skip
        quoted = name == "unequal" and (tau, pooled) in QUOTED
        found += [figure if quoted else replace(figure, quoted="") for figure in measured]
    return found


def _kind(test: str, tau: float, pooled: float) -> str:
    """Name a rejection rate: a test's level where its null holds, else its power."""
    if pooled:
        return "power"
    if tau and test == "combined":  # the datasets drawn do differ: its null is false
        return "rejections of a real difference on the datasets drawn"
    return "level"


def main() -> None:
    """Measure every test in every design and write the file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=4000)
    args = parser.parse_args()
    write(
        figures(args.simulations),
        "across_datasets.csv",
        f"python docs/measured/across_datasets.py --simulations {args.simulations}",
    )


if __name__ == "__main__":
    main()
