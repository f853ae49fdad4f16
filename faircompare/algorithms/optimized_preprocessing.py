"""Calmon et al.'s optimized pre-processing (NeurIPS 2017), then each baseline.

Calmon et al. §3 learn a randomised map P(x^, y^ | d, x, y) of a few *discrete* features x and
the label y, given the sensitive attribute d, that keeps the transformed distribution of
(x^, y^) close to the original one (utility), while the groups' rates of the favourable
transformed label differ by at most ``epsilon`` (discrimination control, their eq. 2-3) and few
people are distorted much (their eq. 5: the probability of a distortion of at least c, given
(x, y), is at most its bound). Classifiers are then trained on the transformed data, and new
people are mapped by P(x^ | d, x) before prediction (§3.2). The formulation is AIF360's
``OptTools`` (Calmon's code): utility = half the l1 distance between the distributions of
(x^, y^) and (x, y); one ``epsilon`` on the difference of P(y^ | d) between groups; the
distortion bounds conditioned on (x, y).

The method needs discrete features, and AIF360 ships discretisations and distortion functions
only for its own encodings of Adult, German credit and COMPAS. faircompare's form is generic,
so every dataset and variant gets one: the ``n_features`` features most informative of the label
(mutual information on the training data) are cut at their training quantiles into at most
``n_bins`` bins, and the distortion of a change is the number of bins moved, summed over the
features, plus one if the label changes. The optimisation is a linear program, solved by
HiGHS through :func:`scipy.optimize.linprog`, so AIF360's solver (cvxpy) is not needed.

As in AIF360, the classifier sees the one-hot coded transformed features and the sensitive
attribute, and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import sparse
from scipy.optimize import OptimizeResult, linprog
from sklearn.metrics import mutual_info_score

from faircompare.algorithms.base import AlgorithmInputError, FairEstimator
from faircompare.algorithms.representation import (
    FIRST_LOOK,
    RepresentationClassifier,
    with_baselines,
)
from faircompare.algorithms.rowhash import row_uniform
from faircompare.algorithms.search import Dimension, Real
from faircompare.bibliography import Reference

_MAX_CELLS = 1024  # values of x: the linear program has up to 8 n_cells**2 variables
# How far above the least utility loss (or gap) a later program may go: the solver's round-off
_TOLERANCE = 1e-9


#: Calmon et al.'s optimized pre-processing.
CALMON_2017 = Reference(
    key="calmon2017optimized",
    authors=(
        "Calmon, Flavio",
        "Wei, Dennis",
        "Vinzamuri, Bhanukiran",
        "Natesan Ramamurthy, Karthikeyan",
        "Varshney, Kush R.",
    ),
    title="Optimized Pre-Processing for Discrimination Prevention",
    year=2017,
    venue="Advances in Neural Information Processing Systems 30 (NeurIPS 2017)",
    url="https://arxiv.org/abs/1704.03354",
)


@dataclass(frozen=True, eq=False)
class QuantileBins:
    """Features cut into bins at their training quantiles.

    Attributes
    ----------
    columns
        The binned features' column indices.
    edges
        Each feature's inner edges: a value gets the number of edges at or below it.
    """

    columns: np.ndarray
    edges: tuple[np.ndarray, ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        """Number of bins of each feature."""
        return tuple(len(edges) + 1 for edges in self.edges)

    def codes(self, features: np.ndarray) -> np.ndarray:
        """Return each row's bin in each binned feature, an ``(n, len(columns))`` int array."""
        return np.column_stack(
            [
                np.searchsorted(edges, features[:, column], side="right")
                for column, edges in zip(self.columns, self.edges, strict=True)
            ]
        )

    def cells(self, features: np.ndarray) -> np.ndarray:
        """Return each row's cell: the index of its bins in the product of the features' bins."""
        return np.ravel_multi_index(tuple(self.codes(features).T), self.sizes)


