"""The FlipTest audit: a run's flipsets under its split's transport map (Black et al.)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from faircompare.audits.cache import SharedSetupAudit
from faircompare.audits.protocol import MIN_GROUP_ROWS, AuditedRun, AuditOptions
from faircompare.audits.rows import fliptest_rows, short_group_rows, too_few_rows
from faircompare.preprocessing import standardisation, standardised
from faircompare.records import AuditRow
from faircompare.stats.fliptest import (
    BLACK_2020,
    MAX_POINTS,
    PARTS,
    flipsets,
    optimal_plan,
    partition,
    subsample_errors,
    transport_sample,
)

if TYPE_CHECKING:  # its former home is this module: at run time the name warns (0.2.0)
    from faircompare.stats.fliptest import FlipTestResult


@dataclass(frozen=True, eq=False)
class Pairs:
    """The pairs of an optimal plan between test rows, each with its share of its source row.

    Attributes
    ----------
    source_rows, counterpart_rows
        Test-row positions of each pair's source row and counterpart; a source row split by
        the plan between several counterparts is in several pairs.
    shares
        The share of its source row each pair carries
        (:class:`~faircompare.stats.fliptest.TransportPlan`).
    """

    source_rows: np.ndarray
    counterpart_rows: np.ndarray
    shares: np.ndarray


@dataclass(frozen=True, eq=False)
class GroupMap:
    """A source group's plan onto the privileged group, and its parts for a sampled map.

    Rows only (at most :data:`~faircompare.stats.fliptest.MAX_POINTS` of a large group): each
    audit standardises their features again, so a split's maps take kilobytes, and a worker
    keeps every split's maps for all the algorithms that follow. The flipsets are those the
    randomised map gives in expectation (weighted by the plan's shares), so they do not move
    with a seed where the groups differ in size.

    Attributes
    ----------
    pairs
        The plan's pairs of test rows.
    mean_cost
        The plan's mean cost of a source row and its counterpart.
    parts
        For a map fitted on a sample, each of its :data:`~faircompare.stats.fliptest.PARTS`
        disjoint parts mapped alone, from which the map's sampling error is read
        (:func:`~faircompare.stats.fliptest.subsample_errors`). Empty for a map of every row.
    """

    pairs: Pairs
    mean_cost: float
    parts: tuple[Pairs, ...] = ()


@dataclass(frozen=True, eq=False)
class FlipTestSetup:
    """What one split's FlipTest audits share: a map per source group, and the groups left out.

    Attributes
    ----------
    maps
        ``"unprivileged"`` (every group but the privileged one, pooled) and, with more than two
        groups, each group of at least :data:`MIN_GROUP_ROWS` test rows.
    small
        The groups too small for a map of their own, with their test rows.
    mean, scale
        The standardisation of the test features the maps were fitted in.
    """

    maps: dict[str, GroupMap]
    small: dict[str, int]
    mean: np.ndarray
    scale: np.ndarray


def split_transport(
    X_test: Any,
    sensitive_features: np.ndarray,
    privileged: Any,
    rng: np.random.Generator | int,
    *,
    max_points: int = MAX_POINTS,
    parts: int = PARTS,
) -> FlipTestSetup:
    """Fit the FlipTest maps of one split onto its privileged test rows.

    Features are standardised over the test rows first, so no feature's scale dominates the
    cost. The unprivileged rows are mapped together, as Black et al. map one group onto
    another; with more than two groups (ACSIncome's nine races), each group large enough is
    also mapped on its own, so that a model's flips are seen group by group. A map of a group
    larger than :data:`~faircompare.stats.fliptest.MAX_POINTS` rows (or onto one) is fitted on
    samples, and the disjoint parts of its samples are mapped alone as well, for its sampling
    error. The maps depend on the data only, so one setup serves every algorithm's audit.

    Parameters
    ----------
    X_test
        The split's numeric test features, dense or sparse (only the rows of each map are
        densified).
    sensitive_features
        Each test row's group.
    privileged
        The privileged group (every map's target).
    rng
        Random generator or seed (the samples of large groups).
    max_points
        Rows per group above which a map is fitted on samples of this many rows of each group.
    parts
        The disjoint parts of a sampled map mapped alone for its error (at least 2; 0: none).

    Returns
    -------
    FlipTestSetup
        The maps, and the groups too small for one.
    """
    rng = np.random.default_rng(rng)
    mean, scale = standardisation(X_test)
    groups = np.asarray(sensitive_features)
    target_rows = np.flatnonzero(groups == privileged)
    sources = {"unprivileged": np.flatnonzero(groups != privileged)}
    names, counts = np.unique(groups[groups != privileged], return_counts=True)
    small = {}
    if len(names) > 1:
        for name, count in zip(names.tolist(), counts.tolist(), strict=True):
            if count < MIN_GROUP_ROWS:
                small[str(name)] = count
            else:
                sources[str(name)] = np.flatnonzero(groups == name)
    maps, samples = {}, {}
    for scope, rows in sources.items():
        # the rows transport() would sample, drawn first: only they are densified
        sampled, targets = transport_sample(
            len(rows), len(target_rows), max_points=max_points, rng=rng
        )
        source_rows, candidates = rows[sampled], target_rows[targets]
        pairs, mean_cost = _planned(X_test, source_rows, candidates, mean, scale)
        maps[scope] = GroupMap(pairs, mean_cost)
        if parts and max(len(rows), len(target_rows)) > max_points:
            samples[scope] = (source_rows, candidates)
    for scope, (source_rows, candidates) in samples.items():  # after the maps: they stay as drawn
        split = partition(source_rows, candidates, parts=parts, rng=rng)
        planned = tuple(_planned(X_test, s, t, mean, scale)[0] for s, t in split)
        maps[scope] = replace(maps[scope], parts=planned)
    return FlipTestSetup(maps, small, mean, scale)


def _planned(
    X: Any, source_rows: np.ndarray, target_rows: np.ndarray, mean: np.ndarray, scale: np.ndarray
) -> tuple[Pairs, float]:
    """Solve the plan of the source rows onto the target rows: its pairs and mean cost."""
    source, target = (standardised(X, r, mean, scale) for r in (source_rows, target_rows))
    plan = optimal_plan(source, target)
    pairs = Pairs(source_rows[plan.rows], target_rows[plan.columns], plan.shares)
    return pairs, plan.mean_cost


class FlipTestAudit(SharedSetupAudit[FlipTestSetup]):
    """FlipTest flipsets of the run's predictions under its split's optimal transport maps."""

    name = "fliptest"
    references = (BLACK_2020,)
    uses_model = False  # the maps pair test rows, whose predictions are stored
    # 2: groups above 3,000 test rows are mapped on a sample (FlipTest at 10^5 rows); each
    # group of a many-group attribute gets its own map (#31). 3: the flipsets are expected
    # under the randomised map (a plan's pairs weighted), and a sampled map's rates and
    # leading features carry their sampling error (#52). 4: no map where the privileged group
    # or the rest has too few rows (#64).
    version = "4"
    top = 5  # leading features kept per flipset

    def setup(self, run: AuditedRun) -> FlipTestSetup:
        """Fit the split's maps (:func:`split_transport`), once for every model.

        Parameters
        ----------
        run
            Any run of the split.

        Returns
        -------
        FlipTestSetup
            The maps, and the groups too small for one.
        """
        split = run.split
        X = run.test_features
        return split_transport(X, split.sensitive_features_test, split.privileged, rng=split.seed)

    def applies(self, run: AuditedRun) -> bool:
        """Return whether the run has numeric features (the map moves them) and both groups.

        Parameters
        ----------
        run
            The run to audit.

        Returns
        -------
        bool
            True where the audit can run.
        """
        return run.numeric and run.both_groups

    def __call__(self, run: AuditedRun, options: AuditOptions) -> list[AuditRow]:
        """Return the F+ and F- rows of every map: rates, sizes, leading features and errors.

        A run whose privileged group or rest has fewer than :data:`MIN_GROUP_ROWS` test rows
        gets rows saying so, and no map.
        """
        if (short := run.short_group) is not None:
            return short_group_rows(self.name, ("F+", "F-"), "unprivileged", short)
        setup, features = self.setups(run), list(run.split.X_test.columns)
        rows = []
        for scope, group in setup.maps.items():
            result = _flipsets(run, setup, group.pairs, features)
            parts = [_flipsets(run, setup, part, features) for part in group.parts]
            errors = subsample_errors(parts) if parts else None
            rows += fliptest_rows(
                result, scope=scope, mean_cost=group.mean_cost, top=self.top, errors=errors
            )
        for name, count in setup.small.items():
            rows += too_few_rows(self.name, ("F+", "F-"), name, count, MIN_GROUP_ROWS)
        return rows


def _flipsets(
    run: AuditedRun, setup: FlipTestSetup, pairs: Pairs, features: list[str]
) -> FlipTestResult:
    """Compute the run's flipsets over a plan's pairs, expected under the randomised map."""
    X = run.test_features
    rows = (pairs.source_rows, pairs.counterpart_rows)
    source, counterparts = (standardised(X, r, setup.mean, setup.scale) for r in rows)
    predictions = (run.y_pred[pairs.source_rows], run.y_pred[pairs.counterpart_rows])
    return flipsets(source, counterparts, *predictions, features=features, weights=pairs.shares)
