"""Take the README's screenshots of a running demo (``make demo`` in another shell).

    .venv/bin/python scripts/screenshots.py [http://127.0.0.1:8000]

Uses Debian's Chromium (/usr/bin/chromium) through Playwright; writes docs/screenshots/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


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
        for lang, name in (("en", "season.png"), ("ja", "season-ja.png")):
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
            page.goto(f"{base}/seasons/1/")
            page.screenshot(path=str(OUT / name), full_page=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
