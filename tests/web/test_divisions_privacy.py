"""A public season's divisions, closing proposal and moves name only the players a reader
may see (issue 55, 5): a player of the club's private seasons alone, or one who never
played, placed in a public season's division by hand or by a closing, is in no public
answer — page, API (JSON or browsable), export — not even as an id; a season closed into
one the reader may not read does not name it.  A season closes only into a season of its
own visibility, refused in the reader's language otherwise.  Each attack is tried as an
anonymous reader, a signed-in stranger and another club's administrator."""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import json
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client
from rest_framework.test import APIClient

import actions.deals
import actions.divisions
import actions.matches
import actions.seasons
from actions import seasons
from tests.conftest import client_of, member_of
from tests.markup import squeezed
from tests.scoring.test_divisions import standings_of
from tournaments.errors import Rejection
from tournaments.models import (
    Club,
    ClubNight,
    Division,
    Match,
    Membership,
    Move,
    Placement,
    Player,
    Season,
    Table,
)

pytestmark = pytest.mark.django_db


@dataclass
class World:
    club: Club
    open: Season
    secret: Season
    shown: list[Player]
    """Seated in the public season's match: anyone may see them."""
    hiro: Player
    """Plays in the private season alone; placed in the public season's division B."""
    kei: Player
    """Never played; placed in the public season's division A."""
    ito: Player
    """Plays in the private season alone; placed nowhere public."""
    admin: User
    member: User
    stranger: User
    rival_admin: User


def seated(season: Season, players: list[Player]) -> None:
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 10, 1))
    table = Table.objects.create(club_night=night, name="Table 1")
    match = actions.matches.create_match(table, "napoleon", players)
    # Checked, as a refresh leaves it: the world's standings are written by hand below.
    Match.objects.filter(pk=match.pk).update(checked_version=F("version"))


@pytest.fixture
def world(django_user_model) -> World:
    club = Club.objects.create(name="Kanda", slug="kanda")
    people = {
        h: Player.objects.create(club=club, handle=h, display_name=f"{h.title()} San")
        for h in ("aki", "ben", "gen", "hana")
    }
    hiro = Player.objects.create(club=club, handle="hiro", display_name="Hidden Hiro")
    kei = Player.objects.create(club=club, handle="kei", display_name="Quiet Kei")
    ito = Player.objects.create(club=club, handle="ito", display_name="Private Ito")
    open_ = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    secret = Season.objects.create(club=club, name="Secret", games=["napoleon"])
    seated(open_, list(people.values()))
    seated(secret, [hiro, ito, people["gen"], people["hana"]])
    a, b, g, h = people.values()
    actions.divisions.set_divisions(
        open_, ["A", "B"], {a.pk: "A", b.pk: "A", kei.pk: "A", g.pk: "B", h.pk: "B", hiro.pk: "B"}
    )
    Season.objects.filter(pk=open_.pk).update(moves=1)
    open_.refresh_from_db()
    standings_of(open_, {p: (i + 1, True) for i, p in enumerate(people.values())})
    rival = Club.objects.create(name="Rival", slug="rival")
    return World(
        club=club,
        open=open_,
        secret=secret,
        shown=list(people.values()),
        hiro=hiro,
        kei=kei,
        ito=ito,
        admin=member_of(club, django_user_model, "kanda-admin", Membership.Role.ADMIN),
        member=member_of(club, django_user_model, "kanda-member", Membership.Role.MEMBER),
        stranger=django_user_model.objects.create_user("stranger", "s@example.org", "s-pass-1"),
        rival_admin=member_of(rival, django_user_model, "rival-admin", Membership.Role.ADMIN),
    )


def outsiders(w: World) -> dict[str, APIClient]:
    return {
        "anonymous": APIClient(),
        "stranger": client_of(w.stranger),
        "another club's administrator": client_of(w.rival_admin),
    }


def page_of(user: User | None, language: str = "en") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def hidden(w: World) -> set[int]:
    return {w.hiro.pk, w.kei.pk, w.ito.pk}


def players_in(answer: dict) -> set[int]:
    """Every player id a divisions or close answer lists."""
    ids = {p for d in answer.get("divisions", []) for p in d["players"]}
    moves = answer.get("moves")  # the closing rule's count in a divisions answer
    return ids | ({m["player"] for m in moves} if isinstance(moves, list) else set())


def browsable_json(page: str) -> dict:
    """The answer the browsable API shows in its page."""
    found = re.search(r'<div class="response-info"[^>]*>\s*<pre[^>]*>(.*?)</pre>', page, re.S)
    assert found, page[:500]
    text = html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    return json.loads(text[text.index("{") :])


