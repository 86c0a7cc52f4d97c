"""Clubs, players, seasons and matches through the API."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.conftest import NAPOLEON_SEATS
from tournaments.models import Club, Match, Player

pytestmark = pytest.mark.django_db


def test_members_read_their_club_and_only_operators_create_clubs(
    api, scorer_api, league_admin, club
):
    assert scorer_api.get("/api/clubs/").json()["results"][0]["name"] == "Test Club"
    assert api.get("/api/clubs/").json()["results"] == []  # anonymous: no club is theirs
    assert scorer_api.post("/api/clubs/", {"name": "X", "slug": "x"}).status_code == 403
    api.force_authenticate(league_admin)
    assert api.post("/api/clubs/", {"name": "X", "slug": "x"}).status_code == 201
    assert Club.objects.filter(slug="x").exists()


def test_players_are_filtered_by_club(api, league_admin, players, club):
    other = Club.objects.create(name="Other", slug="other")
    Player.objects.create(club=other, handle="zed", display_name="Zed")
    api.force_authenticate(league_admin)
    body = api.get(f"/api/players/?club={club.pk}").json()
    assert len(body["results"]) == 10 and "zed" not in [p["handle"] for p in body["results"]]


def test_a_season_lists_only_known_games(api, league_admin, club):
    api.force_authenticate(league_admin)
    response = api.post(
        "/api/seasons/", {"club": club.pk, "name": "S", "games": ["poker"]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "games[0]"


def test_a_league_admin_creates_a_match_with_seats_in_order(api, league_admin, table, players):
    api.force_authenticate(league_admin)
    seats = [players[h].pk for h in ["dai", "aki", "chika", "ben"]]
    response = api.post(
        "/api/matches/", {"table": table.pk, "game": "packing", "players": seats}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [s["handle"] for s in body["seats"]] == ["dai", "aki", "chika", "ben"]
    assert body["partnerships"] == [["dai", "chika"], ["aki", "ben"]]
    assert body["target"] == 500 and body["status"] == "open"


def test_a_match_refuses_players_of_another_club_and_games_the_season_does_not_count(
    api, league_admin, table, players, season
):
    api.force_authenticate(league_admin)
    outsider = Player.objects.create(
        club=Club.objects.create(name="O", slug="o"), handle="o", display_name="O"
    )
    seats = [players["aki"].pk, players["ben"].pk, outsider.pk]
    response = api.post(
        "/api/matches/", {"table": table.pk, "game": "napoleon", "players": seats}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "code": "not_a_member",
        "path": "players[2]",
        "message": "O (o) is not a player of Test Club",
        "params": {"player": "O (o)", "club": "Test Club"},
    }
    season.games = ["rettler"]
    season.save()
    response = api.post(
        "/api/matches/",
        {"table": table.pk, "game": "napoleon", "players": [players[h].pk for h in NAPOLEON_SEATS]},
        format="json",
    )
    assert response.json()["errors"][0]["code"] == "game_not_in_season"
    assert not Match.objects.exists()


def test_a_match_refuses_a_player_count_the_game_does_not_allow(api, league_admin, table, players):
    api.force_authenticate(league_admin)
    seats = [players[h].pk for h in ["aki", "ben", "chika", "dai", "emi"]]
    response = api.post(
        "/api/matches/", {"table": table.pk, "game": "packing", "players": seats}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "player_count"
    # The game said as the pages say it, in the asked language; its name kept in params.
    assert error["message"] == "Packing is played by 2, 3, 4, 6 players, not 5"
    assert error["params"]["game"] == error["params"]["name"] == "packing"
    response = api.post(
        "/api/matches/",
        {"table": table.pk, "game": "packing", "players": seats},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.json()["errors"][0]["message"].startswith("パッキング は 2, 3, 4, 6 人で")


def test_matches_are_listed_with_seats_and_standings_in_a_fixed_number_of_queries(
    member_api, make_match, django_assert_max_num_queries, season
):
    api = member_api  # the club filter is a subquery: no extra query per match
    for _ in range(5):
        make_match("napoleon", NAPOLEON_SEATS)
    with django_assert_max_num_queries(6):
        body = api.get(f"/api/matches/?season={season.pk}").json()
    assert len(body["results"]) == 5
    assert all(len(m["seats"]) == 4 and m["standings"] == [] for m in body["results"])


def test_the_openapi_schema_and_docs_are_served_without_outside_assets(api):
    schema = api.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/matches/{id}/deals/" in schema.content
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn.jsdelivr" not in docs.content and b"unpkg" not in docs.content


def test_deleting_a_club_still_in_use_is_a_conflict_not_a_server_error(
    api, league_admin, players, club
):
    api.force_authenticate(league_admin)
    response = api.delete(f"/api/clubs/{club.pk}/")
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "in_use"
    assert Club.objects.filter(pk=club.pk).exists()


def test_matches_are_read_a_page_at_a_time_newest_first(member_api, make_match):
    """The list is not counted (it grows with the federation): each page is read from
    where the last ended, and a match started between two pages is not read twice."""
    made = [make_match("napoleon", NAPOLEON_SEATS) for _ in range(5)]
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    for i, match in enumerate(made):  # a second apart, the first the oldest
        Match.objects.filter(pk=match.pk).update(created_at=an_hour_ago + dt.timedelta(seconds=i))
    page = member_api.get("/api/matches/", {"page_size": 2}).json()
    assert "count" not in page and page["previous"] is None
    first = page["results"]
    make_match("napoleon", NAPOLEON_SEATS)  # newer than all: belongs before page one
    seen = [m["id"] for m in first]
    url = page["next"]
    for _ in range(2):
        body = member_api.get(url).json()
        seen += [m["id"] for m in body["results"]]
        url = body["next"]
    assert seen == [m.pk for m in reversed(made)]
