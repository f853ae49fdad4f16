"""Exceptions raised by faircompare; the CLI prints their message without a traceback."""

__all__ = [
    "BadNameError",
    "ChoiceError",
    "ConfigError",
    "DataFetchError",
    "DegeneratePredictionsWarning",
    "FaircompareError",
    "SettingsError",
    "SpecError",
    "TooLargeError",
]


class FaircompareError(Exception):
    """Base class of every error faircompare raises on purpose."""


class ChoiceError(FaircompareError, ValueError):
    """A name (dataset, variant, attribute, ...) that is not one of the valid choices."""


class BadNameError(FaircompareError, ValueError):
    """A name (of an algorithm, a plugin, a dataset or an attribute) that breaks the naming rule."""


class SettingsError(FaircompareError, ValueError):
    """A setting (of a study, a report, a command) of the wrong kind, out of range or unusable."""


class ConfigError(SettingsError):
    """A study's settings with unknown keys, unknown names or values of the wrong kind."""


class SpecError(FaircompareError, ValueError):
    """A dataset specification that is malformed or does not fit its data."""


class DataFetchError(FaircompareError, OSError):
    """A raw data file that could not be obtained from any source."""


class TooLargeError(FaircompareError, ValueError):
    """Data that would not fit in memory the way it is asked for; the message names the limit."""


class DegeneratePredictionsWarning(UserWarning):
    """A run that predicts one class for every test row, or for every row of a group.

    Its measures that divide by predicted positives or negatives are undefined, and the ones
    that are defined say little: a run is stored with this warning among its ``warnings``, and
    the report lists it beside the failures.
    """


#: Characters of an error message shown (terminal, report) or stored as a run's ``error``.
LONGEST_MESSAGE = 2_000
#: Characters of a traceback stored: its start and its end (the exception's line) are kept.
LONGEST_TRACEBACK = 100_000


def cut_message(text: str, limit: int = LONGEST_MESSAGE, *, keep_end: bool = False) -> str:
    """Cut a text that quotes a huge value (a 30 MB exception message, say) to ``limit``.

    Parameters
    ----------
    text
        The message or traceback.
    limit
        The most characters of the result, the note on the cut included.
    keep_end
        Keep the text's first and last halves (a traceback's last line names the error),
        rather than its beginning.

    Returns
    -------
    str
        ``text`` as it is when short enough, else cut, with the number of characters it had;
        cutting the result again leaves it as it is.
    """
    if len(text) <= limit:
        return text
    note = f"... (message cut: {len(text):,} characters)"
    room = max(limit - len(note) - 2, 0)  # the note within the limit: cutting twice is once
    if keep_end:
        return f"{text[: room // 2]}\n{note}\n{text[len(text) - room // 2 :]}"
    return f"{text[:room]}{note}"
