"""Both proposals (a night's tables, a round) offer each seat's move the same way: one
select per player, named by whose table it is (``pages/setup/_seat.html``); a round's
may also seat a player out, and a player sitting out is named and moved alike."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.markup import squeezed
from tournaments.models import ClubNight, Season

pytestmark = pytest.mark.django_db


def seat_moves(html: str) -> dict[str, tuple[str, list[str], str | None]]:
    """Each seat's select: player id → (its accessible name, its options, the one chosen)."""
    found = {}
    for pk, label, options in re.findall(
        r'<select name="table_(-?\d+)" aria-label="([^"]*)">(.*?)</select>', squeezed(html)
    ):
        values = re.findall(r'<option value="(\w+)"', options)
        chosen = re.search(r'<option value="(\w+)" selected>', options)
        found[pk] = (label, values, chosen and chosen.group(1))
    return found


@pytest.fixture
def nine(players):
    return list(players.values())[:9]


def test_a_nights_tables_move_each_player_and_a_guest_to_another_table(club, admin, nine):
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    page = admin.post(
        f"/nights/{night.pk}/draw/",
        {"present": [p.pk for p in nine], "guests": "Guest One", "games": ["napoleon"]},
        follow=True,
    ).content.decode()
    moves = seat_moves(page)
    assert sorted(moves) == sorted([str(p.pk) for p in nine] + ["-1"])
    tables = {chosen for _label, _values, chosen in moves.values()}
    assert moves["-1"][0] == "Table of Guest One"
    for player in nine:
        label, values, chosen = moves[str(player.pk)]
        assert label == f"Table of {player.display_name}"
        assert values == sorted(tables) and chosen in tables  # no sitting out at a night's draw


def test_a_rounds_seats_and_sitting_out_players_move_alike(club, admin, nine):
    season = Season.objects.create(club=club, name="Open", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28))
    form = {"game": "napoleon", "method": "balanced", "deals": "2", "size": "4"}
    page = admin.post(
        f"/nights/{night.pk}/rounds/",
        {**form, "players": [p.pk for p in nine], "action": "propose"},
        follow=True,
    ).content.decode()
    moves = seat_moves(page)
    assert len(moves) == 9  # two tables of four, and one player sitting out
    assert sorted(chosen for _label, _values, chosen in moves.values()) == [*"11112222", "out"]
    for player in nine:
        label, values, _chosen = moves[str(player.pk)]
        assert label == f"Table of {player.display_name}"
        assert values == ["1", "2", "out"]
    admin.cookies["django_language"] = "ja"
    page = admin.post(
        f"/nights/{night.pk}/rounds/",
        {**form, "players": [p.pk for p in nine], "action": "propose"},
        follow=True,
    ).content.decode()
    assert {label for label, _values, _chosen in seat_moves(page).values()} == {
        f"{p.display_name} の卓" for p in nine
    }


def test_each_drawn_table_proposes_a_scorer_who_sits_at_it(club, admin, nine, scorer):
    """A newcomer's walk: every table proposed the secretary as its scorer.  A table at
    which a player with a scorer's account sits proposes them; the others the secretary."""
    from tournaments.models import Player

    Player.objects.filter(pk=nine[4].pk).update(user=scorer)
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    page = squeezed(
        admin.post(
            f"/nights/{night.pk}/draw/",
            {"present": [p.pk for p in nine], "games": ["napoleon"]},
            follow=True,
        ).content.decode()
    )
    chosen = re.findall(
        r'<select name="scorer_\d+">.*?<option value="(\d+)" selected>', page, flags=re.S
    )
    moves = seat_moves(page)
    secretary = str(admin.session["_auth_user_id"])
    assert len(chosen) == len({c for _l, _v, c in moves.values()})  # one a table
    assert chosen.count(str(scorer.pk)) == 1 and chosen.count(secretary) == len(chosen) - 1


def test_the_nights_games_at_no_table_are_named_on_the_proposal(club, admin, nine):
    """Ten players and four games make three tables, sized nearest each game's best:
    the games left out are said, not left for the secretary to notice (a walk found
    Twenty-Two and Bhabhi dropped silently)."""
    games = ["twentytwo", "1234", "bhabhi", "comrade"]
    season = Season.objects.create(club=club, name="Winter", games=games)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    sent = {"present": [p.pk for p in nine], "guests": "Guest One", "games": games}
    page = squeezed(admin.post(f"/nights/{night.pk}/draw/", sent, follow=True).content.decode())
    drawn = re.findall(r'<select name="game_\d+">.*?<option value="(\w+)" selected>', page)
    assert len(drawn) == 3
    left = [g for g in games if g not in drawn]
    labels = {"twentytwo": "Twenty-Two", "1234": "1234", "bhabhi": "Bhabhi", "comrade": "Comrade"}
    said = re.search(r'<p class="notice" id="unplayed">(.*?)</p>', page)
    assert said and f"At no table: {', '.join(labels[g] for g in left)}." in said.group(1)
    assert "make 3 tables, fewer than the night's games" in said.group(1)
    one = Season.objects.create(club=club, name="Napoleon only", games=["napoleon"])
    other = ClubNight.objects.create(season=one, date=dt.date(2026, 12, 5))
    sent = {"present": [p.pk for p in nine], "games": ["napoleon"]}
    page = admin.post(f"/nights/{other.pk}/draw/", sent, follow=True).content.decode()
    assert 'id="unplayed"' not in page
