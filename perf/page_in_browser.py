"""How fast a report's page opens and answers in Chromium: the page a reader explores.

Opens a written report (``report.html``) in headless Chromium, offline, and times: the page
loaded with its explorable chart's menus answering; a filter typed above the longest table
(every row read, those held back laid out, the matching ones shown); the next configuration
chosen in the chart's menu (its runs redrawn); and when its first screen was drawn (the first
contentful paint). Each is the median of ``--repeat`` openings, each in a fresh tab. In the same
run, the page as it was written before its long tables' rows were held as text (in templates,
parsed into elements as the page is read) is opened as often, and the ratio printed. The issue's
budget (#81) for the ``paper`` study's page: under a second.

    python perf/page_in_browser.py --report results/report/report.html
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

_LONGEST = """() => {
  const held = (t) => t.tBodies[0].querySelector("script.rows");
  const count = (t) => t.tBodies[0].rows.length + Number(held(t)?.dataset.rows ?? 0);
  const tables = [...document.querySelectorAll("table")].filter((t) => t.tBodies[0]);
  const longest = tables.reduce((a, b) => (count(b) > count(a) ? b : a));
  longest.id = "longest";
  return count(longest);
}"""
_SHOWN = "() => [...document.querySelector('#longest').tBodies[0].rows].filter((r) => !r.hidden)"
_FRAME = "() => new Promise((done) => requestAnimationFrame(() => done()))"


_PAINTED = "() => performance.getEntriesByName('first-contentful-paint')[0].startTime / 1000"


def timed(browser: Any, page: Path) -> dict[str, float]:
    """Open ``page`` in a fresh tab, offline, and time it: seconds and the longest table's rows."""
    tab = browser.new_context(offline=True).new_page()
    opened = _opened(tab, page)
    rows = tab.evaluate(_LONGEST)
    filter_box = tab.locator("#longest").locator("xpath=preceding-sibling::input[1]")
    start = time.perf_counter()
    filter_box.fill("logistic")
    tab.evaluate(_FRAME)
    filtered = time.perf_counter() - start
    shown = len(tab.evaluate(_SHOWN + ".map((r) => r.rowIndex)"))
    menu = tab.locator("select").first
    other = menu.locator("option").nth(1).get_attribute("value")
    start = time.perf_counter()
    menu.select_option(other)
    tab.evaluate(_FRAME)
    redrawn = time.perf_counter() - start
    painted = tab.evaluate(_PAINTED)
    tab.context.close()
    return {"painted": painted, "opened": opened, "filtered": filtered, "redrawn": redrawn,
            "rows": rows, "shown": shown}  # fmt: skip


def _opened(tab: Any, page: Path) -> float:
    """Return the seconds until ``page`` is loaded in ``tab`` and its chart's menus answer."""
    start = time.perf_counter()
    tab.goto(page.resolve().as_uri(), wait_until="load")
    tab.wait_for_selector("select")
    return time.perf_counter() - start


# A long table's held rows as the page held them before: in a <template>, parsed into elements
# as the page is read (laid out only when asked for).
_HELD = re.compile(r'<script type="text/html" class="rows" data-rows="\d+">(.*?)</script>', re.S)


def as_templates(page: Path, folder: Path) -> Path:
    """Return a copy of ``page`` whose held rows are in templates, the former page's form."""
    copy = folder / "templates.html"
    copy.write_text(_HELD.sub(r"<template>\1</template>", page.read_text()))
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, default=Path("results/report/report.html"))
    parser.add_argument("--repeat", type=int, default=3, help="Times opened (median shown).")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium package is not installed")
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()[0]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        runs = [timed(browser, args.report) for _ in range(args.repeat)]
        with tempfile.TemporaryDirectory() as folder:
            former = as_templates(args.report, Path(folder))
            before = [
                _opened(browser.new_context(offline=True).new_page(), former)
                for _ in range(args.repeat)
            ]
        browser.close()
    times = pd.DataFrame(runs)

    def said(column: str) -> str:
        return (f"{times[column].median():.2f} s (from {times[column].min():.2f} to "
                f"{times[column].max():.2f})")  # fmt: skip

    size = args.report.stat().st_size / 1e6
    print(f"{args.report} ({size:.1f} MB), opened {args.repeat} times, medians:")
    print(f"its first screen drawn after {said('painted')}")
    print(f"opened, its chart's menus answering, in {said('opened')}")
    former = float(np.median(before))
    print(f"  its held rows in templates, as before: {former:.2f} s; ratio "
          f"{former / times['opened'].median():.2f}")  # fmt: skip
    rows, shown = int(times["rows"].iloc[0]), int(times["shown"].iloc[0])
    print(f"a filter on its longest table ({rows} rows, {shown} shown): {said('filtered')}")
    print(f"the next configuration drawn: {said('redrawn')}")
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
