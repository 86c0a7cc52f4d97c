"""The site installs on a phone's home screen like an app (issue 43, 8): a web app
manifest with icons and standalone display, and the service worker that keeps the entry
pages for use offline.  Chromium itself says whether the page is installable (the
DevTools protocol's ``Page.getInstallabilityErrors``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_chromium_finds_the_site_installable(browser, live_server, language):
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale=language
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A Playwright context is incognito, which Chromium says first; any other error counts.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    icons = page.evaluate(
        "fetch('/manifest.webmanifest').then(r => r.json()).then(m => "
        "Promise.all(m.icons.map(i => fetch(i.src).then(r => [i.sizes, r.status]))))"
    )
    assert ["192x192", 200] in icons and ["512x512", 200] in icons
    context.close()
