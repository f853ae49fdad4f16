"""The audits every benchmark run gets, and the one entry point that runs them.

The three built-in audits are :class:`~faircompare.audits.permutation.PermutationAudit`
(DiCiccio et al.), :class:`~faircompare.audits.fliptest.FlipTestAudit` (Black et al.) and
:class:`~faircompare.audits.individual.IndividualAudit` (Maity et al.). A fourth is an object
following the :class:`~faircompare.audits.protocol.Audit` protocol, registered with
:func:`register_audit` or published by a package under the entry-point group
``faircompare.audits``; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache
from importlib.metadata import entry_points

from faircompare._timeout import RunTimeoutError
from faircompare._validation import check_name
from faircompare.audits.fliptest import FlipTestAudit
from faircompare.audits.individual import IndividualAudit
from faircompare.audits.permutation import PermutationAudit
from faircompare.audits.protocol import (
    MOST_ATTACKS,
    Audit,
    AuditedRun,
    AuditOptions,
    AuditOutcome,
)
from faircompare.choices import AUDIT_ENTRY_POINTS
from faircompare.exceptions import cut_message
from faircompare.plugin_source import source_fingerprint
from faircompare.records import AuditRow

ENTRY_POINTS = AUDIT_ENTRY_POINTS
_REGISTERED: dict[str, Audit] = {}


def audit_run(
    run: AuditedRun, options: AuditOptions | None = None, *, only: Collection[str] | None = None
) -> AuditOutcome:
    """Run every registered audit that applies to ``run``.

    Parameters
    ----------
    run
        The run's split, model and predictions.
    options
        The audits' settings; the defaults when None.
    only
        The names of the audits to run (``faircompare audit`` runs some again); None for all.

    Returns
    -------
    AuditOutcome
        The rows of the audits that ran, and ``{audit: error}`` for those that raised (the
        others still run). A run's time limit is never swallowed.
    """
    options = options or AuditOptions()
    rows: list[AuditRow] = []
    errors: dict[str, str] = {}
    for audit in registered_audits().values():
        if only is not None and audit.name not in only or not audit.applies(run):
            continue
        try:
            rows += audit(run, options)
        except RunTimeoutError:
            raise
        except Exception as error:  # the model fitted: keep its measures, record the audit's error
            errors[audit.name] = cut_message(f"{type(error).__name__}: {error}")
    return AuditOutcome(tuple(rows), errors)


def register_audit(audit: Audit) -> None:
    """Add an audit to every benchmark run in this process (see :class:`Audit`).

    Parameters
    ----------
    audit
        The audit; one of the same name is replaced. Worker processes register their own
        (publish the audit as a ``faircompare.audits`` entry point to reach them all).

    Raises
    ------
    TypeError
        If ``audit`` lacks the protocol's ``name``, ``version``, ``applies`` or ``__call__``.
    BadNameError
        If its name is not lower-case :data:`~faircompare._validation.NAME_RULE`.
    """
    if not isinstance(audit, Audit):
        raise TypeError(
            f"{audit!r} is not an audit: it needs name, version, applies() and __call__()"
        )
    _REGISTERED[check_name(audit.name, what="audit name", lower_case=True)] = audit


def registered_audits() -> dict[str, Audit]:
    """Return the audits every run gets: the built-ins, entry points, then registered ones.

    Returns
    -------
    dict
        Audits by name, in the order they run.
    """
    return {**_builtin_and_published(), **_REGISTERED}


def audit_versions() -> str:
    """Return every audit's name and version, as a run's recorded inputs hold them.

    Returns
    -------
    str
        ``"permutation 2, fliptest 1, individual 2"`` and any plugin audits after them, each
        with a digest of its module's code: a stored run audited by other versions, or by a
        plugin audit whose code changed, is stale.
    """
    return ", ".join(current_versions().values())


def audits_input(
    permutations: int, versions: Mapping[str, str] | None = None, attacks: int = MOST_ATTACKS
) -> str:
    """Return what a run's inputs record of its audits: their settings and versions.

    Parameters
    ----------
    permutations
        The permutation tests' cap (:class:`AuditOptions`).
    versions
        Each audit's ``name version``, in the order audits run (a run audited again in part
        keeps the others' stored versions); None: every registered audit's as it is now.
    attacks
        The individual test's cap of attacks, recorded where it is not the default
        (:data:`~faircompare.audits.protocol.MOST_ATTACKS`: ``faircompare audit
        --undecided`` attacks further).

    Returns
    -------
    str
        ``"on, 300000 permutations, permutation 6, fliptest 4, individual 8"``, or ``"on,
        300000 permutations, 320 attacks, permutation 6, ..."``.
    """
    listed = current_versions() if versions is None else versions
    caps = [f"{permutations} permutations"]
    if attacks != MOST_ATTACKS:
        caps.append(f"{attacks} attacks")
    return ", ".join(["on", *caps, *listed.values()])


def read_audits_input(text: str) -> tuple[int, dict[str, str]] | None:
    """Read what :func:`audits_input` wrote: the permutations and each audit's version.

    Parameters
    ----------
    text
        A run's ``audits`` input.

    Returns
    -------
    tuple or None
        The permutations and ``{audit: "name version"}``; None for a run not audited
        (``"off"``).
    """
    parts = text.split(", ")
    if parts[0] != "on" or len(parts) < 2:
        return None
    permutations = int(parts[1].split()[0])
    listed = [item for item in parts[2:] if not item.endswith(" attacks")]
    return permutations, {item.split()[0]: item for item in listed}


def read_attacks(text: str) -> int:
    """Read the individual test's cap of attacks from what :func:`audits_input` wrote.

    Parameters
    ----------
    text
        A run's ``audits`` input.

    Returns
    -------
    int
        The cap recorded, or :data:`~faircompare.audits.protocol.MOST_ATTACKS` where none is.
    """
    caps = [item for item in text.split(", ")[2:] if item.endswith(" attacks")]
    return int(caps[0].split()[0]) if caps else MOST_ATTACKS


def current_versions() -> dict[str, str]:
    """Return every registered audit's name and version as :func:`audit_versions` lists them.

    Returns
    -------
    dict
        ``{"permutation": "permutation 5", ...}``, with a plugin audit's code digest.
    """
    return {name: _version(name, audit) for name, audit in registered_audits().items()}


def _version(name: str, audit: Audit) -> str:
    code = source_fingerprint(audit)
    return f"{name} {audit.version}" + ("" if code is None else f" (code {code})")


@cache
def _builtin_and_published() -> dict[str, Audit]:
    audits: list[Audit] = [PermutationAudit(), FlipTestAudit(), IndividualAudit()]
    audits += [point.load()() for point in entry_points(group=ENTRY_POINTS)]
    return {check_name(audit.name, what="audit name", lower_case=True): audit for audit in audits}
