"""Deprecated forms of a study's settings, kept until 0.4.0: :class:`RunSettings`, :class:`Options`.

The settings themselves are :class:`faircompare.config.BenchmarkConfig`; its former names here
(``BenchmarkConfig``, ``BACKENDS``, ``cpu_cores``) still work, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from faircompare._deprecations import deprecated, moved_names, passes_through
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

    def __post_init__(self) -> None:
        deprecated(
            "RunSettings(...)",
            "BenchmarkConfig(jobs=..., backend=..., ...) and progress=",
            stacklevel=4,
        )
        self.applied_to(_settings.BenchmarkConfig())  # checked as the settings are

    def applied_to(self, settings: BenchmarkConfig) -> BenchmarkConfig:
        """Return ``settings`` with these fields (all but ``progress``) in place of its own.

        Parameters
        ----------
        settings
            A study's settings.

        Returns
        -------
        BenchmarkConfig
            The changed copy.
        """
        own = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "progress"}
        return replace(settings, **own)


_OPTIONS = ("timeout", "plugins", "cache", "mirror", "audits", "permutations")  # in 0.2's order


class Options:
    """Deprecated (until 0.4.0): the workers' settings, now fields of the settings.

    ``Options(timeout=..., plugins=..., cache=..., mirror=..., audits=..., permutations=...)``
    returns the :class:`~faircompare.config.BenchmarkConfig` with those fields, with a
    :class:`DeprecationWarning`.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> BenchmarkConfig:  # type: ignore[misc]
        """Return the settings with the fields given, by name or in their former order."""
        deprecated("Options(...)", "BenchmarkConfig(timeout=..., plugins=..., ...)")
        if len(args) > len(_OPTIONS):
            raise TypeError(f"Options() takes at most {len(_OPTIONS)} positional arguments")
        return _settings.BenchmarkConfig(**dict(zip(_OPTIONS, args, strict=False)), **kwargs)

    @classmethod
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
        deprecated("Options.from_config(config)", "config.overridden(cache=..., mirror=...)")
        given = {"cache": cache, "mirror": mirror}
        return config.overridden(**{name: path for name, path in given.items() if path is not None})


def accepts_run_settings(into: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Accept a deprecated :class:`RunSettings` where a function takes a study's settings.

    Parameters
    ----------
    into
        The function's argument that takes the :class:`~faircompare.config.BenchmarkConfig`.

    Returns
    -------
    callable
        A decorator: a :class:`RunSettings` given anywhere in the call (it warned when made)
        changes the fields of the settings argument (the defaults, when not given), and its
        ``progress`` is the function's ``progress=``.
    """

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(function)

        @functools.wraps(function)
        def accepting(*args: Any, **kwargs: Any) -> Any:
            given = (*args, *kwargs.values())
            former = [value for value in given if isinstance(value, RunSettings)]
            if not former:
                return function(*args, **kwargs)
            (settings,) = former
            args = tuple(value for value in args if value is not settings)
            kwargs = {name: value for name, value in kwargs.items() if value is not settings}
            bound = signature.bind_partial(*args, **kwargs)
            base = bound.arguments.get(into) or _settings.BenchmarkConfig()
            bound.arguments[into] = settings.applied_to(base)
            bound.arguments.setdefault("progress", settings.progress)
            return function(*bound.args, **bound.kwargs)

        return passes_through(accepting)  # type: ignore[return-value]

    return decorate


__getattr__ = moved_names(__name__)
