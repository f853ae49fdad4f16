"""On the peer's preprocessed German and Adult frames, with a fixed prediction rule, the
catalogue equals a literal transcription of Friedler et al. (2019) §6's definitions."""

import numpy as np
import pandas as pd
import pytest

from faircompare.measures import GROUP_RATES, evaluate

pytestmark = pytest.mark.data

# (file, sensitive attribute, privileged value, label column, positive label, prediction rule)
CASES = {
    "german-sex": ("german_numerical.csv", "sex", "male", "credit", 1, "month <= 18"),
    "german-sex-age": ("german_numerical.csv", "sex-age", "male-adult", "credit", 1, "month <= 18"),
    "adult-race": (
        "adult_numerical.csv",
        "race",
        "White",
        "income-per-year",
        ">50K",
        "`education-num` >= 13",
    ),
    "adult-race-binary": (
        "adult_numerical-binsensitive.csv",
        "race",
        1,
        "income-per-year",
        1,
        "`education-num` >= 13",
    ),
    "adult-race-sex": (
        "adult_numerical.csv",
        "race-sex",
        "White-Male",
        "income-per-year",
        ">50K",
        "`hours-per-week` > 45",
    ),
}


def p(event: pd.Series, given: pd.Series) -> float:
    """P[event | given], by counting."""
    return event[given].mean()


def paper_values(y: pd.Series, yhat: pd.Series, s: pd.Series, privileged) -> dict:
    """The paper's definitions, one by one (§6.1, Definitions 6.2 to 6.6)."""
    priv, unpriv = s == privileged, s != privileged
    others = [v for v in s.unique() if v != privileged]
    positive = yhat == 1
    rates = {
        "accuracy": lambda g: p(yhat == y, g),
        "TPR": lambda g: p(positive, g & (y == 1)),
        "TNR": lambda g: p(~positive, g & (y == 0)),
        "FPR": lambda g: p(positive, g & (y == 0)),
        "FNR": lambda g: p(~positive, g & (y == 1)),
        "calibration+": lambda g: p(y == 1, g & positive),
        "calibration-": lambda g: 1 - p(y == 1, g & ~positive),
    }
    everyone = pd.Series(True, index=y.index)
    values = {
        "BCR": (rates["TPR"](everyone) + rates["TNR"](everyone)) / 2,
        "DIbinary": p(positive, unpriv) / p(positive, priv),
        "DIavgall": np.mean([p(positive, s == v) / p(positive, priv) for v in others]),
        "CV": 1 - (p(positive, priv) - p(positive, unpriv)),
    }
    for name, rate in rates.items():
        values[f"sensitive-{name}"] = np.mean([rate(s == v) for v in s.unique()])
        values[f"comparative-sensitive-{name}-ratio"] = np.mean(
            [rate(s == v) / rate(priv) for v in others]
        )
        values[f"comparative-sensitive-{name}-diff"] = np.mean(
            [1 - (rate(priv) - rate(s == v)) for v in others]
        )
    return values


@pytest.mark.parametrize("case", CASES)
def test_catalogue_equals_the_papers_definitions(peer_frames, case):
    file, attribute, privileged, label, positive, rule = CASES[case]
    frame = pd.read_csv(peer_frames / file)
    y = (frame[label] == positive).astype(int)
    yhat = frame.eval(rule).astype(int)
    s = frame[attribute]
    ours = evaluate(y, yhat, s, privileged=privileged).set_index(["measure", "group"])["value"]
    expected = paper_values(y, yhat, s, privileged)
    assert len(expected) == 4 + 3 * len(GROUP_RATES)
    for name, value in expected.items():
        assert ours[name, ""] == pytest.approx(value, rel=1e-12), name
