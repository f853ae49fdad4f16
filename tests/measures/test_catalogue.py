"""Measures checked against hand computation on a small table.

The table has three groups; W is privileged. Per group (TP, FN, FP, TN):
W (2, 1, 1, 1), B (1, 1, 0, 2), H (1, 0, 1, 1). Every expected value below is worked out from
these counts, with the arithmetic in the comment beside it.
"""

import math
import warnings

import numpy as np
import pytest

from faircompare.exceptions import ChoiceError
from faircompare.measures import MEASURES, UndefinedMeasureWarning, evaluate, get_measures

Y_TRUE = [1, 1, 1, 0, 0] + [1, 1, 0, 0] + [1, 0, 0]
Y_PRED = [1, 1, 0, 1, 0] + [1, 0, 0, 0] + [1, 1, 0]
GROUPS = ["W"] * 5 + ["B"] * 4 + ["H"] * 3


@pytest.fixture(scope="module")
def table():
    frame = evaluate(Y_TRUE, Y_PRED, GROUPS, privileged="W")
    return {(m, g): v for m, g, v in frame.itertuples(index=False)}


HAND = {
    # overall: TP 4, FN 2, FP 2, TN 4
    ("accuracy", ""): 8 / 12,
    ("TPR", ""): 4 / 6,
    ("TNR", ""): 4 / 6,
    ("BCR", ""): (4 / 6 + 4 / 6) / 2,
    ("balanced_accuracy", ""): 4 / 6,
    ("MCC", ""): (4 * 4 - 2 * 2) / math.sqrt(6 * 6 * 6 * 6),
    # positive rates: W 3/5, B 1/4, H 2/3, B and H together 3/7
    ("DIbinary", ""): (3 / 7) / (3 / 5),
    ("DIavgall", "B"): (1 / 4) / (3 / 5),
    ("DIavgall", "H"): (2 / 3) / (3 / 5),
    ("DIavgall", ""): ((1 / 4) / (3 / 5) + (2 / 3) / (3 / 5)) / 2,
    ("CV", ""): 1 - (3 / 5 - 3 / 7),
    ("CVavgall", ""): ((1 - (3 / 5 - 1 / 4)) + (1 - (3 / 5 - 2 / 3))) / 2,
    # TPR: W 2/3, B 1/2, H 1
    ("sensitive-TPR", "W"): 2 / 3,
    ("sensitive-TPR", "B"): 1 / 2,
    ("sensitive-TPR", "H"): 1.0,
    ("sensitive-TPR", ""): (2 / 3 + 1 / 2 + 1) / 3,
    ("comparative-sensitive-TPR-ratio", "B"): (1 / 2) / (2 / 3),
    ("comparative-sensitive-TPR-ratio", ""): ((1 / 2) / (2 / 3) + 1 / (2 / 3)) / 2,
    ("comparative-sensitive-TPR-diff", "H"): 1 - (2 / 3 - 1),
    ("comparative-sensitive-TPR-diff", ""): ((1 - (2 / 3 - 1 / 2)) + (1 - (2 / 3 - 1))) / 2,
    # accuracy: W 3/5, B 3/4, H 2/3
    ("sensitive-accuracy", ""): (3 / 5 + 3 / 4 + 2 / 3) / 3,
    ("comparative-sensitive-accuracy-diff", ""): ((1 - (3 / 5 - 3 / 4)) + (1 - (3 / 5 - 2 / 3)))
    / 2,
    # TNR: W 1/2, B 1, H 1/2; FPR: W 1/2, B 0, H 1/2; FNR: W 1/3, B 1/2, H 0
    ("sensitive-TNR", ""): (1 / 2 + 1 + 1 / 2) / 3,
    ("comparative-sensitive-TNR-ratio", ""): (1 / (1 / 2) + (1 / 2) / (1 / 2)) / 2,
    ("sensitive-FPR", "B"): 0.0,
    ("comparative-sensitive-FPR-diff", ""): ((1 - (1 / 2 - 0)) + (1 - (1 / 2 - 1 / 2))) / 2,
    ("sensitive-FNR", ""): (1 / 3 + 1 / 2 + 0) / 3,
    ("comparative-sensitive-FNR-ratio", ""): ((1 / 2) / (1 / 3) + 0 / (1 / 3)) / 2,
    # calibration+ = TP / (TP + FP): W 2/3, B 1, H 1/2
    ("sensitive-calibration+", ""): (2 / 3 + 1 + 1 / 2) / 3,
    ("comparative-sensitive-calibration+-ratio", "H"): (1 / 2) / (2 / 3),
    # calibration- = 1 - P[Y = 1 | Y_hat = 0] = TN / (TN + FN): W 1/2, B 2/3, H 1
    ("sensitive-calibration-", "B"): 2 / 3,
    ("sensitive-calibration-", ""): (1 / 2 + 2 / 3 + 1) / 3,
    ("comparative-sensitive-calibration--diff", ""): ((1 - (1 / 2 - 2 / 3)) + (1 - (1 / 2 - 1)))
    / 2,
    ("comparative-sensitive-accuracy-ratio", ""): ((3 / 4) / (3 / 5) + (2 / 3) / (3 / 5)) / 2,
    ("comparative-sensitive-TNR-diff", ""): ((1 - (1 / 2 - 1)) + (1 - (1 / 2 - 1 / 2))) / 2,
    ("sensitive-FPR", ""): (1 / 2 + 0 + 1 / 2) / 3,
    ("comparative-sensitive-FPR-ratio", ""): (0 / (1 / 2) + (1 / 2) / (1 / 2)) / 2,
    ("comparative-sensitive-FNR-diff", ""): ((1 - (1 / 3 - 1 / 2)) + (1 - (1 / 3 - 0))) / 2,
    ("comparative-sensitive-calibration+-diff", ""): ((1 - (2 / 3 - 1)) + (1 - (2 / 3 - 1 / 2)))
    / 2,
    ("comparative-sensitive-calibration--ratio", ""): ((2 / 3) / (1 / 2) + 1 / (1 / 2)) / 2,
    # spreads over W, B, H
    ("demographic_parity_difference", ""): 2 / 3 - 1 / 4,
    ("demographic_parity_ratio", ""): (1 / 4) / (2 / 3),
    ("equalized_odds_difference", ""): max(1 - 1 / 2, 1 / 2 - 0),
    ("equal_opportunity_difference", ""): 1 - 1 / 2,
    # TPR privileged 2/3, rest (B+H) 2/3; FPR privileged 1/2, rest 1/4
    ("average_odds_difference", ""): ((2 / 3 - 2 / 3) + (1 / 2 - 1 / 4)) / 2,
}


