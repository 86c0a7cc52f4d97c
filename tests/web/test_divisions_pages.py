"""Divisions on the pages and in the API (issue 40, 2): the administrator names them and
places the players, the season page shows each division's leaderboard ranked within it,
the close page proposes the moves, takes changes and confirms once, the player page keeps
the moves; the API does the same through the same actions."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.test import Client

import actions.divisions
from scoring.models import SeasonStanding
from tests.conftest import client_of, member_of
from tests.markup import squeezed
from tests.scoring.test_divisions import division_of, league, standings_of
from tournaments.models import (
    ClubNight,
    Match,
    Membership,
    Move,
    Placement,
    Season,
    Seat,
    Table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(django_user_model):
    season, people = league("A B", players=8)
    Season.objects.filter(pk=season.pk).update(ranking="total", best_of=None, qualify_minimum=0)
    season.refresh_from_db()
    standings_of(season, {p: (i + 1, True) for i, p in enumerate(people)})
    admin = member_of(season.club, django_user_model, "secretary", Membership.Role.ADMIN)
    member = member_of(season.club, django_user_model, "reader", Membership.Role.MEMBER)
    people[5].user = member
    people[5].save()
    return season, people, admin, member


def page_of(user, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_the_administrator_names_divisions_then_places_the_players(ladder):
    season, people, admin, _member = ladder
    client = page_of(admin)
    answer = client.post(
        f"/seasons/{season.pk}/divisions/",
        {"names": "Gold Silver", "moves": "1", "moves_by": "count"},
    )
    assert answer.status_code == 302
    assert list(season.divisions.values_list("name", flat=True)) == ["Gold", "Silver"]
    assert not Placement.objects.filter(season=season).exists()  # the names changed
    shown = squeezed(client.get(f"/seasons/{season.pk}/divisions/").content.decode())
    assert f'<select id="id_player-{people[0].pk}" name="player-{people[0].pk}">' in shown
    places = {f"player-{p.pk}": "Gold" if i < 4 else "Silver" for i, p in enumerate(people)}
    answer = client.post(
        f"/seasons/{season.pk}/divisions/",
        {"names": "Gold Silver", "moves": "1", "moves_by": "count", **places},
    )
    assert answer.status_code == 302
    assert Placement.objects.filter(season=season, division__name="Silver").count() == 4
    season.refresh_from_db()
    assert season.moves == 1
    # Renamed with every select still naming the old divisions, as a browser sends them:
    # the players keep their places; a division taken away takes its players out.
    renamed = {"names": "Top Bottom", "moves": "1", "moves_by": "count", **places}
    assert client.post(f"/seasons/{season.pk}/divisions/", renamed).status_code == 302
    assert division_of(season) == {p.pk: "Top" if i < 4 else "Bottom" for i, p in enumerate(people)}
    fewer = {"names": "Top", "moves": "1", "moves_by": "count"}
    fewer |= {f"player-{p.pk}": "Top" if i < 4 else "Bottom" for i, p in enumerate(people)}
    assert client.post(f"/seasons/{season.pk}/divisions/", fewer).status_code == 302
    assert division_of(season) == {p.pk: "Top" for p in people[:4]}
    client.post(f"/seasons/{season.pk}/divisions/", {**renamed, "names": "Gold Silver"})
    refused = page_of(admin, "ja").post(
        f"/seasons/{season.pk}/divisions/", {"names": "A a", "moves": "1", "moves_by": "count"}
    )
    assert refused.status_code == 400
    assert "ディビジョン a が二度" in refused.content.decode()
    assert list(season.divisions.values_list("name", flat=True)) == ["Gold", "Silver"]


def test_the_season_page_shows_the_readers_division_ranked_within_it(ladder):
    season, people, _admin, member = ladder
    shown = squeezed(page_of(member).get(f"/seasons/{season.pk}/").content.decode())
    assert '<strong aria-current="page">B</strong>' in shown  # the reader's own division
    names = re.findall(r'<a href="/players/\d+/">(ladder \d+)</a>', shown)
    assert names == [p.display_name for p in people[4:]]
    ranks = re.findall(r'<td class="num">(\d+)</td><td class="name">', shown)
    assert ranks == ["1", "2", "3", "4"]  # season ranks 5 to 8, counted again in B
    everyone = squeezed(page_of(member).get(f"/seasons/{season.pk}/?division=all").content.decode())
    assert re.findall(r'<a href="/players/\d+/">(ladder \d+)</a>', everyone) == [
        p.display_name for p in people
    ]
    ja = squeezed(page_of(member, "ja").get(f"/seasons/{season.pk}/?division=A").content.decode())
    assert "ディビジョン A" in ja and "全員" in ja


def test_closing_takes_the_changes_once_and_the_moves_are_each_players_history(ladder):
    season, people, admin, _member = ladder
    client = page_of(admin)
    shown = squeezed(client.get(f"/seasons/{season.pk}/close/").content.decode())
    lowest_of_a = people[3]
    row = shown.split(f'<label for="id_move-{lowest_of_a.pk}">')[1].split("</tr>")[0]
    assert '<option value="B" selected>B</option>' in row and "relegated" in row
    body = {"next_season": "Spring", f"move-{lowest_of_a.pk}": "A"}  # kept up by hand
    for _ in range(2):  # a double tap
        answer = client.post(f"/seasons/{season.pk}/close/", body)
        assert answer.status_code == 302
    assert Move.objects.filter(season=season).count() == 8
    spring = Season.objects.get(name="Spring", club=season.club)
    assert Placement.objects.get(season=spring, player=lowest_of_a).division.name == "A"
    assert Move.objects.get(season=season, player=lowest_of_a).kind == "stay"
    assert Move.objects.get(season=season, player=people[4]).kind == "up"
    closed = squeezed(client.get(f"/seasons/{season.pk}/close/").content.decode())
    assert "The season is closed; its players are placed in the next season:" in closed
    assert f'<a href="/seasons/{spring.pk}/">Spring</a>' in closed
    history = squeezed(page_of(admin, "ja").get(f"/players/{people[4].pk}/").content.decode())
    assert "ディビジョン B · 1位 · 昇格 → A" in history
    shown = squeezed(page_of(admin).get(f"/seasons/{season.pk}/").content.decode())
    assert "Its players moved on to Spring" in shown


def test_the_api_sets_divisions_reads_them_and_closes_once(ladder):
    season, people, admin, member = ladder
    api = client_of(admin)
    places = {str(p.pk): "Top" if i < 2 else "Rest" for i, p in enumerate(people)}
    made = api.put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["Top", "Rest"], "places": places, "moves": 1},
        format="json",
    )
    assert made.status_code == 200, made.json()
    read = client_of(member).get(f"/api/seasons/{season.pk}/divisions/").json()
    assert [d["name"] for d in read["divisions"]] == ["Top", "Rest"]
    assert read["divisions"][0]["players"] == sorted(p.pk for p in people[:2])
    assert read["moves"] == 1 and read["closed_at"] is None
    refused = client_of(member).put(
        f"/api/seasons/{season.pk}/divisions/", {"names": [], "places": {}}, format="json"
    )
    assert refused.status_code == 403
    wrong = api.put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["Top"], "places": {str(people[0].pk): "Nowhere"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["path"] == f"places.{people[0].pk}"
    proposal = api.get(f"/api/seasons/{season.pk}/close/").json()
    assert not proposal["closed"] and len(proposal["moves"]) == 8
    assert [m["kind"] for m in proposal["moves"][:3]] == ["stay", "down", "up"]
    first = api.post(f"/api/seasons/{season.pk}/close/", {"next_season": "Spring"}, format="json")
    again = api.post(f"/api/seasons/{season.pk}/close/", {"next_season": "Spring"}, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert [m["next_division"] for m in first.json()["moves"] if m["player"] == people[2].pk] == [
        "Top"
    ]
    assert SeasonStanding.objects.filter(season=season).count() == 8


def test_another_clubs_players_and_seasons_are_out_of_reach(ladder, django_user_model):
    season, people, admin, _member = ladder
    rival, rival_people = league("X Y", players=4, slug="rival")
    Season.objects.filter(pk=rival.pk).update(name="Rival spring")
    rival.refresh_from_db()
    rival_admin = member_of(rival.club, django_user_model, "rival", Membership.Role.ADMIN)
    before = sorted(Placement.objects.values_list("season", "player", "division__name"))
    # The rival's administrator: this season does not exist for them.
    answer = client_of(rival_admin).put(
        f"/api/seasons/{season.pk}/divisions/", {"names": ["A"], "places": {}}, format="json"
    )
    assert answer.status_code == 404
    assert (
        page_of(rival_admin).post(f"/seasons/{season.pk}/close/", {"next_season": "X"}).status_code
        == 404
    )
    # This club's administrator: the rival's players cannot be placed, nor the rival's
    # season be the next one (a season of this name is made in this club instead).
    answer = client_of(admin).put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["A"], "places": {str(rival_people[0].pk): "A"}},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "not_found"
    answer = page_of(admin).post(
        f"/seasons/{season.pk}/divisions/",
        {"names": "A", "moves": "2", "moves_by": "count", f"player-{rival_people[0].pk}": "A"},
    )
    assert answer.status_code == 302  # the form has no field for another club's player
    assert not Placement.objects.filter(season=season, player__club=rival.club).exists()
    actions.divisions.set_divisions(
        season, ["A", "B"], {p.pk: "AB"[i // 4] for i, p in enumerate(people)}
    )
    closed = client_of(admin).post(
        f"/api/seasons/{season.pk}/close/", {"next_season": rival.name}, format="json"
    )
    assert closed.status_code == 201
    assert Season.objects.get(pk=closed.json()["next_season"]).club == season.club
    assert sorted(
        Placement.objects.filter(season=rival).values_list("season", "player", "division__name")
    ) == [b for b in before if b[0] == rival.pk]


def test_the_standings_export_says_each_players_division_and_rank_in_it(ladder):
    season, people, _admin, member = ladder
    answer = page_of(member).get(f"/seasons/{season.pk}/standings.csv")
    lines = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode("utf-8-sig"))))
    header = lines[0]
    assert header[:5] == ["Game", "Rank", "Division", "Rank in division", "Player"]
    rows = [dict(zip(header, line, strict=False)) for line in lines[1:] if len(line) > 4]
    assert [(r["Player"], r["Division"], r["Rank in division"]) for r in rows] == [
        (p.display_name, "AB"[i // 4], str(i % 4 + 1)) for i, p in enumerate(people)
    ]
    ja = page_of(member, "ja").get(f"/seasons/{season.pk}/standings.csv")
    assert "ディビジョン内の順位" in b"".join(ja.streaming_content).decode("utf-8-sig")


def test_the_closing_rule_is_checked_wherever_it_is_set(ladder):
    season, _people, admin, _member = ladder
    api = client_of(admin)
    refused = api.patch(f"/api/seasons/{season.pk}/", {"moves": 101}, format="json")
    assert refused.status_code == 400 and "moves" in str(refused.json())
    assert api.patch(f"/api/seasons/{season.pk}/", {"moves": 3}, format="json").status_code == 200
    season.refresh_from_db()
    assert season.moves == 3


def test_a_tie_across_the_line_is_said_on_the_close_page_and_in_the_api(ladder):
    """Two of A's four go down; its 2nd and 3rd tied on rank 2: the proposal parts them
    (the season's order keeps the first), and both lines say so in the reader's
    language, as the API's ``tied_with`` does."""
    season, people, admin, _member = ladder
    SeasonStanding.objects.filter(season=season, player=people[2]).update(rank=2)
    staying, going = people[1], people[2]
    english = squeezed(page_of(admin).get(f"/seasons/{season.pk}/close/").content.decode())
    row = english.split(f'<label for="id_move-{going.pk}">')[1].split("</tr>")[0]
    assert f"Tied on rank 2 with {staying.display_name}: no rule parts them." in row
    assert "relegated" in row
    japanese = squeezed(page_of(admin, "ja").get(f"/seasons/{season.pk}/close/").content.decode())
    row = japanese.split(f'<label for="id_move-{staying.pk}">')[1].split("</tr>")[0]
    assert f"{going.display_name}と同じ2位：規則では分けられません。" in row
    answer = client_of(admin).get(f"/api/seasons/{season.pk}/close/").json()
    moves = {m["player"]: m for m in answer["moves"]}
    assert (moves[going.pk]["kind"], moves[going.pk]["tied_with"]) == ("down", [staying.pk])
    assert (moves[staying.pk]["kind"], moves[staying.pk]["tied_with"]) == ("stay", [going.pk])
    assert moves[people[3].pk]["tied_with"] == []  # 4th, going down: nobody on its rank


def test_the_members_home_says_their_rank_on_the_board_they_read(ladder):
    """The member is 6th of the season and 2nd of Division B, whose board the season
    page shows them: their home says "2nd in Division B", as their player page does; a
    season without divisions says the season's rank."""
    season, people, _admin, member = ladder
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 9, 4))
    table = Table.objects.create(club_night=night, name="Table 1")
    match = Match.objects.create(table=table, game="napoleon")
    Seat.objects.bulk_create(
        Seat(match=match, player=p, position=i) for i, p in enumerate(people[4:])
    )
    standing = SeasonStanding.objects.get(season=season, player=people[5])
    home = squeezed(page_of(member).get("/").content.decode())
    assert f"Autumn · Napoleon: 2nd in Division B, {standing.total}" in home
    page = squeezed(page_of(member).get(f"/players/{people[5].pk}/").content.decode())
    assert "2nd in Division B" in page
    ja = squeezed(page_of(member, "ja").get("/").content.decode())
    assert f"ディビジョン B 2位、{standing.total}" in ja
    Placement.objects.filter(season=season).delete()
    home = squeezed(page_of(member).get("/").content.decode())
    assert f"Autumn · Napoleon: 6th in the season, {standing.total}" in home
