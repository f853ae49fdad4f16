"""Time Feldman's repair of new rows, and the individual audit of Feldman pipelines it dominates.

On a ProPublica split (numerical+binary, 399 features, most of them one-hot; ``--variant
numerical --attribute sex-race`` for the twelve groups of the paper profile's costliest
Feldman runs), the repair of the batches the individual-fairness attack predicts (its 200
audit rows, twice two antithetic copies: 800 perturbed rows) and of the whole test split, by
the repair now and by two baselines kept here:

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


class BlockByBlock(DisparateImpactRepair):
    """The repair before #69 merged its fitted blocks for few rows: 32 columns at a time."""

    def _transform_blocks(self, rows: int) -> list:
        return self.blocks_


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
        "block by block": BlockByBlock,
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
