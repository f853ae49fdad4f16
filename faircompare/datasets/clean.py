"""Turn a raw table into the cleaned frame of a dataset, following its :class:`DatasetSpec`.

The steps, in order (Friedler et al. 2019, §4 and the paper's benchmark code): mark missing
values, rename columns, recode values, apply thresholds, derive columns, filter rows, keep the
listed columns, drop rows with missing values, check that the data fit the spec, encode the label
as 1 (positive) / 0, and add the combined sensitive attribute.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from faircompare._validation import quoted
from faircompare.datasets.expressions import columns_in, evaluate
from faircompare.datasets.spec import DatasetSpec
from faircompare.exceptions import SpecError, cut_message

_SHOWN = 5  # how many offending values an error message quotes


@dataclass(frozen=True, eq=False)
class Dataset:
    """A cleaned dataset: its spec and its frame.

    The frame holds the feature columns, every sensitive attribute (the combined one last) with
    its original values, and the label column encoded as 1 for the positive outcome, else 0.

    Attributes
    ----------
    spec
        The specification it was cleaned by.
    frame
        The cleaned rows.
    removed
        ``(step, rows)`` for each cleaning step that removed rows, in order: a filter (named by
        its expression), then the rows with a missing value (named by the columns that had one,
        with their counts).
    fingerprint
        A digest of the bytes the frame was read from and of the cleaning rules
        (:func:`faircompare.datasets.fingerprint`); empty for a frame cleaned from memory.
    """

    spec: DatasetSpec
    frame: pd.DataFrame
    removed: tuple[tuple[str, int], ...] = ()
    fingerprint: str = ""

    @property
    def name(self) -> str:
        """The dataset's name."""
        return self.spec.name

    @property
    def features(self) -> list[str]:
        """Feature columns: every column but the label and the sensitive attributes."""
        excluded = {self.spec.label, *self.spec.sensitive_attributes}
        return [column for column in self.frame.columns if column not in excluded]

    @property
    def y(self) -> np.ndarray:
        """The label as an int8 array of 1 (positive) and 0."""
        return self.frame[self.spec.label].to_numpy(np.int8)

    def describe(self) -> dict[str, Any]:
        """Summarise the dataset: rows, label, base rate and each sensitive attribute's groups.

        Returns
        -------
        dict
            ``name``, ``rows``, ``label``, ``positive_rate``, ``sensitive`` (each
            attribute's group sizes) and ``removed`` (rows each cleaning step removed).
        """
        described = self.spec.describe()
        for attribute, facts in described["sensitive"].items():
            counts = self.frame[attribute].value_counts().sort_index()
            facts["groups"] = {str(group): int(n) for group, n in counts.items()}
        return described | {
            "rows": len(self.frame),
            "base_rate": float(self.y.mean()),
            "features": len(self.features),
            "removed": dict(self.removed),
        }


def removed_text(removed: Iterable[tuple[str, int]]) -> str:
    """Say how many rows each cleaning step removed: ``"30 rows: missing values (age 30)"``.

    Parameters
    ----------
    removed
        ``(step, rows)`` pairs, as :attr:`Dataset.removed` holds them.

    Returns
    -------
    str
        The steps joined by ``"; "``; empty when none removed a row.
    """
    return "; ".join(f"{rows:,} rows: {step}" for step, rows in removed)


#: The most columns a CSV dataset may have (ACSIncome's one-hot encoding has about 1,000).
MOST_COLUMNS = 100_000
_HEAD = 1 << 16  # bytes of a CSV file looked at for NUL bytes (a binary file has them early)


def read_raw(path: str | Path, content: bytes | None = None) -> pd.DataFrame:
    """Read a raw table: Parquet by its suffix, else CSV.

    In a CSV only empty fields are missing, so literals like ``N/A`` stay values. A column
    named twice is read as pandas reads it (the copy as ``age.1``); the copy's name is kept in
    ``frame.attrs["copies"]``, so that :func:`clean` refuses to use it.

    Parameters
    ----------
    path
        The file (its suffix tells the format; it names the file in errors).
    content
        The file's bytes, already read: the table is parsed from them rather than from the
        file, so that what is parsed is what was fingerprinted. None: read the file.

    Raises
    ------
    SpecError
        If the file is empty, holds NUL bytes (binary: nothing of it is quoted), is not a
        table pandas can parse, or has more than :data:`MOST_COLUMNS` columns.
    """
    if content is None:
        content = Path(path).read_bytes()
    if Path(path).suffix == ".parquet":
        return _read_parquet(path, content)
    if b"\0" in content[:_HEAD]:  # a binary file: nothing of it is quoted
        raise SpecError(f"cannot read {path} as a CSV table: it holds NUL bytes, so it is not text")
    try:
        text = io.TextIOWrapper(io.BytesIO(content), encoding="utf-8", newline="")
        header = next(csv.reader(text), [])  # decodes the first lines only
        if len(header) > MOST_COLUMNS:  # pandas would run out of memory after minutes
            raise SpecError(
                f"cannot read {path} as a CSV table: its header names {len(header):,} columns, "
                f"more than the {MOST_COLUMNS:,} a dataset may have; is it a CSV file?"
            )
        frame = pd.read_csv(io.BytesIO(content), keep_default_na=False, na_values=[""])
    except (pd.errors.EmptyDataError, pd.errors.ParserError, UnicodeDecodeError) as error:
        raise SpecError(f"cannot read {path} as a CSV table: {error}") from error
    named = set(header)  # a set: a file may have up to MOST_COLUMNS columns
    frame.attrs["copies"] = {
        copy: original
        for copy in frame.columns
        if copy not in named and (original := str(copy).rpartition(".")[0]) in named
    }
    return frame


