"""A FlipTest map fitted on samples: its flipsets carry their sampling error (#52)."""

import itertools

import numpy as np
import pytest

from faircompare.audits.contract import synthetic_run
from faircompare.audits.fliptest import FlipTestAudit, split_transport
from faircompare.audits.protocol import AuditOptions
from faircompare.audits.rows import fliptest_rows
from faircompare.preprocessing import standardisation, standardised
from faircompare.stats.fliptest import (
    PARTS,
    exact_transport,
    flipsets,
    subsample_errors,
    transport_sample,
)


def two_groups(sizes, seed=0):
    """Groups p (privileged, shifted) and q, and a noisy linear model's predictions."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(["p", "q"], sizes)
    X = rng.normal(size=(len(groups), 4)) + np.outer(groups == "p", [0.5, 0.3, 0, 0])
    h = (X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=len(groups)) > 0.3).astype(int)
    return X, groups, h


def flips(X, h, setup, pairs):
    """The flipsets of predictions ``h`` over a plan's pairs, weighted by their shares."""
    rows = (pairs.source_rows, pairs.counterpart_rows)
    source, counterparts = (standardised(X, r, setup.mean, setup.scale) for r in rows)
    predictions = (h[pairs.source_rows], h[pairs.counterpart_rows])
    return flipsets(source, counterparts, *predictions, weights=pairs.shares)


def sampled_flipsets(X, groups, h, seed, max_points):
    """The rates of the pooled map fitted on samples, and their errors from its parts."""
    setup = split_transport(X, groups, "p", rng=seed, max_points=max_points)
    group = setup.maps["unprivileged"]
    whole = flips(X, h, setup, group.pairs)
    errors, _ = subsample_errors([flips(X, h, setup, part) for part in group.parts])
    return np.array(whole.rates), errors


@pytest.mark.parametrize("sizes", [(1500, 1000), (1500, 300)], ids=["both-sampled", "target"])
def test_the_sampling_error_matches_the_rates_spread_over_seeds(sizes):
    """60 seeds of a map fitted on 400-row samples: the error is the spread, or above it.

    The parts map rows to farther counterparts than the whole map, so the error is
    conservative (measured here: 1.1 to 1.8 times the spread). The spread over 60 seeds is
    itself known within about 9 % (one standard error), so the lower bound 0.8 is two of them
    below equality; two seeds' rates lie within their errors' 95 % interval of the difference
    in at least 90 % of the pairs (measured: 94 % to 99 %).
    """
    X, groups, h = two_groups(sizes)
    results = [sampled_flipsets(X, groups, h, seed, max_points=400) for seed in range(60)]
    rates = np.array([r for r, _ in results])
    errors = np.array([e for _, e in results])
    ratio = errors.mean(axis=0) / rates.std(axis=0, ddof=1)
    assert ((ratio > 0.8) & (ratio < 2.5)).all(), ratio
    for j in range(2):  # F+ and F-
        pairs = itertools.combinations(range(len(rates)), 2)
        within = [
            abs(rates[a, j] - rates[b, j]) <= 1.96 * np.hypot(errors[a, j], errors[b, j])
            for a, b in pairs
        ]
        assert np.mean(within) >= 0.9


def test_a_sampled_map_has_disjoint_parts_of_its_samples_and_an_exact_map_none():
    X, groups, h = two_groups((900, 500))
    setup = split_transport(X, groups, "p", rng=3, max_points=400)
    group = setup.maps["unprivileged"]
    assert len(group.parts) == PARTS
    sources = np.concatenate([part.source_rows for part in group.parts])
    # disjoint, and all the map's rows: 400 sampled of each group, a bijection of samples
    np.testing.assert_array_equal(np.sort(sources), group.pairs.source_rows)
    for part in group.parts:
        assert len(part.source_rows) == len(set(part.counterpart_rows)) == 100
        assert (groups[part.counterpart_rows] == "p").all() and (part.shares == 1).all()
    exact = split_transport(X, groups, "p", rng=3, max_points=1000)
    assert exact.maps["unprivileged"].parts == ()
    # the parts are drawn after the maps: the whole map is the one drawn without them
    rng = np.random.default_rng(3)
    sources, targets = np.flatnonzero(groups == "q"), np.flatnonzero(groups == "p")
    mean, scale = standardisation(X)
    s, t = transport_sample(len(sources), len(targets), max_points=400, rng=rng)
    source, target = (standardised(X, r, mean, scale) for r in (sources[s], targets[t]))
    alone = targets[t][exact_transport(source, target).counterparts]
    np.testing.assert_array_equal(group.pairs.counterpart_rows, alone)


def test_each_flipset_row_records_its_error_and_its_leading_features_errors():
    X, groups, h = two_groups((900, 500))
    setup = split_transport(X, groups, "p", rng=0, max_points=400)
    group = setup.maps["unprivileged"]
    parts = [flips(X, h, setup, part) for part in group.parts]
    errors = subsample_errors(parts)
    whole = flips(X, h, setup, group.pairs)
    rows = fliptest_rows(whole, scope="unprivileged", mean_cost=1.0, top=2, errors=errors)
    for i, row in enumerate(rows):
        # by hand: the parts' rates' standard deviation over the square root of their number
        by_hand = np.std([part.rates[i] for part in parts], ddof=1) / np.sqrt(PARTS)
        assert row.details["monte_carlo_error"] == pytest.approx(by_hand)
        assert row.details["leading_errors"].keys() == row.details["leading_features"].keys()
        feature = next(iter(row.details["leading_errors"]))
        means = [
            part.transparency.set_index(["flipset", "feature"]).loc[(row.metric, feature)]
            for part in parts
        ]
        spread = np.std([m["mean_difference"] for m in means], ddof=1) / np.sqrt(PARTS)
        assert row.details["leading_errors"][feature] == pytest.approx(spread)


def test_an_audit_of_every_row_records_no_sampling_error():
    run = synthetic_run("numerical")  # 120 test rows: every map exact
    rows = FlipTestAudit()(run, AuditOptions())
    assert rows and all(row.details["monte_carlo_error"] == 0.0 for row in rows)
    assert not any("leading_errors" in row.details for row in rows)
