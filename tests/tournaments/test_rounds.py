"""A club night in rounds (issue 25): the draws, the sit-outs, the night's standings."""

from __future__ import annotations

from itertools import combinations

import pytest

import actions.deals
from actions import rounds
from scoring import night as night_standings
from tests.conftest import play
from tournaments import access
from tournaments.errors import Rejection
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, MatchEvent, Membership, Player, Round

pytestmark = pytest.mark.django_db


def tables(round_: Round) -> list[list[int]]:
    return [
        [p.pk for p in m.seated_players()]
        for m in Match.objects.filter(table__round=round_).order_by("table__name")
    ]


def met(round_: Round) -> set[frozenset[int]]:
    return {frozenset(p) for t in tables(round_) for p in combinations(t, 2)}


def order(night: ClubNight) -> list[int]:
    return [line.player for line in night_standings.standings(night)[1]]


def test_a_napoleon_night_of_12_in_three_rounds(room, django_capture_on_commit_callbacks):
    night, players = room
    twelve = [p.pk for p in players[:12]]
    with django_capture_on_commit_callbacks(execute=True):
        first = rounds.draw_next_round(
            night, game="napoleon", method="balanced", players=twelve, deals=2, seed=1
        ).round
        assert [len(t) for t in tables(first)] == [4, 4, 4]  # the best size first
        with pytest.raises(Rejection) as early:  # the round is still being played
            rounds.draw_next_round(night, game="napoleon", method="balanced", deals=2, seed=2)
        assert early.value.conflict and early.value.errors[0]["code"] == "round_unfinished"
        play(first)
        second = rounds.draw_next_round(
            night, game="napoleon", method="balanced", deals=2, seed=2
        ).round
        assert not met(first) & met(second)  # nobody meets a player of round 1 again
        assert sorted(p for t in tables(second) for p in t) == sorted(twelve)  # all seated
        play(second, seed=10)
    with django_capture_on_commit_callbacks(execute=True):
        before = order(night)
        third = rounds.draw_next_round(
            night, game="napoleon", method="swiss", deals=2, order=before, seed=3
        ).round
    assert third.method == "swiss" and before[0] in tables(third)[0]  # the leader at table 1
    top = set(before[:4])
    assert len(top & set(tables(third)[0])) >= 3  # the first of the order together
    # Raw points: the deal scores of the night summed.
    method, lines = night_standings.standings(night)
    scored = {p: sum(s.score for s in Player.objects.get(pk=p).deal_scores.all()) for p in twelve}
    assert method == "points" and {line.player: line.total for line in lines} == scored


def test_a_rettler_night_of_13_seats_everyone(room, django_capture_on_commit_callbacks):
    # Rettler takes 4 to 8 a table: 13 play at 7 + 6 (issue 56), nobody sits out; sitting
    # out fairly, where no split seats everyone, is tests/tournaments/test_round_sizes.py.
    night, players = room
    thirteen = [p.pk for p in players[:13]]
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1, 5):
            made = rounds.draw_next_round(
                night, game="rettler", method="balanced", players=thirteen, deals=1, seed=number
            ).round
            assert [len(t) for t in tables(made)] == [7, 6]
            assert not made.sat_out.exists()
            play(made, seed=number)
    lines = {line.player: line for line in night_standings.standings(night)[1]}
    assert all(lines[p].matches == 4 and lines[p].sat_out == 0 for p in thirteen)


