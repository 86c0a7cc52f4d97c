"""Calendars in the browser (issue 58): a secretary gives a night its times and calls it
off on a 375-pixel phone in Japanese; the club's page shows it called off and offers the
feed, on a phone and a desktop, in both languages, nothing wider than the screen.
``CLUBSCORE_SCREENSHOTS=<dir>`` keeps a screenshot of each page looked at."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from django.utils import timezone

from tests.web.browser.conftest import Questions
from tournaments.models import ClubNight, Season

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
SOON = timezone.localdate() + dt.timedelta(days=10)


def shot(page, name: str) -> None:
    where = os.environ.get("CLUBSCORE_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{where}/{name}.png", full_page=True)


def fits(page) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def in_language(page, base: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def signed_in_admin(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "demo-admin-2026")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_a_secretary_times_a_night_and_calls_it_off_on_a_phone_in_japanese(
    browser, live_server, demo
):
    base = live_server.url
    season = Season.objects.filter(club__slug="kanda", public=True).earliest("pk")
    page = browser.new_page(viewport=PHONE)
    in_language(page, base, "ja")
    signed_in_admin(page, base)
    page.goto(f"{base}/seasons/{season.pk}/nights/new/")
    page.fill("#id_date", SOON.isoformat())
    page.fill("#id_starts_at", "19:00")
    page.fill("#id_ends_at", "18:00")
    page.fill("#id_venue", "神田公民館")
    shot(page, "night-form-ja-phone")
    fits(page)
    page.click("main button[type=submit]")
    night = ClubNight.objects.get(season=season, date=SOON)
    assert (night.starts_at, night.ends_at) == (dt.time(19), dt.time(18))  # the next morning
    page.goto(f"{base}/nights/{night.pk}/")
    assert "19:00–翌18:00" in page.inner_text("#night-hours")
    # Who is told is named as the players' own phones name it.
    assert "「卓の決定・例会の中止」" in page.inner_text("#call-off")
    page.locator("#call-off").scroll_into_view_if_needed()
    shot(page, "night-call-off-ja-phone")
    questions = Questions(page)
    questions.answer_next(accept=True)
    page.click("#call-off button")
    page.wait_for_selector("#called-off")
    assert questions.asked and "「卓の決定・例会の中止」を選んだ" in questions.asked[0]
    assert "この例会は中止です" in page.inner_text("#called-off")
    shot(page, "night-called-off-ja-phone")
    fits(page)
    night.refresh_from_db()
    assert night.cancelled_at is not None and night.sequence == 1
    page.click("#edit-night")
    page.fill("#id_ends_at", "18:00")  # the same end: a retry changes nothing
    page.click("main button[type=submit]")
    page.wait_for_selector("#called-off")
    night.refresh_from_db()
    assert night.sequence == 1 and night.cancelled_at is not None


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_club_page_shows_the_next_nights_and_its_feed(
    browser, live_server, demo, language, size
):
    base = live_server.url
    season = Season.objects.filter(club__slug="kanda", public=True).earliest("pk")
    ClubNight.objects.create(
        season=season, date=SOON, starts_at=dt.time(18, 30), ends_at=dt.time(21), venue="Hall"
    )
    ClubNight.objects.create(
        season=season, date=SOON + dt.timedelta(days=7), cancelled_at=timezone.now()
    )
    page = browser.new_page(viewport=PHONE if size == "phone" else DESKTOP)
    in_language(page, base, language)
    page.goto(f"{base}/clubs/kanda/")
    shot(page, f"club-page-{language}-{size}")
    fits(page)
    called_off = "中止" if language == "ja" else "Called off"
    assert called_off in page.inner_text(".called-off")
    subscribe = page.locator("#subscribe")
    assert subscribe.get_attribute("href").startswith("webcal://")
    box = subscribe.bounding_box()
    assert box and box["x"] + box["width"] <= page.viewport_size["width"]
    href = page.get_attribute("link[rel=alternate][type='text/calendar']", "href")
    assert href.endswith(f"/clubs/kanda/calendar.ics?lang={language}")
    feed = page.request.get(href)
    assert feed.ok and feed.headers["content-type"] == "text/calendar; charset=utf-8"
