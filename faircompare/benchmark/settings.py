"""Deprecated forms of a study's settings, kept until 0.4.0: :class:`RunSettings`, :class:`Options`.

The settings themselves are :class:`faircompare.config.BenchmarkConfig`; its former names here
(``BenchmarkConfig``, ``BACKENDS``, ``cpu_cores``) still work, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from faircompare._deprecations import former_forms, moved_names
from faircompare.config import settings as _settings  # its names here are the former ones

if TYPE_CHECKING:
    from faircompare.benchmark.summary import Summary
    from faircompare.config.settings import BenchmarkConfig
    from faircompare.records import RunRecord

__all__ = ["Options", "RunSettings"]

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class RunSettings:
    """Deprecated (until 0.4.0): how a plan runs, now fields of the settings.

    The fields are :class:`~faircompare.config.BenchmarkConfig`'s.

    ``RunSettings(jobs=2)`` given to :func:`~faircompare.benchmark.run_benchmark` or
    :func:`~faircompare.benchmark.run_plan` sets the settings' fields of the same names, and
    ``progress`` the function's ``progress=``.

    Attributes
    ----------
    jobs, backend, scheduler, force, retry_failed
        The :class:`~faircompare.config.BenchmarkConfig` fields of the same names.
    progress
        Called after each stored run with its record and the counts so far.
    """

    jobs: int | None = None
    backend: str = "processes"
    scheduler: str | None = None
    force: bool = False
    retry_failed: bool = False
    progress: Callable[[RunRecord, Summary], None] | None = field(default=None, compare=False)

    @former_forms
    def __post_init__(self) -> None:
        self.applied_to(None)  # checked as the settings are

    def applied_to(self, settings: BenchmarkConfig | None) -> BenchmarkConfig:
        """Return ``settings`` with these fields (all but ``progress``) in place of its own.

        Parameters
        ----------
        settings
            A study's settings; None for the defaults.

        Returns
        -------
        BenchmarkConfig
            The changed copy.
        """
        own = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "progress"}
        return replace(settings or _settings.BenchmarkConfig(), **own)


_OPTIONS = ("timeout", "plugins", "cache", "mirror", "audits", "permutations")  # in 0.2's order


class Options:
    """Deprecated (until 0.4.0): the workers' settings, now fields of the settings.

    ``Options(timeout=..., plugins=..., cache=..., mirror=..., audits=..., permutations=...)``
    returns the :class:`~faircompare.config.BenchmarkConfig` with those fields, with a
    :class:`DeprecationWarning`.
    """

    @former_forms
    def __new__(cls, *args: Any, **kwargs: Any) -> BenchmarkConfig:  # type: ignore[misc]
        """Return the settings with the fields given, by name or in their former order."""
        if len(args) > len(_OPTIONS):
            raise TypeError(f"Options() takes at most {len(_OPTIONS)} positional arguments")
        return _settings.BenchmarkConfig(**dict(zip(_OPTIONS, args, strict=False)), **kwargs)

    @classmethod
    @former_forms
    def from_config(
        cls,
        config: BenchmarkConfig,
        *,
        cache: str | Path | None = None,
        mirror: str | Path | None = None,
    ) -> BenchmarkConfig:
        """Return the configuration with the data locations (deprecated: it holds them).

        Parameters
        ----------
        config
            A study's settings.
        cache, mirror
            The data cache and the local mirror of raw files; None keeps the configuration's.

        Returns
        -------
        BenchmarkConfig
            ``config.overridden(cache=cache, mirror=mirror)``, each given (not None).
        """
        given = {"cache": cache, "mirror": mirror}
        return config.overridden(**{name: path for name, path in given.items() if path is not None})


__getattr__ = moved_names(__name__)
