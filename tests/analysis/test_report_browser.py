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
