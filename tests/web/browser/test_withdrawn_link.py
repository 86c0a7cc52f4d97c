"""A phone whose table link is withdrawn is told so, and forgets the private entry page:
it is not served from the phone's cache afterwards, even with no network."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.utils import timezone

import actions.deals
import actions.matches
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_FORM, NAPOLEON_SEATS
from tests.web.browser.conftest import Questions, kept_offline, tap_deal
from tournaments.models import Club, ClubNight, Deal, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("CLUBSCORE_SCREENSHOTS", "")


@pytest.fixture
def table():
    club = Club.objects.create(name="Yushima Club", slug="yushima")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate() - dt.timedelta(0))
    table = Table.objects.create(club_night=night, name="Table 1")
    seated = [
        Player.objects.create(club=club, handle=h, display_name=h.title()) for h in NAPOLEON_SEATS
    ]
    actions.matches.create_match(table, "napoleon", seated)
    return table


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_withdrawn_link_is_said_and_the_page_forgotten(browser, live_server, table, locale):
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale=locale
    )
    phone = context.new_page()
    phone.goto(f"{live_server.url}/t/{link_actions.ensure(table)}/")
    match = table.matches.get()
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_selector("#deal-entry[data-ready]")
    kept_offline(phone)
    link_actions.revoke(table)  # the administrator withdraws the link
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
    token = link_actions.ensure(table)
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/{table.club_night_id}/tables/")
    page.fill("#id_username", "lena")
    page.fill("#id_password", "lena-pw-2026")
    page.click("button[type=submit]")
    page.click(".copy-link [data-copy]")  # Copy: the link is on the clipboard
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/t/{token}/")
    assert page.inner_text(".copy-link [data-copy]") == "Copied"
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
    context.close()


def test_a_replaced_link_says_scan_the_new_code_and_keeps_the_typed_deal(
    browser, live_server, table
):
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/t/{link_actions.ensure(table)}/")
    match = table.matches.get()
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_selector("#deal-entry[data-ready]")
    tap_deal(phone, NAPOLEON_FORM)
    new_token = link_actions.make(table)  # meanwhile the organiser makes a new link
    phone.tap("#save")
    phone.wait_for_selector("#send-problem:not([hidden])")
    said = phone.inner_text("#send-problem")
    assert "scan the new code" in said and "sign in" not in said
    assert phone.input_value("#id_pc_aki") == "9"  # what was typed is still there
    assert not Deal.objects.filter(match=match).exists()

    phone.goto(f"{live_server.url}/t/{new_token}/")  # the new code, scanned
    phone.tap(f"a[href='/matches/{match.pk}/enter/']")
    phone.wait_for_selector("#queue-refused button")
    assert "scan the new code" in phone.inner_text("#queue")
    phone.tap("#queue-refused button")  # Load into the form
    assert phone.input_value("#id_pc_aki") == "9"
    phone.tap("#save")
    phone.wait_for_selector(".messages")
    assert Deal.objects.filter(match=match).count() == 1
    assert phone.query_selector("#queue-refused li") is None
    context.close()
