"""Requests an attacker's walk of the API and the pages sent: each answered with a 4xx in
the error shape, naming what is wrong, never a 500, and a refusal stores nothing.  Two
requests at once that both pass the checks are answered as if one came after the other."""

import base64

import pytest

from tests.conftest import at_the_same_moment, client_of
from tournaments.models import Club, Player, Season, Table

pytestmark = pytest.mark.django_db


def cursor(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    ("path", "position"),
    [
        ("/api/matches/", "p=-1&r=1"),  # not a time
        ("/api/matches/", "o=9999999999999999999&p=1"),
        ("/api/matches/", "p=2026-13-45T00:00:00Z"),
        # Times at the calendar's ends: the conversion to UTC runs out of years.
        ("/api/matches/", "p=0001-01-01+00%3A00%3A00"),
        ("/api/matches/", "p=9999-12-31T23%3A59%3A59-14%3A00"),
        ("/api/players/", "p=%00"),  # a NUL where a key goes
        ("/api/players/", "p=99999999999999999999999"),  # past bigint
        ("/api/players/", "p=abc"),
    ],
)
def test_an_edited_cursor_is_an_invalid_cursor_not_a_server_error(api, season, path, position):
    answer = api.get(path, {"cursor": cursor(position)})
    assert answer.status_code == 404, answer.content
    assert answer.json()["errors"][0]["message"] == "Invalid cursor"


def test_a_cursor_as_given_still_pages(member_api, players):
    first = member_api.get("/api/players/", {"page_size": 2}).json()
    assert first["next"]
    following = member_api.get(first["next"]).json()
    assert following["results"] and following["results"][0]["id"] > first["results"][-1]["id"]


@pytest.mark.parametrize("player", ["99999999999999999999999", "-99999999999999999999999"])
def test_a_player_id_past_the_database_is_refused_on_player(api, season, player):
    Season.objects.filter(pk=season.pk).update(public=True)
    answer = api.get("/api/standings/", {"season": season.pk, "player": player})
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["path"] == "player"


@pytest.mark.parametrize("rules", ["abc", -1, True, 1.5, [1]])
def test_rules_that_are_not_an_object_are_refused_on_rules(scorer_api, table, players, rules):
    answer = scorer_api.post(
        "/api/matches/",
        {
            "table": table.pk,
            "game": "napoleon",
            "players": [p.pk for p in list(players.values())[:4]],
        }
        | {"rules": rules},
        format="json",
        headers={"Accept-Language": "ja"},
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["errors"][0]
    assert error["path"] == "rules" and "ルール" in error["message"]
    assert not table.matches.exists()


def test_a_time_zone_too_long_for_a_file_name_is_refused_in_words(club, club_admin):
    answer = client_of(club_admin).patch(
        f"/api/clubs/{club.pk}/", {"time_zone": "x" * 300}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["path"] == "time_zone"
    club.refresh_from_db()
    assert club.time_zone != "x" * 300


def test_a_table_named_like_another_of_its_night_is_refused_on_name(table, club_admin):
    admin = client_of(club_admin)
    night = table.club_night.pk
    answer = admin.post(
        "/api/tables/",
        {"club_night": night, "name": table.name},
        format="json",
        headers={"Accept-Language": "ja"},
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["errors"][0]
    assert error["path"] == "name" and table.name in error["message"] and "卓" in error["message"]
    other = admin.post("/api/tables/", {"club_night": night, "name": "Table 2"}, format="json")
    assert other.status_code == 201
    renamed = admin.patch(f"/api/tables/{other.json()['id']}/", {"name": table.name}, format="json")
    assert renamed.status_code == 400 and renamed.json()["errors"][0]["path"] == "name"
    assert sorted(Table.objects.values_list("name", flat=True)) == ["Table 1", "Table 2"]


@pytest.mark.django_db(transaction=True)
def test_tables_named_alike_at_the_same_moment_store_one(table, club_admin):
    night = table.club_night.pk

    def add():
        return client_of(club_admin).post(
            "/api/tables/", {"club_night": night, "name": "Late"}, format="json"
        )

    answers = at_the_same_moment(*[add] * 3)
    assert sorted(a.status_code for a in answers) == [201, 400, 400]
    assert Table.objects.filter(name="Late").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("route", "field"), [("seasons", "name"), ("players", "handle")])
def test_one_name_sent_for_three_rows_at_the_same_moment_is_kept_once(
    club, club_admin, route, field
):
    """Three seasons renamed alike, or three players given one handle, at once: one is
    stored, the others answered in words (400) as if they came second."""
    rows = [
        Season.objects.create(club=club, name=f"S{i}", games=["napoleon"])
        if route == "seasons"
        else Player.objects.create(club=club, handle=f"p{i}", display_name=f"P {i}")
        for i in range(3)
    ]

    def rename(row):
        return lambda: client_of(club_admin).patch(
            f"/api/{route}/{row.pk}/", {field: "same"}, format="json"
        )

    answers = at_the_same_moment(*[rename(row) for row in rows])
    assert sorted(a.status_code for a in answers) == [200, 400, 400], answers
    assert type(rows[0]).objects.filter(club=club, **{field: "same"}).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_player_added_by_three_taps_at_once_is_added_once(club, club_admin):
    """The club page's "Add" sent three times at once (a double tap on a slow network):
    one player, and the others answered with the form as if they came second (the name
    is the club's already), never a server error."""
    from django.test import Client

    def add():
        page = Client()
        page.force_login(club_admin)
        return page.post(
            f"/clubs/{club.slug}/setup/",
            {"player-display_name": "Dup P", "player-handle": "dupp"},
        )

    answers = at_the_same_moment(*[add] * 3)
    assert all(not isinstance(a, BaseException) for a in answers), answers
    assert sorted(a.status_code for a in answers) == [200, 200, 302]
    assert Player.objects.filter(club=club, display_name="Dup P").count() == 1
    for second in (a for a in answers if a.status_code == 200):
        assert "is a player of the club already" in second.content.decode()


@pytest.mark.parametrize("field", ["ranking", "qualify_by", "qualify_minimum"])
def test_a_season_setting_sent_empty_keeps_the_seasons(client, club, club_admin, field):
    season = Season.objects.create(
        club=club, name="Autumn", games=["napoleon"], ranking="per_match", qualify_minimum=2
    )
    client.force_login(club_admin)
    form = {"name": "Autumn", "games": "napoleon", "ranking": "per_match"}
    form |= {"qualify_by": "nights", "qualify_minimum": "2", field: ""}
    answer = client.post(f"/clubs/{club.slug}/seasons/{season.pk}/", form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    season.refresh_from_db()
    assert (season.ranking, season.qualify_by, season.qualify_minimum) == ("per_match", "nights", 2)


def test_another_clubs_season_form_is_not_found(client, club, django_user_model):
    from tests.conftest import member_of

    season = Season.objects.create(club=club, name="Autumn", games=["napoleon"])
    rival = Club.objects.create(name="Rivals", slug="rivals")
    client.force_login(member_of(rival, django_user_model, "boss", "admin"))
    form = {"name": "Mine", "games": "napoleon", "ranking": ""}
    assert client.post(f"/clubs/{club.slug}/seasons/{season.pk}/", form).status_code == 404
    assert client.post(f"/clubs/rivals/seasons/{season.pk}/", form).status_code == 404
    season.refresh_from_db()
    assert season.name == "Autumn"
