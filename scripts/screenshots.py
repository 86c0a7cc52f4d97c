"""Take the screenshots of docs/pages.md and the README's season page from a running
demo (``make demo`` in another shell).

    .venv/bin/python scripts/screenshots.py [http://127.0.0.1:8000]

Uses Debian's Chromium (/usr/bin/chromium) through Playwright; writes docs/screenshots/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--disable-gpu", "--disable-sync"]
"""Beside Playwright's own switches (no sandbox, no background networking, no updates)."""


def rettler_deal(page) -> None:
    """A 6-player Rettler deal, typed as a scorer does."""
    page.click("#field-declarer label:has(input[value=aki])")
    page.click("#field-trump label:has(input[value=diamonds])")
    page.click("#id_count")
    page.keyboard.type("28SA")
    page.click("#field-adjutants label:has(input[value=chika])")
    page.click("#field-adjutants label:has(input[value=dai])")
    page.click("#id_pc_aki")
    page.keyboard.type("166103")
    page.keyboard.press("Enter")
    page.keyboard.type("1")


def main(base: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        phone = browser.new_page(viewport={"width": 375, "height": 812}, device_scale_factor=2)
        phone.goto(f"{base}/accounts/login/?next=/matches/1/enter/")
        phone.fill("#id_username", "scorer")
        phone.fill("#id_password", "demo-scorer-2026")
        phone.click("button[type=submit]")
        phone.wait_for_selector("#deal-entry")
        phone.screenshot(path=str(OUT / "entry-phone.png"), full_page=False)
        # A refused deal: the declarer named as their own adjutant.
        rettler_deal(phone)
        phone.click("#field-adjutants label:has(input[value=aki])")
        phone.click("#save")
        phone.wait_for_selector("#error-summary")
        phone.screenshot(path=str(OUT / "entry-error-phone.png"), full_page=False)
        # The same refusal in Japanese.
        phone.context.add_cookies([{"name": "django_language", "value": "ja", "url": base}])
        phone.goto(f"{base}/matches/1/enter/")
        rettler_deal(phone)
        phone.click("#field-adjutants label:has(input[value=aki])")
        phone.click("#save")
        phone.wait_for_selector("#error-summary")
        phone.screenshot(path=str(OUT / "entry-error-ja-phone.png"), full_page=False)
        phone.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
        # No network: the deal waits on the phone (nothing is stored; the demo is unchanged).
        phone.goto(f"{base}/matches/1/enter/")
        phone.wait_for_function("navigator.serviceWorker.controller !== null")
        phone.context.set_offline(True)
        rettler_deal(phone)
        phone.click("#save")
        phone.wait_for_selector("#queue:not([hidden])")
        phone.screenshot(path=str(OUT / "entry-offline-phone.png"), full_page=False)
        phone.evaluate("indexedDB.deleteDatabase('clubscore')")
        phone.context.set_offline(False)
        # A league administrator's draw for the third night, and the match page's corrections.
        admin = browser.new_page(viewport={"width": 375, "height": 812}, device_scale_factor=2)
        admin.goto(f"{base}/accounts/login/?next=/nights/3/draw/")
        admin.fill("#id_username", "admin")
        admin.fill("#id_password", "demo-admin-2026")
        admin.click("button[type=submit]")
        admin.wait_for_selector("#attendance")
        for label in admin.locator("#field-present label").all():
            label.click()
        admin.click("#field-games label:has(input[value=rettler])")
        admin.click("#field-games label:has(input[value=napoleon])")
        admin.click("#propose")  # a proposal only: nothing is stored until it is confirmed
        admin.wait_for_selector("#proposal")
        admin.screenshot(path=str(OUT / "draw-phone.png"), full_page=False)
        admin.goto(f"{base}/matches/1/#correct")
        admin.screenshot(path=str(OUT / "corrections-phone.png"), full_page=False)
        season = browser.new_page(viewport={"width": 375, "height": 812}, device_scale_factor=2)
        season.goto(f"{base}/seasons/1/")
        season.locator("#game-rettler figure").scroll_into_view_if_needed()
        season.locator("#game-rettler figure").screenshot(path=str(OUT / "season-plot-phone.png"))
        for lang, name in (("en", "season.png"), ("ja", "season-ja.png")):
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
            page.goto(f"{base}/seasons/1/")
            page.screenshot(path=str(OUT / name), full_page=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
