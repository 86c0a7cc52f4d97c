"""A player's own night on a phone (issue 41, 1): the table's link opened at 375 px in
Japanese, two taps to "my table, my rank", and the page following a deal entered on
another phone by itself."""

from __future__ import annotations

import pytest
from django.utils import timezone

import actions.deals
from actions import rounds
from actions import table_links as link_actions
from tests.web.browser.test_club_from_nothing import shot
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)


def seated_tonight() -> tuple[ClubNight, Match, Player, str]:
    """Eight players of a private season drawn tonight: the night, table 1's match, its
    second seated player and the table's link."""
    club = Club.objects.create(name="Kanda", slug="kanda")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])  # private
    night = ClubNight.objects.create(season=season, date=timezone.localdate())
    people = [
        Player.objects.create(club=club, handle=h, display_name=n)
        for h, n in (("aya", "Aya"), ("bo", "Bo"), ("cai", "Cai"), ("dina", "Dina"))
        + (("eli", "Eli"), ("fay", "Fay"), ("gus", "Gus"), ("hiro", "Hiro"))
    ]
    made = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=[p.pk for p in people]
    ).round
    match = Match.objects.filter(table__round=made).order_by("table__name").first()
    assert match is not None
    return night, match, match.seated_players()[1], link_actions.ensure(match.table)


def test_a_player_follows_their_night_from_the_tables_code(browser, live_server, tmp_path):
    night, match, me, token = seated_tonight()

    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale="ja-JP"
    )
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    phone = context.new_page()
    phone.goto(f"{live_server.url}/t/{token}/")  # the QR code on the table
    phone.tap("#my-night")  # tap 1
    phone.tap(f"a[href='?player={me.pk}&me']")  # tap 2: my name
    phone.wait_for_selector("#mine-rank")
    assert phone.url.endswith(f"/me/?player={me.pk}")  # remembered, and the address plain
    assert "今夜" in phone.inner_text("#mine-rank")
    assert "第 1 ラウンド · 卓 1" in phone.inner_text("#mine-table")
    assert "2 ディール中 0" in phone.inner_text("#mine-table")
    shot(phone, tmp_path, "my-night-375-ja")

    # The table's scorer enters a deal on another phone: this page shows it by itself.
    handles = [p.handle for p in match.seated_players()]
    record = demo_deals(league_game("napoleon"), 4, handles, target=2, first_in_full=False)[0]
    actions.deals.enter_deal(match, record).stored()
    phone.wait_for_function(
        "() => document.getElementById('mine-table').textContent.includes('2 ディール中 1')",
        timeout=15000,
    )
    assert "位" in phone.inner_text("#mine-rank") and "点" in phone.inner_text("#mine-rank")

    # Back on "who are you?" later (the next round, the next night): this phone's name
    # comes first, one tap.
    phone.goto(f"{live_server.url}/nights/{night.pk}/me/")
    first = phone.locator("#night-players li").first
    assert first.inner_text().strip() == f"{me.display_name}（自分）"
    first.locator("a").tap()
    phone.wait_for_selector("#mine-rank")
    context.close()
