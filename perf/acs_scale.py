"""What each part of a run costs on ACSIncome-shaped data from 10^4 to 1.6 x 10^6 rows.

The whole-US ACSIncome file (1.6 M rows) cannot be fetched here, so its shape is built from the
two-state sample: rows drawn with replacement (the same columns, codes, cardinalities and label
relation; OCCP's 529 and POBP's 222 codes one-hot encoded, 785 columns). At each size, on split
0 (numerical+binary, SEX, as the modern profile runs it), one thread:

- preparing the variant (the one-hot encoding, stored sparse) and drawing the split;
- fitting and predicting each algorithm of the ``modern`` profile;
- the audits of the logistic regression: the permutation tests (1,000 permutations), FlipTest's
  per-split maps and flipsets, the individual-fairness setup (fair metric) and attack.

Each part's wall seconds and peak memory are printed: the process's high-water mark, reset
before the part, and in brackets what the part added to the memory it started with. ``prepare``
stores the encoding sparse above 256 MB as dense floats (about 43,000 rows here). The comparison
in the same run: up to 10^5 rows, the fits of the models whose sparse path is new (logistic
regression, naive Bayes, Kamishima) are repeated on the dense frame and on the sparse one, with
the ratios of time and of the memory the fit added.

    FAIRCOMPARE_MIRROR=../shared/data python perf/acs_scale.py [--rows 10000 100000 1600000]
"""

import argparse
import os
import time
from dataclasses import replace

import numpy as np
import pandas as pd

from faircompare.audits import AuditedRun, AuditOptions
from faircompare.audits.registry import registered_audits
from faircompare.config.profiles import MODERN_ALGORITHMS
from faircompare.datasets import load_dataset
from faircompare.preprocessing import is_sparse_frame, make_split, prepare
from faircompare.registry import get_algorithm

SPARSE = pd.SparseDtype(float, 0.0)
DENSE_COMPARISON = ("logistic-regression", "gaussian-nb", "kamishima")
DENSE_UP_TO = 100_000  # rows; the dense frame of 1.6 M rows alone is 10 GB


def peak_reset() -> None:
    """Reset this process's memory high-water mark (Linux)."""
    with open(f"/proc/{os.getpid()}/clear_refs", "w") as refs:
        refs.write("5")


def memory_gb(field: str) -> float:
    """A memory field of this process's status (``VmRSS``, ``VmHWM``), in GB."""
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) / 1e6
    return float("nan")


def measured(label: str, function, *args, **kwargs):
    """Run ``function``; print its wall seconds, its peak memory and the peak above the start.

    Returns the result, the seconds and the memory the part added at its peak (GB).
    """
    peak_reset()
    before = memory_gb("VmRSS")
    start = time.perf_counter()
    result = function(*args, **kwargs)
    seconds, peak = time.perf_counter() - start, memory_gb("VmHWM")
    print(f"  {label:42s} {seconds:8.1f} s {peak:6.2f} GB (+{peak - before:.2f})", flush=True)
    return result, seconds, max(peak - before, 0.0)


def frames(prepared) -> tuple[tuple[str, pd.DataFrame], ...]:
    """The prepared features as a dense frame and as a sparse one, whichever was stored."""
    X = prepared.X
    if is_sparse_frame(X):
        return ("dense", X.sparse.to_dense()), ("sparse", X)
    return ("dense", X), ("sparse", X.astype(SPARSE))


def fitted(name: str, split):
    model = get_algorithm(name).create()
    model.fit(split.X_train, split.y_train, sensitive_features=split.sensitive_features_train)
    return model


def predicted(model, split):
    X, s = split.X_test, split.sensitive_features_test
    scores = None
    if hasattr(model, "predict_proba"):
        scores = model.predict_proba(X, sensitive_features=s)[:, 1]
    return model.predict(X, sensitive_features=s), scores


def scaled(dataset, rows: int):
    """The dataset with ``rows`` rows drawn with replacement (seeded)."""
    chosen = np.random.default_rng(rows).choice(len(dataset.frame), rows, replace=True)
    return replace(dataset, frame=dataset.frame.iloc[chosen].reset_index(drop=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000, 1_600_000])
    parser.add_argument("--algorithms", nargs="+", default=list(MODERN_ALGORITHMS))
    args = parser.parse_args()
    source = load_dataset("acsincome")
    for rows in args.rows:
        print(f"{rows:,} rows", flush=True)
        dataset = scaled(source, rows)
        prepared, *_ = measured("prepare (one-hot)", prepare, dataset, "numerical+binary")
        split, *_ = measured("split", make_split, prepared, 0)
        stored_sparse = is_sparse_frame(prepared.X)
        print(f"  stored {'sparse' if stored_sparse else 'dense'}: {prepared.X.shape[1]} columns")
        models = {}
        for name in args.algorithms:
            models[name], *_ = measured(f"fit {name}", fitted, name, split)
            measured(f"predict {name}", predicted, models[name], split)
            if name in DENSE_COMPARISON and rows <= DENSE_UP_TO:
                storage = {
                    kind: make_split(replace(prepared, X=X), 0) for kind, X in frames(prepared)
                }
                _, dense_s, dense_gb = measured(
                    f"  {name}, dense frame", fitted, name, storage["dense"]
                )
                _, sparse_s, sparse_gb = measured(
                    f"  {name}, sparse frame", fitted, name, storage["sparse"]
                )
                memory = (
                    f"{dense_gb / sparse_gb:.1f}x memory"
                    if sparse_gb >= 0.01
                    else f"+{dense_gb:.2f} GB against under 0.01 GB"
                )
                print(f"  {'':42s} dense/sparse: {dense_s / sparse_s:.1f}x time, {memory}")
        model = models.get("logistic-regression") or next(iter(models.values()))
        y_pred, scores = predicted(model, split)
        run = AuditedRun(split, model, y_pred, scores, seed=split.seed, data=f"scaled-{rows}")
        audits = registered_audits()
        for name in ("permutation", "fliptest", "individual"):
            audit = audits[name]
            if hasattr(audit, "setups"):
                measured(f"{name} setup (per split)", audit.setups, run)
            measured(f"{name} audit", audit, run, AuditOptions(permutations=1000))


if __name__ == "__main__":
    main()
