"""Exceptions raised by faircompare; the CLI prints their message without a traceback."""

__all__ = [
    "ChoiceError",
    "DataFetchError",
    "FaircompareError",
    "SpecError",
    "TooLargeError",
]


class FaircompareError(Exception):
    """Base class of every error faircompare raises on purpose."""


class ChoiceError(FaircompareError, ValueError):
    """A name (dataset, variant, attribute, ...) that is not one of the valid choices."""


class SpecError(FaircompareError, ValueError):
    """A dataset specification that is malformed or does not fit its data."""


class DataFetchError(FaircompareError, OSError):
    """A raw data file that could not be obtained from any source."""


class TooLargeError(FaircompareError, ValueError):
    """Data that would not fit in memory the way it is asked for; the message names the limit."""