@pytest.mark.parametrize(("key", "expected"), HAND.items(), ids=[f"{m}[{g}]" for m, g in HAND])
def test_hand_computed_values(table, key, expected):
    assert table[key] == pytest.approx(expected)


def test_every_measure_without_scores_is_in_the_table(table):
    assert {m for m, _ in table} == {m.name for m in get_measures(scores=False)}


def test_every_measure_has_a_hand_computed_value():
    by_hand = {m for m, _ in HAND} | {"AUC", "sensitive-AUC"}  # the AUC tests below
    assert by_hand == set(MEASURES)


def test_comparative_measures_have_a_row_per_unprivileged_group(table):
    groups = {g for m, g in table if m == "comparative-sensitive-TNR-diff"}
    assert groups == {"B", "H", ""}


def test_two_groups_make_the_binary_and_averaged_variants_agree():
    y, p, g = Y_TRUE[:9], Y_PRED[:9], GROUPS[:9]
    values = evaluate(y, p, g, privileged="W").set_index(["measure", "group"])["value"]
    assert values["DIbinary", ""] == pytest.approx(values["DIavgall", ""])
    assert values["CV", ""] == pytest.approx(values["CVavgall", ""])


def test_auc_with_ties_by_hand():
    # Group a, pairs (positive, negative): 0.9>0.8, 0.9>0.3, 0.8=0.8 counts 1/2, 0.8>0.3, so
    # 3.5 of 4. Group b: its positive (0.2) is below both negatives, 0 of 2. Overall: positives
    # 0.9, 0.8, 0.2 against negatives 0.8, 0.3, 0.6, 0.4: 4 + (0.5 + 1 + 1 + 1) + 0 = 7.5 of 12.
    y = [1, 0, 1, 0, 1, 0, 0]
    scores = [0.9, 0.8, 0.8, 0.3, 0.2, 0.6, 0.4]
    groups = ["a"] * 4 + ["b"] * 3
    frame = evaluate(
        y, [1] * 7, groups, privileged="a", scores=scores, measures=["AUC", "sensitive-AUC"]
    )
    values = frame.set_index(["measure", "group"])["value"]
    assert values["AUC", ""] == pytest.approx(7.5 / 12)
    assert values["sensitive-AUC", "a"] == pytest.approx(3.5 / 4)
    assert values["sensitive-AUC", "b"] == pytest.approx(0.0)
    assert values["sensitive-AUC", ""] == pytest.approx((3.5 / 4 + 0) / 2)


def test_measure_called_directly_returns_its_aggregate():
    assert MEASURES["CV"](Y_TRUE, Y_PRED, GROUPS, privileged="W") == pytest.approx(
        1 - (3 / 5 - 3 / 7)
    )


