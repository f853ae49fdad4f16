"""FlipTest's L1 cost matrix: faircompare's column-by-column sum against POT's ``ot.dist``.

On the rows a FlipTest map is fitted on (split 0's test rows, standardised, the privileged
group's sample and one other group's, at most 3,000 each): ACSIncome (785 columns, one-hot
OCCP and POBP; RAC1P, Asian against White) and Adult (race). Prints both times,
their ratio, and whether the matrices are equal bit for bit (they must be: the maps, and so
every stored FlipTest result, are unchanged).

    FAIRCOMPARE_MIRROR=../shared/data python perf/fliptest_cost.py
"""

import numpy as np
import ot
from fliptest_scaling import timed  # perf/, this script's folder, is on sys.path

from faircompare.audits.fliptest import transport_sample
from faircompare.datasets import load_dataset
from faircompare.preprocessing import (
    is_sparse_frame,
    make_split,
    prepare,
    sparse_matrix,
    standardisation,
    standardised,
)
from faircompare.stats.fliptest import cityblock_distances

CASES = (("acsincome", "RAC1P", "Asian"), ("adult", "race", "Black"))


def map_rows(dataset: str, attribute: str, group: str) -> tuple[np.ndarray, np.ndarray]:
    """The standardised source and target rows of split 0's map of ``group``."""
    split = make_split(prepare(load_dataset(dataset), "numerical", attribute), 0)
    X = sparse_matrix(split.X_test) if is_sparse_frame(split.X_test) else split.X_test.to_numpy()
    groups = np.asarray(split.sensitive_features_test).astype(str)
    mean, scale = standardisation(X)
    source_rows = np.flatnonzero(groups == group)
    target_rows = np.flatnonzero(groups == str(split.privileged))
    rng = np.random.default_rng(0)
    sampled, targets = transport_sample(len(source_rows), len(target_rows), rng=rng)
    return (
        standardised(X, source_rows[sampled], mean, scale),
        standardised(X, target_rows[targets], mean, scale),
    )


def main() -> None:
    for dataset, attribute, group in CASES:
        source, target = map_rows(dataset, attribute, group)
        ours, ours_s = timed(cityblock_distances, source, target)
        pot, pot_s = timed(ot.dist, source, target, metric="cityblock")
        print(
            f"{dataset} {attribute}={group}: {len(source):,} x {len(target):,} rows, "
            f"{source.shape[1]} columns: POT {pot_s:6.2f} s, faircompare {ours_s:6.2f} s, "
            f"ratio {pot_s / ours_s:5.1f}x, equal bit for bit: {np.array_equal(ours, pot)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
