"""How fast a report's page opens and answers in Chromium: the page a reader explores.

Opens a written report (``report.html``) in headless Chromium, offline, and times: the page
loaded with its explorable chart's menus answering; a filter typed above the longest table
(every row read, those held back laid out, the matching ones shown); the next configuration
chosen in the chart's menu (its runs redrawn). The issue's budget (#81) for the ``paper``
study's page: under a second.

    python perf/page_in_browser.py --report results/report/report.html
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, default=Path("results/report/report.html"))
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium package is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        tab = browser.new_context(offline=True).new_page()
        start = time.perf_counter()
        tab.goto(args.report.resolve().as_uri(), wait_until="load")
        tab.wait_for_selector("select")
        opened = time.perf_counter() - start
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
        browser.close()
    size = args.report.stat().st_size / 1e6
    print(f"{args.report} ({size:.1f} MB): opened, its menus answering, in {opened:.2f} s")
    print(f"a filter on its longest table ({rows} rows, {shown} shown): {filtered:.2f} s")
    print(f"the next configuration drawn: {redrawn:.2f} s; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
