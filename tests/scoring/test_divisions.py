"""A season in divisions (issue 40, 2): each division drawn at tables of its own and ranked
on its own leaderboard; closing the season promotes and relegates by the season's rule
into the next season, once however often it is confirmed, and keeps each move in the
player's history."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection

import actions.divisions
import actions.seasons
from actions import corrections, rounds
from scoring import divisions as ranked
from scoring import leaderboard
from scoring.finals import season_final
from scoring.models import Scope, SeasonStanding
from scoring.rebuild import rebuild_all
from tests.conftest import SEASON_LINE, at_the_same_moment, play
from tournaments.errors import Rejection
from tournaments.models import (
    Club,
    ClubNight,
    Match,
    Move,
    Placement,
    Player,
    Round,
    Season,
)

pytestmark = pytest.mark.django_db

NIGHTS = 8
RARELY = {"p09", "p19", "p29"}
"""One player of each division who comes to three nights of eight: not yet qualified."""


def league(
    names: str = "A B C", players: int = 30, slug: str = "ladder"
) -> tuple[Season, list[Player]]:
    club = Club.objects.create(name=slug.title(), slug=slug)
    season = Season.objects.create(
        club=club,
        name="Autumn",
        games=["napoleon"],
        ranking="best_nights",
        best_of=6,
        qualify_by="nights",
        qualify_minimum=5,
    )
    people = [
        Player.objects.create(club=club, handle=f"p{i:02d}", display_name=f"{slug} {i:02d}")
        for i in range(players)
    ]
    split = names.split()
    size = players // len(split)
    actions.divisions.set_divisions(
        season, split, {p.pk: split[min(i // size, len(split) - 1)] for i, p in enumerate(people)}
    )
    return season, people


def division_of(season: Season) -> dict[int, str]:
    return {p.player_id: p.division.name for p in Placement.objects.filter(season=season)}


def a_night(season: Season, people: list[Player], day: int, **draw) -> Round:
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 9, 1) + dt.timedelta(day))
    present = [p.pk for p in people if p.handle not in RARELY or day < 3]
    round_ = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=present, seed=day, **draw
    ).round
    play(round_, seed=day)
    return round_


def test_a_season_in_three_divisions_is_drawn_ranked_closed_and_its_final_played(
    django_capture_on_commit_callbacks,
):
    season, people = league()
    placed = division_of(season)
    for day in range(NIGHTS):
        round_ = a_night(season, people, day)
        for table in round_.tables.all():
            seated = {placed[p.pk] for p in table.matches.get().seated_players()}
            assert len(seated) == 1, f"night {day}: a table of divisions {seated}"
    rebuild_all()

    board = {s.player_id: s for s in SeasonStanding.objects.filter(season=season)}
    proposal = ranked.lines(season)
    assert [line.player.pk for line in proposal] == sorted(
        (p.pk for p in people), key=lambda p: (placed[p], board[p].rank, p)
    )
    for name in "ABC":
        lines = [x for x in proposal if x.division.name == name]
        season_ranks = [board[x.player.pk].rank for x in lines]
        assert [x.rank for x in lines] == [
            1 + sum(r < mine for r in season_ranks) for mine in season_ranks
        ]
        # The rarely-come player is not qualified and ranks last in the division.
        assert lines[-1].player.handle in RARELY and not lines[-1].qualified
    kinds = {x.player.handle: (x.kind, x.going) for x in proposal}
    a, b, c = ([x for x in proposal if x.division.name == n] for n in "ABC")
    assert [kinds[x.player.handle] for x in a[-2:]] == [("down", "B")] * 2
    assert [kinds[x.player.handle] for x in b[:2]] == [("up", "A")] * 2
    assert [kinds[x.player.handle] for x in b[-2:]] == [("down", "C")] * 2
    assert [kinds[x.player.handle] for x in c[:2]] == [("up", "B")] * 2
    assert sum(k == "stay" for k, _ in kinds.values()) == 30 - 8

    # The final night: each division's top qualified at a final table of its own; the top
    # division's table decides the season's champion.
    final = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 1), final=True)
    lines = SeasonStanding.objects.filter(season=season).order_by("rank", "player_id")
    order = [s.player_id for s in lines]
    made = rounds.draw_next_round(
        final,
        game="napoleon",
        method="final",
        deals=2,
        size=4,
        others="sit_out",
        players=[p.pk for p in people],
        order=order,
        seed=1,
    ).round
    tops = [{p.pk for p in t.matches.get().seated_players()} for t in made.tables.order_by("name")]
    assert tops == [{x.player.pk for x in d if x.qualified and x.rank <= 4} for d in (a, b, c)]
    play(made, seed=99)
    rebuild_all()
    champion = season_final(season).champions
    assert champion and {p.pk for p in champion} <= tops[0]

    # Random corrections on old nights, as the pages make them: the division boards and
    # the proposal are still those a clean rebuild gives.
    rng = random.Random(40)
    old = list(
        Match.objects.filter(table__club_night__season=season, table__club_night__final=False)
    )
    for match in rng.sample(old, 4):
        with django_capture_on_commit_callbacks(execute=True):
            corrections.reopen_match(match, None, "a deal was entered at the wrong table")
            deal = rng.choice(list(match.deals.filter(deleted_at__isnull=True)))
            corrections.delete_deal(deal, None, "wrong table")

    def figures() -> list[tuple]:
        return [(x.player.pk, x.rank, x.qualified, x.kind) for x in ranked.lines(season)]

    before = figures()
    stored = sorted(SeasonStanding.objects.filter(season=season).values_list(*SEASON_LINE))
    rebuild_all()
    assert figures() == before
    assert sorted(SeasonStanding.objects.filter(season=season).values_list(*SEASON_LINE)) == stored
    # The season page's board of a division ranks as the close page does.
    for division in season.divisions.all():
        (board,) = leaderboard.boards(season, Scope.CLUB, division=division)
        shown = [(row.player_id, row.rank, row.qualified) for row in board.rows]
        listed = [(x.player.pk, x.rank, x.qualified) for x in ranked.lines(season)]
        assert shown == [x for x in listed if x[0] in placed and placed[x[0]] == division.name]
        assert [x[0] for x in shown if x[1] is None] == []  # everyone placed played
    proposal = ranked.lines(season)

    # Closing: the proposal changed by hand for one player, confirmed twice.
    stays = next(x for x in proposal if x.kind == "stay" and x.division.name == "C")
    choices = {str(stays.player.pk): "B"}
    closed = actions.seasons.close_season(season, "Winter", choices)
    again = actions.seasons.close_season(season, "Winter", {})
    assert not closed.again and again.again
    winter = Season.objects.get(club=season.club, name="Winter")
    assert winter.games == ["napoleon"] and winter.ranking == "best_nights"
    assert list(winter.divisions.values_list("name", flat=True)) == ["A", "B", "C"]
    moved = division_of(winter)
    assert len(moved) == 30 and Move.objects.filter(season=season).count() == 30
    for x in proposal:
        want = "B" if x.player.pk == stays.player.pk else x.going
        assert moved[x.player.pk] == want
    history = Move.objects.get(season=season, player=stays.player)
    assert (history.kind, history.division, history.next_division) == ("up", "C", "B")
    season.refresh_from_db()
    assert season.closed_at is not None and season.next_season == winter
    with pytest.raises(Rejection) as refused:
        actions.divisions.set_divisions(season, ["A"], {})
    assert refused.value.errors[0]["code"] == "closed"


def standings_of(season: Season, ranks: dict[Player, tuple[int, bool]]) -> None:
    """The season's lines of its first game as a rebuild writes them: rank and qualified."""
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=season,
            game=season.games[0],
            player=player,
            total=100 - rank,
            deals=4,
            deals_won=1,
            matches=1,
            matches_won=0,
            rank=rank,
            qualified=qualified,
        )
        for player, (rank, qualified) in ranks.items()
    )


