"""Benchmark configuration: a TOML file, a named profile, or a profile with overrides.

A configuration file holds the fields of :class:`BenchmarkConfig`; ``profile`` names the profile
it starts from (``default`` when absent). Example::

    profile = "quick"
    datasets = ["german"]
    algorithms = ["kamishima", "zafar-fairness"]
    grid = true
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from faircompare._validation import MAX_PERMUTATIONS as MAX_PERMUTATIONS  # the CLI's bounds
from faircompare._validation import MAX_SEED as MAX_SEED
from faircompare._validation import MAX_TIMEOUT as MAX_TIMEOUT
from faircompare._validation import check_choice, check_settings
from faircompare.datasets import BUILTIN, PAPER_DATASETS
from faircompare.datasets.modern import MODERN
from faircompare.exceptions import FaircompareError
from faircompare.names import DEFAULT_PERMUTATIONS, VARIANTS

__all__ = [
    "BenchmarkConfig",
    "ConfigError",
    "PROFILES",
    "load_config",
]

# per test: a sequential test draws in doubling batches, its last at most half the cap, so
# that a test at the cap holds its 8 MB of permuted statistics (10**9 at once, before tests were
# sequential, asked for 29.8 GiB before any run failed)


class ConfigError(FaircompareError, ValueError):
    """A configuration with unknown keys, unknown names or values of the wrong kind."""


@dataclass(frozen=True)
class BenchmarkConfig:
    """What to run.

    Attributes
    ----------
    datasets
        Built-in dataset names (default: the paper's five).
    dataset_specs
        TOML specifications of user datasets.
    sensitive_attributes
        ``"all"`` (every sensitive attribute, the combined one included), ``"first"``, or a list
        of attribute names (each used where a dataset has it).
    variants
        ``"supported"`` (every variant each algorithm supports) or a list of variants.
    algorithms
        ``"all"`` (every available algorithm), ``"default"`` (every available algorithm that
        does not opt out of a first look, :attr:`FairEstimator.in_default_profile`) or a list
        of registry names.
    grid
        Whether to sweep each algorithm's parameter grid; else its default parameters only.
    tune
        Whether grid runs are also fitted on the training data less a validation part and scored
        on that part, so the analysis can choose parameters without the test data.
    splits
        Number of train/test splits.
    seed
        Base seed of every split and algorithm.
    timeout
        Seconds after which a run is stopped and recorded as failed.
    plugins
        A folder of plugin files, or None.
    audits
        Whether to audit each run with every registered audit (permutation tests, FlipTest,
        the individual-fairness test, and plugin audits).
    audit_frontier
        Whether to audit the runs of a frontier too: an algorithm whose settings are the
        points of one curve (:attr:`~faircompare.algorithms.base.FairEstimator.always_planned`,
        the ``unprocessed-*`` baselines post-processed to each tolerance), the yardstick every
        intervention is compared with at equal fairness. Its measures are computed either way.
    permutations
        Most permutations per audit test (a sequential test stops once its verdict is decided).
    """

    datasets: tuple[str, ...] = PAPER_DATASETS
    dataset_specs: tuple[str, ...] = ()
    sensitive_attributes: str | tuple[str, ...] = "first"
    variants: str | tuple[str, ...] = ("numerical+binary",)
    algorithms: str | tuple[str, ...] = "default"
    grid: bool = False
    tune: bool = False
    splits: int = 10
    seed: int = 0
    timeout: float = 600.0
    plugins: str | None = None
    audits: bool = True
    audit_frontier: bool = True
    permutations: int = DEFAULT_PERMUTATIONS

    def __post_init__(self) -> None:
        for name in ("datasets", "dataset_specs"):
            object.__setattr__(self, name, _names(name, getattr(self, name), keywords=()))
        for name, keywords in (
            ("sensitive_attributes", ("all", "first")),
            ("variants", ("supported",)),
            ("algorithms", ("all", "default")),
        ):
            object.__setattr__(self, name, _names(name, getattr(self, name), keywords))
        self._check()

    def _check(self) -> None:
        check_settings(self, ConfigError)  # the numbers and flags: faircompare._validation
        for name in self.datasets:
            check_choice(name, BUILTIN, what="dataset")
        if not isinstance(self.variants, str):
            for variant in self.variants:
                check_choice(variant, VARIANTS, what="preprocessing variant")
        if not self.datasets and not self.dataset_specs:
            raise ConfigError("the configuration names no dataset")

    def overridden(self, **changes: Any) -> BenchmarkConfig:
        """Return a copy with the given fields changed (None values are ignored).

        Parameters
        ----------
        **changes
            Fields and their new values; a None value leaves its field as it is.

        Returns
        -------
        BenchmarkConfig
            The changed copy, validated as any configuration.
        """
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _relative_paths(table: dict[str, Any], folder: Path) -> None:
    """Make a configuration file's paths relative to its folder, once their type is checked."""
    specs, plugins = table.get("dataset_specs"), table.get("plugins")
    if specs is not None:
        if not isinstance(specs, list) or not all(isinstance(spec, str) for spec in specs):
            raise ConfigError(f"dataset_specs must be a list of file names, got {specs!r}")
        table["dataset_specs"] = [str(folder / spec) for spec in specs]
    if plugins is not None:
        if not isinstance(plugins, str):
            raise ConfigError(f"plugins must be a folder name (a string), got {plugins!r}")
        table["plugins"] = str(folder / plugins) if plugins else None


def _names(field: str, value: Any, keywords: tuple[str, ...]) -> str | tuple[str, ...]:
    """Return a field's list of names as a tuple, or its keyword; refuse anything else.

    A string where a list is expected is refused rather than read letter by letter
    (``datasets = "german"`` would otherwise name the datasets g, e, r, m, a, n).
    """
    if isinstance(value, str):
        if value in keywords:
            return value
        valid = " or ".join([*(repr(k) for k in keywords), "a list of names"])
        raise ConfigError(
            f"{field} must be {valid}, got the string {value!r}: write {field} = [{value!r}]"
        )
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{field} must be a list of names, got {value!r}")
    return tuple(value)


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
        A TOML file whose keys are :class:`BenchmarkConfig` fields, plus ``profile``.
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
            table = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise ConfigError(f"cannot read configuration {path}: {error}") from error
        for key in table:
            check_choice(key, [*_FIELDS, "profile"], what=f"configuration key in {path}")
        _relative_paths(table, path.parent)
    name = profile or table.pop("profile", None) or "default"
    table.pop("profile", None)
    base = PROFILES[check_choice(name, PROFILES, what="profile")]
    try:
        return replace(base, **table)
    except TypeError as error:
        raise ConfigError(f"invalid configuration: {error}") from error
