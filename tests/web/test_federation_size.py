"""Every page and API answer that lists the league runs the same queries however large the
federation grows (issue 39): more clubs, more seasons of the reader's club, more games
and more deals add rows, never queries.  ``bench/pages_bench.py`` measures the time, and
its counts are the README's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import actions.deals
import actions.matches
from bench.pages_bench import readme_counts
from scoring.rebuild import rebuild_all
from tests import worlds
from tests.conftest import NAPOLEON_SEATS
from tests.markup import words
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Membership, Player, Season, Table

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def answers(season: Season, player: Player) -> list[tuple[str, str]]:
    return [
        ("anonymous", "/"),
        ("member", "/"),
        ("admin", "/"),
        ("anonymous", "/api/matches/"),
        ("operator", "/api/matches/"),
        ("member", f"/api/matches/?season={season.pk}"),
        ("anonymous", "/api/players/"),
        ("member", "/api/players/"),
        ("member", f"/players/{player.pk}/"),
        ("anonymous", f"/players/{player.pk}/"),
        ("member", f"/seasons/{season.pk}/"),
        ("operator", "/admin/tournaments/match/"),
        ("operator", "/admin/tournaments/deal/"),
        ("operator", "/admin/tournaments/clubnight/"),
        ("operator", "/admin/tournaments/table/"),
    ]


def queries(clients: dict[str, Client], season: Season, player: Player) -> dict[str, int]:
    out = {}
    for reader, url in answers(season, player):
        clients[reader].get(url)  # caches filled (content types, the session)
        with CaptureQueriesContext(connection) as run:
            assert clients[reader].get(url).status_code == 200, (reader, url)
        out[f"{reader} {url}"] = len(run.captured_queries)
    return out


def another_season(club: Club, player: Player, game: str, number: int) -> None:
    """A season of ``game`` in which ``player`` played a match of a few deals."""
    season = Season.objects.create(
        club=club,
        name=f"Extra {number}",
        games=[game],
        starts_on=dt.date(2025, number, 1),
        public=True,
    )
    night = ClubNight.objects.create(season=season, date=dt.date(2025, number, 2))
    table = Table.objects.create(club_night=night, name="Table 1")
    others = list(Player.objects.filter(club=club).exclude(pk=player.pk).order_by("pk")[:3])
    match = actions.matches.create_match(table, game, [player, *others])
    seated = [p.handle for p in match.seated_players()]
    for record in demo_deals(league_game(game), number, seated, match.rules, match.target, 3):
        actions.deals.enter_deal(match, record).stored()


def test_pages_run_the_same_queries_in_a_larger_federation(django_user_model):
    worlds.federation(1, 12, 300, 39, tables=3)
    club = Club.objects.get()
    season = Season.objects.get()
    player = Player.objects.filter(club=club, seats__isnull=False).order_by("pk").first()
    assert player is not None
    users = django_user_model.objects
    member = users.create_user("member", password="member-pass-1")
    admin = users.create_user("clubadmin", password="admin-pass-1")
    operator = users.create_user("operator", password="op-pass-1", is_staff=True)
    operator.is_superuser = True
    operator.save()
    Membership.objects.create(user=member, club=club, role=Membership.Role.MEMBER)
    Membership.objects.create(user=admin, club=club, role=Membership.Role.ADMIN)
    Player.objects.filter(pk=player.pk).update(user=member)
    Season.objects.update(public=True)
    rebuild_all()
    clients = {"anonymous": Client()}
    for name, user in [("member", member), ("admin", admin), ("operator", operator)]:
        clients[name] = Client()
        clients[name].force_login(user)
    small = queries(clients, season, player)

    worlds.federation(3, 36, 900, 40, tables=3)  # three more clubs, three times the deals
    for number, game in enumerate(["napoleon", "rettler", "comp13"], start=1):
        another_season(club, player, game, number)
    Season.objects.update(public=True)
    rebuild_all()
    large = queries(clients, season, player)

    assert Club.objects.count() == 4 and Season.objects.filter(club=club).count() == 4
    assert large == small
    # The README's table ("At any size") is the pages bench's, which fails on a count it
    # no longer measures; this world's counts are the same, so CI finds a stale table too.
    assert list(small.values()) == readme_counts(), "README.md's query counts are stale"


def test_tonight_is_tonight_and_the_next_nights_are_named(club_admin, season, scorer, players):
    """The administrator's home lists tonight's tables (yesterday's too: a night past
    midnight), not every table planned for the season; the next nights are links."""
    today = timezone.localdate()
    for days in (-7, 0, 7, 14, 21, 28):
        night = ClubNight.objects.create(
            season=season, date=today + dt.timedelta(days=days), venue=f"Room {days}"
        )
        table = Table.objects.create(club_night=night, name="Table 1", scorer=scorer)
        actions.matches.create_match(table, "napoleon", [players[h] for h in NAPOLEON_SEATS])
    client = Client()
    client.force_login(club_admin)
    page = client.get("/").content.decode()
    tonight = page[page.index('id="admin-home"') : page.index("</section>")]
    assert f"{today:%Y-%m-%d} Room 0" in words(tonight)
    assert "Room -7" not in tonight and "Room 28" not in tonight
    assert tonight.count('href="/matches/') == 1
    named = [f"Room {d}" for d in (7, 14, 21)]
    assert all(name in tonight for name in named)  # the next three, as links to the nights
    assert tonight.count('href="/nights/') == 3
