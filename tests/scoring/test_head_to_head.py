"""Head to head (issue 41, 3): a player against everyone met at a table and two players'
record per season and game, equal to a direct count over the matches' lines; finished
matches only; private seasons for their club alone; the page and the API."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from actions import rounds
from scoring import head_to_head as h2h
from scoring.models import MatchStanding
from scoring.rebuild import rebuild_all
from tests.conftest import client_of, member_of, play
from tests.markup import squeezed
from tournaments.models import Club, ClubNight, Match, Membership, Player, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    club = Club.objects.create(name="Pairs", slug="pairs")
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(9)
    ]
    seasons = [
        Season.objects.create(club=club, name=name, games=["napoleon", "comp13"], public=public)
        for name, public in (("Spring", True), ("Summer", False))
    ]
    for s, season in enumerate(seasons):
        for day in range(3):
            night = ClubNight.objects.create(season=season, date=dt.date(2026, 4 + 3 * s, 1 + day))
            game = ("napoleon", "comp13")[day % 2]
            deals = 2 if game == "napoleon" else None
            round_ = rounds.draw_next_round(
                night,
                game=game,
                method="balanced",
                deals=deals,
                players=[p.pk for p in people],
                seed=10 * s + day,
            ).round
            play(round_, seed=day)
    # An unfinished match: it counts for nobody.
    night = ClubNight.objects.create(season=seasons[1], date=dt.date(2026, 9, 30))
    rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=3, players=[p.pk for p in people], seed=7
    )
    rebuild_all()
    return club, people, seasons


def direct(player, seasons, opponent=None):
    """The record by walking every finished match of the seasons, seat by seat."""
    counts = defaultdict(lambda: [0, 0, 0, 0, 0])
    for match in Match.objects.filter(table__club_night__season__in=seasons):
        lines = {line.player_id: line for line in MatchStanding.objects.filter(match=match)}
        if player.pk not in lines or not lines[player.pk].finished:
            continue
        mine = lines[player.pk]
        for other, line in lines.items():
            if other == player.pk or (opponent is not None and other != opponent.pk):
                continue
            key = (
                (match.table.club_night.season_id, match.game) if opponent else (other, match.game)
            )
            # One line per game in all seasons: different games' points never add up.
            for k in (key, ("all", match.game)) if opponent else (key,):
                c = counts[k]
                c[0] += 1
                c[1] += mine.rank < line.rank
                c[2] += mine.rank > line.rank
                c[3] += mine.rank == line.rank
                c[4] += mine.total - line.total
    return {k: tuple(v) for k, v in counts.items()}


def as_counts(r):
    return (r.matches, r.ahead, r.behind, r.level, r.points)


def test_every_record_equals_a_direct_count_of_finished_matches(played):
    _club, people, seasons = played
    assert Match.objects.exclude(status=Match.Status.FINISHED).exists()
    for player in people[:3]:
        listed = h2h.opponents(player, seasons)
        found = {(r.opponent.pk, r.game): as_counts(r) for r in listed}
        assert found == direct(player, seasons) and len({r.opponent.pk for r in listed}) >= 5
        assert len(found) == len(listed) and all(r.season is None for r in listed)
        assert {r.game for r in listed} == {"napoleon", "comp13"}  # a line of each game
        for opponent in people[3:6]:
            records = h2h.against(player, opponent, seasons)
            got = {
                (r.season.pk, r.game) if r.season else ("all", r.game): as_counts(r)
                for r in records
            }
            assert got == direct(player, seasons, opponent)
            assert all(r.game for r in records)  # no line adds two games' points
            mirror = {r.game: r for r in h2h.against(opponent, player, seasons) if not r.season}
            for a in (r for r in records if r.season is None):
                b = mirror[a.game]
                assert (a.ahead, a.behind, a.points) == (b.behind, b.ahead, -b.points)
    # The public season alone: what a reader outside the club may see.
    public = [s for s in seasons if s.public]
    assert {
        (r.opponent.pk, r.game): as_counts(r) for r in h2h.opponents(people[0], public)
    } == direct(people[0], public)


def test_the_page_and_the_api_for_the_club_and_for_others(played, django_user_model):
    club, people, seasons = played
    member = member_of(club, django_user_model, "pairs-member", Membership.Role.MEMBER)
    reader = Client()
    reader.force_login(member)
    page = squeezed(reader.get(f"/players/{people[0].pk}/").content.decode())
    assert f'<a href="/players/{people[0].pk}/head-to-head/" id="head-to-head">' in page
    listing = squeezed(reader.get(f"/players/{people[0].pk}/head-to-head/").content.decode())
    first = h2h.opponents(people[0], seasons)[0]
    assert f'<a href="?with={first.opponent.pk}">{first.opponent.display_name}</a>' in listing
    pair = reader.get(f"/players/{people[0].pk}/head-to-head/?with={first.opponent.pk}")
    records = h2h.against(people[0], first.opponent, seasons)
    overall = h2h.together(records)
    in_all = [r for r in records if r.season is None]
    assert overall.matches == sum(r.matches for r in in_all)  # matches count across games
    shown = squeezed(pair.content.decode())
    assert (
        f"At one table in {overall.matches} finished matches: Player 0 finished ahead in "
        f"{overall.ahead}, behind in {overall.behind}." in shown
    )
    reader.cookies["django_language"] = "ja"
    ja = squeezed(reader.get(f"/players/{people[0].pk}/head-to-head/").content.decode())
    assert "対戦成績" in ja and "同卓" in ja
    api = client_of(member).get(
        f"/api/players/{people[0].pk}/head-to-head/", {"with": first.opponent.pk}
    )
    assert api.status_code == 200
    assert [r for r in api.json()["records"] if r["season"] is None] == [
        {
            "opponent": first.opponent.pk,
            "display_name": first.opponent.display_name,
            "season": None,
            "game": r.game,
            "matches": r.matches,
            "ahead": r.ahead,
            "behind": r.behind,
            "level": r.level,
            "points": r.points,
        }
        for r in in_all
    ]
    # Anyone reads the public season's part; the private season stays the club's.
    stranger = Client().get(f"/players/{people[0].pk}/head-to-head/?with={first.opponent.pk}")
    public = h2h.together(h2h.against(people[0], first.opponent, [s for s in seasons if s.public]))
    assert stranger.status_code == 200 and "Summer" not in stranger.content.decode()
    assert f"At one table in {public.matches} finished match" in stranger.content.decode()
    assert public.matches < overall.matches
    assert (
        reader.get(f"/players/{people[0].pk}/head-to-head/?with={people[0].pk}").status_code == 404
    )
    assert reader.get(f"/players/{people[0].pk}/head-to-head/?with=x").status_code == 404
    assert reader.get(f"/players/{people[0].pk}/head-to-head/?with=99999999").status_code == 404


def test_the_pages_cost_the_same_queries_however_many_matches(played):
    club, people, seasons = played
    reader = Client()

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as seen:
            assert reader.get(url).status_code == 200
        return len(seen)

    urls = [
        f"/players/{people[0].pk}/head-to-head/",
        f"/players/{people[0].pk}/head-to-head/?with={people[1].pk}",
    ]
    before = [queries(url) for url in urls]
    for day in range(4):  # as many nights again, in a season of their own
        season = Season.objects.create(
            club=club, name=f"Extra {day}", games=["napoleon"], public=True
        )
        night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 1 + day))
        play(
            rounds.draw_next_round(
                night,
                game="napoleon",
                method="balanced",
                deals=2,
                players=[p.pk for p in people],
                seed=day,
            ).round,
            seed=day,
        )
    rebuild_all()
    assert [queries(url) for url in urls] == before
