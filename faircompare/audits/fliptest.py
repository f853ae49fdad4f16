"""The FlipTest audit: a run's flipsets under its split's transport map (Black et al.)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from faircompare._deprecations import moved_names
from faircompare.audits.cache import SharedSetupAudit
from faircompare.audits.protocol import MIN_GROUP_ROWS, AuditedRun, AuditOptions
from faircompare.audits.rows import fliptest_rows, too_few_rows
from faircompare.preprocessing import standardisation, standardised
from faircompare.records import AuditRow
from faircompare.stats.fliptest import exact_transport, flipsets, transport_sample

__getattr__ = moved_names(__name__)  # names that moved in 0.2.0 (faircompare._deprecations)


@dataclass(frozen=True, eq=False)
class GroupMap:
    """A source group's mapped rows and their counterparts in the privileged group.

    Rows only (at most :data:`~faircompare.stats.fliptest.MAX_POINTS` of a large group): each
    audit standardises their features again, so a split's maps take kilobytes, and a worker
    keeps every split's maps for all the algorithms that follow.

    Attributes
    ----------
    source_rows, counterpart_rows
        Test-row positions of the mapped source rows and of each one's counterpart.
    mean_cost
        The map's mean cost of a source row and its counterpart.
    """

    source_rows: np.ndarray
    counterpart_rows: np.ndarray
    mean_cost: float


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
) -> FlipTestSetup:
    """Fit the FlipTest maps of one split onto its privileged test rows.

    Features are standardised over the test rows first, so no feature's scale dominates the
    cost. The unprivileged rows are mapped together, as Black et al. map one group onto
    another; with more than two groups (ACSIncome's nine races), each group large enough is
    also mapped on its own, so that a model's flips are seen group by group. The maps depend
    on the data only, so one setup serves every algorithm's audit.

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
    maps = {}
    for scope, rows in sources.items():
        # the rows transport() would sample, drawn first: only they are densified
        sampled, targets = transport_sample(len(rows), len(target_rows), rng=rng)
        source_rows, candidates = rows[sampled], target_rows[targets]
        source, target = (standardised(X_test, r, mean, scale) for r in (source_rows, candidates))
        mapping = exact_transport(source, target, rng=rng)
        maps[scope] = GroupMap(source_rows, candidates[mapping.counterparts], mapping.mean_cost)
    return FlipTestSetup(maps, small, mean, scale)


class FlipTestAudit(SharedSetupAudit[FlipTestSetup]):
    """FlipTest flipsets of the run's predictions under its split's optimal transport maps."""

    name = "fliptest"
    # 2: groups above 3,000 test rows are mapped on a sample (FlipTest at 10^5 rows); each
    # group of a many-group attribute gets its own map (#31).
    version = "2"
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
        """Return the F+ and F- rows of every map: rates, sizes and leading features."""
        setup, features = self.setups(run), list(run.split.X_test.columns)
        X = run.test_features
        rows = []
        for scope, group in setup.maps.items():
            source, counterparts = (
                standardised(X, part, setup.mean, setup.scale)
                for part in (group.source_rows, group.counterpart_rows)
            )
            result = flipsets(
                source,
                counterparts,
                run.y_pred[group.source_rows],
                run.y_pred[group.counterpart_rows],
                features=features,
            )
            rows += fliptest_rows(result, scope=scope, mean_cost=group.mean_cost, top=self.top)
        for name, count in setup.small.items():
            rows += too_few_rows(self.name, ("F+", "F-"), name, count, MIN_GROUP_ROWS)
        return rows
