"""Compare the libraries that could draw the report's explorable chart, and time it in Chromium.

Bokeh (the report's, :mod:`faircompare.analysis.explore`) against plotly, each writing one
self-contained page of every run, its JavaScript inlined (no network): the page's size and
the time to write it, for the runs of a study the size of the ``paper`` profile (27,820 runs
by default, measures drawn at random over 40 configurations and 12 algorithms). Then the
Bokeh page in headless Chromium, offline: the time until its menus answer, and the time a
change of dataset takes to redraw the chart (the issue's budget: under a second).

    python perf/explore_libraries.py [--runs 27820]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from faircompare.analysis import explore
from faircompare.analysis.style import study_styles


def synthetic_points(runs: int, seed: int = 0) -> pd.DataFrame:
    """Return ``runs`` runs as :func:`explore.run_points` gives them, numbers at random."""
    rng = np.random.default_rng(seed)
    algorithms = [f"algorithm-{i}" for i in range(12)]
    configurations = [f"dataset-{d}, attribute-{a}, numerical" for d in range(5) for a in range(8)]
    points = pd.DataFrame(
        {
            "key": [f"run-{i}" for i in range(runs)],
            "configuration": rng.choice(configurations, runs),
            "algorithm": rng.choice(algorithms, runs),
            "params": "defaults",
            "split": rng.integers(0, 10, runs),
            "parity_p": "p = 0.5 (Holm)",
            "individual": "does not reject (statistic 1.02)",
            "flips": "F+ 3.0%",
        }
    )
    for measure in explore.EXPLORED:
        points[measure] = rng.uniform(0.5, 1.0, runs)
    return points


def bokeh_page(points: pd.DataFrame) -> tuple[str, float]:
    """Return the Bokeh page and the seconds it took to write."""
    start = time.perf_counter()
    fragment = explore.explore_html(points, study_styles(points["algorithm"].unique()))
    return f"<html><body>{fragment}</body></html>", time.perf_counter() - start


def plotly_page(points: pd.DataFrame) -> tuple[str, float] | None:
    """Return a plotly page of the same points (one WebGL scatter), or None without plotly."""
    try:
        import plotly.graph_objects as go
    except ModuleNotFoundError:
        return None
    start = time.perf_counter()
    figure = go.Figure(
        go.Scattergl(
            x=points["DIbinary"], y=points["accuracy"], mode="markers",
            customdata=points[["algorithm", "params", "split", "parity_p"]].to_numpy(),
            hovertemplate="%{customdata[0]} %{customdata[1]} split %{customdata[2]}",
        )
    )  # fmt: skip
    return figure.to_html(include_plotlyjs=True, full_html=True), time.perf_counter() - start


def responsiveness(page: Path) -> tuple[float, float] | None:
    """Return the seconds until the page's menus answer, and a dataset change's redraw."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        return None
    if chromium is None:
        return None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        context = browser.new_context(offline=True)
        tab = context.new_page()
        start = time.perf_counter()
        tab.goto(page.as_uri())
        tab.wait_for_selector("select")
        opened = time.perf_counter() - start
        menu = tab.locator("select").first
        other = menu.locator("option").nth(1).get_attribute("value")
        start = time.perf_counter()
        menu.select_option(other)
        tab.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
        answered = time.perf_counter() - start
        browser.close()
    return opened, answered


def main() -> None:
    """Write both pages, print their sizes and times, then time the Bokeh page in Chromium."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=27_820)
    args = parser.parse_args()
    points = synthetic_points(args.runs)
    written = {"bokeh": bokeh_page(points), "plotly": plotly_page(points)}
    for library, made in written.items():
        if made is None:
            print(f"{library}: not installed")
            continue
        html, seconds = made
        print(f"{library}: {len(html) / 1e6:.2f} MB, written in {seconds:.2f} s "
              f"({args.runs:,} runs)")  # fmt: skip
    bokeh, plotly = written["bokeh"], written["plotly"]
    if plotly is not None:
        print(f"ratio plotly / bokeh: size {len(plotly[0]) / len(bokeh[0]):.2f}x")
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "explore.html"
        page.write_text(bokeh[0], encoding="utf-8")
        timed = responsiveness(page)
    if timed is None:
        print("Chromium or playwright missing: the page was not opened")
    else:
        print(f"bokeh page in Chromium, offline: menus answer after {timed[0]:.2f} s; a "
              f"dataset chosen redraws in {timed[1]:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