def test_a_share_of_each_division_moves_rounded_half_up_and_nobody_moves_twice():
    season, people = league("A B C", players=9)  # three a division
    season.moves_by, season.moves = "percent", 50  # 1.5 players: two
    season.save()
    newcomer = Player.objects.create(club=season.club, handle="new", display_name="Newcomer")
    idle = people[3]  # placed in B, never played
    ranks = {p: (i + 1, True) for i, p in enumerate(people) if p != idle}
    ranks[newcomer] = (99, True)
    standings_of(season, ranks)
    lines = {x.player.handle: x for x in ranked.lines(season)}
    # B is p03 (placed, never played: listed last), p04, p05.  Its top two played go up,
    # the bottom two of A come down; of B's players left, the bottom two go down to C:
    # only p03 is left, so one goes down.
    assert [(h, lines[h].kind, lines[h].going) for h in ("p04", "p05")] == [
        ("p04", "up", "A"),
        ("p05", "up", "A"),
    ]
    assert (lines["p03"].kind, lines["p03"].going, lines["p03"].rank) == ("down", "C", None)
    assert [(lines[h].kind, lines[h].going) for h in ("p01", "p02")] == [("down", "B")] * 2
    assert (lines["p00"].kind, lines["p00"].going) == ("stay", "A")
    assert [(lines[h].kind, lines[h].going) for h in ("p06", "p07")] == [("up", "B")] * 2
    assert (lines["new"].kind, lines["new"].going, lines["new"].division) == ("new", "C", None)


