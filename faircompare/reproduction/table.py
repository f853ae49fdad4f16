"""The reproduction table: each published cell beside faircompare's, in standard errors.

A cell is one algorithm at one setting on one dataset, attribute and variant, and one measure.
Its published runs and faircompare's are on different splits (the original's are not
published), so they are compared as two samples: z is the difference of their means over the
standard error of that difference, sqrt(s_p^2 / n_p + s_o^2 / n_o). A cell *agrees* within
:data:`AGREEMENT` standard errors. Each cell that differs gets its cause, found in the numbers:
the departure whose switch alone brings it within noise (:mod:`.departures`), or a defect of
the original that its own numbers show (one class predicted on every split).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from faircompare.reproduction.departures import one_class_everywhere
from faircompare.reproduction.published import MEASURES
from faircompare.reproduction.study import ALL_SWITCHES, switched

__all__ = ["AGREEMENT", "COLUMNS", "reproduction_table", "z_score"]

AGREEMENT = 3.0  # standard errors of the difference of means within which a cell agrees

#: The table's columns, in order.
COLUMNS = (
    "file",
    "sweep",
    "dataset",
    "attribute",
    "variant",
    "original",
    "original_params",
    "algorithm",
    "params",
    "measure",
    "published_mean",
    "published_sd",
    "published_n",
    "ours_mean",
    "ours_sd",
    "ours_n",
    "z",
    "verdict",
    "as_published_mean",
    "as_published_sd",
    "as_published_n",
    "as_published_z",
    "as_published_verdict",
    "cause",
)
_CELL = ["dataset", "attribute", "variant", "algorithm", "params", "measure"]


def reproduction_table(published: pd.DataFrame, measures: pd.DataFrame) -> pd.DataFrame:
    """Set each published cell beside faircompare's runs of the same setting.

    Parameters
    ----------
    published
        :func:`~faircompare.reproduction.read_published`'s rows.
    measures
        A results store's test measures (:meth:`~faircompare.results.ResultStore.measures`).

    Returns
    -------
    pandas.DataFrame
        One row per published cell that faircompare reproduces, :data:`COLUMNS`: where it
        comes from (``file``, and ``sweep``: whether a sweep's), the published and
        faircompare's mean, standard deviation and number of splits, ``z``,
        ``verdict`` (``agrees``, ``differs``, or ``not run`` where no run is stored), the same
        with every departure's switch on (``as_published_*``: faircompare's own where no
        departure concerns the algorithm; missing where those runs are not stored), and
        ``cause``: for a cell that differs, the departures whose switch alone brings it
        within noise, or the original's defect its numbers show.
    """
    ours = _ours(measures)
    cells = published[published["note"] == ""]
    keys = ["file", "sweep", "original", "original_params", *_CELL]
    rows = []
    for key, runs in cells.groupby(keys, sort=False):
        cell = dict(zip(keys, key, strict=True))
        values = runs["value"].dropna().to_numpy()
        mine = ours.get(_key(cell))
        row = {
            **cell,
            "published_mean": _mean(values),
            "published_sd": _sd(values),
            "published_n": len(values),
            **_side("ours", values, mine),
        }
        switches = switched(cell["algorithm"], json.loads(cell["params"]))
        as_published = ours.get(_key(cell, switches[ALL_SWITCHES])) if switches else mine
        row.update(_side("as_published", values, as_published))
        row["verdict"] = _verdict(row["z"], mine)
        row["as_published_verdict"] = _verdict(row["as_published_z"], as_published)
        row["cause"] = _cause(row, values, cells, ours, cell, switches)
        rows.append(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _ours(measures: pd.DataFrame) -> dict[tuple[str, ...], np.ndarray]:
    """Return faircompare's values of each cell (its runs' aggregate measure), by cell key."""
    wanted = measures[(measures["group"] == "") & measures["measure"].isin(MEASURES)]
    wanted = wanted.assign(params=wanted["params"].map(_canonical))
    columns = ["dataset", "sensitive_attribute", "variant", "algorithm", "params", "measure"]
    return {
        tuple(key): group["value"].dropna().to_numpy()
        for key, group in wanted.groupby(columns, sort=False)
    }


def _key(cell: dict[str, str], params: dict[str, object] | None = None) -> tuple[str, ...]:
    """Return a cell's key among faircompare's cells, with other parameters if given."""
    setting = _canonical(cell["params"]) if params is None else json.dumps(params, sort_keys=True)
    return tuple(cell[c] if c != "params" else setting for c in _CELL)


def _canonical(params: str) -> str:
    """Return parameters as JSON with sorted keys."""
    return json.dumps(json.loads(params or "{}"), sort_keys=True)


def _side(prefix: str, published: np.ndarray, values: np.ndarray | None) -> dict[str, object]:
    """Return one side's mean, sd, number of splits and z against the published values."""
    if values is None or not len(values):
        return {f"{prefix}_mean": np.nan, f"{prefix}_sd": np.nan, f"{prefix}_n": 0, **_z(prefix)}
    return {
        f"{prefix}_mean": _mean(values),
        f"{prefix}_sd": _sd(values),
        f"{prefix}_n": len(values),
        **_z(prefix, z_score(published, values)),
    }


def _z(prefix: str, value: float = np.nan) -> dict[str, float]:
    return {"z" if prefix == "ours" else f"{prefix}_z": value}


def z_score(published: np.ndarray, ours: np.ndarray) -> float:
    """Return the difference of two samples' means in standard errors of that difference.

    Parameters
    ----------
    published, ours
        The two samples (at least one value each).

    Returns
    -------
    float
        (mean(ours) - mean(published)) / sqrt(s_p^2 / n_p + s_o^2 / n_o), s the standard
        deviations (ddof 1; 0 for a single value); 0 for equal means with no spread, and
        infinite for different ones.
    """
    difference = _mean(ours) - _mean(published)
    error = np.sqrt(_sd(published) ** 2 / len(published) + _sd(ours) ** 2 / len(ours))
    if error == 0:
        return 0.0 if difference == 0 else float(np.copysign(np.inf, difference))
    return float(difference / error)


def _mean(values: np.ndarray) -> float:
    return float(np.mean(values)) if len(values) else np.nan


def _sd(values: np.ndarray) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


def _verdict(z: float, mine: np.ndarray | None) -> str:
    if mine is None or not len(mine) or np.isnan(z):
        return "not run"
    return "agrees" if abs(z) <= AGREEMENT else "differs"


def _cause(
    row: dict[str, object],
    values: np.ndarray,
    cells: pd.DataFrame,
    ours: dict[tuple[str, ...], np.ndarray],
    cell: dict[str, str],
    switches: dict[str, dict[str, object]],
) -> str:
    """Return why a cell that differs differs, as its numbers show; empty for the others."""
    if row["verdict"] != "differs":
        return ""
    same_runs = cells[
        (cells["file"] == cell["file"])
        & (cells["original"] == cell["original"])
        & (cells["original_params"] == cell["original_params"])
    ]
    if one_class_everywhere(same_runs):
        return "the original predicted one class on every split (its TPR and TNR are 0 and 1)"
    found = [
        name
        for name, params in switches.items()
        if name != ALL_SWITCHES
        and (mine := ours.get(_key(cell, params))) is not None
        and len(mine)
        and abs(z_score(values, mine)) <= AGREEMENT
    ]
    if found:
        return "; ".join(found)
    if len(switches) > 2 and row["as_published_verdict"] == "agrees":
        return "the departures together: " + "; ".join(n for n in switches if n != ALL_SWITCHES)
    if switches and row["as_published_verdict"] == "not run":
        return "not tested: run with --as-published"
    return "unexplained"
