"""A night whose rounds, attendance and table size were declared plays by a known design
(issue 57): nobody meets twice and seats rotate; it leaves the design as soon as the
night does (a player gone, a table changed by hand) and draws by search, never hanging;
the secretary's table size is kept."""

from __future__ import annotations

import time

import pytest

from actions import rounds
from tests.conftest import play
from tournaments import draw_measures, draw_plan, round_draw, seatings
from tournaments.errors import Rejection
from tournaments.models import ClubNight

pytestmark = pytest.mark.django_db


def declared(night: ClubNight, players: list, rounds_planned: int, size: int) -> list[int]:
    night.rounds_planned, night.table_size = rounds_planned, size
    night.save()
    night.present.set(players)
    return [p.pk for p in players]


def next_round(night: ClubNight, seed: int, **draw):
    made = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=1, seed=seed, **draw
    ).round
    play(made, seed=seed)
    return made


def night_rounds(night: ClubNight) -> list[list[list[int]]]:
    return [s.tables for s in seatings.of_night(night)]


def test_nine_players_four_rounds_at_three_meet_nobody_twice(room):
    night, players = room
    declared(night, players[:9], 4, 3)
    for seed in range(1, 5):
        next_round(night, seed)
    measured = draw_measures.measure(night_rounds(night))
    assert (measured.most_met, measured.excess, measured.seat_off) == (1, 0, 0)
    night.refresh_from_db()
    (plan,) = draw_plan.stored(night.draw_plan)
    assert plan.design and plan.players == {p.pk for p in players[:9]}


def test_a_player_gone_leaves_the_design_and_the_search_draws_in_time(room):
    night, players = room
    ids = declared(night, players[:9], 4, 3)
    next_round(night, 1)
    next_round(night, 2)
    start = time.monotonic()
    third = next_round(night, 3, players=ids[:8] + [players[9].pk])  # one left, one came
    assert time.monotonic() - start < round_draw.SECONDS + 5  # the deals take the rest
    seated = sorted(p for t in night_rounds(night)[2] for p in t)
    assert third.number == 3 and seated == sorted(ids[:8] + [players[9].pk])
    planned = draw_plan.stored(ClubNight.objects.get(pk=night.pk).draw_plan)[0]
    assert {frozenset(t) for t in night_rounds(night)[2]} != {
        frozenset(t) for t in planned.rounds[2]
    }


def test_a_round_changed_by_hand_leaves_the_design(room):
    night, players = room
    declared(night, players[:9], 4, 3)
    proposal = rounds.propose(night, game="napoleon", method="balanced", deals=1, seed=1)
    assert proposal.plans  # round 1 begins the design
    tables = [list(t) for t in proposal.seating.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]  # two players swap tables
    made = rounds.seat(
        night,
        rounds.Proposal(
            1, "napoleon", "balanced", 1, round_draw.Seating(tables, []), proposal.plans
        ),
    )
    play(made)
    night.refresh_from_db()
    plan = draw_plan.stored(night.draw_plan)[0]
    assert draw_plan.follow(plan, sorted(plan.players), night_rounds(night)) is None
    second = rounds.propose(night, game="napoleon", method="balanced", deals=1, seed=2)
    assert not second.plans and sorted(map(len, second.seating.tables)) == [3, 3, 3]


def test_no_design_begins_for_players_other_than_the_attendance(room):
    night, players = room
    ids = declared(night, players[:9], 4, 3)
    other = rounds.propose(
        night, game="napoleon", method="balanced", players=ids[:8] + [players[9].pk], seed=1
    )
    assert not other.plans


def test_the_night_table_size_is_kept_and_a_size_the_game_lacks_is_refused(room):
    night, players = room
    night.table_size = 4
    night.save()
    fourteen = [p.pk for p in players]
    drawn = rounds.propose(night, game="napoleon", method="balanced", players=fourteen, seed=1)
    assert [len(t) for t in drawn.seating.tables] == [4, 4, 4] and len(drawn.seating.sat_out) == 2
    swiss = rounds.propose(night, game="napoleon", method="swiss", players=fourteen, seed=1)
    assert [len(t) for t in swiss.seating.tables] == [4, 4, 4]
    free = rounds.propose(
        night, game="napoleon", method="balanced", players=fourteen, size=3, seed=1
    )
    assert [len(t) for t in free.seating.tables] == [3, 3, 3, 3] and len(free.seating.sat_out) == 2
    with pytest.raises(Rejection) as refused:
        rounds.propose(night, game="napoleon", method="balanced", players=fourteen, size=7)
    assert refused.value.errors[0]["path"] == "size"
    assert not night.rounds.exists()
