"""Where algorithms come from.

Built-ins, the ``faircompare.algorithms`` entry-point group, and plugin files in a folder
(``--plugins DIR``).

A plugin is a :class:`~faircompare.algorithms.base.FairEstimator` subclass with a class attribute
``name``; an entry point names such a class, or a mapping from algorithm names to functions that
build estimators, for a family of algorithms (a pre-processing method followed by each baseline,
:func:`~faircompare.algorithms.representation.with_baselines`). A plugin that cannot be loaded
(a missing optional dependency, an error in its file) is listed as unavailable, with the reason,
instead of stopping the program. So is one whose name breaks the naming rule
(:data:`~faircompare._validation.NAME_RULE`, lower case): it is listed under a stand-in name
made of its letters and digits, and never reaches a file name, a page or the store.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from faircompare._plugin_trial import execute, trial
from faircompare._validation import check_choice, check_name, is_name
from faircompare.algorithms.base import FairEstimator
from faircompare.algorithms.calders import TwoNaiveBayes
from faircompare.algorithms.feldman import FeldmanClassifier
from faircompare.algorithms.kamishima import PrejudiceRemover
from faircompare.algorithms.reductions import ExponentiatedGradientReduction, GridSearchReduction
from faircompare.algorithms.representation import BASELINES, MODERN_BASELINES
from faircompare.algorithms.search import space_of
from faircompare.algorithms.unprocessed import UNPROCESSED_BASELINES, UnprocessedClassifier
from faircompare.algorithms.zafar import ZafarAccuracy, ZafarFairness
from faircompare.bibliography import Reference, as_record, unique
from faircompare.choices import ALGORITHM_ENTRY_POINTS, FAMILIES
from faircompare.exceptions import BadNameError, FaircompareError
from faircompare.file_names import slug
from faircompare.plugin_source import folder_fingerprint, source_fingerprint

__all__ = [
    "Algorithm",
    "AlgorithmUnavailableError",
    "algorithms",
    "families",
    "find_algorithm",
    "get_algorithm",
    "load_plugin_file",
]

ENTRY_POINT_GROUP = ALGORITHM_ENTRY_POINTS


class AlgorithmUnavailableError(FaircompareError, RuntimeError):
    """An algorithm that is registered but cannot be loaded here."""


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm: how to build it and where it came from.

    Attributes
    ----------
    name
        Registry name, used in configurations and results.
    make
        Builds a new estimator with default parameters; None when unavailable.
    source
        ``built-in``, the entry point, or the plugin file.
    unavailable
        Why it cannot be loaded, or None.
    missing
        The package whose absence makes it unavailable (``torch``), or None: the one to
        install.
    """

    name: str
    make: Callable[[], FairEstimator] | None
    source: str
    unavailable: str | None = None
    missing: str | None = None

    @property
    def code(self) -> str | None:
        """A digest of a plugin's code (its folder's files, or its module's); None if built in."""
        if self.source == "built-in" or self.make is None:
            return None
        path = Path(self.source)
        return folder_fingerprint(path) if path.is_file() else source_fingerprint(self.make)

    def create(self, **params: Any) -> FairEstimator:
        """Build the estimator with ``params`` set (unknown names are an error listing them).

        Parameters
        ----------
        **params
            The estimator's parameters; those not given keep their defaults.

        Returns
        -------
        FairEstimator
            A new, unfitted estimator.
        """
        if self.make is None:
            raise AlgorithmUnavailableError(
                f"algorithm {self.name!r} is unavailable: {self.unavailable}"
            )
        estimator = self.make()
        valid = estimator.get_params(deep=True)
        for key in params:
            check_choice(key, valid, what=f"parameter of {self.name}")
        return estimator.set_params(**params)

    @property
    def in_default_profile(self) -> bool:
        """Whether the ``default`` profile runs it: available, and not opted out.

        Its class opts out with :attr:`FairEstimator.in_default_profile`, its builder with an
        attribute ``in_default_profile = False`` (the SVM pipelines of a costly
        pre-processing, :func:`~faircompare.algorithms.representation.with_baselines`).
        """
        if self.make is None:
            return False
        return (
            getattr(self.make, "in_default_profile", True)
            and self.estimator_class.in_default_profile
        )

    @property
    def estimator_class(self) -> type[FairEstimator]:
        """The estimator's class.

        Raises
        ------
        AlgorithmUnavailableError
            If the algorithm cannot be loaded here; the message says why.
        """
        return type(self.create())

    def describe(self) -> dict[str, Any]:
        """Describe the algorithm: name, family, library, source, variants, grid, availability.

        Returns
        -------
        dict
            ``name``, ``description`` (the first line of the class's docstring), ``family``,
            ``library``, ``version``, ``references`` (the fields of each work
            :func:`cited` names), ``source``, ``available``, ``reason`` (why it is
            unavailable, or None), ``supports``, ``param_grid``, ``search_space`` (each
            parameter a tuner may draw and its range, in words:
            :func:`~faircompare.algorithms.search.space_of`), ``uses_sensitive_at_predict`` and
            ``in_default_profile``.
        """
        estimator = self.create() if self.make is not None else None
        cls = type(estimator) if estimator is not None else None
        return {
            "name": self.name,
            "description": docstring_summary(cls) if cls else f"unavailable: {self.unavailable}",
            # a family the plugin misspelt (check-plugin says so) counts as unspecified, so
            # listings and the report's tables keep the algorithm
            "family": cls.family if cls and cls.family in FAMILIES else "unspecified",
            "library": cls.library if cls else None,
            "version": cls.version if cls else None,
            "references": [as_record(r) for r in cited(estimator)] if estimator else [],
            "source": self.source,
            "available": cls is not None,
            "reason": self.unavailable,
            "supports": sorted(cls.supports) if cls else [],
            "param_grid": dict(cls.param_grid) if cls else {},
            "search_space": {
                name: str(dimension) for name, dimension in space_of(estimator).items()
            }
            if estimator is not None
            else {},
            "uses_sensitive_at_predict": bool(cls and cls.uses_sensitive_at_predict),
            "in_default_profile": self.in_default_profile,
        }


