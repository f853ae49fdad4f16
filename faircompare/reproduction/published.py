"""The original benchmark's published results, read as they are: one row per run and measure.

Friedler et al.'s benchmark (``fairness-comparison``) wrote one CSV file per dataset, sensitive
attribute and preprocessing, ``<dataset>_<attribute>_<variant>.csv``, with a row per algorithm,
parameter setting and split (``algorithm``, ``params`` such as ``lambda=1.0``, ``run-id``, then
every measure), and one file per parameter sweep, ``<Algorithm>-accuracy_<dataset>_<attribute>_
<variant>.csv`` (the sweep's every setting). :func:`read_published` reads any such file, maps
the original's names to faircompare's, and says of each row it cannot map why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from faircompare.datasets.builtin import BUILTIN
from faircompare.exceptions import FaircompareError
from faircompare.registry import Algorithm, algorithms

__all__ = ["MEASURES", "ORIGINAL_ALGORITHMS", "PublishedFilesError", "read_published"]

#: The measures compared: the paper's overall accuracy and its two group-fairness measures
#: (§6.1), and the rates they are made of; faircompare's names are the original's.
MEASURES = ("accuracy", "DIbinary", "CV", "TPR", "TNR")

#: The original's algorithm names and faircompare's for the same method.
ORIGINAL_ALGORITHMS = {
    "SVM": "svm",
    "LR": "logistic-regression",
    "DecisionTree": "decision-tree",
    "GaussianNB": "gaussian-nb",
    "Feldman-SVM": "feldman-svm",
    "Feldman-LR": "feldman-logistic-regression",
    "Feldman-DecisionTree": "feldman-decision-tree",
    "Feldman-GaussianNB": "feldman-gaussian-nb",
    "Calders": "calders",
    "Kamishima": "kamishima",
    "ZafarFairness": "zafar-fairness",
    "ZafarAccuracy": "zafar-accuracy",
}
#: The original's parameter names and faircompare's.
_PARAMETERS = {"lambda": "repair_level", "eta": "eta", "c": "c", "gamma": "gamma", "beta": "beta"}
#: The original's preprocessing variants and faircompare's.
_VARIANTS = {
    "numerical-binsensitive": "numerical+binary",
    "numerical": "numerical",
    "original": "original",
}
_TUNED = re.compile(r"^(?P<algorithm>.+)-(?P<measure>[^-]+)$")  # Feldman-SVM-DIavgall
_FILE = re.compile(r"^(?P<dataset>[^_]+)_(?P<attribute>[^_]+)_(?P<variant>[^_]+)$")


class PublishedFilesError(FaircompareError):
    """A folder of published results holds no result file, or a file is not one."""


def read_published(
    folder: str | Path,
    *,
    datasets: Iterable[str] = (),
    attributes: Iterable[str] = (),
) -> pd.DataFrame:
    """Read every result file of the original benchmark in a folder, and its ``sweeps``.

    Parameters
    ----------
    folder
        A folder of the original's result files (``<dataset>_<attribute>_<variant>.csv``), with
        its parameter sweeps in ``sweeps/`` where there are any.
    datasets, attributes
        Read only these datasets and sensitive attributes (every one when empty).

    Returns
    -------
    pandas.DataFrame
        One row per published run and measure of :data:`MEASURES`: ``file``, ``sweep`` (whether
        from a sweep file), ``dataset``, ``attribute``, ``variant`` (faircompare's name),
        ``original`` and ``original_params`` (as the file writes them), ``algorithm`` and
        ``params`` (faircompare's algorithm and its parameters other than the defaults, as
        JSON), ``split``, ``measure``, ``value``, and ``note``: why a row is not reproduced
        (empty where it is).

    Raises
    ------
    PublishedFilesError
        If the folder holds no result file, or a file lacks the original's columns.
    """
    folder = Path(folder)
    files = sorted(folder.glob("*.csv")) + sorted((folder / "sweeps").glob("*.csv"))
    wanted_datasets, wanted_attributes = set(datasets), set(attributes)
    frames = []
    for path in files:
        where = _where(path)
        if where is None:
            continue
        if wanted_datasets and where["dataset"] not in wanted_datasets:
            continue
        if wanted_attributes and where["attribute"] not in wanted_attributes:
            continue
        frames.append(_read_file(path, folder, where))
    if not frames:
        raise PublishedFilesError(
            f"no result file of the original benchmark in {folder} (files named "
            "<dataset>_<attribute>_<variant>.csv, and sweeps/<Algorithm>-accuracy_<dataset>_"
            "<attribute>_<variant>.csv)"
            + (
                " for the datasets and attributes asked"
                if wanted_datasets | wanted_attributes
                else ""
            )
        )
    return pd.concat(frames, ignore_index=True)


def _where(path: Path) -> dict[str, Any] | None:
    """Return a result file's dataset, attribute and variant (the original's), or None."""
    stem = path.stem
    sweep = path.parent.name == "sweeps"
    if sweep:
        swept, _, stem = stem.partition("_")
        if not stem:
            return None
    found = _FILE.match(stem)
    if found is None:
        return None
    return {**found.groupdict(), "sweep": sweep}


def _read_file(path: Path, folder: Path, where: dict[str, Any]) -> pd.DataFrame:
    """Read one result file into long form (:func:`read_published`'s columns)."""
    try:
        frame = pd.read_csv(path, dtype={"algorithm": str, "params": str})
    except (OSError, ValueError) as error:
        raise PublishedFilesError(f"cannot read {path}: {error}") from error
    missing = [c for c in ("algorithm", "params", "run-id", *MEASURES) if c not in frame.columns]
    if missing:
        raise PublishedFilesError(
            f"{path} is not a result file of the original benchmark: no column {missing[0]!r}"
        )
    frame["params"] = frame["params"].fillna("")
    registry = algorithms()
    rows = frame[["algorithm", "params", "run-id"]].drop_duplicates(["algorithm", "params"])
    mapped = {
        (row.algorithm, row.params): _mapped(row.algorithm, row.params, where, registry)
        for row in rows.itertuples()
    }
    long = frame.melt(
        id_vars=["algorithm", "params", "run-id"],
        value_vars=list(MEASURES),
        var_name="measure",
        value_name="value",
    )
    ours = pd.DataFrame(
        [mapped[key] for key in zip(long["algorithm"], long["params"], strict=True)],
        columns=["ours", "ours_params", "note"],
    )
    return pd.DataFrame(
        {
            "file": str(path.relative_to(folder)),
            "sweep": where["sweep"],
            "dataset": where["dataset"],
            "attribute": where["attribute"],
            "variant": _VARIANTS.get(where["variant"], where["variant"]),
            "original": long["algorithm"],
            "original_params": long["params"],
            "algorithm": ours["ours"],
            "params": ours["ours_params"],
            "split": long["run-id"].astype(int),
            "measure": long["measure"],
            "value": pd.to_numeric(long["value"], errors="coerce").astype(float),
            "note": ours["note"],
        }
    )


def _mapped(
    original: str, params: str, where: dict[str, Any], registry: Mapping[str, Algorithm]
) -> tuple[str, str, str]:
    """Return faircompare's algorithm and parameters for a published row, or why there are none."""
    name = original
    if where["sweep"]:  # a sweep's rows are named as the tuned variant they were chosen from
        tuned = _TUNED.match(original)
        name = tuned["algorithm"] if tuned and tuned["algorithm"] in ORIGINAL_ALGORITHMS else name
    elif name not in ORIGINAL_ALGORITHMS and (tuned := _TUNED.match(name)):
        if tuned["algorithm"] in ORIGINAL_ALGORITHMS:
            why = (
                f"tuned for {tuned['measure']} on the test split by the original's grid search, "
                "which compared a measure with a parameter value: not a setting to rerun"
            )
            return "", "", why
    if where["variant"] not in _VARIANTS:
        return "", "", f"preprocessing {where['variant']!r} has no counterpart here"
    spec = BUILTIN.get(where["dataset"])
    if spec is None:
        return "", "", f"dataset {where['dataset']!r} is not a built-in dataset here"
    if where["attribute"] not in spec.sensitive_attributes:
        return "", "", f"{spec.name} has no sensitive attribute {where['attribute']!r} here"
    ours = ORIGINAL_ALGORITHMS.get(name)
    if ours is None:
        return "", "", f"algorithm {original!r} has no counterpart here"
    algorithm = registry.get(ours)
    if algorithm is None or algorithm.make is None:
        return "", "", f"{ours} is not available here"
    settings = _parameters(params)
    if settings is None:
        return "", "", f"parameters {params!r} are not the original's"
    defaults = algorithm.make().get_params()
    unknown = [key for key in settings if key not in defaults]
    if unknown:
        return "", "", f"{ours} has no parameter {unknown[0]!r}"
    changed = {key: value for key, value in settings.items() if defaults[key] != value}
    return ours, json.dumps(changed, sort_keys=True), ""


def _parameters(params: str) -> dict[str, float] | None:
    """Return the original's parameters (``lambda=1.0``) as faircompare's, or None if unreadable."""
    settings = {}
    for item in filter(None, re.split(r"[;,]\s*", params.strip())):
        key, _, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            return None
        if key.strip() not in _PARAMETERS or not np.isfinite(number):
            return None
        settings[_PARAMETERS[key.strip()]] = number
    return settings
