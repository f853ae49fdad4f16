"""The HTML report in headless Chromium: no console errors, every image decoded, a screenshot.

Needs Debian's ``chromium`` package (``.ci/run`` installs it) and the ``playwright`` Python
package (in the ``test`` extra), which drives the system browser; skipped without them.
"""

import shutil
from pathlib import Path

import pandas as pd
import pytest
from markupsafe import Markup

from faircompare.analysis import tidy
from faircompare.analysis.report import _page
from faircompare.analysis.report_writer import Section, _rest_held
from faircompare.choices import TABLE_FIRST_ROWS

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
        waiting = page.evaluate("Array.from(document.images).filter(i => !i.complete).length")
        images = page.evaluate(_EVERY_IMAGE)
        page.screenshot(path=tmp_path / "report.png", full_page=True)
        browser.close()
    assert problems == []
    assert len(images) >= 10
    assert waiting > 0  # the figures far below the first screen wait to be scrolled to (#81)
    assert [alt for alt, shown, _ in images if not shown] == []
    assert all(room for _, _, room in images)  # each kept its room: its size, loaded or not
    assert (tmp_path / "report.png").stat().st_size > 100_000


# Every figure loaded as a reader scrolling to it would, and whether it is whole: its alt, its
# pixels decoded, and its width and height set in the page before it loaded.
_EVERY_IMAGE = """async () => Promise.all(Array.from(document.images).map(async (i) => {
  const room = i.getAttribute("width") > 0 && i.getAttribute("height") > 0;
  i.loading = "eager";
  try { await i.decode(); } catch { return [i.alt, false, room]; }
  return [i.alt, i.naturalWidth > 0, room];
}))"""
# The chart's point under the mouse: its glyph's first screen position, read from BokehJS.
_FIRST_POINT = """() => {
  const walk = (view) => [view, ...(view.child_views ?? []),
                          ...(view.renderer_views ? [...view.renderer_views.values()] : [])]
    .flatMap((child) => child === view ? [view] : walk(child));
  const views = Object.values(Bokeh.index).flatMap(walk);
  const glyph = views.find((v) => v.glyph && v.glyph.sx && v.glyph.sx.length).glyph;
  return {x: glyph.sx[0], y: glyph.sy[0], points: glyph.sx.length};
}"""
# The chart's legend, as BokehJS lists it from the points drawn.
_LEGEND = """() => {
  const walk = (view) => [view, ...(view.child_views ?? []),
                          ...(view.renderer_views ? [...view.renderer_views.values()] : [])]
    .flatMap((child) => child === view ? [view] : walk(child));
  const legend = Object.values(Bokeh.index).flatMap(walk).find((v) => v.model.type === "Legend");
  return legend.model.items.flatMap((item) => item.get_labels_list_from_label_prop());
}"""
# The highlighted algorithm's points, and those drawn again on top of the chart.
_ON_TOP = """(marked) => {
  const walk = (view) => [view, ...(view.child_views ?? []),
                          ...(view.renderer_views ? [...view.renderer_views.values()] : [])]
    .flatMap((child) => child === view ? [view] : walk(child));
  const [all, top] = Object.values(Bokeh.index).flatMap(walk)
    .filter((v) => v.model.type === "GlyphRenderer").map((v) => v.model.data_source.data);
  const at = [...all.algorithm].flatMap((a, n) => a === marked ? [n] : []);
  return {marked: at.map((n) => [all.x[n], all.y[n]]),
          top: [...top.x].map((x, n) => [x, top.y[n]])};
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
        legend = page.evaluate(_LEGEND)
        on_top = page.evaluate(_ON_TOP, "logistic-regression")
        families = page.locator("h3:has-text('Algorithms by family') + div.table input.filter")
        families.fill("zafar")
        rows = families.evaluate(
            "(f) => [...f.nextElementSibling.tBodies[0].rows].map((r) => !r.hidden)"
        )
        browser.close()
    assert problems == []  # nothing fetched, no script error
    assert point["points"] > 10 and highlighted > 0
    assert "algorithm" in tooltip and "split" in tooltip and "demographic parity" in tooltip
    # the legend names the chosen configuration's algorithms, in order (#81: it had none)
    assert "logistic-regression" in legend and legend == sorted(set(legend)) and len(legend) > 1
    # the highlighted runs drawn again over the faded ones, and only they
    assert on_top["top"] == on_top["marked"] and len(on_top["top"]) > 1
    assert rows.count(True) == 1 and len(rows) >= 2  # in-processing kept, the rest hidden


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium package is not installed")
def test_a_long_table_shows_its_first_rows_until_asked_and_a_filter_reads_every_row(tmp_path):
    # the default study's pairwise tables hold 400 and more rows each (#81): the page shows
    # the first ones (the rest held as text, never parsed into rows), a button shows all (the
    # chart's highlight marking them by every name a table gives an algorithm, a tuning
    # budget's too), and a filter or a sort still reads every row
    sync_api = pytest.importorskip("playwright.sync_api")
    named = tidy.algorithm_of(["kamishima"], budgets=[10])
    names = [f"row {i}" for i in range(100)]
    names[77], names[78] = "kamishima (10 trials)", "kamishima-accuracy"
    table = pd.DataFrame({"pair": names, "p": range(100)})
    part = {"kind": "table", "caption": "long", "files": [],
            "table": Markup(_rest_held(table.to_html(index=False)))}  # fmt: skip
    page_file = tmp_path / "page.html"
    page_file.write_text(_page([Section("a long table", [part])], Path("results"), named))
    shown = "() => [...document.querySelector('tbody').rows].filter((r) => !r.hidden).length"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(page_file.as_uri(), wait_until="load")
        first, button = page.evaluate(shown), page.locator("button.rows")
        label = button.text_content()
        elements = page.evaluate("() => document.querySelectorAll('tbody tr').length")
        page.evaluate("() => window.highlightAlgorithm('kamishima')")  # the chart's menu
        button.click()
        every = page.evaluate(shown)
        marked = page.evaluate("() => [...document.querySelectorAll('tr.highlighted')]"
                               ".map((r) => r.cells[0].textContent)")  # fmt: skip
        button.click()
        page.locator("input.filter").fill("row 7")  # row 7 and rows 70 to 79 but 77 and 78
        found, hidden = page.evaluate(shown), button.is_hidden()
        page.locator("input.filter").fill("")
        page.locator("th").nth(1).click()
        page.locator("th").nth(1).click()  # down: row 99 first, and still 40 shown
        top = page.evaluate("() => document.querySelector('tbody tr:not([hidden])').textContent")
        after_sort = page.evaluate(shown)
        browser.close()
    assert (first, label, every) == (TABLE_FIRST_ROWS, "show all 100 rows", 100)
    assert elements == TABLE_FIRST_ROWS  # the rest not made into rows until asked for
    assert marked == ["kamishima (10 trials)", "kamishima-accuracy"]  # held rows, as they come
    assert (found, hidden) == (9, True)
    assert "row 99" in top and after_sort == TABLE_FIRST_ROWS
