"""The works that define each measure of the catalogue, for the measures reference and citing.

The catalogue stays light to import; the references of its measures are gathered here, from the
modules that implement each work (Feldman et al.'s repair, Calders and Verwer's method, Hardt et
al.'s post-processing, the libraries), when a page or a citation asks for them.
"""

from __future__ import annotations

from faircompare.bibliography import FRIEDLER_2019, Reference

__all__ = ["HANLEY_MCNEIL_1982", "MATTHEWS_1975", "measure_references"]

#: The Matthews correlation coefficient (``MCC``).
MATTHEWS_1975 = Reference(
    key="matthews1975comparison",
    authors=("Matthews, Brian W.",),
    title="Comparison of the predicted and observed secondary structure of T4 phage lysozyme",
    year=1975,
    venue="Biochimica et Biophysica Acta (BBA) - Protein Structure",
    kind="article",
    volume="405(2)",
    pages="442-451",
    doi="10.1016/0005-2795(75)90109-9",
)

#: The AUC as the probability that a positive is ranked above a negative (``AUC``,
#: ``sensitive-AUC``).
HANLEY_MCNEIL_1982 = Reference(
    key="hanley1982meaning",
    authors=("Hanley, James A.", "McNeil, Barbara J."),
    title="The meaning and use of the area under a receiver operating characteristic (ROC) curve",
    year=1982,
    venue="Radiology",
    kind="article",
    volume="143(1)",
    pages="29-36",
    doi="10.1148/radiology.143.1.7063747",
)


def measure_references() -> dict[str, tuple[Reference, ...]]:
    """Return the works that define each measure of the catalogue, by the measure's name.

    Friedler et al. (2019, §6) define the accuracy measures, disparate impact and the
    Calders-Verwer score as they compute them, and the group-conditioned and comparative
    families; each measure also cites the work that introduced it, and a library's group
    metric the library that defines it.

    Returns
    -------
    dict
        ``{measure: references}`` for every measure of
        :data:`~faircompare.measures.MEASURES`, each with at least one reference.

    Examples
    --------
    >>> from faircompare.measures.references import measure_references
    >>> [reference.short for reference in measure_references()["DIbinary"]]
    ['Feldman et al. (2015)', 'Friedler et al. (2019)']
    """
    from faircompare.algorithms.calders import CALDERS_VERWER_2010
    from faircompare.algorithms.feldman.repair import FELDMAN_2015
    from faircompare.algorithms.libraries import AIF360, FAIRLEARN
    from faircompare.algorithms.reductions import AGARWAL_2018
    from faircompare.algorithms.thresholds import HARDT_2016
    from faircompare.measures.catalogue import MEASURES
    from faircompare.stats.individual.inference import MAITY_2021

    named = {
        "MCC": (MATTHEWS_1975,),
        "AUC": (HANLEY_MCNEIL_1982,),
        "sensitive-AUC": (HANLEY_MCNEIL_1982,),
        "DIbinary": (FELDMAN_2015, FRIEDLER_2019),
        "DIavgall": (FELDMAN_2015, FRIEDLER_2019),
        "CV": (CALDERS_VERWER_2010, FRIEDLER_2019),
        "CVavgall": (CALDERS_VERWER_2010, FRIEDLER_2019),
        "demographic_parity_difference": (AGARWAL_2018, FAIRLEARN),
        "demographic_parity_ratio": (AGARWAL_2018, FAIRLEARN),
        "equalized_odds_difference": (HARDT_2016, FAIRLEARN),
        "equal_opportunity_difference": (HARDT_2016, FAIRLEARN),
        "average_odds_difference": (AIF360, MAITY_2021),
    }
    return {name: named.get(name, (FRIEDLER_2019,)) for name in MEASURES}
