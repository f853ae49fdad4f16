"""FlipTest (Black, Yeom & Fredrikson, FAT* 2020): optimal-transport counterparts and flipsets.

Each member x of a source group S (for example, the unprivileged) is paired with a counterpart
G(x) in the target group S' by an optimal transport map, which minimises the total cost of the
pairs (squared L1 distance, as in the paper, §2). A classifier h then has two flipsets (§4):
F+ = {x : h(x) = 1, h(G(x)) = 0} and F- = {x : h(x) = 0, h(G(x)) = 1}; with an exact map
between groups of equal size, F+ and F- are equally large exactly when h satisfies demographic
parity on the observed points (Proposition 2). The transparency report (Definition 2) ranks the
features by the mean of x - G(x), and by the mean of its sign, over each flipset.

The map depends on the data, not on the model: fit it once per split and audit any number of
classifiers with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from faircompare._deprecations import RenamedAttribute
from faircompare._validation import check_choice
from faircompare.bibliography import Reference

COSTS = {"sqeuclidean_l1": "cityblock", "sqeuclidean": "euclidean"}
MAX_POINTS = 3000  # points per group above which the map is fitted on a random sample
PARTS = 4  # disjoint parts of a sampled map's rows, each mapped alone: the map's sampling error
_OPTIMAL = 1  # POT's result code for an optimal plan
_RARE_SHARE = 0.2  # a two-valued column's rarer value up to which the L1 sum adds blocks


#: Black, Yeom and Fredrikson's FlipTest.
BLACK_2020 = Reference(
    key="black2020fliptest",
    authors=("Black, Emily", "Yeom, Samuel", "Fredrikson, Matt"),
    title="FlipTest: Fairness Testing via Optimal Transport",
    year=2020,
    venue="Proceedings of the 2020 Conference on Fairness, Accountability, and Transparency "
    "(FAT* '20)",
    pages="111-121",
    doi="10.1145/3351095.3372845",
)


@dataclass(frozen=True, eq=False)
class TransportMap:
    """An optimal transport map from the source rows to target rows.

    Attributes
    ----------
    counterparts
        For each mapped source row, the position of its counterpart among the target rows.
    cost
        The cost function: squared L1 (``"sqeuclidean_l1"``) or squared Euclidean distance.
    mean_cost
        Mean cost of a source row and its counterpart.
    source_rows
        The positions of the mapped source rows: all of them (None), or the random sample of a
        large group (see :func:`transport`).

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import transport
    >>> rng = np.random.default_rng(0)
    >>> mapping = transport(rng.normal(size=(4, 2)), rng.normal(size=(4, 2)), rng=0)
    >>> mapping.cost, len(mapping.counterparts)
    ('sqeuclidean_l1', 4)
    """

    counterparts: np.ndarray
    cost: str
    mean_cost: float
    source_rows: np.ndarray | None = None


def exact_transport(
    source: Any,
    target: Any,
    *,
    cost: str = "sqeuclidean_l1",
    rng: np.random.Generator | int | None = None,
) -> TransportMap:
    """Solve the optimal transport problem between two point sets exactly (network simplex).

    With groups of equal size the optimal plan is a permutation, so each source point has one
    counterpart. Otherwise each source point's counterpart is drawn from its row of the plan
    (the randomised map of Black et al. §3), with ``rng``; :func:`optimal_plan` gives the plan's
    pairs themselves, for flipsets expected under the draw.

    Raises
    ------
    RuntimeError
        If the solver stops before the optimum. POT's default iteration limit silently returns
        a suboptimal plan from about 2,000 points per group; the limit here grows with the
        problem and the solver's status is checked.
    """
    plan, matrix = _solve(source, target, cost)
    if plan.shape[0] == plan.shape[1]:
        counterparts = plan.argmax(axis=1)
    else:
        rng = np.random.default_rng(rng)
        cumulative = np.cumsum(plan, axis=1)
        draws = rng.random(len(plan)) * cumulative[:, -1]
        counterparts = (cumulative < draws[:, None]).sum(axis=1)
    mean_cost = float(matrix[np.arange(len(plan)), counterparts].mean())
    return TransportMap(counterparts=counterparts, cost=cost, mean_cost=mean_cost)


@dataclass(frozen=True, eq=False)
class TransportPlan:
    """The pairs an optimal transport plan joins, each with the share of its source row it carries.

    With groups of equal size the plan is a permutation: one pair per source row, each carrying
    all of it. Otherwise a source row may be split between several target rows; the randomised
    map of Black et al. (§3) draws one of them, and the pairs' shares are the probabilities of
    the draw. Flipsets weighted by them (:func:`flipsets`'s ``weights``) are the randomised
    map's expected flipsets: the same under any seed.

    Attributes
    ----------
    rows, columns
        Each pair's source row and target row (positions in the two groups), by source row.
    shares
        The share of its source row each pair carries: those of one row sum to 1.
    mean_cost
        The plan's mean cost per source row.
    """

    rows: np.ndarray
    columns: np.ndarray
    shares: np.ndarray
    mean_cost: float


def optimal_plan(source: Any, target: Any, *, cost: str = "sqeuclidean_l1") -> TransportPlan:
    """Solve the optimal transport problem between two point sets exactly; return its pairs.

    Parameters
    ----------
    source, target
        Feature matrices of the two groups.
    cost
        The ground cost, as in :func:`exact_transport`.

    Returns
    -------
    TransportPlan
        The plan's pairs (at most ``n + m - 1``: a vertex of the transport polytope) and the
        share of its source row each carries.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats.fliptest import optimal_plan
    >>> plan = optimal_plan(np.array([[0.0], [1.0]]), np.array([[0.0], [0.5], [1.0]]))
    >>> plan.rows.tolist(), plan.columns.tolist(), plan.shares.round(2).tolist()
    ([0, 0, 1, 1], [0, 1, 1, 2], [0.67, 0.33, 0.33, 0.67])
    """
    plan, matrix = _solve(source, target, cost)
    rows, columns = np.nonzero(plan > 0)  # by source row, as np.nonzero gives them
    shares = plan[rows, columns] * len(plan)
    mean_cost = float((plan[rows, columns] * matrix[rows, columns]).sum())
    return TransportPlan(rows, columns, shares, mean_cost)


def _solve(source: Any, target: Any, cost: str) -> tuple[np.ndarray, np.ndarray]:
    """Solve for the optimal plan between uniform weights on the rows; return it and its costs."""
    import ot  # imported here: POT loads every array library it finds (torch: 1 s)

    metric = COSTS[check_choice(cost, COSTS, what="transport cost")]
    source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
    if metric == "cityblock":
        matrix = cityblock_distances(source, target) ** 2
    else:
        matrix = ot.dist(source, target, metric=metric) ** 2  # ot.dist gives the plain distance
    weights_s = np.full(len(source), 1 / len(source))
    weights_t = np.full(len(target), 1 / len(target))
    limit = max(100_000, 50 * len(source) * len(target))
    plan, log = ot.emd(weights_s, weights_t, matrix, numItermax=limit, log=True)
    if log["result_code"] != _OPTIMAL:
        raise RuntimeError(f"optimal transport did not converge: {log['warning']}")
    return plan, matrix


def cityblock_distances(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Return the L1 distance of every source row to every target row, column by column.

    The same numbers as POT's ``ot.dist(source, target, metric="cityblock")``, bit for bit: the
    sum runs over the columns in their order, as POT's does, and leaves out only the terms that
    are exactly zero. What makes it fast is that most of a one-hot encoding's terms are zero: a
    column that takes one value in both groups adds nothing, and one that takes two values adds
    its step only to the pairs that differ, found from the rows holding the rarer value (when
    that value is rare: above a fifth of the rows a full pass is as fast). POT adds a full
    matrix per column: on ACSIncome's 785 columns at 3,000 points per group, 17.7 s against
    0.9 s here (``perf/fliptest_cost.py``, idle machine).

    Parameters
    ----------
    source, target
        Feature matrices, one row per point, the same columns.

    Returns
    -------
    numpy.ndarray
        The distances, of shape ``(len(source), len(target))``.
    """
    matrix = np.zeros((len(source), len(target)))
    term = np.empty_like(matrix)  # one column's terms, reused: no temporaries per column
    for s, t in zip(source.T, target.T, strict=True):
        values, counts = np.unique(np.concatenate([s, t]), return_counts=True)
        if len(values) == 1:
            continue
        if len(values) > 2 or counts.min() > _RARE_SHARE * counts.sum():
            np.abs(np.subtract.outer(s, t, out=term), out=term)
            matrix += term
            continue
        rare = values[np.argmin(counts)]
        step = abs(values[1] - values[0])  # |x - y| of the two values, in either order
        _add_to_block(matrix, s == rare, t != rare, step)
        _add_to_block(matrix, s != rare, t == rare, step)
    return matrix


def _add_to_block(matrix: np.ndarray, rows: np.ndarray, columns: np.ndarray, step: float) -> None:
    """Add ``step`` to the entries of ``matrix`` in the masked rows and columns, in place."""
    block = np.ix_(np.flatnonzero(rows), np.flatnonzero(columns))
    matrix[block] += step


def transport(
    source: Any,
    target: Any,
    *,
    cost: str = "sqeuclidean_l1",
    max_points: int = MAX_POINTS,
    rng: np.random.Generator | int | None = None,
) -> TransportMap:
    """Fit the optimal transport map, on random samples of groups larger than ``max_points``.

    The exact map's cost matrix grows with the product of the group sizes and the network
    simplex faster still, so a group above the threshold is represented by a uniform random
    sample of ``max_points`` of its rows, and the map between the samples is solved exactly.
    FlipTest's rates are then estimated on the sampled source rows, and vary with both samples
    (:func:`partition` and :func:`subsample_errors` estimate by how much); with samples of equal
    size the map is a permutation, so Proposition 2 holds exactly on them. Its cost stays flat
    beyond the threshold, whatever the rows: ``perf/fliptest_scaling.py`` measures it, and the
    agreement with the exact map where that still runs.

    Parameters
    ----------
    source, target
        Feature matrices of the two groups; the map sends source rows to target rows.
    cost
        The ground cost: ``"sqeuclidean_l1"`` (Black et al.'s choice) or one of POT's metrics.
    max_points
        Points per group up to which the map uses every row.
    rng
        Random generator or seed (the samples, and counterparts of groups of unequal size).

    Returns
    -------
    TransportMap
        The map; ``source_rows`` says which source rows it maps when the source was sampled.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import transport
    >>> rng = np.random.default_rng(0)
    >>> women, men = rng.normal(0, 1, (5, 2)), rng.normal(1, 1, (5, 2))
    >>> mapping = transport(women, men, rng=0)
    >>> sorted(mapping.counterparts.tolist())
    [0, 1, 2, 3, 4]
    """
    rng = np.random.default_rng(rng)
    source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
    if max(len(source), len(target)) <= max_points:
        return exact_transport(source, target, cost=cost, rng=rng)
    rows, columns = transport_sample(len(source), len(target), max_points=max_points, rng=rng)
    part = exact_transport(source[rows], target[columns], cost=cost, rng=rng)
    return TransportMap(columns[part.counterparts], cost, part.mean_cost, source_rows=rows)


def transport_sample(
    n_source: int,
    n_target: int,
    *,
    max_points: int = MAX_POINTS,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the positions of the source and target rows :func:`transport` maps.

    Every row of both groups when neither has more than ``max_points``; else a uniform random
    sample of ``max_points`` rows of each group larger than that (sorted), the same draws as
    :func:`transport` makes. A caller holding the rows in another form (sparse, on disk) can
    draw the sample first and materialise only the rows it names.

    Parameters
    ----------
    n_source, n_target
        The groups' numbers of rows.
    max_points
        Points per group up to which every row is used.
    rng
        Random generator of the samples.

    Returns
    -------
    tuple of numpy.ndarray
        The source rows' and the target rows' positions.
    """
    if max(n_source, n_target) <= max_points:
        return np.arange(n_source), np.arange(n_target)
    return _sample(n_source, max_points, rng), _sample(n_target, max_points, rng)


def _sample(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Return ``size`` of the positions ``range(n)``, drawn without replacement and sorted."""
    return np.sort(rng.choice(n, size, replace=False)) if n > size else np.arange(n)


@dataclass(frozen=True, eq=False)
class FlipTestResult:
    """Flipsets and transparency report of one classifier under one transport map.

    Attributes
    ----------
    positive, negative
        Masks over the mapped source rows (all, or the sample of a large group), or over a
        plan's pairs: F+ (h(x) = 1, h(G(x)) = 0) and F- (h(x) = 0, h(G(x)) = 1).
    transparency
        The transparency report: one row per (flipset, feature) with ``mean_difference`` (of
        x - G(x)) and ``mean_sign``, and their ranks by absolute value within the flipset
        (formerly ``report``, which still reads it with a :class:`DeprecationWarning`).
    weights
        Each pair's share of its source row, where the pairs are a plan's
        (:func:`optimal_plan`); None where each source row has one counterpart.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import fliptest, transport
    >>> rng = np.random.default_rng(0)
    >>> women, men = rng.normal(0, 1, (30, 2)), rng.normal(1, 1, (30, 2))
    >>> def model(rows):
    ...     return (rows[:, 0] > 0.5).astype(int)
    >>> mapping = transport(women, men, rng=0)
    >>> flips = fliptest(women, men, model(women), model(men), mapping, features=["x1", "x2"])
    >>> flips.transparency.columns.tolist()[:3]
    ['flipset', 'feature', 'mean_difference']
    """

    positive: np.ndarray
    negative: np.ndarray
    transparency: pd.DataFrame
    weights: np.ndarray | None = None

    report = RenamedAttribute()

    @property
    def sizes(self) -> tuple[float, float]:
        """The sizes of F+ and F- (expected sizes, for pairs weighted by a plan's shares)."""
        if self.weights is None:
            return int(self.positive.sum()), int(self.negative.sum())
        return float(self.weights[self.positive].sum()), float(self.weights[self.negative].sum())

    @property
    def source_size(self) -> int:
        """The number of source rows the flipsets are taken over."""
        return len(self.positive) if self.weights is None else round(self.weights.sum())

    @property
    def rates(self) -> tuple[float, float]:
        """The sizes of F+ and F- as shares of the source group."""
        return self.sizes[0] / self.source_size, self.sizes[1] / self.source_size


def fliptest(
    source: Any,
    target: Any,
    source_predictions: Any,
    target_predictions: Any,
    transport: TransportMap,
    *,
    features: list[str] | None = None,
) -> FlipTestResult:
    """Compute a classifier's flipsets and transparency report from its predictions on both groups.

    Parameters
    ----------
    source, target
        Feature matrices of the two groups (rows in the order the map was fitted on).
    source_predictions, target_predictions
        The classifier's predictions (1 or 0) on those rows.
    transport
        The map from source rows to target rows.
    features
        Feature names for the report; defaults to column positions.

    Returns
    -------
    FlipTestResult
        The flipsets F+ and F- over the rows the map sends (its ``source_rows``), and their
        transparency report.

    Examples
    --------
    >>> import numpy as np
    >>> from faircompare.stats import fliptest, transport
    >>> rng = np.random.default_rng(0)
    >>> women, men = rng.normal(0, 1, (50, 2)), rng.normal(1, 1, (50, 2))
    >>> def model(rows):
    ...     return (rows[:, 0] > 0.5).astype(int)
    >>> mapping = transport(women, men, rng=0)
    >>> flips = fliptest(women, men, model(women), model(men), mapping, features=["x1", "x2"])
    >>> flips.sizes
    (0, 21)
    """
    source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
    h_source = np.asarray(source_predictions)
    if transport.source_rows is not None:
        source, h_source = source[transport.source_rows], h_source[transport.source_rows]
    counterparts = transport.counterparts
    h_counterpart = np.asarray(target_predictions)[counterparts]
    return flipsets(source, target[counterparts], h_source, h_counterpart, features=features)


def flipsets(
    source: Any,
    counterparts: Any,
    source_predictions: Any,
    counterpart_predictions: Any,
    *,
    features: list[str] | None = None,
    weights: Any = None,
) -> FlipTestResult:
    """Flipsets and transparency report from each source row's counterpart G(x) (§4).

    This is the form for maps that generate counterparts rather than pick target rows, such
    as :class:`faircompare.stats.gan.GanTransport`; :func:`fliptest` calls it for exact maps.
    Given the pairs of an optimal plan and their ``weights`` (:func:`optimal_plan`), the
    flipsets are those the randomised map gives in expectation: its rates, and its
    transparency means weighted by the pairs' shares.

    Parameters
    ----------
    source, counterparts
        Feature matrices of the source rows and of their counterparts, row for row.
    source_predictions, counterpart_predictions
        The classifier's predictions (1 or 0) on those rows.
    features
        Feature names for the report; defaults to column positions.
    weights
        Each pair's share of its source row (a plan's ``shares``); None: one pair per row.
    """
    source, counterparts = np.asarray(source, dtype=float), np.asarray(counterparts, dtype=float)
    h = np.asarray(source_predictions).astype(bool)
    h_counterpart = np.asarray(counterpart_predictions).astype(bool)
    positive, negative = h & ~h_counterpart, ~h & h_counterpart
    difference = source - counterparts
    names = features if features is not None else [str(j) for j in range(source.shape[1])]
    shares = np.ones(len(source)) if weights is None else np.asarray(weights, dtype=float)
    masks = (("F+", positive), ("F-", negative))
    report = pd.concat(
        [_report(difference[mask], shares[mask], names, label) for label, mask in masks],
        ignore_index=True,
    )
    kept = None if weights is None else shares
    return FlipTestResult(positive=positive, negative=negative, transparency=report, weights=kept)


def _report(
    difference: np.ndarray, weights: np.ndarray, names: list[str], flipset: str
) -> pd.DataFrame:
    """Definition 2 for one flipset: mean difference and mean sign per feature, ranked."""
    empty = weights.sum() == 0
    mean = np.full(len(names), np.nan) if empty else np.average(difference, 0, weights)
    sign = np.full(len(names), np.nan) if empty else np.average(np.sign(difference), 0, weights)
    frame = pd.DataFrame(
        {"flipset": flipset, "feature": names, "mean_difference": mean, "mean_sign": sign}
    )
    frame["rank_difference"] = frame["mean_difference"].abs().rank(ascending=False, method="first")
    frame["rank_sign"] = frame["mean_sign"].abs().rank(ascending=False, method="first")
    return frame


def partition(
    source_rows: np.ndarray,
    target_rows: np.ndarray,
    *,
    parts: int = PARTS,
    rng: np.random.Generator,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split the rows of a sampled map into ``parts`` disjoint parts of source and target rows.

    Each part is mapped on its own and its flipsets computed; :func:`subsample_errors` reads
    the sampling error of the whole map's flipsets from the spread of the parts'.

    Parameters
    ----------
    source_rows, target_rows
        The rows the whole map sends, and the target rows it was fitted on.
    parts
        The number of parts.
    rng
        Random generator of the partition.

    Returns
    -------
    list of tuple of numpy.ndarray
        Each part's source and target rows, sorted.
    """
    shuffled = (np.array_split(rng.permutation(rows), parts) for rows in (source_rows, target_rows))
    return [(np.sort(s), np.sort(t)) for s, t in zip(*shuffled, strict=True)]


def subsample_errors(parts: Sequence[FlipTestResult]) -> tuple[np.ndarray, pd.Series]:
    r"""Return the sampling errors of a sampled map's flipset rates and transparency means.

    A map fitted on samples of ``n`` source and ``m`` target rows gives flipsets that change
    with the samples: another seed draws other rows, and the target rows drawn decide each
    source row's counterpart. With ``k`` disjoint parts of those rows, each of ``n / k``
    source and ``m / k`` target rows mapped on its own, the parts' estimates vary as an
    estimate on ``n / k`` rows does; an average over rows varies as one over its number of
    rows, so the whole map's standard error is the parts' standard deviation over
    :math:`\sqrt{k}` (the subsampling variance estimate of Politis, Romano & Wolf,
    *Subsampling*, 1999, at the rate :math:`\sqrt{n}`). Parts of a quarter of the rows map
    each row to a farther counterpart than the whole map does, so the error is conservative:
    ``docs/measured/audit_reproducibility.py`` compares it with the rates' spread over seeds.

    Parameters
    ----------
    parts
        The flipsets of each part's map (at least two).

    Returns
    -------
    tuple
        The standard errors of the F+ and F- rates, and of each transparency mean (a Series
        indexed by flipset and feature; NaN where fewer than two parts have the flipset).
    """
    scale = 1 / np.sqrt(len(parts))
    rates = np.array([part.rates for part in parts])
    means = pd.concat(
        [part.transparency.set_index(["flipset", "feature"])["mean_difference"] for part in parts],
        axis=1,
    )
    return rates.std(axis=0, ddof=1) * scale, means.std(axis=1, ddof=1) * scale


def fliptest_by_label(
    source: Any,
    target: Any,
    source_labels: Any,
    target_labels: Any,
    source_predictions: Any,
    target_predictions: Any,
    *,
    features: list[str] | None = None,
    cost: str = "sqeuclidean_l1",
    rng: np.random.Generator | int | None = None,
) -> dict[int, FlipTestResult]:
    """Run the equalized-odds FlipTest (Black et al. §5.2.2): one map within each true label.

    Mapping the positives of one group to the positives of the other (and the negatives to the
    negatives) compares people with the same outcome; with equal sizes within a label, the
    flipsets of label 1 balance exactly when the true positive counts are equal (equal
    opportunity), and those of label 0 when the false positive counts are.

    Returns
    -------
    dict
        The flipsets and report for label 1 and for label 0.
    """
    rng = np.random.default_rng(rng)
    source, target = np.asarray(source, dtype=float), np.asarray(target, dtype=float)
    labels_s, labels_t = np.asarray(source_labels), np.asarray(target_labels)
    h_s, h_t = np.asarray(source_predictions), np.asarray(target_predictions)
    results = {}
    for label in (1, 0):
        rows_s, rows_t = labels_s == label, labels_t == label
        pairs = transport(source[rows_s], target[rows_t], cost=cost, rng=rng)
        results[label] = fliptest(
            source[rows_s], target[rows_t], h_s[rows_s], h_t[rows_t], pairs, features=features
        )
    return results
