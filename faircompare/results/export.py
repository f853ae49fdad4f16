"""Export a results store to flat files for other tools."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from faircompare._validation import check_choice
from faircompare.choices import FORMATS
from faircompare.exceptions import FaircompareError
from faircompare.results.store import ResultStore
from faircompare.safe_write import make_folder, replaced


def export(store: ResultStore, out: str | Path, fmt: str = "csv") -> list[Path]:
    """Write runs, test and validation measures, audits and trials as CSV or Parquet files.

    Each file is written whole or not at all, never through a link (:mod:`faircompare.
    safe_write`).

    Returns
    -------
    list of Path
        The files written.
    """
    check_choice(fmt, FORMATS, what="export format")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError as error:
            raise FaircompareError("Parquet export needs pyarrow: pip install pyarrow") from error
    out = make_folder(Path(out), Path(out))
    tables: dict[str, pd.DataFrame] = {
        "runs": store.runs(),
        "measures": store.measures("test"),
        "measures_validation": store.measures("validation"),
        "audits": store.audits(),
        "trials": store.trials(),
    }
    if fmt == "csv":  # the audits' details as the JSON text the store holds, not Python's repr
        tables["audits"]["details"] = [json.dumps(d) for d in tables["audits"]["details"]]
    written = []
    for name, frame in tables.items():
        path = out / f"{name}.{fmt}"
        with replaced(path, out) as temporary:
            if fmt == "csv":
                frame.to_csv(temporary, index=False)
            else:
                frame.to_parquet(temporary, index=False)
        written.append(path)
    return written