def test_a_mixed_night_with_table_rank_standings(room, django_capture_on_commit_callbacks):
    night, players = room
    night.standings = ClubNight.Standings.RANKS
    night.rank_points = [5, 3, 1, 0]
    night.save()
    eight = [p.pk for p in players[:8]]
    with django_capture_on_commit_callbacks(execute=True):
        comp = rounds.draw_next_round(
            night, game="comp13", method="balanced", players=eight, seed=1
        ).round
        assert comp.deals is None and all(
            m.target == 12 for m in Match.objects.filter(table__round=comp)
        )  # the game's own end
        with pytest.raises(Rejection):  # a Comp-13 round takes no number of deals
            rounds.propose(night, game="comp13", method="balanced", players=eight, deals=3)
        play(comp)
        nap = rounds.draw_next_round(
            night, game="napoleon", method="balanced", deals=1, seed=2
        ).round
        play(nap, seed=5)
    expected: dict[int, float] = {p: 0.0 for p in eight}
    from scoring.models import MatchStanding

    for match in Match.objects.filter(table__club_night=night):
        lines = list(MatchStanding.objects.filter(match=match))
        for line in lines:
            tied = [other.rank for other in lines].count(line.rank)
            places = [([5, 3, 1, 0] + [0] * 8)[line.rank - 1 + k] for k in range(tied)]
            expected[line.player_id] += sum(places) / tied
    method, lines = night_standings.standings(night)
    assert method == "ranks"
    assert {line.player: line.total for line in lines} == pytest.approx(expected)
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)


def test_a_final_table_of_the_top_and_a_round_ended_early(
    room, django_capture_on_commit_callbacks, django_user_model
):
    night, players = room
    director = django_user_model.objects.create_user("director")
    ten = [p.pk for p in players[:10]]
    with django_capture_on_commit_callbacks(execute=True):
        first = rounds.draw_next_round(
            night, game="napoleon", method="balanced", players=ten, deals=3, seed=4
        ).round
        # One table plays a deal, the others none: the round is ended early, with a reason.
        busy = Match.objects.filter(table__round=first).order_by("table__name").first()
        handles = [p.handle for p in busy.seated_players()]
        actions.deals.enter_deal(
            busy, demo_deals(league_game("napoleon"), 1, handles, most=1, first_in_full=False)[0]
        ).stored()
        ended = rounds.end_early(first, director, "the hall closes at ten")
        assert len(ended) == len(tables(first))
        assert MatchEvent.objects.filter(
            match__table__round=first, reason="the hall closes at ten"
        ).count() == len(ended)
    standings_order = order(night)  # the standings written once the round's deals committed
    assert len(standings_order) == 10
    with django_capture_on_commit_callbacks(execute=True):
        last = rounds.draw_next_round(
            night, game="napoleon", method="final", others="sit_out", order=standings_order, seed=5
        ).round
    assert tables(last) == [tables(last)[0]] and set(tables(last)[0]) == set(standings_order[:4])
    assert set(last.sat_out.values_list("pk", flat=True)) == set(ten) - set(standings_order[:4])
    # The empty matches of the ended round made nobody a winner.
    from scoring.models import SeasonStanding

    assert (
        not SeasonStanding.objects.filter(season=night.season, matches_won__gt=0)
        .exclude(player__in=busy.seated_players())
        .exists()
    )


def test_a_rounds_tables_are_kept_by_a_player_at_them_who_may_score(room, django_user_model):
    """Each table of a round is kept by its first player (seat order) whose account may
    keep the club's tables; a member's account does not, nor another club's scorer; a
    table with nobody who may stays without one (its phone link is the way).  The scorer
    then enters the table's deals: no 403 at their own table."""
    night, players = room
    club = night.season.club
    other = Club.objects.create(name="Other", slug="other")
    roles = {0: (club, "scorer"), 1: (club, "admin"), 2: (club, "member"), 3: (other, "scorer")}
    for i, (where, role) in roles.items():
        user = django_user_model.objects.create_user(f"u{i}")
        Membership.objects.create(user=user, club=where, role=role)
        Player.objects.filter(pk=players[i].pk).update(user=user)
    eight = [p.pk for p in players[:8]]
    made = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=eight, deals=2, seed=1
    ).round
    may = {Player.objects.get(pk=players[i].pk).user_id for i in (0, 1)}
    for table in made.tables.all():
        seated = [s.player for s in table.matches.get().seats.order_by("position")]
        expected = next((p.user_id for p in seated if p.user_id in may), None)
        assert table.scorer_id == expected, (table.name, [p.handle for p in seated])
    assert {t.scorer_id for t in made.tables.all()} - {None} <= may
    kept = made.tables.exclude(scorer=None).first()
    assert kept is not None and access.scores_table(kept.scorer, kept)
