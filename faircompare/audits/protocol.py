"""What an audit is: the run it receives, its settings, the :class:`Audit` protocol, its outcome.

An audit receives an :class:`AuditedRun` (a run's split, fitted model and test predictions) and
:class:`AuditOptions`, and returns :class:`~faircompare.records.AuditRow` rows. The statistics
themselves live in :mod:`faircompare.stats`; an audit adapts a run to them with the benchmark's
settings.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

from faircompare.choices import DEFAULT_PERMUTATIONS
from faircompare.preprocessing import Split, is_sparse_frame, sparse_matrix
from faircompare.records import AuditRow
from faircompare.stats.sequential import SequentialPlan

# Test rows a group needs to be audited: the privileged group and the rest (every audit), and a
# group of a many-group attribute on its own (a comparison with the privileged group, a map);
# a smaller one gets rows giving the reason. Below it a permutation test's studentized statistic
# is far from its normal limit, a transport map pairs a few rows with many, and the fair metric
# of the individual test is learned from a handful of rows.
MIN_GROUP_ROWS = 30
#: Most attacks of a derivative-free individual test: an undecided verdict is attacked again,
#: the attacks doubling (2, 4, 8, 16, 32; the Monte Carlo error halves at four times the attacks).
MOST_ATTACKS = 32


@dataclass(frozen=True)
class AuditOptions:
    """Settings every audit of a benchmark shares.

    Attributes
    ----------
    permutations
        Most permutations per permutation test: a sequential test stops as soon as its verdict
        at :data:`~faircompare.choices.AUDIT_ALPHA` is decided, with a resampling risk of at
        most :data:`~faircompare.choices.RESAMPLING_RISK` for a run's tests
        (:mod:`faircompare.stats.sequential`), and at this cap otherwise; without
        ``sequential``, the permutations of every test.
    sequential
        Draw permutations until the verdict is decided (True), or a fixed number of them.
    attacks
        Most attacks of an individual test of a model without gradients: one whose verdicts
        are undecided after its first attacks is attacked again, the attacks doubling, up to
        this many.
    """

    permutations: int = DEFAULT_PERMUTATIONS
    sequential: bool = True
    attacks: int = MOST_ATTACKS

    @property
    def plan(self) -> SequentialPlan | None:
        """The sequential tests' plan (level, risk, cap); None for tests of fixed size."""
        if not self.sequential:
            return None
        return SequentialPlan(cap=self.permutations)  # at the level and risk of choices.py


@dataclass(frozen=True, eq=False)
class AuditedRun:
    """What an audit receives: one run's split, fitted model and test predictions.

    Attributes
    ----------
    split
        The run's train/test split.
    model
        The fitted estimator.
    y_pred, scores
        Its test predictions, and its scores (None when the model has none).
    seed
        The run's seed, for the audits' own randomness.
    data
        The dataset's fingerprint: with the split's identity, it keys the per-split setups, so
        a setup is never reused for other data.
    """

    split: Split
    model: Any
    y_pred: np.ndarray
    scores: np.ndarray | None
    seed: int
    data: str = ""

    @property
    def split_key(self) -> Hashable:
        """What identifies the split's test data: dataset, variant, attribute, split seed."""
        split = self.split
        return (
            self.data,
            split.dataset,
            split.variant,
            split.sensitive_attribute,
            split.seed,
            split.holdout,
        )

    @cached_property
    def unprivileged(self) -> np.ndarray:
        """Mask of the test rows outside the privileged group (computed once per run)."""
        return np.asarray(self.split.sensitive_features_test != self.split.privileged)

    @property
    def both_groups(self) -> bool:
        """Whether the test rows hold both the privileged group and others."""
        return bool(0 < self.unprivileged.sum() < len(self.unprivileged))

    @property
    def short_group(self) -> tuple[str, int] | None:
        """The side of the comparison below :data:`MIN_GROUP_ROWS` test rows, if one is.

        Returns
        -------
        tuple or None
            ``(group, rows)``: the privileged group's name, or ``"rest"`` for the other rows
            together, and its test rows; None when both sides have enough rows to audit.
        """
        others = int(self.unprivileged.sum())
        sides = ((str(self.split.privileged), len(self.unprivileged) - others), ("rest", others))
        return next(((name, rows) for name, rows in sides if rows < MIN_GROUP_ROWS), None)

    @cached_property
    def test_features(self) -> Any:
        """The split's test features as floats, once per run: CSR where they are stored sparse.

        A wide one-hot encoding stays sparse (ACSIncome: 785 columns), so that the audits
        densify only the rows they use.
        """
        X = self.split.X_test
        return sparse_matrix(X) if is_sparse_frame(X) else X.to_numpy(float)

    @property
    def numeric(self) -> bool:
        """Whether the features are numeric (every variant but ``original``)."""
        return self.split.variant != "original"


@runtime_checkable
class Audit(Protocol):
    """An audit of a fitted model: a name, a version, when it applies, and the rows it yields.

    Attributes
    ----------
    name
        The audit's name, the ``audit`` column of its rows.
    version
        Part of every run's recorded inputs: change it when the audit computes other numbers,
        so that stored rows of the earlier code are reported as stale.

    Notes
    -----
    An audit may also say whether it reads the fitted model, ``uses_model`` (a bool): one that
    does not (it reads the split and the predictions) is run again by ``faircompare audit``
    from a stored run's predictions, without refitting it; one that does not say is taken to
    read the model. It may also name the works to cite for it, ``references`` (a tuple of
    :class:`~faircompare.bibliography.Reference`): ``faircompare cite`` lists them for every
    study it audited.
    """

    name: str
    version: str

    def applies(self, run: AuditedRun) -> bool:
        """Return whether the audit can run on ``run``.

        Parameters
        ----------
        run
            The run to audit.

        Returns
        -------
        bool
            False to skip the run (no row, no error).
        """
        ...

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Audit ``run`` and return its rows.

        Parameters
        ----------
        run
            The run to audit.
        options
            The audits' settings.

        Returns
        -------
        list of AuditRow
            The audit's rows for the store.
        """
        ...


class AuditOutcome(NamedTuple):
    """The rows of every audit that ran, and the error of each that failed.

    Attributes
    ----------
    rows
        The rows of the audits that ran.
    errors
        ``{audit: error}`` for each audit that raised.
    """

    rows: tuple[AuditRow, ...]
    errors: dict[str, str]
