"""Time Feldman's repair of new rows, and the individual audit of Feldman pipelines it dominates.

On a ProPublica split (numerical+binary, 399 features, most of them one-hot; ``--variant
numerical --attribute sex-race`` for the twelve groups of the paper profile's costliest
Feldman runs), the repair of the batches the individual-fairness attack predicts (its 200
audit rows, twice two antithetic copies: 800 perturbed rows) and of the whole test split, by
the repair now and by three baselines kept here:

- *before #69*: the median's quantile of a value in a column with few values found by comparing
  u n_h with every group's counts (G comparisons per value of the column, where the repair now
  compares u once per value with the level from which enough groups reach it), in other columns
  every group's quantile taken and sorted (now a binary search among those levels), the rows
  hashed for their draws group by group (now a batch at once), and the fit's blocks of 32
  columns whatever the number of rows (now merged when the rows are few);
- *before the look-up*: every row hashed for its tie-breaking draws and every value taken
  through its level and the median's quantile function, where the repair now draws only for
  rows with a tie and looks untied values of few-valued columns up in a table;
- *before #17*: rows hashed by pandas column by column, each column's training values searched
  one column at a time, every group's quantiles taken and sorted for their lower median.

Then the benchmark's individual audit of the four ``feldman-*`` pipelines of the paper profile
with each repair. Every output must be identical; prints CPU times and ratios (one thread).

    FAIRCOMPARE_MIRROR=../shared/data/fairness-comparison-raw python perf/feldman_repair.py
"""

import argparse
import time
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from faircompare.algorithms.feldman import DisparateImpactRepair
from faircompare.algorithms.loss_oracle import model_oracle
from faircompare.algorithms.rowhash import _GOLDEN, _mix, cell_uniforms, row_hashes
from faircompare.audits.individual import INDIVIDUAL_ATTACK, SMOOTHING_PAIRS, split_fair_metric
from faircompare.datasets import load_dataset
from faircompare.preprocessing import make_split, prepare
from faircompare.registry import get_algorithm
from faircompare.stats.individual import individual_fairness_test


