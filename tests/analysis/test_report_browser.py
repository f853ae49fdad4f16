"""The HTML report in headless Chromium: no console errors, every image decoded, a screenshot.

Needs Debian's ``chromium`` package (``.ci/run`` installs it) and the ``playwright`` Python
package (in the ``test`` extra), which drives the system browser; skipped without them.
"""

import shutil

import pytest

pytestmark = pytest.mark.data

CHROMIUM = shutil.which("chromium")
QUIET = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium package is not installed")
def test_report_renders_without_errors_or_missing_images(report, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    problems = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("requestfailed", lambda request: problems.append(f"failed: {request.url[:80]}"))
        page.goto(report.as_uri(), wait_until="load")
        images = page.evaluate(
            "Array.from(document.images).map(i => [i.alt, i.complete && i.naturalWidth > 0])"
        )
        page.screenshot(path=tmp_path / "report.png", full_page=True)
        browser.close()
    assert problems == []
    assert len(images) >= 10
    assert [alt for alt, shown in images if not shown] == []
    assert (tmp_path / "report.png").stat().st_size > 100_000


# The chart's point under the mouse: its glyph's first screen position, read from BokehJS.
_FIRST_POINT = """() => {
  const walk = (view) => [view, ...(view.child_views ?? []),
                          ...(view.renderer_views ? [...view.renderer_views.values()] : [])]
    .flatMap((child) => child === view ? [view] : walk(child));
  const views = Object.values(Bokeh.index).flatMap(walk);
  const glyph = views.find((v) => v.glyph && v.glyph.sx && v.glyph.sx.length).glyph;
  return {x: glyph.sx[0], y: glyph.sy[0], points: glyph.sx.length};
}"""
_TOOLTIP = """() => [...document.querySelectorAll("*")].filter((e) => e.shadowRoot)
  .flatMap((e) => [...e.shadowRoot.querySelectorAll(".bk-Tooltip, .bk-tooltip-content")])
  .map((e) => e.textContent).join(" ")"""


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium package is not installed")
def test_the_study_is_explored_offline_a_dataset_chosen_a_table_filtered_a_run_read(report):
    # #81: choose a dataset, filter a table, hover a point and read its run, the network off
    sync_api = pytest.importorskip("playwright.sync_api")
    problems = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.route("http*://**", lambda route: (problems.append(route.request.url),
                                                route.abort()))  # fmt: skip
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(report.as_uri(), wait_until="load")
        menus = page.locator("select")
        menus.nth(0).select_option("german, sex, numerical+binary")
        menus.nth(3).select_option("logistic-regression")  # highlighted in every table
        page.wait_for_timeout(300)
        highlighted = page.locator("tr.highlighted").count()
        page.locator("#explore-the-study").scroll_into_view_if_needed()
        point = page.evaluate(_FIRST_POINT)
        chart = page.locator("canvas").first.bounding_box()
        page.mouse.move(chart["x"] + point["x"], chart["y"] + point["y"])
        page.wait_for_timeout(300)
        tooltip = page.evaluate(_TOOLTIP)
        families = page.locator("h3:has-text('Algorithms by family') + input.filter")
        families.fill("zafar")
        rows = families.evaluate(
            "(f) => [...f.nextElementSibling.tBodies[0].rows].map((r) => !r.hidden)"
        )
        browser.close()
    assert problems == []  # nothing fetched, no script error
    assert point["points"] > 10 and highlighted > 0
    assert "algorithm" in tooltip and "split" in tooltip and "demographic parity" in tooltip
    assert rows.count(True) == 1 and len(rows) >= 2  # in-processing kept, the rest hidden
