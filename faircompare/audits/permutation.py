"""The permutation audit: studentized permutation tests of the run metrics (DiCiccio et al.)."""

from __future__ import annotations

from typing import Any

import numpy as np

from faircompare.audits.protocol import MIN_GROUP_ROWS, AuditedRun, AuditOptions
from faircompare.audits.rows import (
    group_rows,
    permutation_rows,
    short_group_rows,
    too_few_rows,
)
from faircompare.records import AuditRow
from faircompare.stats.groups import GroupCounts
from faircompare.stats.multitest import HOLM_1979
from faircompare.stats.permutation import DICICCIO_2020, compare_groups, permutation_tests
from faircompare.stats.sequential import DING_GANDY_HAHN_2020, GANDY_2009, SequentialPlan

# The metrics every run is tested on, privileged group against the rest (AUC too, with scores).
RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")


class PermutationAudit:
    """Studentized permutation tests of the run metrics, privileged group against the rest.

    With more than two groups (the ``numerical`` variant of ACSIncome's nine races, say), each
    group of at least :data:`MIN_GROUP_ROWS` test rows is also compared with the privileged
    one (:func:`group_audit`).
    """

    name = "permutation"
    references = (DICICCIO_2020, DING_GANDY_HAHN_2020, GANDY_2009, HOLM_1979)
    uses_model = False  # the tests read the predictions and groups alone
    # 2: the AUC test draws its permutations as uniform subsets (#19); 3: each group of a
    # many-group attribute against the privileged one (#31); 4: those groups drawn in sorted
    # order, the one order of the measures and every test (GroupCounts, #42); 5: sequential
    # tests, drawn until decided (#66), and no test where a side has too few rows (#64).
    version = "5"

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
        """Return one row per run metric (see :func:`permutation_audit`).

        A run whose privileged group or rest has fewer than :data:`MIN_GROUP_ROWS` test rows
        gets rows saying so, and no test.
        """
        split = run.split
        arguments = (split.y_test, run.y_pred, split.sensitive_features_test)
        rng = np.random.default_rng(run.seed)
        if (short := run.short_group) is not None:
            metrics = RUN_METRICS + (("AUC",) if run.scores is not None else ())
            rows = short_group_rows(self.name, metrics, "rest", short)
        else:
            rows = permutation_audit(
                *arguments,
                privileged=split.privileged,
                scores=run.scores,
                permutations=options.permutations,
                sequential=options.plan,
                rng=rng,
            )
        # with a side too small, every group is too small or has too small a privileged group
        # to compare with: its rows say so
        return rows + group_audit(
            *arguments,
            privileged=split.privileged,
            permutations=options.permutations,
            sequential=options.plan,
            rng=rng,
        )


def permutation_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sensitive_features: np.ndarray,
    *,
    privileged: Any,
    scores: np.ndarray | None = None,
    permutations: int = 1000,
    sequential: SequentialPlan | None = None,
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
        Each test row's group.
    privileged
        The privileged group, tested against everyone else.
    scores
        The model's scores; the AUC is tested only with them.
    permutations
        Permutations per test (without ``sequential``).
    sequential
        Draw the run's tests until their Holm-adjusted verdicts are decided, up to the plan's
        cap (:func:`~faircompare.stats.permutation_tests`).
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
        sequential=sequential,
        rng=rng,
    )
    return permutation_rows(results)


def group_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sensitive_features: np.ndarray,
    *,
    privileged: Any,
    permutations: int = 1000,
    sequential: SequentialPlan | None = None,
    rng: np.random.Generator | int | None = None,
) -> list[AuditRow]:
    """Compare each group with the privileged one on every run metric, max-T adjusted.

    The studentized statistics of DiCiccio et al. (§3.3), one per group, with one set of joint
    permutations of the group labels per metric; each group's adjusted p-value counts the
    permutations whose largest absolute statistic over the groups reaches its own (the single-step
    max-T method of Westfall & Young 1993, §2.6; asymptotically valid for studentized
    statistics, Chung & Romano 2016), so the family-wise error over the groups is controlled:
    ``tests/stats/test_permutation.py`` measures it at 0.042 with nine unequal groups. A
    group with fewer than :data:`MIN_GROUP_ROWS` test rows gets a row saying so.

    Parameters
    ----------
    y_true, y_pred
        Test labels and predictions.
    sensitive_features
        Each test row's group.
    privileged
        The group every other one is compared with.
    permutations
        Permutations per metric (without ``sequential``).
    sequential
        Draw each metric's joint permutations until every group's max-T verdict is decided,
        up to the plan's cap (:func:`~faircompare.stats.compare_groups`).
    rng
        Random generator or seed.

    Returns
    -------
    list of AuditRow
        Per metric, one row per group other than the privileged one (``scope`` the group);
        none with two groups, which the pooled test already compares.
    """
    groups, privileged = np.asarray(sensitive_features).astype(str), str(privileged)
    counted = GroupCounts.from_predictions(y_true, y_pred, groups)
    if len(counted.names) <= 2:
        return []  # the pooled test is the comparison of the two groups
    sizes = dict(zip(counted.names, counted.counts.sum(1).tolist(), strict=True))
    others = [group for group in sizes if group != privileged]
    if (n := sizes.get(privileged, 0)) < MIN_GROUP_ROWS:  # nothing to compare with
        return [
            row
            for group in others
            for row in too_few_rows(
                "permutation", RUN_METRICS, group, n, MIN_GROUP_ROWS, short=privileged
            )
        ]
    small = [group for group in others if sizes[group] < MIN_GROUP_ROWS]
    rows = [
        row
        for group in small
        for row in too_few_rows("permutation", RUN_METRICS, group, sizes[group], MIN_GROUP_ROWS)
    ]
    if len(small) == len(others):
        return rows
    kept = ~np.isin(groups, small)
    y, yhat, groups = counted.y_true[kept], counted.y_pred[kept], groups[kept]
    for metric in RUN_METRICS:
        comparison = compare_groups(
            y, yhat, groups, metric=metric, privileged=privileged, permutations=permutations,
            sequential=sequential, rng=rng,
        )  # fmt: skip
        rows += group_rows(comparison, sizes)
    return rows