class PreviousRepair(DisparateImpactRepair):
    """The repair's transform before #17's work on it (same numbers, slower)."""

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any) -> "PreviousRepair":
        features, groups = np.asarray(X, dtype=float), np.asarray(sensitive_features)
        self.sorted_ = [np.sort(features[groups == g], axis=0) for g in np.unique(groups)]
        return super().fit(X, sensitive_features=sensitive_features)

    def transform(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        features = np.asarray(X, dtype=float)
        codes = self._codes(np.asarray(sensitive_features))
        noise = previous_row_uniforms(features, self.random_state)
        repaired = features.copy()
        for g, reference in enumerate(self.sorted_):
            rows = codes == g
            values = features[rows]
            below = np.empty(values.shape, dtype=np.int64)
            at_most = np.empty(values.shape, dtype=np.int64)
            for j in range(values.shape[1]):
                below[:, j] = np.searchsorted(reference[:, j], values[:, j], side="left")
                at_most[:, j] = np.searchsorted(reference[:, j], values[:, j], side="right")
            u = (below + noise[rows] * (at_most - below)) / len(reference)
            quantiles = np.sort([quantile(sorted_h, u) for sorted_h in self.sorted_], axis=0)
            target = quantiles[(len(quantiles) - 1) // 2]
            repaired[rows] = (1 - self.repair_level) * values + self.repair_level * target
        return repaired


class Before69(DisparateImpactRepair):
    """The repair before #69: each group's counts compared for the median, the quantiles of
    every group sorted in columns with many values, rows hashed group by group, and the fit's
    blocks of 32 columns whatever the rows."""

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any) -> "Before69":
        super().fit(X, sensitive_features=sensitive_features)
        features, groups = np.asarray(X, dtype=float), np.asarray(sensitive_features)
        by_group = [np.sort(features[groups == g], axis=0) for g in self.groups_]
        self.blocks_ = [
            replace(block, median=GroupCounts.of([g[:, block.columns] for g in by_group]))
            for block in self.blocks_
        ]
        return self

    def transform(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        features = np.asarray(X, dtype=float)
        codes = self._codes(np.asarray(sensitive_features))
        draws = GroupByGroupDraws(features, self.random_state)
        repaired = []
        for block in self.blocks_:
            values = features[:, block.columns].copy()
            for g in np.unique(codes):
                rows = np.flatnonzero(codes == g)
                group_draws = partial(draws, rows, range(*block.span))
                values[rows] = self._moved(
                    values[rows], block.targets(values[rows], group_draws, g)
                )
            repaired.append(values)
        return np.hstack(repaired)


@dataclass(frozen=True)
class GroupCounts:
    """The median's quantile function before #69: u n_h compared with every group's counts."""

    sizes: tuple[int, ...]
    few: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]  # columns, values, counts b_hk
    many: np.ndarray
    many_sorted: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, sorted_by_group: list[np.ndarray]) -> "GroupCounts":
        distinct = [np.unique(column) for column in np.vstack(sorted_by_group).T]
        sizes = np.array([len(values) for values in distinct])
        few = []
        for size in np.unique(sizes[sizes <= 16]):
            columns = np.flatnonzero(sizes == size)
            below = np.array(
                [
                    [np.searchsorted(group[:, j], distinct[j]) for j in columns]
                    for group in sorted_by_group
                ],
                dtype=float,
            )
            below[below == 0] = -np.inf
            few.append((columns, np.array([distinct[j] for j in columns]), below))
        many = np.flatnonzero(sizes > 16)
        return cls(
            tuple(len(group) for group in sorted_by_group),
            tuple(few),
            many,
            tuple(np.asfortranarray(group[:, many]) for group in sorted_by_group),
        )

    def at(self, u: np.ndarray) -> np.ndarray:
        target = np.empty_like(u)
        enough = len(self.sizes) - (len(self.sizes) - 1) // 2
        for columns, values, below in self.few:
            products = [u[:, columns] * n for n in self.sizes]
            level = np.zeros(products[0].shape, dtype=np.int64)
            for k in range(1, values.shape[1]):
                groups = sum(product > below[h, :, k] for h, product in enumerate(products))
                level += groups >= enough
            target[:, columns] = values[np.arange(len(columns)), level]
        if len(self.many):
            quantiles = [quantile(group, u[:, self.many]) for group in self.many_sorted]
            target[:, self.many] = (
                np.minimum(*quantiles)  # as it was: the lower of two without a sort
                if len(quantiles) == 2
                else np.sort(quantiles, axis=0)[(len(quantiles) - 1) // 2]
            )
        return target


class GroupByGroupDraws:
    """Tie draws before #69: each group's tied rows hashed when the repair reaches them."""

    def __init__(self, features: np.ndarray, seed: int | None) -> None:
        self.features, self.seed = features, seed
        self.hashes = np.zeros(len(features), dtype=np.uint64)
        self.hashed = np.zeros(len(features), dtype=bool)

    def __call__(self, rows: np.ndarray, columns: range, tied: np.ndarray) -> np.ndarray:
        wanted = rows[tied]
        new = wanted[~self.hashed[wanted]]
        self.hashes[new] = row_hashes(self.features[new])
        self.hashed[new] = True
        return cell_uniforms(self.hashes[wanted], self.seed, columns)


class EveryRowDrawn(DisparateImpactRepair):
    """The repair before the look-up of untied values: every row hashed, every value's level."""

    def transform(self, X: Any, *, sensitive_features: Any) -> np.ndarray:
        features = np.asarray(X, dtype=float)
        codes = self._codes(np.asarray(sensitive_features))
        hashes = row_hashes(features)
        repaired = []
        for block in self.blocks_:
            values = features[:, block.columns].copy()
            noise = cell_uniforms(hashes, self.random_state, range(*block.span))
            for g in np.unique(codes):
                rows = codes == g
                u = block.levels(values[rows], lambda tied, own=noise[rows]: own[tied], g)
                values[rows] = self._moved(values[rows], block.median.at(u))
            repaired.append(values)
        return np.hstack(repaired)


def quantile(sorted_values: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Each column's empirical quantile function at levels ``u`` (its entry ceil(u n) - 1)."""
    n = len(sorted_values)
    index = np.clip(np.ceil(u * n).astype(np.int64) - 1, 0, n - 1)
    return np.take_along_axis(sorted_values, index, axis=0)


def previous_row_uniforms(values: np.ndarray, seed: int | None) -> np.ndarray:
    """Row uniforms from pandas' row hashes, mixed on the whole matrix at once."""
    rows = pd.util.hash_pandas_object(pd.DataFrame(values), index=False).to_numpy(np.uint64)
    columns = np.arange(values.shape[1], dtype=np.uint64)
    with np.errstate(over="ignore"):
        streams = _mix(columns + np.uint64(seed or 0) * _GOLDEN + _GOLDEN)
        return (_mix((rows[:, None] ^ streams[None, :]) + _GOLDEN) >> np.uint64(11)) * 2.0**-53


ALGORITHMS = (
    "feldman-gaussian-nb",
    "feldman-decision-tree",
    "feldman-logistic-regression",
    "feldman-svm",
)


def cpu(function, *args, repeat: int = 1, **kwargs):
    """The result of the last of ``repeat`` calls, and the CPU seconds of one call."""
    start = time.process_time()
    for _ in range(repeat):
        result = function(*args, **kwargs)
    return result, (time.process_time() - start) / repeat


def audit(model: Any, split: Any, setup: Any) -> Any:
    """The suite's individual audit of one model."""
    oracle = model_oracle(
        model,
        sensitive_features=split.sensitive_features_test[setup.rows],
        mean=setup.mean,
        scale=setup.scale,
        pairs=SMOOTHING_PAIRS,
        rng=split.seed,
    )
    y = split.y_test[setup.rows]
    return individual_fairness_test(oracle, setup.Z, y, setup.metric, **INDIVIDUAL_ATTACK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="propublica-recidivism")
    parser.add_argument("--variant", default="numerical+binary")
    parser.add_argument("--attribute", help="the dataset's first sensitive attribute by default")
    args = parser.parse_args()
    data = load_dataset(args.dataset)
    attribute = args.attribute or data.spec.sensitive[0]
    split = make_split(prepare(data, args.variant, attribute), 0)
    X_train, X_test = split.X_train.to_numpy(float), split.X_test.to_numpy(float)
    setup = split_fair_metric(X_test, split.sensitive_features_test, rng=split.seed)
    rng = np.random.default_rng(0)
    batch = np.tile(X_test[setup.rows], (4, 1))
    batch += rng.normal(scale=0.05, size=batch.shape) * setup.scale
    batch_groups = np.tile(split.sensitive_features_test[setup.rows], 4)
    groups = len(np.unique(split.sensitive_features_train))
    print(f"{args.dataset}, {args.variant}, {attribute} ({groups} groups): {X_train.shape[1]} "
          f"features, {len(X_train):,} training rows")  # fmt: skip
    baselines = {
        "before #69": Before69,
        "before the look-up": EveryRowDrawn,
        "before #17": PreviousRepair,
    }
    with threadpool_limits(1):
        for level in (0.5, 1.0):
            fitted = {
                name: kind(level).fit(X_train, sensitive_features=split.sensitive_features_train)
                for name, kind in {"ours": DisparateImpactRepair, **baselines}.items()
            }
            for name, rows, groups in (
                (f"attack batch ({len(batch)} rows)", batch, batch_groups),
                (f"test split ({len(X_test):,} rows)", X_test, split.sensitive_features_test),
            ):
                outputs = {
                    kind: cpu(repair.transform, rows, sensitive_features=groups, repeat=10)
                    for kind, repair in fitted.items()
                }
                ours, t_ours = outputs.pop("ours")
                times = []
                for kind, (theirs, t_theirs) in outputs.items():
                    assert np.array_equal(ours, theirs)
                    times.append(f"{kind} {t_theirs * 1e3:.1f} ms ({t_theirs / t_ours:.1f}x)")
                print(f"repair level {level}, {name}: ours {t_ours * 1e3:.1f} ms; "
                      f"{'; '.join(times)}; identical")  # fmt: skip
        for algorithm in ALGORITHMS:
            model = get_algorithm(algorithm).create(repair_level=0.5)
            model.fit(
                split.X_train, split.y_train, sensitive_features=split.sensitive_features_train
            )
            ours, t_ours = cpu(audit, model, split, setup)
            times = []
            for kind, baseline in baselines.items():
                model.repair_ = baseline(0.5).fit(
                    split.X_train, sensitive_features=split.sensitive_features_train
                )
                theirs, t_theirs = cpu(audit, model, split, setup)
                assert ours.loss.lower_bound == theirs.loss.lower_bound
                times.append(f"{kind} {t_theirs:.2f} CPU s ({t_theirs / t_ours:.1f}x)")
            print(f"individual audit of {algorithm} (repair level 0.5): ours {t_ours:.2f} CPU s; "
                  f"{'; '.join(times)}; T_n {ours.loss.lower_bound:.4f} in all")  # fmt: skip


if __name__ == "__main__":
    main()