def test_paper_names():
    assert MEASURES["DIbinary"].paper_name("", "race") == "DIbinary"
    assert MEASURES["comparative-sensitive-TPR-diff"].paper_name("", "sex") == "sex-TPRDiff"
    assert MEASURES["comparative-sensitive-TPR-ratio"].paper_name("", "sex") == "sex-TPRRatio"
    assert MEASURES["sensitive-calibration-"].paper_name("", "race") == "race-calibration-"
    assert MEASURES["sensitive-TPR"].paper_name("Female", "sex") == "Female-TPR"
    assert MEASURES["demographic_parity_difference"].paper_name("", "sex") is None


def test_a_group_without_positives_gives_nan_and_a_warning_naming_it():
    y = [1, 0, 0, 0]
    with pytest.warns(
        UndefinedMeasureWarning, match="sensitive-TPR is undefined for group 'b' \\(no positives"
    ):
        frame = evaluate(
            y, [1, 0, 1, 0], ["a", "a", "b", "b"], privileged="a", measures=["sensitive-TPR"]
        )
    values = frame.set_index("group")["value"]
    assert values["a"] == 1.0
    assert math.isnan(values["b"]) and math.isnan(values[""])


def test_no_predicted_positives_in_the_privileged_group_makes_di_nan():
    with pytest.warns(
        UndefinedMeasureWarning,
        match="DIbinary is undefined for group 'all unprivileged' \\(the privileged group's value is 0\\)",
    ):
        value = MEASURES["DIbinary"](
            [1, 0, 1, 0], [0, 0, 1, 0], ["a", "a", "b", "b"], privileged="a"
        )
    assert math.isnan(value)


def test_constant_predictions_make_mcc_nan_not_zero():
    with pytest.warns(UndefinedMeasureWarning, match="MCC is undefined"):
        assert math.isnan(MEASURES["MCC"]([1, 0, 1], [1, 1, 1], ["a"] * 3, privileged="a"))


def test_defined_measures_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate(Y_TRUE, Y_PRED, GROUPS, privileged="W")


def test_unknown_measure_lists_the_valid_ones():
    with pytest.raises(
        ChoiceError,
        match="unknown measure 'DIbin'.*did you mean 'DIbinary'.*valid choices: accuracy, TPR",
    ):
        evaluate(Y_TRUE, Y_PRED, GROUPS, privileged="W", measures=["DIbin"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"y_pred": [2] * 12},
            "y_pred must hold 1 \\(positive\\) and 0 \\(other\\) only; found \\[2\\]",
        ),
        (
            {"sensitive_features": ["W"] * 11},
            "one entry per row; got lengths y_true 12, y_pred 12, sensitive_features 11",
        ),
        ({"privileged": "X"}, "unknown privileged group 'X'; valid choices: B, H, W"),
        ({"scores": [0.5] * 11}, "one entry per row; got lengths .* scores 11"),
    ],
)
def test_bad_inputs_are_named(kwargs, message):
    arguments = {
        "y_true": Y_TRUE,
        "y_pred": Y_PRED,
        "sensitive_features": GROUPS,
        "privileged": "W",
        **kwargs,
    }
    with pytest.raises(ValueError, match=message):
        evaluate(**arguments)


def test_auc_without_scores_is_refused_when_asked_for():
    with pytest.raises(ValueError, match="AUC needs scores"):
        evaluate(Y_TRUE, Y_PRED, GROUPS, privileged="W", measures=["AUC"])


def test_boolean_and_integer_groups_work():
    frame = evaluate(Y_TRUE, Y_PRED, np.array(GROUPS) == "W", privileged=True)
    assert set(frame["group"]) == {"True", "False", ""}


def test_a_ratios_gap_is_bounded_and_symmetric():
    # by hand: 1 - min(r, 1/r); DI 560 (a privileged rate near 0) is 1 - 1/560, not 559
    gap = MEASURES["DIbinary"].gap([0.5, 2.0, 1.0, 0.0, 560.0, np.nan])
    np.testing.assert_allclose(gap, [0.5, 0.5, 0.0, 1.0, 1 - 1 / 560, np.nan])
    assert MEASURES["CV"].gap([0.8, 1.3]).tolist() == pytest.approx([0.2, 0.3])  # |CV - 1|
    assert {m.name for m in MEASURES.values() if m.ratio} >= {"DIbinary", "DIavgall"}


def test_a_group_s_error_rate_is_ideal_at_zero_and_its_other_rates_at_one():
    # issue #85: the measures reference gave sensitive-FPR and sensitive-FNR an ideal of 1
    ideals = {rate: MEASURES[f"sensitive-{rate}"].ideal for rate in ("FPR", "FNR", "TPR", "TNR")}
    assert ideals == {"FPR": 0, "FNR": 0, "TPR": 1, "TNR": 1}