def test_a_player_below_the_minimum_is_never_promoted():
    season, people = league("A B", players=6)
    b = people[3:]
    a = {p: (i + 1, True) for i, p in enumerate(people[:3])}
    standings_of(season, {**a, b[0]: (4, False), b[1]: (5, True), b[2]: (6, True)})
    season.moves = 1
    season.save()
    lines = {x.player.handle: x for x in ranked.lines(season)}
    assert (lines["p03"].kind, lines["p04"].kind) == ("stay", "up")


def test_divisions_refused_in_words_store_nothing():
    season, people = league("A B")
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, handle="x", display_name="X")
    before = sorted(Placement.objects.values_list("player", "division__name"))
    tries = {
        "duplicate": (["A", "a"], {}),
        "too_many": ([str(i) for i in range(11)], {}),
        "too_long": (["A" * 21], {}),
        "not_found": (["A"], {stranger.pk: "A"}),
        "invalid_choice": (["A"], {people[0].pk: "Z"}),
    }
    for code, (names, places) in tries.items():
        with pytest.raises(Rejection) as refused:
            actions.divisions.set_divisions(season, names, places)
        assert refused.value.errors[0]["code"] == code
    with pytest.raises(Rejection):
        actions.divisions.set_divisions(season, ["A"], {}, moves=101)
    assert sorted(Placement.objects.values_list("player", "division__name")) == before
    assert list(season.divisions.values_list("name", flat=True)) == ["A", "B"]
    # Renamed and reordered in one go: the same request twice leaves the same divisions.
    for _ in range(2):
        actions.divisions.set_divisions(
            season, "Gold, A", {people[0].pk: "Gold", people[1].pk: "A"}
        )
        assert list(season.divisions.values_list("name", "order")) == [("Gold", 0), ("A", 1)]
        assert division_of(season) == {people[0].pk: "Gold", people[1].pk: "A"}


def test_a_round_is_drawn_in_each_division_unless_drawn_together():
    season, people = league("A B", players=8)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 9, 1))
    placed = division_of(season)
    everyone = [p.pk for p in people]
    drawn = rounds.propose(
        night, game="napoleon", method="balanced", deals=2, seed=3, players=everyone
    )
    assert [{placed[p] for p in table} for table in drawn.seating.tables] == [{"A"}, {"B"}]
    together = [
        rounds.propose(
            night,
            game="napoleon",
            method="balanced",
            deals=2,
            seed=s,
            mixed=True,
            players=[p.pk for p in people],
        ).seating.tables
        for s in range(20)
    ]
    assert any(len({placed[p] for p in t}) == 2 for tables in together for t in tables)
    with pytest.raises(Rejection) as refused:  # two of B cannot make a table of Napoleon
        rounds.propose(night, game="napoleon", method="balanced", deals=2, players=everyone[:6])
    assert refused.value.errors[0]["params"]["division"] == "B"


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_the_same_moment_close_the_season_once():
    season, people = league("A B", players=8)
    standings_of(season, {p: (i + 1, True) for i, p in enumerate(people)})
    answers = at_the_same_moment(
        lambda: actions.seasons.close_season(season, "Spring"),
        lambda: actions.seasons.close_season(season, "Spring"),
    )
    assert sorted(a.again for a in answers) == [False, True], answers
    assert Move.objects.filter(season=season).count() == 8
    assert Placement.objects.filter(season__name="Spring").count() == 8
    assert Season.objects.filter(name="Spring").count() == 1
    assert all(a.moves == answers[0].moves for a in answers)
    connection.close()


def test_players_tied_across_the_line_are_marked_for_the_administrator_to_choose():
    """Two players of A tied on its last rank, one place going down: no rule parts them,
    so the proposal keeps the season's order and each line names the other (the walk of
    a season's end found "Ito relegated, Fumi stays" on one rank with no reason)."""
    season, people = league("A B", players=6)
    a, b = people[:3], people[3:]
    ranks = {a[0]: (1, True), a[1]: (2, True), a[2]: (2, True)}
    standings_of(season, {**ranks, b[0]: (4, True), b[1]: (5, True), b[2]: (5, True)})
    season.moves = 1
    season.save()
    lines = {x.player.handle: x for x in ranked.lines(season)}
    assert sorted(lines[h].kind for h in ("p01", "p02")) == ["down", "stay"]
    assert lines["p01"].tied_with == (a[2],) and lines["p02"].tied_with == (a[1],)
    assert lines["p01"].tied_names == a[2].display_name
    # Tied on a rank the proposal does not part (both stay in B, below the one going up):
    # nothing to choose.
    assert (lines["p03"].kind, lines["p04"].tied_with, lines["p05"].tied_with) == ("up", (), ())
    assert lines["p00"].tied_with == ()
