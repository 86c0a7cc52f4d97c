"""A night in rounds on a phone, and the room display updating by itself (issue 25)."""

from __future__ import annotations

import pytest
from django.utils import timezone

import actions.deals
from tests.web.browser.test_club_from_nothing import shot
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Membership, Player, Round, Season

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_night_in_rounds_on_a_phone_and_the_room_display(
    browser, live_server, django_user_model, tmp_path
):
    club = Club.objects.create(name="Kanda Open", slug="kanda-open")
    season = Season.objects.create(club=club, name="Open 2026", games=["napoleon"], public=True)
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall B")
    for name in ["Aya", "Bo", "Cai", "Dina", "Eli", "Fay", "Gus", "Hiro"]:
        Player.objects.create(club=club, handle=name.lower(), display_name=name)
    director = django_user_model.objects.create_user("dir", password="dir-pass-2026")
    Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
    base = live_server.url

    phone = browser.new_context(viewport={"width": 375, "height": 812}, locale="ja-JP").new_page()
    phone.goto(f"{base}/accounts/login/?next=/nights/{night.pk}/rounds/")
    phone.fill("#id_username", "dir")
    phone.fill("#id_password", "dir-pass-2026")
    phone.click("button[type=submit]")
    phone.wait_for_selector("#next-round")
    assert phone.is_hidden("#final-fields")  # the final table's fields: for the final only
    phone.click("label[for=id_method_final]")
    assert phone.is_visible("#id_size")
    phone.click("label[for=id_method_balanced]")
    assert phone.is_hidden("#final-fields")
    phone.click("#everyone")
    phone.fill("#id_deals", "2")
    phone.click("#propose")
    phone.wait_for_selector("#round-proposal")
    shot(phone, tmp_path, "round-proposal-375-ja")
    phone.click("#confirm-round")
    phone.wait_for_selector("#round-1")
    shot(phone, tmp_path, "rounds-375-ja")
    made = Round.objects.get(club_night=night)
    assert Match.objects.filter(table__round=made).count() == 2

    # The room display on a laptop (or a TV): no sign-in for a public night.
    room = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    room.goto(f"{base}/nights/{night.pk}/live/")
    room.wait_for_selector("#live-tables li")
    assert "0 of 2 deals" in room.inner_text("#live-tables")
    # A deal entered elsewhere (another table's phone): the display shows it by itself.
    match = Match.objects.filter(table__round=made).order_by("table__name").first()
    handles = [p.handle for p in match.seated_players()]
    record = demo_deals(league_game("napoleon"), 4, handles, target=2, first_in_full=False)[0]
    actions.deals.enter_deal(match, record).stored()
    room.wait_for_function(
        "() => document.getElementById('live-tables').textContent.includes('1 of 2 deals')",
        timeout=10000,
    )
    assert room.locator("#live-latest li").count() == 1
    assert int(room.evaluate("() => document.getElementById('live').dataset.updated")) > 0
    shot(room, tmp_path, "live-1366-en")
