"""Measures agree with scikit-learn and fairlearn on random data (property-based)."""

import numpy as np
import pytest
from fairlearn import metrics as fl
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

from faircompare.measures import evaluate


@st.composite
def predictions(draw):
    """Random labels, predictions, scores (with ties) and 2 to 4 groups, every rate defined."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(30, 400))
    groups = rng.choice(np.array(["p", "q", "r", "t"])[: draw(st.integers(2, 4))], n)
    y_true = rng.integers(0, 2, n)
    y_pred = rng.integers(0, 2, n)
    scores = rng.integers(0, 20, n) / 20  # coarse, so ties are frequent
    for g in np.unique(groups):
        cells = set(zip(y_true[groups == g], y_pred[groups == g], strict=True))
        assume(len(cells) == 4)
    assume(len(np.unique(groups)) >= 2)
    return y_true, y_pred, groups, scores


def values_of(y_true, y_pred, groups, scores):
    frame = evaluate(y_true, y_pred, groups, privileged="p", scores=scores)
    return frame.set_index(["measure", "group"])["value"]


@settings(max_examples=60, deadline=None)
@given(predictions())
def test_overall_measures_match_scikit_learn(data):
    y_true, y_pred, groups, scores = data
    ours = values_of(*data)
    assert ours["accuracy", ""] == pytest.approx(sk.accuracy_score(y_true, y_pred))
    assert ours["TPR", ""] == pytest.approx(sk.recall_score(y_true, y_pred))
    assert ours["TNR", ""] == pytest.approx(sk.recall_score(y_true, y_pred, pos_label=0))
    assert ours["BCR", ""] == pytest.approx(sk.balanced_accuracy_score(y_true, y_pred))
    assert ours["MCC", ""] == pytest.approx(sk.matthews_corrcoef(y_true, y_pred))
    assert ours["AUC", ""] == pytest.approx(sk.roc_auc_score(y_true, scores))


@settings(max_examples=60, deadline=None)
@given(predictions())
def test_per_group_rates_match_fairlearn_metric_frame(data):
    y_true, y_pred, groups, scores = data
    ours = values_of(*data)
    frame = fl.MetricFrame(
        metrics={
            "accuracy": sk.accuracy_score,
            "TPR": fl.true_positive_rate,
            "TNR": fl.true_negative_rate,
            "FPR": fl.false_positive_rate,
            "FNR": fl.false_negative_rate,
            "calibration+": sk.precision_score,
            "calibration-": lambda t, p: sk.precision_score(t, p, pos_label=0),
        },
        y_true=y_true,
        y_pred=y_pred,
        sensitive_features=groups,
    ).by_group
    for rate in frame.columns:
        for group, expected in frame[rate].items():
            assert ours[f"sensitive-{rate}", group] == pytest.approx(expected)
    for group in np.unique(groups):
        mask = groups == group
        expected = sk.roc_auc_score(y_true[mask], scores[mask])
        assert ours["sensitive-AUC", group] == pytest.approx(expected)


@settings(max_examples=60, deadline=None)
@given(predictions())
def test_group_metrics_match_fairlearn(data):
    y_true, y_pred, groups, _ = data
    ours = values_of(*data)
    kwargs = {"y_true": y_true, "y_pred": y_pred, "sensitive_features": groups}
    assert ours["demographic_parity_difference", ""] == pytest.approx(
        fl.demographic_parity_difference(**kwargs)
    )
    assert ours["demographic_parity_ratio", ""] == pytest.approx(
        fl.demographic_parity_ratio(**kwargs)
    )
    assert ours["equalized_odds_difference", ""] == pytest.approx(
        fl.equalized_odds_difference(**kwargs)
    )
    assert ours["equal_opportunity_difference", ""] == pytest.approx(
        fl.equal_opportunity_difference(**kwargs)
    )
