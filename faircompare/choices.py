"""The names a user chooses among, and the defaults the command line shows, apart from the code.

The command line offers these as choices and the configuration checks them; reading them here
loads nothing but this module, so ``faircompare --help`` answers at once. Each is re-exported
where it belongs (:data:`faircompare.preprocessing.VARIANTS`,
:data:`faircompare.citing.STYLES`,
:data:`faircompare.algorithms.base.FAMILIES`, :data:`faircompare.results.export.FORMATS`).
"""

__all__ = [
    "ALGORITHM_ENTRY_POINTS",
    "AUDIT_ALPHA",
    "AUDIT_ENTRY_POINTS",
    "CITATION_STYLES",
    "COLUMN",
    "DEFAULT_PERMUTATIONS",
    "FAMILIES",
    "FIGURE_KINDS",
    "FLIPSET_MIN_ROWS",
    "FONT_SIZE",
    "FORMATS",
    "LEGENDS",
    "MIN_RATE_EVENTS",
    "PAGE",
    "PAGE_HEIGHT",
    "RESAMPLING_RISK",
    "TABLE_FIRST_ROWS",
    "TABLE_KINDS",
    "TUNING_MEASURES",
    "TUNING_OBJECTIVES",
    "TUNING_SAMPLERS",
    "VARIANTS",
]

#: The files ``faircompare cite`` writes (:data:`faircompare.citing.STYLES`): a BibTeX ``.bib``
#: (natbib's commands), a biblatex ``.bib``, or a ``CITATION.cff``.
CITATION_STYLES = ("bibtex", "biblatex", "cff")

#: The preprocessing variants, in the paper's order: ``original``, ``numerical`` and
#: ``numerical+binary``.
VARIANTS: tuple[str, ...] = ("original", "numerical", "numerical+binary")

#: Where an intervention acts; :attr:`FairEstimator.family` is one of them.
FAMILIES = ("baseline", "pre-processing", "in-processing", "post-processing", "unspecified")

#: The fewest test rows of a run whose FlipTest flipset the flipset figure shows: the largest
#: flipset of Ricci's 40 test people is a handful of them.
FLIPSET_MIN_ROWS = 300

#: The figure kinds of ``faircompare figure`` (:func:`faircompare.analysis.paper.draw`): what
#: each shows, and what its ``x`` and ``y`` choose. Each draws a panel per dataset, attribute and
#: variant selected (the correlations and critical-difference kinds pool them).
FIGURE_KINDS: dict[str, tuple[str, str]] = {
    "tradeoff": (
        "accuracy against a fairness gap (a ratio r as 1 - min(r, 1/r)), a point per run, and "
        "the Pareto front; filled: the run's demographic-parity test is significant (Holm)",
        "x: the fairness measure (DIbinary), y: the accuracy measure (accuracy)",
    ),
    "stability": (
        "each algorithm's mean over splits and a rectangle of +/- one sd (Friedler et al. "
        "Fig. 7); a ratio measure as its gap",
        "x (CV, as in Fig. 7), y (accuracy)",
    ),
    "intervals": (
        "each algorithm's mean score and corrected 95% interval over splits; hollow: "
        "significantly worse than the best (Holm)",
        "x: the measure (accuracy), or --measure several, a panel each; a fairness measure "
        "by its gap, negated",
    ),
    "equal-fairness": (
        "every run against the post-processed frontier of the best unconstrained model (a thin "
        "line per split, their mean black), a panel per constraint (Cruz & Hardt 2024)",
        "fixed: each constraint's violation, and accuracy",
    ),
    "critical-difference": (
        "Demsar's diagram: average ranks over the selected datasets and attributes, a bar "
        "joining the algorithms the Nemenyi test cannot tell apart (Demsar 2006); one variant",
        "x: the measure ranked (accuracy)",
    ),
    "correlations": (
        "Pearson correlations of measures across the selected runs, ordered by clustering "
        "(Friedler et al. Fig. 3)",
        "--measure: the measures shown (accuracy, TPR, TNR, BCR, DIbinary, CV, sensitive-TPR, "
        "sensitive-calibration-)",
    ),
    "audits": (
        "each algorithm's share of splits whose audits reject, a cell per test, and the shares "
        "of verdicts left undecided (a heatmap)",
        "fixed: the tests",
    ),
    "runs": (
        "two measures of every run shown, a point per run, as stored (Friedler et al. Figs. 4-5: "
        "calibration against TPR, each conditioned on the groups)",
        "x (sensitive-TPR), y (sensitive-calibration-)",
    ),
    "individual": (
        "each run's individual-fairness statistic (T_n, or T~_n where the loss ratio is not "
        "defined) against delta, a row per algorithm, with the share rejecting (Maity et al.)",
        "fixed: the statistic, on a log axis",
    ),
    "pairs": (
        "one measure against others, a panel each, every selected run pooled (Friedler et al. "
        "Fig. 4: CV against the comparative TPR and TNR differences)",
        "x (CV), --measure: the measures up (comparative-sensitive-TPR-diff, "
        "comparative-sensitive-TNR-diff)",
    ),
    "preprocessing": (
        "a measure under the numerical variant (across) and numerical+binary (up), a point per "
        "algorithm and split, a panel per dataset and attribute (Friedler et al. Fig. 2)",
        "x: the measure (accuracy)",
    ),
    "sweep": (
        "each algorithm run over a grid of one parameter, a point per run coloured by its value, "
        "a panel per algorithm (Friedler et al. Fig. 8)",
        "x (DIbinary), y (accuracy)",
    ),
    "attributes": (
        "a measure of each algorithm under each sensitive attribute, a point per split, a "
        "panel per dataset of two attributes or more (Friedler et al. Fig. 9)",
        "x: the measure (CV)",
    ),
    "pvalues": (
        "the histogram of a permutation test's p-values over the selected runs, against the "
        "uniform a valid test gives under the null (DiCiccio et al. Fig. 1)",
        "x: the metric tested (positive_rate: demographic parity)",
    ),
    "threshold": (
        "the selected scored run the test rejects most: its gap between groups across decision "
        "thresholds against the permutation 95th percentile (DiCiccio et al. Fig. 2)",
        "x: the metric tested (positive_rate)",
    ),
    "flipset": (
        "the transparency report of the largest FlipTest flipset among the selected runs of "
        f"{FLIPSET_MIN_ROWS} test rows or more: the features that move most (Black et al.)",
        "x: the flipset (F+, or F-)",
    ),
    "budget": (
        "each tuned method's mean test score and corrected 95% interval at its defaults and at "
        "each tuning budget, a line per method (a fairness measure by its gap): where the "
        "lines cross, the ranking changed with the budget",
        "y: the measure (accuracy and DIbinary's gap), or --measure several, a panel each",
    ),
}

