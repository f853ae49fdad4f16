"""The AUC permutation test's statistics in one pass over the rows per permutation.

DiCiccio et al. (2020), §3.2, test "AUC(A) = AUC(B)" with the difference of the groups'
AUCs studentized by DeLong's variance. Permuting the group labels changes which rows each group
holds, never the order of the scores, so the scores are sorted once:

- A positive's placement in its group (the group's negatives scored below it, ties counting one
  half) is a prefix count of the group's negatives in score order; a negative's (the group's
  positives scored above it) one of the group's positives.
- Positives between the same two negatives share their placement, and so do negatives between
  the same two positives: the AUC (the mean placement) and DeLong's variance (the placements'
  variances) are sums over these runs, weighted by each run's rows in the group, which are
  differences of prefix counts at the runs' ends.

Prefix counts are kept in 8-bit counters over blocks of 64 positions, laid out so that adding one
position to the next does so for every block and every permutation in one contiguous step; the
runs' sums then cost work proportional to the runs, not to the rows. The memberships are drawn as
uniform random subsets of fixed size (:func:`draw_subsets`), not by shuffling each permutation's
labels, which costs more than all of the above together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

_BLOCK = 64  # positions per block: a block's running counts fit in an int8
_DRAWN = 2_500_000  # rows x permutations drawn at once (in cache for the Adult test split)
_RUNS = 150_000  # runs x permutations whose sums are taken together


@dataclass(frozen=True)
class _Layout:
    """Positions 0 .. length - 1 of one class (in score order) stored blockwise in rows.

    Position ``t * _BLOCK + j`` lives in row ``start + j * blocks + t``, so that adding row
    ``j - 1`` to row ``j`` advances the running counts of all blocks at once over contiguous
    memory. Rows past ``length`` pad the last block and hold no row of the data.
    """

    start: int
    length: int

    @property
    def blocks(self) -> int:
        return max(1, -(-self.length // _BLOCK))

    @property
    def stop(self) -> int:
        return self.start + _BLOCK * self.blocks

    def rows(self, positions: np.ndarray) -> np.ndarray:
        return self.start + (positions % _BLOCK) * self.blocks + positions // _BLOCK

    @cached_property
    def real(self) -> np.ndarray:
        """The rows that hold the data's rows, relative to ``start``, ascending."""
        return np.sort(self.rows(np.arange(self.length))) - self.start

    def running_counts(self, member: np.ndarray) -> _RunningCounts:
        """Count the members of each permutation position by position, in place in ``member``."""
        within = member[self.start : self.stop].view(np.int8).reshape(_BLOCK, self.blocks, -1)
        for j in range(1, _BLOCK):
            within[j] += within[j - 1]
        earlier = np.zeros((self.blocks + 1, within.shape[2]))  # members in the earlier blocks
        np.cumsum(within[-1], axis=0, out=earlier[1:])
        return _RunningCounts(within, earlier)


@dataclass(frozen=True)
class _RunningCounts:
    """Members up to each position of a :class:`_Layout`: within its block, and before it."""

    within: np.ndarray  # (position in block, block, permutation), int8
    earlier: np.ndarray  # (block + 1, permutation)

    def before(self, at: np.ndarray, columns: slice) -> np.ndarray:
        """Members among the first ``at`` positions, shape (len(at), permutations in columns)."""
        last = np.maximum(at - 1, 0)
        block, position = np.divmod(last, _BLOCK)
        out = self.earlier[block, columns] + self.within[position, block, columns]
        out[at == 0] = 0.0
        return out


