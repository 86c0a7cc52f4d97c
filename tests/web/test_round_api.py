"""The API of a night in rounds (issue 25, 6): draw-and-seat in one call, 409 while a round
is unfinished, the night's standings, the room display's ETag and 304; what a member,
another club's administrator and an anonymous reader may do."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import translation
from rest_framework.test import APIClient

import actions.deals
from scoring import live_cache, tasks
from tests.conftest import client_of, member_of
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Membership, Player, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club):
    season = Season.objects.create(club=club, name="Open", games=["napoleon", "comp13"])
    return ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")


@pytest.fixture
def eight(club):
    return [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk
        for i in range(1, 9)
    ]


def test_a_round_is_drawn_and_seated_in_one_call(
    night, eight, club_admin, django_capture_on_commit_callbacks
):
    api = client_of(club_admin)
    body = {"game": "napoleon", "players": eight, "method": "balanced", "deals": 1}
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(f"/api/club-nights/{night.pk}/rounds/", body, format="json")
    assert made.status_code == 201, made.json()
    answer = made.json()
    assert answer["number"] == 1 and answer["method"] == "balanced"
    assert answer["still_playing"] == []
    assert sorted(p for t in answer["tables"] for p in t["players"]) == sorted(eight)
    assert all(Match.objects.get(pk=t["match"]).target == 1 for t in answer["tables"])
    again = api.post(f"/api/club-nights/{night.pk}/rounds/", body, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "round_unfinished"
    with django_capture_on_commit_callbacks(execute=True):
        for t in answer["tables"]:
            match = Match.objects.get(pk=t["match"])
            handles = [p.handle for p in match.seated_players()]
            record = demo_deals(league_game("napoleon"), 3, handles, target=1, first_in_full=False)
            actions.deals.enter_deal(match, record[0]).stored()
    listed = api.get(f"/api/club-nights/{night.pk}/rounds/").json()
    assert [r["number"] for r in listed] == [1]
    standings = api.get(f"/api/club-nights/{night.pk}/standings/").json()
    assert standings["method"] == "points" and len(standings["rows"]) == 8
    assert {r["player"] for r in standings["rows"]} == set(eight)
    assert sum(r["total"] for r in standings["rows"]) == 0  # zero-sum, summed
    second = api.post(
        f"/api/club-nights/{night.pk}/rounds/",
        {"game": "napoleon", "method": "swiss", "deals": 1},
        format="json",
    )
    assert second.status_code == 201 and second.json()["number"] == 2


def test_bad_rounds_say_what_and_where(night, eight, club_admin):
    api = client_of(club_admin)
    url = f"/api/club-nights/{night.pk}/rounds/"
    cases = [
        ({"game": "rettler", "players": eight}, "game"),
        ({"game": "comp13", "players": eight, "deals": 3}, "deals"),
        ({"game": "napoleon", "players": [*eight, 999999]}, "players"),
        ({"game": "napoleon"}, "players"),  # round 1: nobody by default
        ({"game": "napoleon", "players": eight[:2]}, "players"),  # too few for a table
    ]
    for body, path in cases:
        answer = api.post(url, body, format="json")
        assert answer.status_code == 400, (body, answer.json())
        assert answer.json()["errors"][0]["path"] == path, body
    assert not night.rounds.exists()


def test_only_the_clubs_administrators_draw_and_others_read_as_ever(
    night, eight, club, django_user_model
):
    body = {"game": "napoleon", "players": eight, "deals": 1}
    member = client_of(member_of(club, django_user_model, "m", Membership.Role.MEMBER))
    assert (
        member.post(f"/api/club-nights/{night.pk}/rounds/", body, format="json").status_code == 403
    )
    other = Club.objects.create(name="Other", slug="other")
    rival = client_of(member_of(other, django_user_model, "r", Membership.Role.ADMIN))
    assert (
        rival.post(f"/api/club-nights/{night.pk}/rounds/", body, format="json").status_code == 404
    )
    assert rival.get(f"/api/club-nights/{night.pk}/live/").status_code == 404  # a private night
    assert APIClient().get(f"/api/club-nights/{night.pk}/standings/").status_code == 404
    night.season.public = True
    night.season.save()
    assert APIClient().get(f"/api/club-nights/{night.pk}/live/").status_code == 200
    assert not night.rounds.exists()


def test_the_room_display_answers_304_while_nothing_changed(
    night, eight, club_admin, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(live_cache, "FRESH_SECONDS", 0.0)  # no second of grace here
    api = client_of(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        api.post(
            f"/api/club-nights/{night.pk}/rounds/",
            {"game": "napoleon", "players": eight, "deals": 2},
            format="json",
        )
    first = api.get(f"/api/club-nights/{night.pk}/live/")
    tag = first["ETag"]
    shown = first.json()
    assert shown["round"]["number"] == 1 and len(shown["tables"]) == 2
    assert all("behind" in t for t in shown["tables"])  # the administrator's view
    same = api.get(f"/api/club-nights/{night.pk}/live/", HTTP_IF_NONE_MATCH=tag)
    assert same.status_code == 304 and not same.content
    match = Match.objects.get(pk=shown["tables"][0]["match"])
    handles = [p.handle for p in match.seated_players()]
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(
            match, demo_deals(league_game("napoleon"), 2, handles, target=2, first_in_full=False)[0]
        ).stored()
    changed = api.get(f"/api/club-nights/{night.pk}/live/", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["tables"][0]["entered"] == 1 and changed.json()["latest"]
    night.season.public = True
    night.season.save()
    reader = APIClient().get(f"/api/club-nights/{night.pk}/live/").json()
    assert not any("behind" in t for t in reader["tables"])  # the room sees no blame


def test_the_room_display_serves_many_screens_from_one_answer(
    night, eight, club_admin, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """Within a second, a poll costs no standings: the answer kept for every screen."""
    api = client_of(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        api.post(
            f"/api/club-nights/{night.pk}/rounds/",
            {"game": "napoleon", "players": eight, "deals": 2},
            format="json",
        )
    first = api.get(f"/api/club-nights/{night.pk}/live/")
    with django_assert_max_num_queries(2):  # the night, the reader's role; no standings
        again = api.get(f"/api/club-nights/{night.pk}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_stale_display_is_refreshed_by_a_worker_while_screens_get_the_kept_answer(
    night, eight, club_admin, django_capture_on_commit_callbacks, monkeypatch
):
    """With a cache shared by the web processes and the workers, a web request never
    computes a watched display: it asks a worker once and answers what is kept."""
    with django_capture_on_commit_callbacks(execute=True):
        client_of(club_admin).post(
            f"/api/club-nights/{night.pk}/rounds/",
            {"game": "napoleon", "players": eight, "deals": 2},
            format="json",
        )
    night = ClubNight.objects.select_related("season__club").get(pk=night.pk)
    asked: list[int] = []
    first_tag, first_body = live_cache.cached_live(night, False, lambda: asked.append(1))
    assert not asked  # nothing kept yet: the first answer is computed here
    match = Match.objects.filter(table__club_night=night).earliest("pk")
    handles = [p.handle for p in match.seated_players()]
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(
            match, demo_deals(league_game("napoleon"), 2, handles, target=2, first_in_full=False)[0]
        ).stored()
    monkeypatch.setattr(live_cache, "FRESH_SECONDS", 0.0)  # the kept answer is stale now
    for _ in range(3):  # three screens at once: one refresh asked for, all get the kept one
        assert live_cache.cached_live(night, False, lambda: asked.append(1)) == (
            first_tag,
            first_body,
        )
    assert asked == [1]
    tasks.refresh_live(night.pk, False, "en")  # the worker's part
    tag, body = live_cache.cached_live(night, False, lambda: asked.append(1))
    assert asked == [1, 1] and tag != first_tag  # fresh from the worker; stale again at once
    assert sum(t["entered"] for t in json.loads(body)["tables"]) == 1


def test_the_worker_refreshes_a_display_in_its_readers_language(night, eight, club_admin):
    client_of(club_admin).post(
        f"/api/club-nights/{night.pk}/rounds/",
        {"game": "napoleon", "players": eight, "deals": 2},
        format="json",
    )
    tasks.refresh_live(night.pk, True, "ja")
    with translation.override("ja"):
        tag, body = live_cache.cached_live(night, True)
    shown = json.loads(body)
    assert shown["round"]["game_label"].startswith("ナポレオン") and shown["tables"][0][
        "name"
    ].startswith("卓")
    assert all("behind" in t for t in shown["tables"])
    tasks.refresh_live(night.pk + 1000, False, "en")  # a night that is gone: nothing to do


@pytest.mark.parametrize(
    ("cache_url", "eager", "by_worker"),
    [("", False, False), ("redis://cache/1", True, False), ("redis://cache/1", False, True)],
)
def test_a_display_is_refreshed_by_a_worker_only_when_the_worker_shares_the_cache(
    night, settings, cache_url, eager, by_worker
):
    settings.CACHE_URL = cache_url
    settings.CELERY_TASK_ALWAYS_EAGER = eager
    assert (tasks.live_refresher(night, False) is not None) is by_worker


def test_a_round_drawn_without_a_method_is_drawn_as_the_rounds_page_proposes(
    night, eight, club_admin, django_capture_on_commit_callbacks
):
    """Round 1 balanced, then Swiss (``actions.rounds.next_round_choices``, the page's
    own default): the API and the page draw the same round when nothing is said."""
    api = client_of(club_admin)
    body = {"game": "napoleon", "players": eight, "deals": 1}
    methods = []
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            made = api.post(f"/api/club-nights/{night.pk}/rounds/", body, format="json")
        assert made.status_code == 201, made.json()
        methods.append(made.json()["method"])
        for t in made.json()["tables"]:
            match = Match.objects.get(pk=t["match"])
            handles = [p.handle for p in match.seated_players()]
            deal = demo_deals(league_game("napoleon"), 1, handles, target=1, first_in_full=False)
            actions.deals.enter_deal(match, deal[0]).stored()
    assert methods == ["balanced", "swiss"]


def test_the_room_display_names_each_tables_game_when_they_differ(night, eight, club_admin):
    """Tables of two games: each card says its game; tables of one game say nothing more."""
    from django.test import Client

    from actions.seating import PlannedTable, seat_night
    from tests.markup import squeezed

    players = list(Player.objects.filter(pk__in=eight).order_by("pk"))
    seat_night(
        night,
        [PlannedTable("napoleon", players[:4], None), PlannedTable("comp13", players[4:], None)],
    )
    reader = Client()
    reader.force_login(club_admin)
    page = squeezed(reader.get(f"/nights/{night.pk}/live/").content.decode())
    assert "Table 1 · Napoleon" in page and "Table 2 · Comp-13" in page
    other = ClubNight.objects.create(season=night.season, date=dt.date(2026, 12, 5))
    seat_night(other, [PlannedTable("napoleon", players[:4], None)])
    page = squeezed(reader.get(f"/nights/{other.pk}/live/").content.decode())
    assert "Table 1 · Napoleon" not in page


def test_a_round_drawn_says_who_still_sits_at_an_open_match_outside_the_rounds(
    night, eight, club_admin
):
    """The night's first tables, drawn before it went over to rounds, may still be
    playing: the round is seated all the same, and its answer names that match and who of
    the round sits at it (in seat order; a finished match's players are not named)."""
    from actions import corrections
    from actions.matches import create_match
    from tournaments.models import Table

    players = Player.objects.in_bulk(eight)
    open_match = create_match(
        Table.objects.create(club_night=night, name="Table 1"),
        "napoleon",
        [players[p] for p in (eight[2], eight[0], eight[1])],
    )
    done = create_match(
        Table.objects.create(club_night=night, name="Table 2"),
        "napoleon",
        [players[p] for p in eight[3:6]],
    )
    corrections.end_match(done, None, "over")
    body = {"game": "napoleon", "players": eight[1:], "method": "balanced", "deals": 1}
    made = client_of(club_admin).post(f"/api/club-nights/{night.pk}/rounds/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["still_playing"] == [
        {"match": open_match.pk, "players": [eight[2], eight[1]]}
    ]
    assert Match.objects.get(pk=open_match.pk).status == Match.Status.OPEN