def cited(estimator: FairEstimator) -> tuple[Reference, ...]:
    """Return the works to cite for an estimator: its class's, then those of the estimators in it.

    A pipeline (``feldman-svm``: the repair, then scikit-learn's SVM) cites the method and the
    model it trains.
    """
    inner = (v for v in estimator.get_params(deep=False).values() if isinstance(v, FairEstimator))
    return unique([*type(estimator).references, *(r for e in inner for r in cited(e))])


def docstring_summary(obj: object) -> str:
    """Return the first line of an object's docstring, or "" where it has none."""
    return (inspect.getdoc(obj) or "").partition("\n")[0]


def _builtin() -> dict[str, Callable[[], FairEstimator]]:
    baselines: dict[str, Callable[[], FairEstimator]] = {**BASELINES, **MODERN_BASELINES}
    feldman = {
        f"feldman-{name}": (lambda make=make: FeldmanClassifier(estimator=make()))
        for name, make in baselines.items()
    }
    reductions = {
        f"reductions-{short}-{tag}": (lambda cls=cls, c=constraint: cls(constraint=c))
        for short, cls in (("eg", ExponentiatedGradientReduction), ("gs", GridSearchReduction))
        for tag, constraint in (("dp", "demographic_parity"), ("eo", "equalized_odds"))
    }
    unprocessed = {
        f"unprocessed-{name}": (lambda make=make: UnprocessedClassifier(estimator=make()))
        for name, make in UNPROCESSED_BASELINES.items()
    }
    paper = {
        "kamishima": PrejudiceRemover,
        "calders": TwoNaiveBayes,
        "zafar-fairness": ZafarFairness,
        "zafar-accuracy": ZafarAccuracy,
    }
    return baselines | feldman | paper | reductions | unprocessed


@contextmanager
def _quiet_imports() -> Iterator[None]:
    """Hold back log messages that plugin packages emit on import (AIF360 logs several)."""
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


def _plugin_class(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, FairEstimator) and "name" in vars(obj)