def test_a_public_seasons_divisions_list_only_the_players_an_outsider_may_see(world):
    w = world
    shown = {p.pk for p in w.shown}
    for who, api in outsiders(w).items():
        for query in ("", "?format=json"):
            answer = api.get(f"/api/seasons/{w.open.pk}/divisions/{query}")
            assert answer.status_code == 200, (who, answer.content)
            listed = players_in(answer.json())
            assert listed == shown, who
            assert not listed & hidden(w), who
        page = api.get(f"/api/seasons/{w.open.pk}/divisions/?format=api", HTTP_ACCEPT="text/html")
        assert page.status_code == 200
        assert players_in(browsable_json(page.content.decode())) == shown, who
    # The club's own readers see every placed player.
    for user in (w.member, w.admin):
        listed = players_in(client_of(user).get(f"/api/seasons/{w.open.pk}/divisions/").json())
        assert listed == shown | {w.hiro.pk, w.kei.pk}


def test_the_closing_proposal_lists_only_the_players_an_outsider_may_see(world):
    w = world
    shown = {p.pk for p in w.shown}
    everyone = client_of(w.admin).get(f"/api/seasons/{w.open.pk}/close/").json()
    assert players_in(everyone) == shown | {w.hiro.pk, w.kei.pk}
    kinds = {m["player"]: m["kind"] for m in everyone["moves"]}
    assert kinds[w.kei.pk] == "down"  # never played: the bottom of A, relegated
    for who, api in outsiders(w).items():
        for query in ("", "?format=json"):
            answer = api.get(f"/api/seasons/{w.open.pk}/close/{query}").json()
            assert players_in(answer) == shown, who
            # The outsider's lines are the administrator's, the hidden ones taken out.
            assert answer["moves"] == [m for m in everyone["moves"] if m["player"] in shown]
        page = api.get(f"/api/seasons/{w.open.pk}/close/?format=api", HTTP_ACCEPT="text/html")
        assert players_in(browsable_json(page.content.decode())) == shown, who


def test_the_moves_made_and_the_next_seasons_divisions_hide_the_same_players(world):
    w = world
    closed = client_of(w.admin).post(
        f"/api/seasons/{w.open.pk}/close/", {"next_season": "Spring"}, format="json"
    )
    assert closed.status_code == 201, closed.json()
    spring = Season.objects.get(club=w.club, name="Spring")
    assert spring.public  # made like the season it follows
    # Everyone, hidden players included, is placed: the club's ladder carries on whole.
    assert Placement.objects.filter(season=spring).count() == 6
    assert Move.objects.filter(season=w.open).count() == 6
    shown = {p.pk for p in w.shown}
    for who, api in outsiders(w).items():
        made = api.get(f"/api/seasons/{w.open.pk}/close/").json()
        assert made["closed"] and made["next_season"] == spring.pk
        assert players_in(made) == shown, who
        following = api.get(f"/api/seasons/{spring.pk}/divisions/?format=json").json()
        assert players_in(following) == shown, who
        page = api.get(f"/api/seasons/{spring.pk}/divisions/?format=api", HTTP_ACCEPT="text/html")
        assert players_in(browsable_json(page.content.decode())) == shown, who
    mine = client_of(w.member).get(f"/api/seasons/{spring.pk}/divisions/").json()
    assert players_in(mine) == shown | {w.hiro.pk, w.kei.pk}


def test_no_page_or_export_of_the_public_season_names_a_hidden_player(world):
    w = world
    actions.seasons.close_season(w.open, "Spring")
    spring = Season.objects.get(club=w.club, name="Spring")
    names = ("Hidden Hiro", "Quiet Kei", "Private Ito")
    for user in (None, w.stranger, w.rival_admin):
        client = page_of(user)
        for url in (
            f"/seasons/{w.open.pk}/",
            f"/seasons/{w.open.pk}/?division=B",
            f"/seasons/{w.open.pk}/?division=all",
            f"/seasons/{spring.pk}/?division=B",
            *(f"/players/{p.pk}/" for p in w.shown),
        ):
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert not any(n in answer.content.decode() for n in names), url
        for p in (w.hiro, w.kei, w.ito):
            assert client.get(f"/players/{p.pk}/").status_code == 404
            assert APIClient().get(f"/api/players/{p.pk}/").status_code == 404
        for extension in ("csv", "xlsx", "pdf"):
            answer = client.get(f"/seasons/{w.open.pk}/standings.{extension}")
            assert answer.status_code == 200
            body = b"".join(answer.streaming_content) if answer.streaming else answer.content
            if extension == "csv":
                rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
                assert not any(n in str(rows) for n in names)