def informative_bins(
    features: np.ndarray, labels: np.ndarray, n_features: int, n_bins: int
) -> QuantileBins:
    """Bin every feature at its quantiles and keep the ``n_features`` most informative of y.

    Parameters
    ----------
    features
        Training features.
    labels
        0/1 training labels.
    n_features
        How many features to keep (fewer when fewer vary).
    n_bins
        Most bins per feature: edges at the 1/n_bins, ..., (n_bins - 1)/n_bins quantiles, equal
        edges merged (a binary feature has two bins).

    Returns
    -------
    QuantileBins
        The kept features, by decreasing mutual information with the label (ties in column
        order); a feature whose bins group the rows as a kept one's do (the other column of a
        one-hot pair) is passed over.
    """
    levels = np.arange(1, n_bins) / n_bins
    edges = []
    for column in features.T:
        inner = np.unique(np.quantile(column, levels))
        edges.append(inner[inner > column.min()])  # no empty first bin
    codes = [
        np.searchsorted(inner, column, side="right")
        for column, inner in zip(features.T, edges, strict=True)
    ]
    information = np.array([mutual_info_score(labels, code) for code in codes])
    kept: list[int] = []
    for j in np.argsort(-information, kind="stable"):
        if len(kept) == n_features:
            break
        if len(edges[j]) and not any(_same_partition(codes[j], codes[i]) for i in kept):
            kept.append(int(j))
    return QuantileBins(np.array(kept, dtype=int), tuple(edges[j] for j in kept))


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two codings group the rows alike (a one-hot pair's two columns do)."""
    pairs = len(np.unique(a * (b.max() + 1) + b))
    return pairs == len(np.unique(a)) == len(np.unique(b))


def bins_moved(sizes: tuple[int, ...]) -> np.ndarray:
    """Return the distortion between (x, y) and (x^, y^): bins moved, plus one if y changes.

    Parameters
    ----------
    sizes
        Number of bins of each feature; the cells x are indexed as in
        :meth:`QuantileBins.cells`.

    Returns
    -------
    numpy.ndarray
        ``(2 n_cells, 2 n_cells)``, rows and columns indexed by ``2 x + y``.
    """
    codes = np.array(np.unravel_index(np.arange(int(np.prod(sizes))), sizes)).T
    moved = np.abs(codes[:, None, :] - codes[None, :, :]).sum(axis=2)
    label_changed = 1 - np.eye(2, dtype=int)
    return (moved[:, None, :, None] + label_changed[None, :, None, :]).reshape(
        2 * len(codes), 2 * len(codes)
    )


@dataclass(frozen=True, eq=False)
class Mapping:
    """The optimal randomised map of observed (d, x, y) to (x^, y^).

    Attributes
    ----------
    states
        The observed (d, x, y), one per row of ``probabilities``, as the increasing indices
        ``(d n_cells + x) 2 + y``.
    rows
        The same, as an ``(R, 3)`` int array of (d, x, y).
    weights
        Their empirical probabilities p(d, x, y).
    probabilities
        ``(R, 2 n_cells)``: P(x^, y^ | d, x, y), columns indexed by ``2 x^ + y^``.
    objective
        Half the l1 distance between the distributions of (x^, y^) and (x, y).
    distortion
        The expected distortion of the map.
    epsilon
        The largest gap between the groups' favourable rates that the map was held to: the
        ``epsilon`` asked for, or the least gap the distortion bounds allow when it is larger.
    """

    states: np.ndarray
    rows: np.ndarray
    weights: np.ndarray
    probabilities: np.ndarray
    objective: float
    distortion: float
    epsilon: float


def optimal_mapping(
    d: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    distortion: np.ndarray,
    epsilon: float,
    excess_distortion: tuple[float, ...],
) -> Mapping:
    """Solve Calmon et al.'s linear program (§3, AIF360's ``OptTools.optimize``).

    Minimise (1/2) sum |P(x^, y^) - P(x, y)| over maps P(x^, y^ | d, x, y) such that
    |P(y^ = 1 | d = 0) - P(y^ = 1 | d = 1)| <= epsilon and, for every observed (x, y) and each
    level c = 1, 2, ..., P(distortion >= c | x, y) <= ``excess_distortion[c - 1]``.

    Two choices the formulation leaves open are made here, each by one more linear program:

    - When the distortion bounds let no map bring the gap down to ``epsilon`` (measured: Ricci's
      race gap of 0.30 cannot go below 0.112 under the default bounds), the map brings it to the
      least gap they allow, which :attr:`Mapping.epsilon` records, rather than fail.
    - Many maps often reach the least utility loss (swapping labels between the groups of a
      cell leaves P(x^, y^) as it is) and a solver would return any of them; of those, the
      least distorting (least expected distortion) is returned: with ``epsilon`` at least the
      original gap, the identity.

    Parameters
    ----------
    d, x, y
        Each training row's group (0/1), cell and label (0/1).
    distortion
        The distortion of each change, as :func:`bins_moved` returns it.
    epsilon
        Largest difference of the groups' transformed favourable rates.
    excess_distortion
        Largest probability of a distortion of at least 1, 2, ...

    Returns
    -------
    Mapping

    Raises
    ------
    AlgorithmInputError
        When the training data hold one group only.
    """
    k = len(distortion)  # the columns (x^, y^)
    states, counts = np.unique(_states(d, x, y, k // 2), return_counts=True)
    weights = counts / len(d)
    rows = np.column_stack(np.unravel_index(states, (2, k // 2, 2)))
    r = len(states)
    pairs = r * k
    group_share = np.bincount(rows[:, 0], weights=weights, minlength=2)
    if group_share.min() == 0:
        raise AlgorithmInputError("optimized pre-processing needs both groups in the training data")

    # The variables: the map P[r, c] at r k + c, a bound t_c on |P(x^, y^) - P(x, y)| per
    # column c, and a bound g on the groups' gap.
    xy = 2 * rows[:, 1] + rows[:, 2]
    original = np.bincount(xy, weights=weights, minlength=k)
    marginal = sparse.kron(weights.reshape(1, r), sparse.eye(k))
    signed = np.where(rows[:, 0] == 1, 1.0, -1.0) * weights / group_share[rows[:, 0]]
    gap = sparse.csr_matrix(np.outer(signed, np.arange(k) % 2 == 1).reshape(1, pairs))
    cells, cell_of_row = np.unique(xy, return_inverse=True)
    cell_share = np.bincount(cell_of_row, weights=weights)
    excess = [
        sparse.csr_matrix(
            (
                ((distortion[xy] >= level) * (weights / cell_share[cell_of_row])[:, None]).ravel(),
                (np.repeat(cell_of_row, k), np.arange(pairs)),
            ),
            (len(cells), pairs),
        )
        for level in range(1, len(excess_distortion) + 1)
    ]
    no_t = sparse.csr_matrix((1, k))
    inequalities = sparse.bmat(
        [
            [marginal, -sparse.eye(k), None],
            [-marginal, -sparse.eye(k), None],
            [gap, no_t, -sparse.eye(1)],
            [-gap, no_t, -sparse.eye(1)],
            *([matrix, None, None] for matrix in excess),
        ],
        format="csr",
    )
    limits = np.concatenate(
        [original, -original, [0.0, 0.0], np.repeat(excess_distortion, len(cells))]
    )
    row_sums = sparse.hstack(
        [sparse.kron(sparse.eye(r), np.ones((1, k))), sparse.csr_matrix((r, k + 1))]
    )

    def solve(
        cost: np.ndarray, largest_gap: float | None, extra: tuple[np.ndarray, float] | None = None
    ) -> OptimizeResult:
        a, b = inequalities, limits
        if extra is not None:  # one more inequality: extra[0] . variables <= extra[1]
            a, b = sparse.vstack([a, extra[0]]), np.append(b, extra[1])
        bounds = [(0, None)] * (pairs + k) + [(0, largest_gap)]
        return linprog(cost, a, b, row_sums, np.ones(r), bounds=bounds, method="highs")

    utility_loss = np.concatenate([np.zeros(pairs), np.full(k, 0.5), [0.0]])
    reached = float(epsilon)
    solution = solve(utility_loss, reached)
    if solution.status == 2:  # infeasible: the least gap the distortion bounds allow
        least = solve(np.concatenate([np.zeros(pairs + k), [1.0]]), None)
        reached = max(reached, float(least.fun) + _TOLERANCE)
        solution = solve(utility_loss, reached)
    expected_distortion = (weights[:, None] * distortion[xy]).ravel()
    if solution.status == 0:
        solution = solve(
            np.concatenate([expected_distortion, np.zeros(k + 1)]),
            reached,
            (utility_loss, solution.fun + _TOLERANCE),
        )
    if solution.status != 0:
        raise AlgorithmInputError(
            f"optimized pre-processing: the solver failed ({solution.message})"
        )
    probabilities = np.clip(solution.x[:pairs].reshape(r, k), 0.0, None)
    probabilities[probabilities < 1e-8] = 0.0  # the solver's round-off, as AIF360 drops it
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    loss = 0.5 * np.abs(weights @ probabilities - original).sum()
    distortion_mean = float(expected_distortion @ probabilities.ravel())
    return Mapping(states, rows, weights, probabilities, loss, distortion_mean, reached)


def _states(d: np.ndarray, x: np.ndarray, y: np.ndarray, n_cells: int) -> np.ndarray:
    """Index each row's (d, x, y) as ``(d n_cells + x) 2 + y``."""
    return (d * n_cells + x) * 2 + y


class OptimizedPreprocessing(RepresentationClassifier):
    """Calmon et al.'s optimized pre-processing of binned features, then a baseline.

    Fit: bin the ``n_features`` features most informative of the label
    (:func:`informative_bins`), solve for the map P(x^, y^ | d, x, y) (:func:`optimal_mapping`,
    distortion :func:`bins_moved`), draw each training row's (x^, y^) from it and train the
    baseline on the one-hot coded x^ and d with the labels y^. Predict: draw x^ from
    P(x^ | d, x) = sum_y p(y | d, x) sum_y^ P(x^, y^ | d, x, y) (Calmon et al. §3.2; a cell
    (d, x) absent from training keeps its x), then the baseline. A person's draw comes from a
    hash of their row (:mod:`~faircompare.algorithms.rowhash`), so it does not depend on the
    batch; the training rows' draws come from a stream seeded by ``random_state``.

    Parameters
    ----------
    estimator
        The classifier trained on the transformed data (logistic regression when None).
    epsilon
        Largest difference between the groups' rates of the favourable transformed label; where
        the distortion bounds allow no map that reaches it, the least difference they allow
        (``mapping_.epsilon``, see :func:`optimal_mapping`).
    excess_distortion
        Largest probability, given (x, y), of a distortion of at least 1, 2, ... (bins moved
        plus a changed label); AIF360's demonstrations' bounds by default (0.1, 0.05, 0): at
        most 10 % of a cell is changed at all, 5 % by two steps, none by three.
    n_features
        Features binned and transformed (the joint distribution has up to ``n_bins **
        n_features`` cells, at most 1,024).
    n_bins
        Most quantile bins per feature.
    random_state
        Seed of the training rows' draws and of the prediction's row hashes.
    """

    name: ClassVar[str] = "optimized-preprocessing"
    references: ClassVar[tuple[Reference, ...]] = (CALMON_2017,)
    # epsilon: AIF360's demonstrations use 0.05; Calmon et al. §4 vary it
    param_grid: ClassVar[dict[str, list]] = {"epsilon": [0.01, 0.02, 0.05, 0.1, 0.2]}
    search_space: ClassVar[dict[str, Dimension]] = {"epsilon": Real(0.01, 0.2, log=True)}

    def __init__(
        self,
        estimator: FairEstimator | None = None,
        epsilon: float = 0.05,
        excess_distortion: tuple[float, ...] = (0.1, 0.05, 0.0),
        n_features: int = 3,
        n_bins: int = 4,
        random_state: int | None = 0,
    ) -> None:
        super().__init__(estimator)
        self.epsilon = epsilon
        self.excess_distortion = excess_distortion
        self.n_features = n_features
        self.n_bins = n_bins
        self.random_state = random_state

    def _fit_representation(self, features: np.ndarray, labels: np.ndarray, s: np.ndarray) -> None:
        self.bins_ = informative_bins(features, labels, self.n_features, self.n_bins)
        n_cells = int(np.prod(self.bins_.sizes))
        if n_cells > _MAX_CELLS:
            raise AlgorithmInputError(
                f"optimized pre-processing with n_features={self.n_features} and "
                f"n_bins={self.n_bins} has {n_cells} cells of binned features; at most "
                f"{_MAX_CELLS} are allowed: take fewer features or bins"
            )
        self.mapping_ = optimal_mapping(
            s,
            self.bins_.cells(features),
            labels,
            bins_moved(self.bins_.sizes),
            self.epsilon,
            tuple(self.excess_distortion),
        )
        self.feature_map_ = _feature_map(self.mapping_, n_cells)

    def _training_data(
        self, features: np.ndarray, labels: np.ndarray, s: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        n_cells = self.feature_map_.shape[1]
        states = _states(s, self.bins_.cells(features), labels, n_cells)
        row = np.searchsorted(self.mapping_.states, states)
        uniforms = np.random.default_rng(self.random_state).random(len(features))
        drawn = _draw(self.mapping_.probabilities[row], uniforms)
        return self._encode(drawn // 2, s), drawn % 2

    def _represent(self, features: np.ndarray, s: np.ndarray) -> np.ndarray:
        n_cells = self.feature_map_.shape[1]
        probabilities = self.feature_map_[s * n_cells + self.bins_.cells(features)]
        uniforms = row_uniform(np.column_stack([features, s]), self.random_state)
        return self._encode(_draw(probabilities, uniforms), s)

    def _encode(self, cells: np.ndarray, s: np.ndarray) -> np.ndarray:
        """One-hot code each binned feature of the cells, then append the sensitive attribute."""
        codes = np.unravel_index(cells, self.bins_.sizes)
        blocks = [np.eye(size)[code] for code, size in zip(codes, self.bins_.sizes, strict=True)]
        return np.column_stack([*blocks, s])


def _feature_map(mapping: Mapping, n_cells: int) -> np.ndarray:
    """P(x^ | d, x) for every (d, x), rows ``d n_cells + x``; identity where (d, x) was not seen."""
    of_features = mapping.probabilities.reshape(len(mapping.rows), n_cells, 2).sum(axis=2)
    joint = np.zeros((2 * n_cells, n_cells))
    d, x, _ = mapping.rows.T
    np.add.at(joint, d * n_cells + x, mapping.weights[:, None] * of_features)
    seen = joint.sum(axis=1) > 0
    feature_map = np.tile(np.eye(n_cells), (2, 1))
    feature_map[seen] = joint[seen] / joint[seen].sum(axis=1, keepdims=True)
    return feature_map


def _draw(probabilities: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Draw one column per row of ``probabilities`` by inverting its cumulative sums."""
    cumulative = np.cumsum(probabilities, axis=1)
    return np.minimum((uniforms[:, None] >= cumulative).sum(axis=1), probabilities.shape[1] - 1)


# As the correlation remover's: the SVM pipeline left to the extended profile and --algorithm.
OPTIMIZED_PREPROCESSING_PIPELINES = with_baselines(OptimizedPreprocessing, first_look=FIRST_LOOK)
