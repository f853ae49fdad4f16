"""A study's settings from a TOML file, a named profile, or a profile with overrides.

A configuration file holds fields of :class:`BenchmarkConfig` (the one settings object, defined
in :mod:`faircompare.benchmark.settings`); ``profile`` names the profile it starts from
(``default`` when absent); its folders (``dataset_specs``, ``plugins``, ``mirror``, ``cache``)
are relative to the file. Example::

    profile = "quick"
    datasets = ["german"]
    algorithms = ["kamishima", "zafar-fairness"]
    grid = true
"""

from __future__ import annotations

import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from faircompare._validation import check_choice
from faircompare.benchmark.settings import BenchmarkConfig as BenchmarkConfig
from faircompare.datasets.modern import MODERN
from faircompare.exceptions import ConfigError as ConfigError

__all__ = [
    "BenchmarkConfig",
    "ConfigError",
    "PROFILES",
    "load_config",
]


def _relative_paths(table: dict[str, Any], folder: Path) -> None:
    """Make a configuration file's paths relative to its folder, once their type is checked."""
    specs = table.get("dataset_specs")
    if specs is not None:
        if not isinstance(specs, list) or not all(isinstance(spec, str) for spec in specs):
            raise ConfigError(f"dataset_specs must be a list of file names, got {specs!r}")
        table["dataset_specs"] = [str(folder / spec) for spec in specs]
    for name in ("plugins", "mirror", "cache"):
        path = table.get(name)
        if path is None:
            continue
        if not isinstance(path, str):
            raise ConfigError(f"{name} must be a folder name (a string), got {path!r}")
        table[name] = str(folder / path) if path else None


# Friedler et al.'s twelve algorithms (§5): the baselines, the four Feldman pipelines, Calders'
# two naive Bayes, Kamishima's prejudice remover and Zafar's two constrained models.
PAPER_ALGORITHMS = (
    "svm", "decision-tree", "gaussian-nb", "logistic-regression",
    "feldman-svm", "feldman-decision-tree", "feldman-gaussian-nb", "feldman-logistic-regression",
    "calders", "kamishima", "zafar-fairness", "zafar-accuracy",
)  # fmt: skip
# The algorithms that scale to 10^5-10^6 rows: the linear, tree and boosted baselines, Feldman's
# repair before two of them, Kamishima's regulariser, fairlearn's post-processing, and the
# post-processed frontiers every intervention is compared with at equal fairness.
MODERN_ALGORITHMS = (
    "logistic-regression", "gradient-boosting", "decision-tree", "gaussian-nb",
    "feldman-logistic-regression", "feldman-gradient-boosting", "kamishima",
    "threshold-optimizer", "unprocessed-gradient-boosting", "unprocessed-logistic-regression",
)  # fmt: skip
_STUDY = BenchmarkConfig(
    sensitive_attributes="all", variants="supported", grid=True, tune=True, splits=10
)

#: The ready-made configurations by name: ``quick``, ``default``, ``paper``, ``modern`` and
#: ``extended``.
PROFILES: dict[str, BenchmarkConfig] = {
    # Friedler et al.'s study as they ran it (§5, §7): their twelve algorithms over their grids,
    # every dataset, attribute (combined ones too) and variant, tuned on validation data.
    "paper": replace(_STUDY, algorithms=PAPER_ALGORITHMS),
    # The study with every other registered algorithm: reductions, post-processing, AIF360's and
    # fairlearn's methods, the torch models and plugins.
    "extended": replace(_STUDY, algorithms="all"),
    # Today's datasets at today's scale (FFB, ABCFair): ACSIncome, law school, bank marketing and
    # credit default, every attribute (ACSIncome's nine races and eighteen race-sex groups in
    # the numerical variant) with the algorithms that scale, audited. Runs get half an hour: the
    # longest measured here took 346 s (Feldman + gradient boosting on ACSIncome's eighteen
    # race-sex groups, with the split's audit setups).
    "modern": BenchmarkConfig(
        datasets=tuple(MODERN),
        sensitive_attributes="all",
        variants="supported",
        algorithms=MODERN_ALGORITHMS,
        timeout=1800.0,
    ),
    # Every dataset and algorithm with default parameters, on numerical+binary; one sensitive
    # attribute per dataset, as in the paper's overall results (§7). Five splits, and the
    # frontier's points measured but not audited: ten minutes on a 2-core laptop.
    "default": BenchmarkConfig(splits=5, audit_frontier=False),
    # Minutes: two small datasets, a few algorithms of each kind, a short grid, two splits, and
    # the post-processed frontier they are compared with at equal fairness.
    "quick": BenchmarkConfig(
        datasets=("ricci", "german"),
        sensitive_attributes="first",
        algorithms=(
            "logistic-regression",
            "decision-tree",
            "feldman-logistic-regression",
            "kamishima",
            "calders",
            "zafar-fairness",
            "reductions-gs-dp",
            "unprocessed-logistic-regression",
        ),  # fmt: skip
        grid=True,
        tune=True,
        splits=2,
    ),
}

_FIELDS = [f.name for f in fields(BenchmarkConfig)]


def load_config(path: str | Path | None = None, profile: str | None = None) -> BenchmarkConfig:
    """Build a configuration from a profile and, optionally, a TOML file of overrides.

    Parameters
    ----------
    path
        A TOML file whose keys are :class:`BenchmarkConfig` fields, plus ``profile``; with
        ``dataset_specs`` and no ``datasets``, only the specified datasets run (as ``--spec``
        alone runs them).
    profile
        The profile to start from; overrides the file's ``profile`` key. Default: ``default``.

    Returns
    -------
    BenchmarkConfig
        The validated configuration.
    """
    table: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a BOM is no key
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise ConfigError(f"cannot read configuration {path}: {error}") from error
        for key in table:
            check_choice(key, [*_FIELDS, "profile"], what=f"configuration key in {path}")
        _relative_paths(table, path.parent)
        if table.get("dataset_specs") and "datasets" not in table:
            table["datasets"] = []  # as --spec alone: the user's datasets only
    name = profile or table.pop("profile", None) or "default"
    table.pop("profile", None)
    base = PROFILES[check_choice(name, PROFILES, what="profile")]
    try:
        return replace(base, **table)
    except TypeError as error:
        raise ConfigError(f"invalid configuration: {error}") from error
