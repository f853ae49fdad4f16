"""A study's ready-made settings: ``quick``, ``default``, ``tuned``, ``paper`` and others.

The profiles are ``quick``, ``default``, ``tuned``, ``paper``, ``modern`` and ``extended``:
``faircompare list profiles`` shows each one's settings, and ``faircompare run --dry-run
--profile NAME`` its runs and their expected time.
"""

from __future__ import annotations

from dataclasses import replace

from faircompare.config.settings import BenchmarkConfig
from faircompare.datasets.modern import MODERN

__all__ = ["MODERN_ALGORITHMS", "PAPER_ALGORITHMS", "PROFILES", "TUNED_ALGORITHMS", "TUNED_BUDGETS"]

# Friedler et al.'s twelve algorithms (§5): the baselines, the four Feldman pipelines, Calders'
# two naive Bayes, Kamishima's prejudice remover and Zafar's two constrained models.
PAPER_ALGORITHMS = (
    "svm", "decision-tree", "gaussian-nb", "logistic-regression",
    "feldman-svm", "feldman-decision-tree", "feldman-gaussian-nb", "feldman-logistic-regression",
    "calders", "kamishima", "zafar-fairness", "zafar-accuracy",
)  # fmt: skip
# The algorithms that scale to 10^5-10^6 rows: the linear, tree and boosted baselines, Feldman's
# repair before two of them, Kamishima's regulariser, fairlearn's post-processing, and the
# post-processed frontiers every intervention is compared with at equal fairness.
MODERN_ALGORITHMS = (
    "logistic-regression", "gradient-boosting", "decision-tree", "gaussian-nb",
    "feldman-logistic-regression", "feldman-gradient-boosting", "kamishima",
    "threshold-optimizer", "unprocessed-gradient-boosting", "unprocessed-logistic-regression",
)  # fmt: skip
#: The algorithms the ``tuned`` profile tunes: Friedler et al.'s twelve, the boosted baseline,
#: two of fairlearn's reductions and its post-processing, and the two frontiers the yardstick is
#: chosen from (the neural networks and the slowest AIF360 methods would take most of its
#: hours: ``faircompare run --profile tuned --algorithm ...`` adds them).
TUNED_ALGORITHMS = (
    *PAPER_ALGORITHMS, "gradient-boosting", "reductions-eg-dp", "reductions-gs-dp",
    "threshold-optimizer", "unprocessed-logistic-regression", "unprocessed-gradient-boosting",
)  # fmt: skip
#: The ``tuned`` profile's budgets: a trial (one random setting), ten and thirty, the range of
#: the budgets Aequitas Flow and ManyFairHPO compare.
TUNED_BUDGETS = (1, 10, 30)
_STUDY = BenchmarkConfig(
    sensitive_attributes="all", variants="supported", grid=True, tune=True, splits=10
)

#: The ready-made configurations by name: ``quick``, ``default``, ``paper``, ``modern`` and
#: ``extended``.
PROFILES: dict[str, BenchmarkConfig] = {
    # Friedler et al.'s study as they ran it (§5, §7): their twelve algorithms over their grids,
    # every dataset, attribute (combined ones too) and variant, tuned on validation data.
    "paper": replace(_STUDY, algorithms=PAPER_ALGORITHMS),
    # The study with every other registered algorithm: reductions, post-processing, AIF360's and
    # fairlearn's methods, the torch models and plugins.
    "extended": replace(_STUDY, algorithms="all"),
    # Today's datasets at today's scale (FFB, ABCFair): ACSIncome, law school, bank marketing and
    # credit default, every attribute (ACSIncome's nine races and eighteen race-sex groups in
    # the numerical variant) with the algorithms that scale, audited. Runs get half an hour: the
    # longest measured here took 346 s (Feldman + gradient boosting on ACSIncome's eighteen
    # race-sex groups, with the split's audit setups).
    "modern": BenchmarkConfig(
        datasets=tuple(MODERN),
        sensitive_attributes="all",
        variants="supported",
        algorithms=MODERN_ALGORITHMS,
        timeout=1800.0,
    ),
    # Every dataset and algorithm with default parameters, on numerical+binary; one sensitive
    # attribute per dataset, as in the paper's overall results (§7). Five splits, and the
    # frontier's points measured but not audited: ten minutes on a 2-core laptop.
    "default": BenchmarkConfig(splits=5, audit_frontier=False),
    # The default study's datasets with every method tuned at the same budgets (1, 10 and 30
    # trials of a seeded TPE search on validation rows, the yardstick's frontiers too), beside
    # the runs at their defaults: which of the default study's conclusions survive equal tuning.
    "tuned": BenchmarkConfig(
        splits=5, audit_frontier=False, algorithms=TUNED_ALGORITHMS, tuning_budgets=TUNED_BUDGETS
    ),
    # Minutes: two small datasets, a few algorithms of each kind, a short grid, two splits, and
    # the post-processed frontier they are compared with at equal fairness.
    "quick": BenchmarkConfig(
        datasets=("ricci", "german"),
        sensitive_attributes="first",
        algorithms=(
            "logistic-regression",
            "decision-tree",
            "feldman-logistic-regression",
            "kamishima",
            "calders",
            "zafar-fairness",
            "reductions-gs-dp",
            "unprocessed-logistic-regression",
        ),  # fmt: skip
        grid=True,
        tune=True,
        splits=2,
    ),
}
