"""The explorable chart: every run with its audits' numbers, in a fragment that needs no network."""

import re

import numpy as np
import pandas as pd

from faircompare.analysis import explore
from faircompare.analysis.style import study_styles
from faircompare.records import DEFAULTS


def measures() -> pd.DataFrame:
    """Two runs of one configuration: their accuracy and DIbinary, long as the store holds them."""
    rows = [
        {"key": key, "dataset": "german", "sensitive_attribute": "sex",
         "variant": "numerical+binary", "algorithm": algorithm, "params": "{}",
         "setting": DEFAULTS, "split_id": split, "measure": measure, "group": "", "value": value}
        for key, algorithm, split, values in (("a", "lr", 0, (0.75, 0.9)), ("b", "svm", 1,
                                                                             (0.7, np.nan)))
        for measure, value in zip(("accuracy", "DIbinary"), values, strict=True)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_every_run_is_a_point_with_its_measures_and_audits_as_text():
    points = explore.run_points(measures(), pd.DataFrame())
    assert points["configuration"].tolist() == ["german, sex, numerical+binary"] * 2
    assert points["accuracy"].tolist() == [0.75, 0.7]
    assert np.isnan(points.loc[1, "DIbinary"])  # undefined stays missing, never 0
    assert points["parity_p"].tolist() == ["", ""]  # no audit ran: nothing said


def test_the_fragment_fetches_nothing_and_holds_the_runs():
    points = explore.run_points(measures(), pd.DataFrame())
    html = explore.explore_html(points, study_styles(["lr", "svm"]))
    assert not re.search(r"<script[^>]*src=", html)  # Bokeh's JavaScript written in, no URL
    assert "Bokeh" in html and "german, sex, numerical+binary" in html
    assert '"accuracy": [0.75, 0.7]' in html  # the numbers, to 4 decimals, as JSON


def test_each_run_is_drawn_with_its_algorithms_marker_as_the_figures_draw_it():
    # #81: every point was a circle, its algorithm told by its colour alone
    styles = study_styles(["lr", "svm"])  # lr: an "X" (a star in Bokeh), svm: an "o"
    assert (styles["lr"]["marker"], styles["svm"]["marker"]) == ("X", "o")
    html = explore.explore_html(explore.run_points(measures(), pd.DataFrame()), styles)
    quoted = '"marker": {"names": ["star", "circle"]'
    assert quoted in html  # the points' markers by name, coded as the chart's data is


def test_the_same_study_writes_the_same_fragment():
    # Bokeh names its models by a count that runs on and its document by random UUIDs; the
    # report reuses a part whose inputs did not change, and a page written again is the same
    points = explore.run_points(measures(), pd.DataFrame())
    styles = study_styles(["lr", "svm"])
    assert explore.explore_html(points, styles) == explore.explore_html(points, styles)


def test_a_flagged_run_says_which_measures_and_why_and_the_chart_opens_on_bounded_axes():
    flagged = pd.DataFrame(
        [("a", "DIbinary", "few events"), ("a", "CV", "few events"),
         ("b", "accuracy", "one class"), ("b", "DIbinary", "one class"),
         ("b", "sensitive-TPR", "one class")],  # a measure off the chart's menus: not named
        columns=["key", "measure", "reason"],
    )  # fmt: skip
    points = explore.run_points(measures(), pd.DataFrame(), flagged)
    assert points["flagged"].tolist() == ["DIbinary CV", "accuracy DIbinary"]
    assert points["flag"].tolist() == ["few events: DIbinary, CV", "one class"]
    assert explore.run_points(measures(), pd.DataFrame())["flag"].tolist() == ["", ""]
    # a ratio's near-zero denominator puts one run at DI 478: the chart opens on a measure
    # in [0, 1] instead, where the study measured it
    dp = measures().query("measure == 'DIbinary'").assign(measure="demographic_parity_difference")
    html = explore.explore_html(
        explore.run_points(pd.concat([measures(), dp]), pd.DataFrame()), study_styles(["lr"])
    )
    assert '"value":"demographic_parity_difference"' in html.replace(" ", "").replace("\\", "")


def test_the_runs_are_one_json_block_no_text_in_them_can_close():
    # the runs are read by the chart's script from a JSON block of the page; a parameter
    # holding "</script>" would end the block early, and the page's script with it
    import json

    points = explore.run_points(measures(), pd.DataFrame()).assign(params=["</script><b>", "{}"])
    html = explore.explore_html(points, study_styles(["lr", "svm"]))
    [block] = re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html)
    assert "</script><b>" not in html
    assert json.loads(block)["params"]["names"] == ["</script><b>", "{}"]
