"""A phone whose table link is withdrawn is told so, and forgets the private entry page:
it is not served from the phone's cache afterwards, even with no network."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.utils import timezone

from tests.conftest import NAPOLEON_SEATS
from tests.web.browser.conftest import Questions
from tournaments import actions, table_links
from tournaments.models import Club, ClubNight, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("CLUBSCORE_SHOTS", "")


@pytest.fixture
def table():
    club = Club.objects.create(name="Yushima Club", slug="yushima")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate() - dt.timedelta(0))
    table = Table.objects.create(club_night=night, name="Table 1")
    seated = [
        Player.objects.create(club=club, handle=h, display_name=h.title()) for h in NAPOLEON_SEATS
    ]
    actions.create_match(table, "napoleon", seated)
    return table


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_withdrawn_link_is_said_and_the_page_forgotten(browser, live_server, table, locale):
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale=locale
    )
    phone = context.new_page()
    phone.goto(f"{live_server.url}/t/{table_links.ensure(table)}/")
    match = table.matches.get()
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_selector("#deal-entry")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    phone.wait_for_function(
        "() => caches.match(location.pathname).then(Boolean)", polling=200, timeout=10000
    )
    table_links.revoke(table)  # the administrator withdraws the link
    answer = phone.reload()
    assert answer is not None and answer.status == 410
    said = phone.inner_text("main")
    assert ("withdrew this table" in said) if locale == "en" else ("卓のリンク" in said)
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/withdrawn-link-{locale}-phone.png", full_page=True)
    phone.wait_for_function(
        "() => caches.match(location.pathname).then(kept => !kept)", polling=200, timeout=10000
    )
    context.set_offline(True)
    try:
        phone.goto(f"{live_server.url}/matches/{match.pk}/enter/")
        served = phone.content()
    except Exception:  # no network and nothing kept: the browser's own error
        served = ""
    assert "deal-entry" not in served
    context.close()


def test_new_link_and_revoke_ask_once_before_acting(browser, live_server, table, django_user_model):
    from tournaments.models import Membership

    lena = django_user_model.objects.create_user("lena", password="lena-pw-2026")
    Membership.objects.create(club=table.club_night.season.club, user=lena, role="admin")
    token = table_links.ensure(table)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/{table.club_night_id}/tables/")
    page.fill("#id_username", "lena")
    page.fill("#id_password", "lena-pw-2026")
    page.click("button[type=submit]")
    questions = Questions(page)
    questions.answer_next(accept=False)
    page.click("button[value=revoke]")
    page.wait_for_timeout(300)
    table.refresh_from_db()
    assert table.link_token == token and "Revoke the link of Table 1?" in questions.asked[0]
    questions.answer_next(accept=True)
    with page.expect_navigation():
        page.click("button[value=revoke]")
    table.refresh_from_db()
    assert table.link_token == "" and table.link_revoked_at is not None
    page.close()
