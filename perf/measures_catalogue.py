"""Time the one-pass measure catalogue against computing each measure separately with pandas.

The reference re-scans the data for every measure, as the paper's benchmark does (one pandas
group-by per measure). Both must give the same values before they are timed.

    python perf/measures_catalogue.py [--rows 10000 100000] [--repeat 5]
"""

import argparse
import timeit

import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef, roc_auc_score

from faircompare.measures import GROUP_RATES, evaluate

RATES = {
    "accuracy": lambda f: (f.y == f.yhat).mean(),
    "TPR": lambda f: f.yhat[f.y == 1].mean(),
    "TNR": lambda f: 1 - f.yhat[f.y == 0].mean(),
    "FPR": lambda f: f.yhat[f.y == 0].mean(),
    "FNR": lambda f: 1 - f.yhat[f.y == 1].mean(),
    "calibration+": lambda f: f.y[f.yhat == 1].mean(),
    "calibration-": lambda f: 1 - f.y[f.yhat == 0].mean(),
    "positive rate": lambda f: f.yhat.mean(),
}


def by_group(frame: pd.DataFrame, rate: str) -> pd.Series:
    return frame.groupby("s")[["y", "yhat", "score"]].apply(RATES[rate])


def naive_catalogue(frame: pd.DataFrame, privileged: str) -> dict[str, float]:
    """Every aggregate measure, each computed on its own from the rows."""
    priv, rest = frame[frame.s == privileged], frame[frame.s != privileged]
    out = {name: RATES[name](frame) for name in ("accuracy", "TPR", "TNR")}
    out["BCR"] = out["balanced_accuracy"] = (RATES["TPR"](frame) + RATES["TNR"](frame)) / 2
    out["MCC"] = matthews_corrcoef(frame.y, frame.yhat)
    out["AUC"] = roc_auc_score(frame.y, frame.score)
    pr = by_group(frame, "positive rate")
    out["DIbinary"] = RATES["positive rate"](rest) / RATES["positive rate"](priv)
    out["DIavgall"] = (pr.drop(privileged) / pr[privileged]).mean()
    out["CV"] = 1 - (RATES["positive rate"](priv) - RATES["positive rate"](rest))
    pr = by_group(frame, "positive rate")
    out["CVavgall"] = (1 - (pr[privileged] - pr.drop(privileged))).mean()
    for rate in GROUP_RATES:
        out[f"sensitive-{rate}"] = by_group(frame, rate).mean()
        values = by_group(frame, rate)
        ratio = values.drop(privileged) / values[privileged]
        out[f"comparative-sensitive-{rate}-ratio"] = ratio.mean()
        values = by_group(frame, rate)
        diff = 1 - (values[privileged] - values.drop(privileged))
        out[f"comparative-sensitive-{rate}-diff"] = diff.mean()
    pr = by_group(frame, "positive rate")
    out["demographic_parity_difference"] = pr.max() - pr.min()
    pr = by_group(frame, "positive rate")
    out["demographic_parity_ratio"] = pr.min() / pr.max()
    tpr, fpr = by_group(frame, "TPR"), by_group(frame, "FPR")
    out["equalized_odds_difference"] = max(tpr.max() - tpr.min(), fpr.max() - fpr.min())
    tpr = by_group(frame, "TPR")
    out["equal_opportunity_difference"] = tpr.max() - tpr.min()
    out["average_odds_difference"] = (
        RATES["TPR"](priv) - RATES["TPR"](rest) + RATES["FPR"](priv) - RATES["FPR"](rest)
    ) / 2
    out["sensitive-AUC"] = (
        frame.groupby("s")[["y", "score"]].apply(lambda f: roc_auc_score(f.y, f.score)).mean()
    )
    return out


def data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    s = rng.choice(["White", "Black", "Asian", "Other", "Native"], n, p=[0.6, 0.2, 0.1, 0.06, 0.04])
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 * y + rng.normal(0.35, 0.25, n), 0, 1).round(3)
    return pd.DataFrame({"y": y, "yhat": (score > 0.5).astype(int), "s": s, "score": score})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for n in args.rows:
        frame = data(n)

        def ours(frame=frame):
            return evaluate(frame.y, frame.yhat, frame.s, privileged="White", scores=frame.score)

        def reference(frame=frame):
            return naive_catalogue(frame, "White")

        table = ours().query("group == ''").set_index("measure")["value"]
        expected = reference()
        assert set(expected) == set(table.index), set(expected) ^ set(table.index)
        for name, value in expected.items():
            assert np.isclose(table[name], value), (name, table[name], value)

        fast = min(timeit.repeat(ours, number=1, repeat=args.repeat))
        slow = min(timeit.repeat(reference, number=1, repeat=args.repeat))
        print(
            f"measure catalogue ({len(expected)} measures), n={n:,}: one pass {fast * 1e3:.2f} ms, "
            f"per-measure pandas {slow * 1e3:.1f} ms, ratio {slow / fast:.0f}x"
        )


if __name__ == "__main__":
    main()
