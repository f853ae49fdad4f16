"""The names a user chooses among, defined apart from the code that uses them.

The command line offers these as choices and the configuration checks them; reading them here
loads nothing but this module, so ``faircompare --help`` answers at once. Each is re-exported
where it belongs (:data:`faircompare.preprocessing.VARIANTS`,
:data:`faircompare.algorithms.base.FAMILIES`, :data:`faircompare.results.export.FORMATS`).
"""

__all__ = ["ALGORITHM_ENTRY_POINTS", "AUDIT_ENTRY_POINTS", "FAMILIES", "FORMATS", "VARIANTS"]

#: The preprocessing variants, in the paper's order: ``original``, ``numerical`` and
#: ``numerical+binary``.
VARIANTS: tuple[str, ...] = ("original", "numerical", "numerical+binary")

#: Where an intervention acts; :attr:`FairEstimator.family` is one of them.
FAMILIES = ("baseline", "pre-processing", "in-processing", "post-processing", "unspecified")

#: The file formats of ``faircompare export``.
FORMATS = ("csv", "parquet")

#: The entry-point group through which an installed package registers algorithms.
ALGORITHM_ENTRY_POINTS = "faircompare.algorithms"

#: The entry-point group through which an installed package registers audits.
AUDIT_ENTRY_POINTS = "faircompare.audits"
