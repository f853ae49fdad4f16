"""faircompare: a benchmark of fairness interventions, auditing every trained model.

The version is written here only; the package metadata, the documentation and the citation file
read it from here (``tests/test_release.py`` checks that they agree).
"""

#: The installed release of faircompare (semantic versioning).
__version__ = "0.3.0"

__all__ = ["__version__"]