def test_outsiders_cannot_read_or_use_the_administrators_pages_and_actions(world):
    w = world
    before = (Placement.objects.count(), Move.objects.count(), Season.objects.count())
    for user in (w.stranger, w.rival_admin):
        client = page_of(user)
        for url in (f"/seasons/{w.open.pk}/close/", f"/seasons/{w.open.pk}/divisions/"):
            assert client.get(url).status_code == 403, url
        assert (
            client.post(f"/seasons/{w.open.pk}/close/", {"next_season": "Spring"}).status_code
            == 403
        )
        for url in (f"/seasons/{w.secret.pk}/close/", f"/seasons/{w.secret.pk}/divisions/"):
            assert client.get(url).status_code == 404, url
    anonymous = page_of(None).get(f"/seasons/{w.open.pk}/close/")
    assert anonymous.status_code == 302 and "/accounts/" in anonymous["Location"]
    for who, api in outsiders(w).items():
        posted = api.post(
            f"/api/seasons/{w.open.pk}/close/",
            {"next_season": "Spring", "moves": {str(w.ito.pk): "A"}},
            format="json",
        )
        assert posted.status_code in (401, 403), who
        put = api.put(
            f"/api/seasons/{w.open.pk}/divisions/",
            {"names": ["A"], "places": {str(w.ito.pk): "A"}},
            format="json",
        )
        assert put.status_code in (401, 403), who
        # A private season's divisions and proposal do not exist for them.
        for url in (f"/api/seasons/{w.secret.pk}/divisions/", f"/api/seasons/{w.secret.pk}/close/"):
            assert api.get(url).status_code == 404, (who, url)
    assert (Placement.objects.count(), Move.objects.count(), Season.objects.count()) == before


