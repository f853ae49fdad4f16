"""A study's settings from a TOML file: a profile and the fields it changes.

A configuration file holds fields of :class:`~faircompare.config.BenchmarkConfig`; ``profile``
names the profile it starts from (``default`` when absent); its folders (``dataset_specs``,
``plugins``, ``mirror``, ``cache``) are relative to the file; a ``[tuning]`` table holds the
``tuning_*`` fields by their short names (``budget``: one number or a list). Example::

    profile = "quick"
    datasets = ["german"]
    algorithms = ["kamishima", "zafar-fairness"]
    grid = true

    [tuning]
    budget = [1, 10, 30]
    objective = "constrained"
    bound = 0.1
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from faircompare._validation import check_choice
from faircompare.config.profiles import PROFILES
from faircompare.config.settings import RULES, BenchmarkConfig
from faircompare.exceptions import ConfigError

__all__ = ["load_config"]


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


_TUNING = "tuning"
_TUNING_KEYS = {"budget": "tuning_budgets", "sampler": "tuning_sampler",
                "objective": "tuning_objective", "measure": "tuning_measure",
                "bound": "tuning_bound"}  # fmt: skip


def _tuning_fields(table: dict[str, Any], path: Path) -> None:
    """Replace a file's ``[tuning]`` table by the ``tuning_*`` fields it sets."""
    tuning = table.pop(_TUNING, None)
    if tuning is None:
        return
    if not isinstance(tuning, dict):
        raise ConfigError(f"tuning must be a table ([tuning], with budget = ...), got {tuning!r}")
    for key, value in tuning.items():
        field = _TUNING_KEYS[check_choice(key, _TUNING_KEYS, what=f"tuning key in {path}")]
        if field in table:
            raise ConfigError(f"{path} sets {field} twice: as {field} and in [tuning] as {key}")
        table[field] = value


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
            check_choice(key, [*RULES, "profile", _TUNING], what=f"configuration key in {path}")
        _tuning_fields(table, path)
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
