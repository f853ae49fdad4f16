"""Declarative dataset specifications, built in or read from a user's TOML file.

A :class:`DatasetSpec` says where a raw table comes from and every rule that turns it into the
cleaned frame the benchmark uses (Friedler et al. 2019, §4): which column is the label and which
value is positive, the sensitive attributes and their privileged values, the categorical features,
and the cleaning steps (renames, recodings, thresholds, derived columns, row filters, missing-value
indicators). The rules are data, so a user's dataset gets exactly the same treatment as the
paper's five.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from faircompare._validation import check_name, quoted
from faircompare.bibliography import Reference, reference_from
from faircompare.datasets.expressions import check_expression
from faircompare.exceptions import BadNameError, SpecError

_SHA256 = re.compile(r"[0-9a-f]{64}")
_URL_SCHEMES = ("https", "http")  # a file:// URL would read outside the cache and the mirror


@dataclass(frozen=True)
class Threshold:
    """Replace a numeric column by one of two values, split at ``at``.

    Values below ``at`` become ``below``; values at or above it become ``above``
    (German credit: ``age`` >= 25 is "adult", else "youth").

    Attributes
    ----------
    at
        The threshold.
    below, above
        The values of rows below it, and at or above it.
    """

    at: float
    below: Any
    above: Any


@dataclass(frozen=True)
class DatasetSpec:
    """Everything needed to fetch and clean one dataset.

    Parameters
    ----------
    name
        Identifier used on the command line and in results: letters and digits in words
        joined by ``-`` or ``_``, at most 64 characters, like every sensitive attribute's name
        (checked when the spec is made; a :class:`SpecError` states the rule).
    file
        File name of the raw CSV (a pinned download when ``url`` is set, else a local path).
    label
        Column holding the outcome; after cleaning it holds 1 for ``positive_label``, else 0.
    positive_label
        The favourable outcome value (after recodings and derivations).
    sensitive
        Sensitive attributes, in the order used to name their combination (``race-sex``).
    privileged
        Privileged value of each sensitive attribute.
    categorical
        Categorical feature columns (one-hot encoded by the numerical variants).
    keep
        Feature columns to keep (label and sensitive attributes are always kept); ``None`` keeps
        every column.
    missing
        Values that mean "missing"; rows holding one in a kept column are dropped.
    url
        Canonical download address; requires ``sha256``.
    sha256
        Expected SHA-256 of the raw file, checked on every load.
    rename
        Columns to rename, ``{old: new}``, applied first.
    recode
        Value mappings per column, ``{column: {old: new}}``.
    thresholds
        Numeric columns replaced by one of two values (see :class:`Threshold`).
    derive
        New or replaced columns computed by expressions, ``{column: expression}``.
    filters
        Row filters as expressions; a row is kept when all hold. Expressions are data, not
        code: columns, literals, comparisons, ``in`` lists, arithmetic and boolean operators
        only (see :mod:`faircompare.datasets.expressions`).
    description
        One line describing the data, for listings.
    references
        The works to cite for the data (its source, its documentation), as
        :class:`~faircompare.bibliography.Reference` objects or, in a TOML spec, tables of
        their fields; ``faircompare cite`` lists them for every study that used the dataset.
    """

    name: str
    file: str
    label: str
    positive_label: Any
    sensitive: tuple[str, ...]
    privileged: Mapping[str, Any]
    categorical: tuple[str, ...] = ()
    keep: tuple[str, ...] | None = None
    missing: tuple[Any, ...] = ()
    url: str | None = None
    sha256: str | None = None
    rename: Mapping[str, str] = field(default_factory=dict)
    recode: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)
    thresholds: Mapping[str, Threshold] = field(default_factory=dict)
    derive: Mapping[str, str] = field(default_factory=dict)
    filters: tuple[str, ...] = ()
    description: str = ""
    references: tuple[Reference, ...] = ()

    def __post_init__(self) -> None:
        for name in ("sensitive", "categorical", "missing", "filters"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        try:
            references = tuple(map(reference_from, self.references))
        except (TypeError, ValueError) as error:
            raise SpecError(f"dataset spec {quoted(self.name)}: 'references': {error}") from None
        object.__setattr__(self, "references", references)
        if self.keep is not None:
            object.__setattr__(self, "keep", tuple(self.keep))
        self._check()

    def _check(self) -> None:
        where = f"dataset spec {quoted(self.name)}"
        for name in ("name", "file", "label"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise SpecError(f"{where}: {name!r} must be a non-empty string, got {value!r}")
        if not self.sensitive or not all(isinstance(s, str) and s for s in self.sensitive):
            raise SpecError(
                f"{where}: 'sensitive' must list at least one column name, got {self.sensitive!r}"
            )
        try:  # names that reach file names, pages, tables and the store
            check_name(self.name, what="dataset name")
            for attribute in self.sensitive:
                check_name(attribute, what="sensitive attribute")
        except BadNameError as error:
            raise SpecError(f"{where}: {error}") from None
        if self.label in self.sensitive or self.label == self.combined:
            raise SpecError(
                f"{where}: the label {self.label!r} is also a sensitive attribute; a model "
                "would be given the answer (name another column as 'label' or 'sensitive')"
            )
        if set(self.privileged) != set(self.sensitive):
            missing = [s for s in self.sensitive if s not in self.privileged]
            extra = [p for p in self.privileged if p not in self.sensitive]
            raise SpecError(
                f"{where}: 'privileged' must give one value per sensitive attribute "
                f"{list(self.sensitive)}; missing {missing}, not sensitive {extra}"
            )
        overlap = [c for c in self.categorical if c == self.label or c in self.sensitive]
        if overlap:
            raise SpecError(
                f"{where}: {overlap} listed as categorical features, but they are the label or "
                "sensitive attributes, which are never features"
            )
        if self.keep is not None and (dropped := set(self.categorical) - set(self.keep)):
            raise SpecError(f"{where}: categorical features {sorted(dropped)} are not in 'keep'")
        if self.url is not None and Path(self.file).name != self.file:
            raise SpecError(
                f"{where}: with a 'url', 'file' names the file in the data cache and must be a "
                f"plain file name (no folder, no '..'), got {self.file!r}"
            )
        if self.url is not None and urlsplit(self.url).scheme not in _URL_SCHEMES:
            raise SpecError(
                f"{where}: 'url' must start with https:// or http://, got {self.url!r} (a local "
                "file is named by 'file' alone)"
            )
        if self.url is not None and self.sha256 is None:
            raise SpecError(f"{where}: a 'url' needs the file's 'sha256' so downloads are verified")
        if self.sha256 is not None and not _SHA256.fullmatch(self.sha256):
            raise SpecError(f"{where}: 'sha256' must be 64 lowercase hex digits: {self.sha256!r}")
        for expression in (*self.derive.values(), *self.filters):
            try:
                check_expression(expression)
            except SpecError as error:
                raise SpecError(f"{where}: {error}") from error

    @property
    def combined(self) -> str | None:
        """Name of the combined sensitive attribute (``race-sex``), or None with one attribute."""
        return "-".join(self.sensitive) if len(self.sensitive) > 1 else None

    @property
    def sensitive_attributes(self) -> tuple[str, ...]:
        """The sensitive attributes followed by their combination, when there is one."""
        return self.sensitive + ((self.combined,) if self.combined else ())

    def privileged_value(self, attribute: str) -> Any:
        """Return the privileged value of a sensitive attribute, the combined one included.

        Parameters
        ----------
        attribute
            A sensitive attribute, or the combined one (``race-sex``).

        Returns
        -------
        Any
            Its privileged value (``White-Male`` for a combined attribute).
        """
        if attribute == self.combined:
            return "-".join(str(self.privileged[s]) for s in self.sensitive)
        return self.privileged[attribute]

    def describe(self) -> dict[str, Any]:
        """Summarise what the spec says, without its data (:meth:`Dataset.describe` adds that).

        Returns
        -------
        dict
            ``name``, ``label``, ``positive_label``, ``sensitive`` (each attribute's
            privileged value) and ``description``.
        """
        positive = self.positive_label
        return {
            "name": self.name,
            "label": self.label,
            "positive_label": positive.item() if hasattr(positive, "item") else positive,
            "sensitive": {
                attribute: {"privileged": self.privileged_value(attribute)}
                for attribute in self.sensitive_attributes
            },
            "description": self.description,
        }


_TOML_FIELDS = {f.name for f in fields(DatasetSpec)}
_REQUIRED = {"name", "file", "label", "positive_label", "sensitive", "privileged"}


def read_spec(path: str | Path) -> DatasetSpec:
    """Read a user's dataset specification from a TOML file.

    The keys are the fields of :class:`DatasetSpec`; ``thresholds`` are tables with keys
    ``at``, ``below`` and ``above``. A relative ``file`` is resolved against the TOML file's
    folder. Example::

        name = "loans"
        file = "loans.csv"
        label = "repaid"
        positive_label = "yes"
        sensitive = ["sex"]
        categorical = ["purpose"]

        [privileged]
        sex = "male"

    Parameters
    ----------
    path
        The TOML file.

    Returns
    -------
    DatasetSpec
        The validated specification.

    Raises
    ------
    SpecError
        If the file is not valid TOML, has unknown or missing keys, or describes an
        inconsistent dataset. Whether the CSV fits the spec is checked when it is loaded.
    """
    path = Path(path)
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SpecError(f"cannot read dataset spec {path}: {error}") from error
    unknown = sorted(set(table) - _TOML_FIELDS)
    if unknown:
        raise SpecError(
            f"{path}: unknown key(s) {unknown}; valid keys: {', '.join(sorted(_TOML_FIELDS))}"
        )
    absent = sorted(_REQUIRED - set(table))
    if absent:
        raise SpecError(f"{path}: missing required key(s) {absent}")
    try:
        table["thresholds"] = {
            column: Threshold(**rule) for column, rule in table.get("thresholds", {}).items()
        }
    except TypeError as error:
        message = f"{path}: each threshold needs the keys 'at', 'below' and 'above': {error}"
        raise SpecError(message) from error
    if table.get("url") is None and isinstance(table["file"], str):
        table["file"] = str((path.parent / table["file"]).resolve())
    try:
        return DatasetSpec(**table)
    except SpecError as error:
        raise SpecError(f"{path}: {error}") from error