class GroupAUC:
    """AUC and DeLong variance of a group and of the rest, for many groupings of scored rows.

    Parameters
    ----------
    y
        Labels, 1 for the positive outcome and 0 otherwise.
    scores
        Scores of the positive outcome.
    """

    def __init__(self, y: np.ndarray, scores: np.ndarray) -> None:
        order = np.argsort(scores, kind="stable")
        positive = np.asarray(y)[order] == 1
        pos, neg = scores[order][positive], scores[order][~positive]
        self.n_pos, self.n_neg = len(pos), len(neg)
        self._pos = _Layout(0, self.n_pos)
        self._neg = _Layout(self._pos.stop, self.n_neg)
        self._rows = np.empty(len(order), dtype=np.int64)  # each row's place in the layout
        self._rows[order[positive]] = self._pos.rows(np.arange(self.n_pos))
        self._rows[order[~positive]] = self._neg.rows(np.arange(self.n_neg))
        self._real = np.r_[self._pos.real, self._neg.real + self._neg.start]
        self._positive = np.asarray(y) == 1
        # negatives scored below each positive (strictly, and with the ties), and vice versa
        lo, hi = np.searchsorted(neg, pos, "left"), np.searchsorted(neg, pos, "right")
        lo_n, hi_n = np.searchsorted(pos, neg, "left"), np.searchsorted(pos, neg, "right")
        # positives between consecutive cuts of the negatives' counts share lo and hi, and so on
        pos_cuts = np.unique(np.r_[0, lo_n, hi_n, self.n_pos])
        neg_cuts = np.unique(np.r_[0, lo, hi, self.n_neg])
        self._pos_runs = _Runs(pos_cuts, lo, hi, neg_cuts)
        self._neg_runs = _Runs(neg_cuts, lo_n, hi_n, pos_cuts)

    @property
    def size(self) -> int:
        """Rows of a membership matrix in the layout (the data's rows and some padding)."""
        return self._neg.stop

    def of(self, member: np.ndarray) -> tuple[np.ndarray, ...]:
        """Statistics of the groups marked by the columns of ``member``.

        Parameters
        ----------
        member
            Shape (rows, groupings), True for the rows in group A, rows in the data's order.

        Returns
        -------
        tuple of arrays
            AUC of A, its DeLong variance, AUC of the rest, its variance; one per grouping.
        """
        laid_out = np.zeros((self.size, member.shape[1]), dtype=bool)
        laid_out[self._rows] = member
        return self._statistics(laid_out)

    def permuted(
        self, in_a: np.ndarray, permutations: int, within_outcome: bool, rng: np.random.Generator
    ) -> tuple[np.ndarray, ...]:
        """Statistics of ``permutations`` random regroupings with group A's size (see :meth:`of`).

        ``within_outcome`` keeps A's numbers of positives and of negatives (§3.1).
        """
        chunk = max(64, _DRAWN // self.size)
        sizes = [min(chunk, permutations - start) for start in range(0, permutations, chunk)]
        return _concatenate(
            self._statistics(self._draw(in_a, size, within_outcome, rng)) for size in sizes
        )

    def _draw(
        self, in_a: np.ndarray, permutations: int, within_outcome: bool, rng: np.random.Generator
    ) -> np.ndarray:
        member = np.empty((self.size, permutations), dtype=bool)
        if within_outcome:
            for layout, in_class in ((self._pos, self._positive), (self._neg, ~self._positive)):
                region = member[layout.start : layout.stop]
                draw_subsets(region, layout.real, int(in_a[in_class].sum()), rng)
        else:
            draw_subsets(member, self._real, int(in_a.sum()), rng)
        return member

    def _statistics(self, member: np.ndarray) -> tuple[np.ndarray, ...]:
        """Both groups' AUCs and variances; overwrites ``member``."""
        neg, pos = self._neg.running_counts(member), self._pos.running_counts(member)
        runs = max(len(self._pos_runs.cuts), len(self._neg_runs.cuts))
        columns = max(1, min(128, _RUNS // runs))
        return _concatenate(
            self._chunk_statistics(neg, pos, slice(start, start + columns))
            for start in range(0, member.shape[1], columns)
        )

    def _chunk_statistics(
        self, neg_counts: _RunningCounts, pos_counts: _RunningCounts, columns: slice
    ) -> tuple[np.ndarray, ...]:
        pos_runs, neg_runs = self._pos_runs, self._neg_runs
        neg = neg_counts.before(neg_runs.cuts, columns)  # A's negatives before each cut
        pos = pos_counts.before(pos_runs.cuts, columns)
        neg_a, pos_a = neg[-1], pos[-1]
        below_a = pos_runs.below(neg)  # A's negatives below each run of positives
        above_a = pos_a - neg_runs.below(pos)  # A's positives above each run of negatives
        runs_a = np.diff(pos, axis=0)  # A's positives in each run
        u_a, s10_a = _moments(runs_a, below_a)
        u_b, s10_b = _moments(pos_runs.sizes - runs_a, pos_runs.below_all - below_a)
        runs_a = np.diff(neg, axis=0)
        s01_a = _moments(runs_a, above_a)[1]
        s01_b = _moments(neg_runs.sizes - runs_a, self.n_pos - neg_runs.below_all - above_a)[1]
        return (
            *_auc_and_variance(u_a, s10_a, s01_a, pos_a, neg_a),
            *_auc_and_variance(u_b, s10_b, s01_b, self.n_pos - pos_a, self.n_neg - neg_a),
        )


class _Runs:
    """Runs of one class's rows (in score order) with the same rows of the other class below.

    ``lo`` and ``hi`` count, for each row of the class, the other class's rows scored below it
    and up to it (with the ties); ``other_cuts`` are the positions where the other class's
    prefix counts are known, which include every ``lo`` and ``hi``.
    """

    def __init__(
        self, cuts: np.ndarray, lo: np.ndarray, hi: np.ndarray, other_cuts: np.ndarray
    ) -> None:
        self.cuts = cuts  # run i is the rows cuts[i] .. cuts[i + 1] - 1
        lo, hi = lo[cuts[:-1]], hi[cuts[:-1]]
        self.sizes = np.diff(cuts).astype(float)[:, None]
        self.below_all = (0.5 * (lo + hi))[:, None]  # the other class's rows below, ties half
        self._lo = np.searchsorted(other_cuts, lo)
        self._hi = np.searchsorted(other_cuts, hi)
        self._tied = np.flatnonzero(lo != hi)

    def below(self, other_counts: np.ndarray) -> np.ndarray:
        """Group A's rows of the other class below each run, ties counting one half.

        ``other_counts`` holds A's prefix counts of the other class at ``other_cuts``.
        """
        out = other_counts[self._lo]
        out[self._tied] = 0.5 * (out[self._tied] + other_counts[self._hi[self._tied]])
        return out


def _concatenate(chunks: Iterable[tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """Join the statistics of consecutive chunks of permutations."""
    return tuple(np.concatenate(parts) for parts in zip(*chunks, strict=True))


def _moments(weights: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column sums of weights * values and of weights * values ** 2."""
    return (
        np.einsum("ij,ij->j", weights, values),
        np.einsum("ij,ij,ij->j", weights, values, values),
    )


def _auc_and_variance(
    u: np.ndarray, s10: np.ndarray, s01: np.ndarray, n_pos: np.ndarray, n_neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """AUC and DeLong's variance from the placements' sums (§3.2).

    ``u`` is the sum of the positives' placements (negatives below, ties half), ``s10`` the sum
    of their squares, ``s01`` the sum of the squared placements of the negatives (positives
    above). The AUC is u / (n+ n-); the variance S10 / n+ + S01 / n-, with S10 and S01 the sample
    variances of the placements as fractions of n- and of n+.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = u / (n_pos * n_neg)
        var10 = (s10 / n_neg**2 - n_pos * auc**2) / (n_pos - 1)
        var01 = (s01 / n_pos**2 - n_neg * auc**2) / (n_neg - 1)
        return auc, var10 / n_pos + var01 / n_neg


def _random_bytes(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Uniform random bytes (drawn as 64-bit words, several times faster than ``rng.bytes``)."""
    size = shape[0] * shape[1]
    words = rng.integers(0, np.iinfo(np.uint64).max, -(-size // 8), np.uint64, endpoint=True)
    return words.view(np.uint8)[:size].reshape(shape)


def draw_subsets(member: np.ndarray, real: np.ndarray, k: int, rng: np.random.Generator) -> None:
    """Make every column of ``member`` an independent uniform random k-subset of its rows.

    Only the rows ``real`` take part; the others are set False. Each row first enters with
    probability about k / n, from one random byte; then each column with more (fewer) than k
    rows drops (adds) rows drawn uniformly at random, skipping rows drawn before and rows
    already in the wanted state, until it holds k. This is exact: given its size, a column of
    independent Bernoulli draws is a uniform random subset of that size, and dropping (adding)
    distinct uniformly drawn rows keeps it uniform, so each column is distributed as the group
    labels after a random shuffle. The candidates of all columns are drawn at once in rounds;
    each column accepts the first ones it needs in draw order, as the one-at-a-time process
    would.

    Parameters
    ----------
    member
        Boolean array (rows, columns), overwritten.
    real
        The rows that take part.
    k
        Rows in each subset.
    rng
        Random generator.
    """
    rows, columns = member.shape
    n = len(real)
    level = round(256 * k / n)
    if level >= 256:
        member[:] = True
    else:
        np.less(_random_bytes(member.shape, rng), level, out=member)
    left_out = np.ones(rows, dtype=bool)
    left_out[real] = False
    member[left_out] = False
    count = member.view(np.uint8).sum(axis=0, dtype=np.int32).astype(np.int64)
    while (cols := np.flatnonzero(count != k)).size:
        drop = count[cols] > k
        need = np.abs(count[cols] - k)
        in_state = np.where(drop, count[cols], n - count[cols])  # rows that may change
        col = np.repeat(cols, np.ceil(1.1 * need * n / in_state).astype(np.int64) + 2)
        row = real[rng.integers(0, n, col.size)]
        first = _first_occurrences(col * rows + row)
        row, col = row[first], col[first]
        hit = member[row, col] == (count[col] > k)
        row, col = row[hit], col[hit]
        # in draw order (columns ascending), keep the first rows each column needs
        keep = np.arange(col.size) - np.searchsorted(col, col) < np.abs(count[col] - k)
        row, col = row[keep], col[keep]
        member[row, col] = ~member[row, col]
        count -= np.sign(count - k) * np.bincount(col, minlength=columns)


def _first_occurrences(keys: np.ndarray) -> np.ndarray:
    """Return the indices of the first occurrence of each distinct key, ascending.

    One sort of the keys with their indices packed in the low bits: several times faster than
    ``np.unique(..., return_index=True)``, whose stable argsort dominates it.
    """
    shift = max(1, int(keys.size).bit_length())
    packed = np.sort((keys << shift) | np.arange(keys.size))
    new = np.r_[True, (packed[1:] >> shift) != (packed[:-1] >> shift)]
    return np.sort(packed[new] & ((1 << shift) - 1))