def _named(algorithm: Algorithm) -> Algorithm:
    """Return an algorithm, or an unavailable stand-in for it where its name breaks the rule."""
    try:
        check_name(algorithm.name, what="algorithm name", lower_case=True)
    except BadNameError as error:
        stand_in = f"invalid-name-{slug(algorithm.name)}"[:64].rstrip("-")
        return Algorithm(stand_in, None, algorithm.source, str(error))
    return algorithm


def _from_entry_points() -> list[Algorithm]:
    found = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        source = f"entry point {point.value}"
        try:
            with _quiet_imports():
                obj = point.load()
        except Exception as error:  # any failure to import a plugin makes it unavailable
            reason = f"{type(error).__name__}: {error}"
            missing = error.name if isinstance(error, ModuleNotFoundError) else None
            package = missing.partition(".")[0] if missing else None
            found.append(Algorithm(point.name, None, source, reason, package))
            continue
        if _plugin_class(obj):
            found.append(Algorithm(point.name, obj, source))
        elif isinstance(obj, Mapping) and all(callable(make) for make in obj.values()):
            found += [Algorithm(name, make, source) for name, make in obj.items()]
        else:
            reason = (
                "names neither a FairEstimator subclass with a 'name' attribute nor a mapping "
                "of algorithm names to functions building estimators"
            )
            found.append(Algorithm(point.name, None, source, reason))
    return [_named(algorithm) for algorithm in found]


#: Seconds a plugin file may take to import (``check-plugin --timeout`` sets its own).
IMPORT_SECONDS = 60.0


def plugin_module(path: Path, *, timeout: float = IMPORT_SECONDS) -> ModuleType:
    """Execute one plugin file once per process and content, and return its module.

    Parameters
    ----------
    path
        The plugin's Python file (edited, it is executed again).
    timeout
        Seconds its import may take.

    Returns
    -------
    module
        The executed module; its algorithms and audits are read from it.

    Raises
    ------
    PluginImportError
        Saying what executing the file raised, that it ended the process (``sys.exit``,
        ``os._exit``, a signal), or that it did not finish within ``timeout`` seconds.
    """
    return _imported(path, path.read_bytes(), timeout)


class PluginImportError(FaircompareError):
    """Why a plugin file could not be imported: what it raised, or that it ended or hung."""


# each plugin file's import, by path and content: its module, or why it failed (executed once,
# so its classes are the same objects for every caller, whatever time limit it asked)
_IMPORTS: dict[tuple[Path, bytes], ModuleType | PluginImportError] = {}


def _imported(path: Path, content: bytes, timeout: float) -> ModuleType:
    """Execute a plugin file once within ``timeout`` seconds; raise why it failed otherwise.

    The file is tried in a child process first (:mod:`faircompare._plugin_trial`), so that one
    that ends or hangs the process is reported rather than followed. The failure is kept as
    well as the module, so that a file that hangs costs its time limit once per process (the
    first import's limit is the one that applies).
    """
    key = (path, content)
    if key not in _IMPORTS:
        failure = trial(path, timeout)
        executed = execute(path, timeout) if failure is None else failure
        _IMPORTS[key] = PluginImportError(executed) if isinstance(executed, str) else executed
    outcome = _IMPORTS[key]
    if isinstance(outcome, PluginImportError):
        raise outcome
    return outcome


def defined_in(module: ModuleType) -> list[Any]:
    """Return the objects a module defines itself (not those it imports).

    Parameters
    ----------
    module
        A plugin module.

    Returns
    -------
    list
        Its classes and functions whose ``__module__`` is the module's own name.
    """
    return [
        obj for obj in vars(module).values() if getattr(obj, "__module__", "") == module.__name__
    ]