def _read_parquet(path: str | Path, content: bytes) -> pd.DataFrame:
    import pyarrow  # imported here: only the modern datasets' files are Parquet

    try:
        return pd.read_parquet(io.BytesIO(content), engine="pyarrow")
    except (OSError, pyarrow.ArrowException) as error:
        raise SpecError(f"cannot read {path} as a Parquet table: {error}") from error


def clean(raw: pd.DataFrame, spec: DatasetSpec, *, source: str = "the data") -> Dataset:
    """Apply a spec's cleaning rules to a raw frame.

    Parameters
    ----------
    raw
        The raw table.
    spec
        The dataset's specification.
    source
        How to name the data in error messages (usually the file path).

    Returns
    -------
    Dataset
        The cleaned dataset.

    Raises
    ------
    SpecError
        If a column the spec names is absent, a column named twice in the file would be used
        twice, the label is not binary or lacks the positive value, a privileged value never
        occurs, a sensitive attribute has a single group, a numeric feature holds non-numeric
        values, or no row survives cleaning.
    """
    where = f"dataset {spec.name!r} ({source})"
    frame = raw.replace(list(spec.missing), np.nan) if spec.missing else raw
    frame = frame.rename(columns=dict(spec.rename))
    _require(frame, spec.rename.values(), where, "rename")
    _require(frame, spec.recode, where, "recode")
    for column, mapping in spec.recode.items():
        frame[column] = frame[column].replace(dict(mapping))
    _require(frame, spec.thresholds, where, "thresholds")
    for column, rule in spec.thresholds.items():
        values = _numeric(frame[column], column, where)
        split = pd.Series(np.where(values >= rule.at, rule.above, rule.below), index=frame.index)
        frame[column] = split.where(values.notna())
    for column, expression in spec.derive.items():
        frame[column] = _derived(frame, expression, where)
    removed: list[tuple[str, int]] = []
    for expression in spec.filters:
        passes = evaluate(frame, expression, where=where).astype(bool)
        removed.append((f"filter {expression}", int((~passes).sum())))
        frame = frame[passes]

    kept = spec.keep if spec.keep is not None else frame.columns
    wanted = list(dict.fromkeys([*kept, *spec.sensitive, spec.label]))
    _require(frame, wanted, where, "keep, sensitive and label")
    _require(frame, spec.categorical, where, "categorical")
    chosen = set(wanted)  # sets and whole-frame steps: a file may have MOST_COLUMNS columns
    columns = [column for column in frame.columns if column in chosen]  # raw order
    _refuse_copies(raw.attrs.get("copies", {}), columns, where)
    missing = frame[columns].isna()
    removed.append((_missing_step(missing), int(missing.any(axis=1).sum())))
    frame = frame[columns].dropna().reset_index(drop=True)
    if frame.empty:
        raise SpecError(
            f"{where}: no row is left after filtering and dropping missing values "
            f"({_emptied_by(missing, removed)})"
        )

    frame[spec.label] = _encode_label(frame[spec.label], spec, where)
    for attribute in spec.sensitive:
        _check_groups(frame[attribute], spec.privileged[attribute], attribute, where)
    other = {spec.label, *spec.sensitive, *spec.categorical}
    converted = {
        column: _numeric(values, column, where)
        for column, values in frame.items()
        if column not in other
    }  # set as one frame: a column at a time is quadratic in the columns
    if converted:
        kept = frame[[column for column in frame.columns if column in other]]
        frame = pd.concat([kept, pd.DataFrame(converted)], axis=1)[columns]
    if spec.combined:
        parts = [frame[attribute].astype(str) for attribute in spec.sensitive]
        frame[spec.combined] = parts[0].str.cat(parts[1:], sep="-")
    return Dataset(spec, frame, tuple((step, rows) for step, rows in removed if rows))


