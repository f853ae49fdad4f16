"""The permutation audit: studentized permutation tests of the run metrics (DiCiccio et al.)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
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
from faircompare.stats.permutation import (
    DICICCIO_2020,
    PERMUTATIONS,
    compare_groups,
    permutation_tests,
)
from faircompare.stats.sequential import (
    DING_GANDY_HAHN_2020,
    GANDY_2009,
    GANDY_HAHN_DING_2020,
    ROBBINS_1970,
    SequentialPlan,
)

# The metrics every run is tested on, privileged group against the rest (AUC too, with scores).
RUN_METRICS = ("positive_rate", "TPR", "FPR", "accuracy")


class PermutationAudit:
    """Studentized permutation tests of the run metrics, privileged group against the rest.

    With more than two groups (the ``numerical`` variant of ACSIncome's nine races, say), each
    group of at least :data:`MIN_GROUP_ROWS` test rows is also compared with the privileged
    one (:func:`group_audit`).
    """

    name = "permutation"
    references = (
        DICICCIO_2020, DING_GANDY_HAHN_2020, GANDY_2009, GANDY_HAHN_DING_2020, HOLM_1979,
        ROBBINS_1970,
    )  # fmt: skip
    uses_model = False  # the tests read the predictions and groups alone
    # 2: the AUC test draws its permutations as uniform subsets (#19); 3: each group of a
    # many-group attribute against the privileged one (#31); 4: those groups drawn in sorted
    # order, the one order of the measures and every test (GroupCounts, #42); 5: sequential
    # tests, drawn until decided (#66), and no test where a side has too few rows (#64); 6:
    # decided at 0.05 / F as well, for the run's F families read together (#80).
    version = "6"

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
        families = run_families(group_sizes(split.sensitive_features_test), split.privileged)
        plan = None if options.plan is None else replace(options.plan, families=families)
        if (short := run.short_group) is not None:
            metrics = RUN_METRICS + (("AUC",) if run.scores is not None else ())
            rows = short_group_rows(self.name, metrics, "rest", short)
        else:
            rows = permutation_audit(
                *arguments,
                privileged=split.privileged,
                scores=run.scores,
                permutations=options.permutations,
                sequential=plan,
                rng=rng,
            )
        # with a side too small, every group is too small or has too small a privileged group
        # to compare with: its rows say so
        rows += group_audit(
            *arguments,
            privileged=split.privileged,
            permutations=options.permutations,
            sequential=plan,
            rng=rng,
        )
        for row in rows:
            if row.pvalue is not None and not np.isnan(row.pvalue):  # a test: read with F
                row.details["families"] = families
        return rows


def group_sizes(sensitive_features: np.ndarray) -> dict[str, int]:
    """Return each group's test rows, the groups named as strings (as the audits name them).

    Parameters
    ----------
    sensitive_features
        Each test row's group.

    Returns
    -------
    dict
        ``{group: rows}``, in sorted order.
    """
    names, counts = np.unique(np.asarray(sensitive_features).astype(str), return_counts=True)
    return dict(zip(names.tolist(), counts.tolist(), strict=True))


def compared_groups(sizes: Mapping[str, int], privileged: Any) -> list[str]:
    """Return the groups a many-group attribute compares with the privileged one, one by one.

    None with two groups (the pooled tests compare them) or with a privileged group of fewer
    than :data:`MIN_GROUP_ROWS` test rows; otherwise every other group of at least that many.

    Parameters
    ----------
    sizes
        Each group's test rows (:func:`group_sizes`).
    privileged
        The privileged group.

    Returns
    -------
    list of str
        The groups compared, in the order of ``sizes``.
    """
    privileged = str(privileged)
    if len(sizes) <= 2 or sizes.get(privileged, 0) < MIN_GROUP_ROWS:
        return []
    return [g for g, n in sizes.items() if g != privileged and n >= MIN_GROUP_ROWS]


def run_families(sizes: Mapping[str, int], privileged: Any) -> int:
    """Return F, the families of a run's permutation tests, which a run-wide reading adjusts.

    The pooled tests are one family (Holm), and each run metric's comparisons of the groups
    with the privileged one another (max-T), where groups are compared
    (:func:`compared_groups`); read together, each family is read at alpha / F (Bonferroni).

    Parameters
    ----------
    sizes
        Each group's test rows (:func:`group_sizes`).
    privileged
        The privileged group.

    Returns
    -------
    int
        1, or 1 + the run metrics with groups compared (5).

    Examples
    --------
    >>> from faircompare.audits.permutation import run_families
    >>> run_families({"a": 500, "b": 400}, "a"), run_families({"a": 500, "b": 400, "c": 40}, "a")
    (1, 5)
    """
    return 1 + len(RUN_METRICS) * bool(compared_groups(sizes, privileged))


def permutation_audit(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sensitive_features: np.ndarray,
    *,
    privileged: Any,
    scores: np.ndarray | None = None,
    permutations: int = PERMUTATIONS,
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
    permutations: int = PERMUTATIONS,
    sequential: SequentialPlan | None = None,
    rng: np.random.Generator | int | None = None,
) -> list[AuditRow]:
    """Compare each group with the privileged one on every run metric, max-T adjusted.

    The studentized statistics of DiCiccio et al. (§3.3), one per group, with one set of joint
    permutations of the group labels per metric; each group's adjusted p-value counts the
    permutations whose largest absolute statistic over the groups reaches its own (the single-step
    max-T method of Westfall & Young 1993, §2.6; asymptotically valid for studentized
    statistics, Chung & Romano 2016), so the family-wise error over the groups is controlled:
    ``tests/stats/test_permutation.py`` checks it by simulation with nine unequal groups. A
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
    sizes = dict(zip(counted.names, counted.counts.sum(1).tolist(), strict=True))
    if len(sizes) <= 2:
        return []  # the pooled test is the comparison of the two groups
    others = [group for group in sizes if group != privileged]
    if (n := sizes.get(privileged, 0)) < MIN_GROUP_ROWS:  # nothing to compare with
        return [
            row
            for group in others
            for row in too_few_rows(
                "permutation", RUN_METRICS, group, n, MIN_GROUP_ROWS, short=privileged
            )
        ]
    compared = compared_groups(sizes, privileged)
    small = [group for group in others if group not in compared]
    rows = [
        row
        for group in small
        for row in too_few_rows("permutation", RUN_METRICS, group, sizes[group], MIN_GROUP_ROWS)
    ]
    if not compared:
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