def test_a_private_seasons_player_cannot_be_slipped_into_a_public_closing(world):
    """The administrator's own list may move only the season's listed players."""
    w = world
    answer = client_of(w.admin).post(
        f"/api/seasons/{w.open.pk}/close/",
        {"next_season": "Spring", "moves": {str(w.ito.pk): "A"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert (error["code"], error["path"]) == ("not_found", "moves")
    assert not Season.objects.filter(name="Spring").exists()
    assert not Move.objects.exists()


def test_a_next_season_made_private_later_is_not_named_to_outsiders(world):
    """Closed into a public season that its administrator then makes private: the
    closed season's page, its API answers and its players' pages no longer name it."""
    w = world
    actions.seasons.close_season(w.open, "Spring")
    spring = Season.objects.get(club=w.club, name="Spring")
    spring.public = False
    seasons.save_season(spring)
    gen = w.shown[2]  # in B, promoted to A
    assert Move.objects.get(season=w.open, player=gen).next_division == "A"
    for who, api in outsiders(w).items():
        assert api.get(f"/api/seasons/{w.open.pk}/").json()["next_season"] is None, who
        listed = api.get("/api/seasons/").json()
        rows = listed["results"] if isinstance(listed, dict) else listed
        assert [r["next_season"] for r in rows if r["id"] == w.open.pk] == [None], who
        assert api.get(f"/api/seasons/{w.open.pk}/divisions/").json()["next_season"] is None
        made = api.get(f"/api/seasons/{w.open.pk}/close/").json()
        assert made["next_season"] is None
        assert {m["next_division"] for m in made["moves"]} == {""}
        assert api.get(f"/api/seasons/{spring.pk}/").status_code == 404
    for user in (None, w.stranger, w.rival_admin):
        page = squeezed(page_of(user).get(f"/seasons/{w.open.pk}/").content.decode())
        assert "The season is closed." in page
        assert "Spring" not in page and f"/seasons/{spring.pk}/" not in page
        player = squeezed(page_of(user).get(f"/players/{gen.pk}/").content.decode())
        assert "promoted" in player and "→ A" not in player
    # The club's own readers still follow it.
    assert client_of(w.member).get(f"/api/seasons/{w.open.pk}/").json()["next_season"] == spring.pk
    page = squeezed(page_of(w.member).get(f"/seasons/{w.open.pk}/").content.decode())
    assert f'<a href="/seasons/{spring.pk}/">Its players moved on to Spring</a>' in page
    player = squeezed(page_of(w.member, "ja").get(f"/players/{gen.pk}/").content.decode())
    assert "昇格 → A" in player


def nothing_written(w: World, season: Season, into: Season) -> None:
    season.refresh_from_db()
    assert season.closed_at is None and season.next_season is None
    assert not Move.objects.filter(season=season).exists()
    assert not Placement.objects.filter(season=into).exists()
    assert not Division.objects.filter(season=into).exists()


def test_a_private_season_is_not_closed_into_a_public_one(world):
    w = world
    actions.divisions.set_divisions(w.secret, ["A", "B"], {w.hiro.pk: "A", w.ito.pk: "B"})
    later = Season.objects.create(club=w.club, name="Open 2027", games=["napoleon"], public=True)
    api = client_of(w.admin)
    en = api.post(f"/api/seasons/{w.secret.pk}/close/", {"next_season": "open 2027"}, format="json")
    assert en.status_code == 400
    error = en.json()["errors"][0]
    assert (error["code"], error["path"]) == ("visibility", "next_season")
    assert error["message"].startswith(
        "season Open 2027 is public and this season is private: close this season into a "
        "private season"
    )
    ja = api.post(
        f"/api/seasons/{w.secret.pk}/close/",
        {"next_season": "Open 2027"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert ja.json()["errors"][0]["message"].startswith(
        "シーズン Open 2027 は公開で、このシーズンは非公開です。"
    )
    page = page_of(w.admin, "ja").post(
        f"/seasons/{w.secret.pk}/close/", {"next_season": "Open 2027"}
    )
    assert page.status_code == 400
    assert "非公開のシーズンへ締めるか" in page.content.decode()
    nothing_written(w, w.secret, later)
    # Made alike, it closes.
    later.public = False
    seasons.save_season(later)
    assert actions.seasons.close_season(w.secret, "Open 2027").next_season == later


def test_a_public_season_is_not_closed_into_a_private_one(world):
    w = world
    later = Season.objects.create(club=w.club, name="Spring", games=["napoleon"])
    en = page_of(w.admin).post(f"/seasons/{w.open.pk}/close/", {"next_season": "Spring"})
    assert en.status_code == 400
    assert (
        "season Spring is private and this season is public: close this season into a public "
        "season, or change Public on one of the two first"
    ) in squeezed(en.content.decode())
    ja = client_of(w.admin).post(
        f"/api/seasons/{w.open.pk}/close/",
        {"next_season": "Spring"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert ja.status_code == 400
    assert ja.json()["errors"][0]["message"] == (
        "シーズン Spring は非公開で、このシーズンは公開です。公開のシーズンへ締めるか、"
        "先にどちらかのシーズンの「公開」を変えてください"
    )
    nothing_written(w, w.open, later)
    with pytest.raises(Rejection):
        actions.seasons.close_season(w.open, "SPRING")  # as names are compared
    nothing_written(w, w.open, later)


def test_a_new_next_season_is_of_the_closing_seasons_visibility(world):
    w = world
    actions.divisions.set_divisions(w.secret, ["A", "B"], {w.hiro.pk: "A", w.ito.pk: "B"})
    assert not actions.seasons.close_season(w.secret, "Secret 2027").next_season.public
    assert actions.seasons.close_season(w.open, "Open 2027").next_season.public
    # A private season into a private one: everyone carries on, shown to the club alone.
    following = Season.objects.get(name="Secret 2027")
    assert {p.player_id for p in Placement.objects.filter(season=following)} == {
        w.hiro.pk,
        w.ito.pk,
    }
    for api in outsiders(w).values():
        assert api.get(f"/api/seasons/{following.pk}/divisions/").status_code == 404


def test_a_tie_with_a_hidden_player_is_not_named_to_outsiders(world):
    """Gen ties on rank 3 with Hiro (placed in B, seen only by the club): one goes up, the
    other stays, so each line names the other for the club's administrator; an outsider
    reads Gen's line without Hiro's id, as the lines leave Hiro out."""
    w = world
    gen = next(p for p in w.shown if p.handle == "gen")
    standings_of(w.open, {w.hiro: (3, True)})  # beside Gen, 3rd of the season
    everyone = client_of(w.admin).get(f"/api/seasons/{w.open.pk}/close/").json()["moves"]
    told = {m["player"]: m["tied_with"] for m in everyone}
    assert told[gen.pk] == [w.hiro.pk] and told[w.hiro.pk] == [gen.pk]
    for who, api in outsiders(w).items():
        moves = api.get(f"/api/seasons/{w.open.pk}/close/").json()["moves"]
        assert {m["player"]: m["tied_with"] for m in moves}[gen.pk] == [], who
        assert all(w.hiro.pk not in [m["player"], *m["tied_with"]] for m in moves), who