#: How a tuner draws its trials (:class:`faircompare.benchmark.trials.Tuning`): Optuna's seeded
#: TPE sampler (its first ten trials at random), or at random.
TUNING_SAMPLERS = ("tpe", "random")

#: What a tuner maximises on the validation rows: accuracy; accuracy within a fairness gap's
#: bound; or accuracy and the gap together, the Pareto set's best trade-off chosen.
TUNING_OBJECTIVES = ("accuracy", "constrained", "pareto")

#: The fairness measures whose gap (:meth:`faircompare.measures.Measure.gap`) a tuning objective
#: may bound: the paper's ratios and scores, and fairlearn's and AIF360's differences between
#: groups (``tests/benchmark/test_trials.py`` checks each is a fairness measure of the catalogue).
TUNING_MEASURES = (
    "DIbinary", "DIavgall", "CV", "CVavgall", "demographic_parity_difference",
    "demographic_parity_ratio", "equalized_odds_difference", "equal_opportunity_difference",
    "average_odds_difference",
)  # fmt: skip

#: Inches: the width of a column of a two-column paper, a figure's default width.
COLUMN = 3.5
#: Inches: the width of the page of a two-column paper.
PAGE = 7.0
#: Inches: the tallest figure a paper's page holds, its caption below it (the text block of
#: ACM's and IEEE's two-column templates is 9 to 9.5 in tall).
PAGE_HEIGHT = 9.0
#: The rows a table of the report's page shows until the reader asks for all of them (a filter
#: or a sort reads every row): a configuration's measures and audits tables whole, the pairwise
#: comparisons (hundreds of pairs) from the pairs told apart.
TABLE_FIRST_ROWS = 40
#: Points: a figure's default text size (ticks and legend one point less).
FONT_SIZE = 8.0
#: Where a figure's legend goes (the first is the default): below the panels, right of them,
#: inside the first panel, or nowhere.
LEGENDS = ("below", "right", "inside", "off")

#: The largest figure side ``faircompare figure`` draws, in inches (a poster's).
MOST_INCHES = 50.0
#: The most pixels of a PNG ``faircompare figure`` writes (400 MB of colours).
MOST_PIXELS = 100_000_000

#: The table kinds of ``faircompare table`` (:func:`faircompare.analysis.paper_tables.table`).
TABLE_KINDS: dict[str, str] = {
    "measures": "each algorithm's mean ± sd over splits of key measures (--measure to choose); "
    "bold: each column's best",
    "intervals": "each algorithm's mean score with its corrected 95% interval over splits "
    "(--measure, default accuracy); bold: the highest mean",
    "equal-fairness": "each algorithm's accuracy minus the post-processed frontier's at its own "
    "violation, with its interval, share of splits above and verdict (Cruz & Hardt 2024)",
    "audits": "each algorithm's share of splits whose audits reject, and FlipTest's rates",
}

#: The file formats of ``faircompare export``.
FORMATS = ("csv", "parquet")

#: The entry-point group through which an installed package registers algorithms.
ALGORITHM_ENTRY_POINTS = "faircompare.algorithms"

#: The entry-point group through which an installed package registers audits.
AUDIT_ENTRY_POINTS = "faircompare.audits"

#: The fewest rows of a rate's denominator in a group (a TPR's positives), and for a ratio of
#: rates the fewest events of its numerator (a disparate impact's predicted positives), below
#: which the report flags a cell (:mod:`faircompare.analysis.flags`): a rate of k events has a
#: relative standard error near 1 / sqrt(k), a third at 10.
MIN_RATE_EVENTS = 10

#: The most permutations a sequential permutation test draws by default (``--permutations``;
#: what it leaves undecided: ``docs/measured/undecided_verdicts.csv``).
DEFAULT_PERMUTATIONS = 300_000

#: The level whose verdicts the sequential audits decide (the report's level too).
AUDIT_ALPHA = 0.05

#: The resampling risk of a run's family of sequential permutation tests: the chance that a
#: verdict differs from the one every permutation would give.
RESAMPLING_RISK = 1e-3
