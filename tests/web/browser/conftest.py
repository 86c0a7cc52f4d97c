"""Browser tests: Debian's headless Chromium driven by Playwright against a live server."""

from __future__ import annotations

import os

import pytest

from tests import worlds
from tournaments.models import Match

CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's Chromium built as its headless shell (package ``chromium-headless-shell``, from
the same source as ``chromium``): Blink and V8 as in the browser, without the desktop
browser's own services, which is what Playwright runs for headless tests unless told
otherwise. The browser tests take a third less CPU on it than on ``/usr/bin/chromium``
run headless (docs/testing.md); ``scripts/screenshots.py`` still uses the full browser."""
PLAYWRIGHTS_OFF = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,"
    "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion"
)
"""The features Playwright 1.65 turns off; a later ``--disable-features`` replaces its own,
so :data:`ARGS` repeats them."""
UNUSED_OFF = (
    "SpareRendererForSitePerProcess,Prerender2,BackForwardCache,Translate,"
    "AutofillServerCommunication,OptimizationGuideModelDownloading,OptimizationHintsFetching,"
    "OptimizationTargetPrediction,InterestFeedContentSuggestions,"
    "CertificateTransparencyComponentUpdater,PrivacySandboxSettings4"
)
"""Browser services no page of ours uses: a spare renderer started after each navigation,
prerendering, translation, Google's hints and feeds.  Turned off with the services below,
they leave Chromium less work for each tab the suite opens (docs/testing.md)."""
ARGS = [
    "--disable-gpu",
    "--disable-sync",
    f"--disable-features={PLAYWRIGHTS_OFF},{UNUSED_OFF}",
    "--disable-client-side-phishing-detection",
    "--disable-domain-reliability",
    "--safebrowsing-disable-auto-update",
    "--disable-print-preview",
]
"""Beside Playwright's own switches (no sandbox, no background networking, no updates, no
first-run pages), which it passes to any Chromium it launches."""


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session (per process of a parallel run)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            "Debian's chromium-headless-shell is needed for the browser tests"
            " (make test installs it)"
        )
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def browser(chromium):
    """The session's Chromium; each test opens contexts of its own (cookies, storage, service
    workers), all closed when it ends."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture
def demo(transactional_db):
    worlds.demo(scored=True)
    return Match.objects.filter(game="rettler").earliest("pk")


KEPT_WAIT_MS = 30_000
"""How long a page may take to be kept for use offline (its service worker installed and in
control, the page in its cache): seconds when two browsers share two busy cores."""


def back_online(page) -> None:
    """The network back, as the page sees it: a Save tapped before ``navigator.onLine``
    turns true is kept in the queue, as on a phone whose signal has not come back yet."""
    page.context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")


def kept_offline(page, *, cached: bool = True) -> None:
    """Wait until the page is kept for use offline: its service worker is active and controls
    the page (a page loaded before its worker took control is loaded again, as the next
    deal's form would be) and, with ``cached``, the page itself is in the worker's cache."""
    page.wait_for_function(
        "() => navigator.serviceWorker.getRegistration().then(r => Boolean(r && r.active))",
        polling=200,
        timeout=KEPT_WAIT_MS,
    )
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
        page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null", timeout=KEPT_WAIT_MS
        )
    if cached:
        page.wait_for_function(
            "() => caches.match(location.pathname).then(Boolean)",
            polling=200,
            timeout=KEPT_WAIT_MS,
        )


def sign_in(page, base, next_url, username="scorer", password="demo-scorer-2026"):
    """Signed in on the sign-in page (the demo's scorer unless told), then at ``next_url``."""
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def pad_taps(field: str, *cards: str) -> list[str]:
    """The taps that type ``cards`` into card field ``field`` with its section's pad, as a
    scorer's thumb does (a card field shows no keyboard): the field, then for each card
    its suit and its rank, or its own button (a joker)."""
    pad = f".entry-section:has(#id_{field}) .cardpad"
    taps = [f"#id_{field}"]
    for card in cards:
        if card[:1] in "SHDC" and len(card) > 1:
            taps += [
                f"{pad} button[data-suit='{card[0]}']",
                f"{pad} button[data-rank='{card[1:]}']",
            ]
        else:
            taps.append(f"{pad} button[data-code='{card}']")
    return taps


def pad_cards(page, field: str, *cards: str) -> None:
    """Type ``cards`` into ``field`` by taps on its pad (see :func:`pad_taps`)."""
    for selector in pad_taps(field, *cards):
        page.click(selector)


def tap_deal(page, fields: dict[str, str | list[str]]) -> int:
    """Fill the deal entry form as a thumb does, and count the taps: a chip per value of a
    choice, the pad's keys for a card field (``inputmode="none"``: no keyboard shows), the
    field and its digits for a number field; a field that shows a keyboard of letters gets
    its text typed.  Fails for letters bound for a field that shows no keyboard."""
    taps = 0
    for name, value in fields.items():
        if value is None or value == "":
            continue  # an empty field stays empty
        values = [str(v) for v in value] if isinstance(value, list) else [str(value)]
        control = f"#deal-entry [name='{name}']"
        kind = page.eval_on_selector(
            control,
            "el => ['radio', 'checkbox'].includes(el.type) ? 'chip'"
            " : el.getAttribute('inputmode') || el.type",
        )
        if kind == "chip":
            for v in values:
                page.tap(f"#field-{name} label:has(input[value='{v}'])")
                taps += 1
        elif kind == "none":
            pad = f".entry-section:has(#id_{name}) .cardpad"
            selectors = [f"#id_{name}"]
            for i, line in enumerate("\n".join(values).split("\n")):
                if i:  # a line after the first starts with the pad's new line
                    selectors.append(f"{pad} button[data-newline]")
                for card in line.split():
                    own = f"{pad} button[data-code='{card}']"  # a pad of whole cards
                    selectors += [own] if page.query_selector(own) else pad_taps(name, card)[1:]
            for selector in selectors:
                page.tap(selector)
            taps += len(selectors)
        else:
            text = " ".join(values)
            if kind in ("numeric", "number", "decimal"):
                assert text.isdigit(), f"{name}: a number pad has no {text!r}"
            shown = page.input_value(control)
            if shown == text:  # filled by the page already (the last point count)
                continue
            page.tap(control)
            for _ in shown:  # what the page put there, taken back
                page.keyboard.press("Backspace")
            page.keyboard.type(text)
            taps += 1 + len(shown) + len(text)
    return taps


class Questions:
    """What a page asks before acting (``window.confirm``), each answered as told."""

    def __init__(self, page) -> None:
        self.page = page
        self.asked: list[str] = []

    def answer_next(self, accept: bool) -> None:
        def answer(dialog) -> None:
            self.asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        self.page.once("dialog", answer)
