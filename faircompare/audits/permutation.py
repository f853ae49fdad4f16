"""The permutation audit: studentized permutation tests of the run metrics (DiCiccio et al.)."""

from __future__ import annotations

from typing import Any

import numpy as np

from faircompare.audits.protocol import AuditedRun, AuditOptions
from faircompare.audits.rows import permutation_rows
from faircompare.records import AuditRow
from faircompare.stats._validation import renamed_arguments
from faircompare.stats.permutation import permutation_tests

# The metrics every run is tested on, privileged group against the rest (AUC too, with scores).
RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")


class PermutationAudit:
    """Studentized permutation tests of the run metrics, privileged group against the rest."""

    name = "permutation"
    # 2: the AUC test draws its permutations as uniform subsets (#19).
    version = "2"

    def applies(self, run: AuditedRun) -> bool:
        """Return True: the tests need predictions and groups only, which every run has.

        Parameters
        ----------
        run
            The run to audit.

        Returns
        -------
        bool
            True where the audit can run.
        """
        return True

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Return one row per run metric (see :func:`permutation_audit`)."""
        split = run.split
        return permutation_audit(
            split.y_test,
            run.y_pred,
            split.sensitive_features_test,
            privileged=split.privileged,
            scores=run.scores,
            permutations=options.permutations,
            rng=run.seed,
        )


@renamed_arguments(groups="sensitive_features")
def permutation_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sensitive_features: np.ndarray,
    *,
    privileged: Any,
    scores: np.ndarray | None = None,
    permutations: int = 1000,
    rng: np.random.Generator | int | None = None,
) -> list[AuditRow]:
    """Run studentized permutation tests, privileged group against the rest, per run metric.

    Demographic parity (positive rate), TPR, FPR and accuracy, and AUC when scores exist, the
    predictions validated and counted once for all of them. Each row has the Holm-adjusted
    p-value across the run's metrics; its details hold the observed difference and the
    p-value's Monte Carlo interval. A metric that is undefined for a group (no negatives, say)
    gets a row with NaN and the reason.

    Parameters
    ----------
    y_true, y_pred
        Test labels and predictions.
    sensitive_features
        Each test row's group (formerly ``groups=``).
    privileged
        The privileged group, tested against everyone else.
    scores
        The model's scores; the AUC is tested only with them.
    permutations
        Permutations per test.
    rng
        Random generator or seed, shared by the tests in turn.

    Returns
    -------
    list of AuditRow
        One row per metric, for the audits table.
    """
    metrics = RUN_METRICS + (("AUC",) if scores is not None else ())
    results = permutation_tests(
        y_true,
        y_pred,
        sensitive_features,
        metrics=metrics,
        group_a=privileged,
        scores=scores,
        permutations=permutations,
        rng=rng,
    )
    return permutation_rows(results)