def load_plugin_file(path: str | Path, *, timeout: float = IMPORT_SECONDS) -> list[Algorithm]:
    """Load the plugin classes defined in one Python file (or why it cannot be loaded).

    A file that raises at import, ends the process there (``sys.exit``, ``os._exit``, a
    signal) or does not finish importing within ``timeout`` seconds is reported, not raised:
    it is tried in a child process first, its entry says why, and the command goes on without
    it. (Each outcome once per process and content: a file that hangs costs its time limit
    once.)

    Parameters
    ----------
    path
        The plugin file.
    timeout
        Seconds its import may take.

    Returns
    -------
    list of Algorithm
        Its algorithms; one unavailable entry, with the reason, when the file cannot be loaded.
    """
    path = Path(path)
    try:
        module = plugin_module(path.resolve(), timeout=timeout)
    except PluginImportError as failure:  # a broken plugin file is reported, not raised
        return [Algorithm(path.stem, None, str(path), str(failure))]
    classes = [obj for obj in defined_in(module) if _plugin_class(obj)]
    if not classes:
        reason = "defines no FairEstimator subclass with a 'name' attribute"
        return [Algorithm(path.stem, None, str(path), reason)]
    return [_named(Algorithm(cls.name, cls, str(path))) for cls in classes]


def algorithms(plugins: str | Path | None = None) -> Mapping[str, Algorithm]:
    """Return every known algorithm: built-ins, entry points, then the plugin files in ``plugins``.

    Parameters
    ----------
    plugins
        A folder of plugin files (every ``*.py`` directly in it; subfolders are not searched),
        or None.

    Returns
    -------
    Mapping of str to Algorithm
        Each algorithm by name, an unavailable one with the reason.

    Raises
    ------
    FaircompareError
        If two sources register the same name, or ``plugins`` is not a folder.
    """
    found = [Algorithm(name, make, "built-in") for name, make in _builtin().items()]
    found += _from_entry_points()
    if plugins is not None:
        folder = Path(plugins)
        if not folder.is_dir():
            raise FaircompareError(f"plugin folder {folder} does not exist")
        for path in sorted(folder.glob("*.py")):
            found += load_plugin_file(path)
    registry: dict[str, Algorithm] = {}
    for algorithm in found:
        if algorithm.name in registry:
            raise FaircompareError(
                f"algorithm name {algorithm.name!r} is registered twice: by "
                f"{registry[algorithm.name].source} and by {algorithm.source}"
            )
        registry[algorithm.name] = algorithm
    return registry


def families(names: Iterable[str], plugins: str | Path | None = None) -> dict[str, str]:
    """Return each algorithm's family (``unspecified`` where unknown or unavailable here).

    Parameters
    ----------
    names
        Algorithm names.
    plugins
        A folder of plugin files, searched too.

    Returns
    -------
    dict of str to str
        Each name's family.
    """
    known = algorithms(plugins)
    return {
        name: known[name].describe()["family"] if name in known else "unspecified" for name in names
    }


def find_algorithm(name: str, plugins: str | Path | None = None) -> Algorithm:
    """Return the algorithm called ``name``, importing no more than it needs.

    A built-in, or the entry point of that name, is found without importing the other entry
    points (torch and AIF360, 0.25 GB in every benchmark worker); any other name goes through
    :func:`get_algorithm`. The planner, which runs :func:`algorithms`, has already refused
    names registered twice.

    Parameters
    ----------
    name
        The algorithm's name.
    plugins
        A folder of plugin files, or None.

    Returns
    -------
    Algorithm
        The algorithm.
    """
    if plugins is None and is_name(name, lower_case=True):
        builtin = _builtin()
        if name in builtin:
            return Algorithm(name, builtin[name], "built-in")
        for point in entry_points(group=ENTRY_POINT_GROUP, name=name):
            with _quiet_imports():
                obj = point.load()
            if _plugin_class(obj):
                return Algorithm(name, obj, f"entry point {point.value}")
    return get_algorithm(name, plugins)


def get_algorithm(name: str, plugins: str | Path | None = None) -> Algorithm:
    """Return the algorithm called ``name``.

    Parameters
    ----------
    name
        The algorithm's name (``faircompare list algorithms`` lists them).
    plugins
        A folder of plugin files, searched too.

    Returns
    -------
    Algorithm
        The algorithm; :meth:`Algorithm.create` builds its estimator.

    Raises
    ------
    ChoiceError
        For an unknown name, listing the valid ones.
    """
    registry = algorithms(plugins)
    return registry[check_choice(name, registry, what="algorithm")]
