"""Check a plugin against the contracts, as ``faircompare check-plugin`` does.

:func:`check_plugin` runs the algorithm contract (:func:`faircompare.algorithms.contract.
check_contract`) on every algorithm of a plugin file (or on one registered algorithm), the audit
contract (:func:`faircompare.audits.contract.check_audit`) on every audit the file defines, and
checks that none of it left a file in the working directory. The command line prints the
:class:`PluginCheck` it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from faircompare.algorithms.base import FairEstimator
from faircompare.algorithms.contract import Check, check_contract, undeclared
from faircompare.audits.contract import check_audit, plugin_audits
from faircompare.audits.protocol import Audit
from faircompare.registry import (
    Algorithm,
    defined_in,
    get_algorithm,
    load_plugin_file,
    plugin_module,
)

__all__ = ["PluginCheck", "check_plugin"]


@dataclass(frozen=True)
class PluginCheck:
    """The outcome of :func:`check_plugin`.

    Attributes
    ----------
    outcomes
        Each subject (an algorithm's name, ``audit NAME``, or the target itself for the working
        directory) with the outcome of each check run on it, in order.
    warnings
        What the plugin may have left unsaid: each class attribute an algorithm inherits from
        :class:`~faircompare.algorithms.FairEstimator` (:func:`~faircompare.algorithms.
        contract.undeclared`).
    """

    outcomes: tuple[tuple[str, tuple[Check, ...]], ...]
    warnings: tuple[str, ...] = ()

    @property
    def failed(self) -> int:
        """The checks that failed."""
        return sum(not check.passed for _, checks in self.outcomes for check in checks)

    @property
    def passed(self) -> int:
        """The checks that passed."""
        return sum(check.passed for _, checks in self.outcomes for check in checks)

    def lines(self) -> list[str]:
        """Return the report as ``check-plugin`` prints it.

        Returns
        -------
        list of str
            A ``WARN`` line per warning, a ``PASS`` or ``FAIL`` line per check (with its
            detail indented below), and the counts.
        """
        shown = [f"WARN  {warning}" for warning in self.warnings]
        for name, checks in self.outcomes:
            for check in checks:
                shown.append(f"{'PASS' if check.passed else 'FAIL'}  {name}: {check.name}")
                if check.detail:
                    shown.append("      " + check.detail.replace("\n", "\n      "))
        return [*shown, f"{self.passed} passed, {self.failed} failed"]


def check_plugin(
    target: str | Path, plugins: str | Path | None = None, *, timeout: float = 60.0
) -> PluginCheck:
    """Check that the algorithms and audits of a plugin keep their contracts.

    A plugin is Python code, run with your rights: loading it runs it, so check only plugins
    you would run.

    Parameters
    ----------
    target
        A plugin file (``*.py``), or the name of a registered algorithm.
    plugins
        A folder of plugin files where ``target`` names an algorithm, or None.
    timeout
        Seconds the file's import and each check may take before it is stopped and failed.

    Returns
    -------
    PluginCheck
        Each algorithm's and audit's checks, then whether the working directory holds a file it
        did not hold before.

    Raises
    ------
    ChoiceError
        If ``target`` is neither a ``.py`` file nor a registered algorithm.
    """
    before = set(Path.cwd().iterdir())
    path = Path(target)
    chosen = (
        load_plugin_file(path, timeout=timeout)
        if path.suffix == ".py"
        else [get_algorithm(str(target), plugins)]
    )
    audits = _plugin_audits(path, timeout) if path.suffix == ".py" else []
    if audits and all(algorithm.make is None for algorithm in chosen):
        chosen = []  # a file that loads, of audits only: it defines no algorithm, rightly
    outcomes = [(algorithm.name, tuple(_contract(algorithm, timeout))) for algorithm in chosen]
    outcomes += [(f"audit {a.name}", tuple(check_audit(a, timeout=timeout))) for a in audits]
    created = sorted(str(p.relative_to(Path.cwd())) for p in set(Path.cwd().iterdir()) - before)
    detail = f"the plugin created {', '.join(created)}" if created else ""
    outcomes.append(
        (str(target), (Check("leaves the working directory as it was", not created, detail),))
    )
    return PluginCheck(tuple(outcomes), tuple(_undeclared(chosen)))


def _plugin_audits(path: Path, timeout: float) -> list[Audit]:
    """Return the audits a plugin file defines (none if it cannot load: its algorithms say why)."""
    try:
        module = plugin_module(path.resolve(), timeout=timeout)
    except Exception:  # reported once, by load_plugin_file
        return []
    return plugin_audits(defined_in(module))


def _contract(algorithm: Algorithm, timeout: float) -> list[Check]:
    if algorithm.make is None:
        return [Check("loads", False, algorithm.unavailable or "unavailable")]
    return check_contract(algorithm.make, timeout=timeout)


def _undeclared(chosen: list[Algorithm]) -> list[str]:
    """Say, of each attribute an algorithm inherits from FairEstimator, to declare it."""
    return [
        f"{algorithm.name}: does not declare {attribute!r} (inherits "
        f"{getattr(FairEstimator, attribute)!r}); see the plugin reference, docs/guide/plugins.md"
        for algorithm in chosen
        if algorithm.make is not None
        for attribute in undeclared(algorithm.estimator_class)
    ]
