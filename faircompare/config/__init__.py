"""A study's settings: the one settings object, its ready-made profiles and its TOML files.

- :class:`BenchmarkConfig` (:mod:`faircompare.config.settings`): every setting of a study, each
  field declared with its rule and its command-line option (:mod:`faircompare.config.rules`);
- :data:`PROFILES` (:mod:`faircompare.config.profiles`): ``quick``, ``default``, ``paper``,
  ``modern`` and ``extended``;
- :func:`load_config` (:mod:`faircompare.config.files`): a profile and a TOML file's changes.

Each name is imported from its module when first used (:mod:`faircompare._lazy`): a worker that
unpickles the settings loads neither the profiles nor the TOML loader.

>>> from faircompare.config import PROFILES
>>> PROFILES["quick"].overridden(splits=3).splits
3
"""

from typing import TYPE_CHECKING

from faircompare._lazy import lazy_names

_HOMES = {
    "BACKENDS": "faircompare.config.settings",
    "BenchmarkConfig": "faircompare.config.settings",
    "cpu_cores": "faircompare.config.settings",
    "ConfigError": "faircompare.exceptions",
    "PROFILES": "faircompare.config.profiles",
    "load_config": "faircompare.config.files",
}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_names(__name__, _HOMES)

if TYPE_CHECKING:  # the same names for type checkers; tests/test_layers.py checks they agree
    from faircompare.config.files import load_config as load_config
    from faircompare.config.profiles import PROFILES as PROFILES
    from faircompare.config.settings import BACKENDS as BACKENDS
    from faircompare.config.settings import BenchmarkConfig as BenchmarkConfig
    from faircompare.config.settings import cpu_cores as cpu_cores
    from faircompare.exceptions import ConfigError as ConfigError
