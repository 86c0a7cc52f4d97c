"""Every game's deal is entered on a phone by taps (issue 43, 1): chips, the card pads,
digits on number fields; letters only where a keyboard of letters shows.  Each game's
first demo deal (the engine's random legal play, as a table logs it) is tapped in
through the table's link and stored exactly as it was played."""

from __future__ import annotations

import pytest
from django.utils import timezone

import actions.deals
import actions.matches
from actions import table_links as link_actions
from tests.web.browser.conftest import tap_deal
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Player, Season, Table

pytestmark = pytest.mark.django_db(transaction=True)
HANDLES = ["aki", "ben", "chika", "dai", "emi", "fumi", "gen", "hana"]


def same(fields: dict) -> dict:
    return {
        k: [sorted(line.split()) for line in v.split("\n")] if isinstance(v, str) else v
        for k, v in fields.items()
    }


@pytest.mark.parametrize("game", sorted(LEAGUE_GAMES))
def test_a_deal_of_every_game_is_entered_by_taps(browser, live_server, game):
    league = LEAGUE_GAMES[game]
    club = Club.objects.create(name="Tap Club", slug="tap")
    season = Season.objects.create(club=club, name="Taps", games=[game])
    night = ClubNight.objects.create(season=season, date=timezone.localdate())
    table = Table.objects.create(club_night=night, name="Table 1")
    seated = HANDLES[: league.rules.best_players]
    players = [Player.objects.create(club=club, handle=h, display_name=h.title()) for h in seated]
    match = actions.matches.create_match(table, game, players)
    record = demo_deals(league, 7, seated, most=1, first_in_full=False)[0]
    fields = league.initial(record, seated)

    phone = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{link_actions.ensure(table)}/")
    page.tap(f"a[href='/matches/{match.pk}/enter/']")
    page.wait_for_selector("#deal-entry[data-ready]")
    taps = tap_deal(page, fields)
    page.tap("#save")
    page.wait_for_selector(".messages, #error-summary")
    assert page.query_selector("#error-summary") is None, page.inner_text("#error-summary")
    stored = match.deals.get()
    # What was tapped is what is stored: the form reads the stored record back the same
    # (words in any order: the database keeps a record's keys in an order of its own).
    assert same(league.initial(stored.record, seated)) == same(fields), (taps, stored.record)
    phone.close()
