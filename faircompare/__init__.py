"""faircompare: a benchmark of fairness interventions, auditing every trained model."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("faircompare")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"
