"""The FlipTest audit: a run's flipsets under its split's transport map (Black et al.)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from faircompare.audits.cache import SharedSetupAudit, standardisation
from faircompare.audits.protocol import AuditedRun, AuditOptions
from faircompare.audits.rows import fliptest_rows
from faircompare.records import AuditRow
from faircompare.stats.fliptest import TransportMap, fliptest, transport


@dataclass(frozen=True, eq=False)
class FlipTestSetup:
    """What one split's FlipTest audits share: the standardised groups and their map."""

    source: np.ndarray
    target: np.ndarray
    transport_map: TransportMap


def split_transport(
    X_test: np.ndarray,
    sensitive_features: np.ndarray,
    privileged: Any,
    rng: np.random.Generator | int,
) -> FlipTestSetup:
    """Fit the FlipTest map of one split: unprivileged test rows to privileged ones.

    Features are standardised over the test rows first, so no feature's scale dominates the
    cost. The map depends on the data only, so one setup serves every algorithm's audit.

    Parameters
    ----------
    X_test
        The split's numeric test features.
    sensitive_features
        Each test row's group.
    privileged
        The privileged group (the map's target).
    rng
        Random generator or seed (batches of a large problem).

    Returns
    -------
    FlipTestSetup
        The standardised groups and the map between them.
    """
    X = np.asarray(X_test, dtype=float)
    mean, scale = standardisation(X)
    features = (X - mean) / scale
    unprivileged = sensitive_features != privileged
    source, target = features[unprivileged], features[~unprivileged]
    return FlipTestSetup(source, target, transport(source, target, rng=rng))


class FlipTestAudit(SharedSetupAudit[FlipTestSetup]):
    """FlipTest flipsets of the run's predictions under its split's optimal transport map."""

    name = "fliptest"
    version = "1"
    top = 5  # leading features kept per flipset

    def setup(self, run: AuditedRun) -> FlipTestSetup:
        """Fit the split's map (:func:`split_transport`), once for every model.

        Parameters
        ----------
        run
            Any run of the split.

        Returns
        -------
        FlipTestSetup
            The standardised groups and their map.
        """
        split = run.split
        X = split.X_test.to_numpy(float)
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
        """Return the F+ and F- rows: each flipset's rate, size and leading features."""
        setup, unprivileged = self.setups(run), run.unprivileged
        result = fliptest(
            setup.source,
            setup.target,
            run.y_pred[unprivileged],
            run.y_pred[~unprivileged],
            setup.transport_map,
            features=list(run.split.X_test.columns),
        )
        return fliptest_rows(
            result,
            source_size=len(setup.source),
            mean_cost=setup.transport_map.mean_cost,
            top=self.top,
        )
