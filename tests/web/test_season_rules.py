"""A season chooses each game's rules variants (1234's scoring, Comp-13's jokers,
Twenty-Two's penalties) once, on its form or through the API: every new match of the
game at its nights plays so, whichever way it is made (the draw, a round, the API
without rules of its own); a match made with its own rules keeps them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

import actions.matches
from tests.conftest import client_of
from tests.markup import words
from tournaments.models import ClubNight, Match, Player, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(club):
    return [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(4)
    ]


def test_the_season_form_chooses_a_variant_that_new_matches_play(club, club_admin, four):
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(club_admin)
    blank = page.get(f"/clubs/{club.slug}/seasons/new/").content.decode()
    assert "1234: Scoring" in blank and "Comp-13: Jokers in the deck" in blank
    sent = {"name": "Winter", "games": ["1234", "comp13"], "ranking": "total"}
    sent |= {"rules_1234_scoring": "2", "rules_comp13_jokers": "1"}
    assert page.post(f"/clubs/{club.slug}/seasons/new/", sent).status_code == 302
    season = Season.objects.get(name="Winter")
    assert season.rules == {"1234": {"scoring": "chips"}, "comp13": {"jokers": 1}}
    # The season's page says them, for every reader of its leaderboards.
    shown = words(page.get(f"/seasons/{season.pk}/").content.decode())
    assert "Rules: 1234: Scoring: method 3, chips" in shown
    assert "Comp-13: Jokers in the deck: 1 joker: 53 cards" in shown
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    table = Table.objects.create(club_night=night, name="Table 1")
    made = actions.matches.create_match(table, "1234", four)
    assert made.rules == {"scoring": "chips"}
    own = actions.matches.create_match(table, "comp13", four, rules={"jokers": 2})
    assert own.rules == {"jokers": 2}  # a match's own rules are its own
    # Said at the table, where the scorer checks them, and on the match's page.
    chips = "Rules: Scoring: method 3, chips: the others pay the winner their hands"
    for url in (f"/matches/{made.pk}/enter/", f"/matches/{made.pk}/"):
        assert chips in words(page.get(url).content.decode()), url
    plain = actions.matches.create_match(table, "1234", four[:3], rules={})
    assert 'id="match-rules"' not in page.get(f"/matches/{plain.pk}/enter/").content.decode()
    # The edit shows the choice made; another game's variant shows once the game is
    # ticked (a script), and one sent for a game not ticked is not kept.
    edit = page.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert '<option value="2" selected>' in edit
    shown_for = r'data-shown-value="twentytwo">\s*<div class="field"\s*id="field-rules_twentytwo'
    assert re.search(shown_for, edit)
    again = {**sent, "rules_1234_scoring": "0", "rules_twentytwo_gambling": "1"}
    page.post(f"/clubs/{club.slug}/seasons/{season.pk}/", again)
    season.refresh_from_db()
    assert season.rules == {"comp13": {"jokers": 1}}
    assert "1234: Scoring" not in page.get(f"/seasons/{season.pk}/").content.decode()


def test_the_api_sets_a_seasons_rules_and_refuses_what_no_engine_takes(club, club_admin, four):
    api = client_of(club_admin)
    made = api.post(
        "/api/seasons/",
        {"club": club.pk, "name": "S", "games": ["1234"], "rules": {"1234": {"scoring": "chips"}}},
        format="json",
    )
    assert made.status_code == 201, made.content
    season = Season.objects.get(pk=made.json()["id"])
    for wrong, said in (
        ({"1234": {"scoring": "dice"}}, "one of winner_plus, loser_minus, chips"),
        ({"napoleon": {}}, "is not a game of this season"),
        ([1], "an object by game"),
    ):
        refused = api.patch(f"/api/seasons/{season.pk}/", {"rules": wrong}, format="json")
        assert refused.status_code == 400 and said in refused.content.decode(), refused.content
    season.refresh_from_db()
    assert season.rules == {"1234": {"scoring": "chips"}}
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    table = Table.objects.create(club_night=night, name="Table 1")
    answer = api.post(
        "/api/matches/",
        {"table": table.pk, "game": "1234", "players": [p.pk for p in four]},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert Match.objects.get(pk=answer.json()["id"]).rules == {"scoring": "chips"}


def test_a_sheet_with_no_rules_imports_into_a_season_by_its_chosen_variant(club):
    """A paper sheet seldom writes the rules: its matches of a season that chose a variant
    are checked and stored with it, as the season's nights play; rules written win."""
    from actions import imports
    from tests.tournaments.sheet_history import add_players, history, sheet_rows
    from tournaments.sheets import template

    add_players(club)
    past = [m for m in history("1234", nights=1) if m.season == "2023 Spring"]
    rows = sheet_rows("1234", past)
    written = {row["match"] for row in rows if row.get("rules")}
    for row in rows:
        row["rules"] = ""
    Season.objects.create(
        club=club, name="2023 Spring", games=["1234"], rules={"1234": {"scoring": "chips"}}
    )
    imports.import_sheet(club, template.to_csv(template.as_table("1234", rows, "en")))
    assert written and Match.objects.exists()
    assert {str(m.rules) for m in Match.objects.all()} == {str({"scoring": "chips"})}