def _derived(frame: pd.DataFrame, expression: str, where: str) -> pd.Series:
    """Evaluate a derived column; a row missing a value the expression reads is missing too.

    A comparison with a missing value is False in pandas, so ``Combine >= 70`` would make a
    row without ``Combine`` a negative; it is missing instead, and the missing-value rule
    applies to it (and is reported) as to any column.
    """
    value = evaluate(frame, expression, where=where)
    read = [column for column in columns_in(expression) if column in frame.columns]
    missing = frame[read].isna().any(axis=1) if read else None
    if missing is None or not missing.any():
        return value
    return value.astype(object).where(~missing)


def _refuse_copies(copies: dict[str, str], columns: list[str], where: str) -> None:
    """Refuse to use a copy of a column the file names twice (ProPublica's keep list does not)."""
    used = sorted({original for copy, original in copies.items() if copy in columns})
    if used:
        raise SpecError(
            f"{where}: the file names the column(s) {used} more than once; give each column "
            "its own name, or list the columns to use under 'keep' (pandas would use the "
            "copies as separate features)"
        )


def _emptied_by(missing: pd.DataFrame, removed: list[tuple[str, int]]) -> str:
    """Say what left no row: the columns without a value, else the rows each step removed."""
    if len(missing) and (empty := [column for column in missing if missing[column].all()]):
        return f"column(s) {', '.join(quoted(column) for column in empty)} hold no value"
    return "; ".join(f"{step} removed {rows:,} rows" for step, rows in removed if rows)


def _missing_step(missing: pd.DataFrame) -> str:
    """Name the missing-value step by the columns that had missing values, most first."""
    counts = missing.sum().sort_values(ascending=False, kind="stable")
    columns = ", ".join(f"{column} {n:,}" for column, n in counts[counts > 0].items())
    return f"missing values ({columns})" if columns else "missing values"


def _require(frame: pd.DataFrame, columns, where: str, field: str) -> None:
    absent = [column for column in columns if column not in frame.columns]
    if absent:
        raise SpecError(
            f"{where}: column(s) {absent} named in the spec's {field!r} are not in the data; "
            + _columns_text(frame)
        )


def _columns_text(frame: pd.DataFrame) -> str:
    """Name a table's columns, unless it has one: then the file is likely no CSV at all.

    A file that is not a table (``/proc/self/environ``, say) reads as one column whose name is
    its first line; quoting it would print the file's content into the terminal and CI logs.
    """
    if len(frame.columns) < 2:
        return "it reads as a single column: is it a comma-separated table with a header row?"
    names = [_shown(name) for name in frame.columns[:_SHOWN_COLUMNS]]
    more = len(frame.columns) - len(names)
    return f"its columns are: {', '.join(names)}" + (f" and {more:,} more" if more > 0 else "")


def _shown(name: object) -> str:
    """Return a column's name as a message quotes it: cut, and escaped unless printable."""
    text = str(name)
    return cut_message(text if text.isprintable() else repr(text), _LONGEST_NAME)


_SHOWN_COLUMNS = 50
_LONGEST_NAME = 60


def _encode_label(label: pd.Series, spec: DatasetSpec, where: str) -> np.ndarray:
    values = label.unique().tolist()
    if len(values) != 2:
        raise SpecError(
            f"{where}: label {spec.label!r} must be binary, but it has {len(values)} distinct "
            f"values: {_quote(values)}"
        )
    if spec.positive_label not in values:
        raise SpecError(
            f"{where}: positive label {spec.positive_label!r} does not occur in label "
            f"{spec.label!r}, whose values are {_quote(values)}"
        )
    return (label == spec.positive_label).to_numpy(np.int8)


def _check_groups(values: pd.Series, privileged: Any, attribute: str, where: str) -> None:
    """Require the privileged value and at least one other group: fairness compares groups."""
    present = values.unique().tolist()
    if privileged not in present:
        raise SpecError(
            f"{where}: privileged value {privileged!r} does not occur in sensitive attribute "
            f"{attribute!r}, whose values are {_quote(present)}"
        )
    if len(present) < 2:
        raise SpecError(
            f"{where}: sensitive attribute {attribute!r} has one group ({privileged!r}) after "
            "cleaning; fairness is measured between groups, so it needs at least two"
        )


def _numeric(values: pd.Series, column: str, where: str) -> pd.Series:
    if pd.api.types.is_numeric_dtype(values):
        return values
    converted = pd.to_numeric(values, errors="coerce")
    bad = values[converted.isna() & values.notna()].unique().tolist()
    if bad:
        raise SpecError(
            f"{where}: column {column!r} is treated as numeric but holds non-numeric values "
            f"{_quote(bad)}; list it under 'categorical', or its missing-value markers under "
            "'missing'"
        )
    return converted


def _quote(values: list) -> str:
    shown = ", ".join(repr(_plain(v)) for v in sorted(values, key=str)[:_SHOWN])
    return f"[{shown}{', ...' if len(values) > _SHOWN else ''}]"


def _plain(value: Any) -> Any:
    """Turn numpy scalars into Python ones, for messages and JSON."""
    return value.item() if isinstance(value, np.generic) else value
