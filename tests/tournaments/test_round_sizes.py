"""A round seats everyone whenever the game's table sizes allow (issue 56, 4): a division
of 7 at a game of 3 to 5 players plays 4 + 3, nobody sits out; players sit out only when
no split into allowed tables exists, and then the fewest, and nobody twice while others
have not."""

from __future__ import annotations

import random
from functools import cache

import pytest

import engine
from tournaments.draw import NoDraw
from tournaments.round_draw import History, balanced, final, layouts, swiss

GAMES = sorted(engine.GAMES)


def most_seated(players: int, sizes: frozenset[int]) -> int:
    """The most of ``players`` that tables of ``sizes`` seat, counted directly: every sum
    of allowed sizes up to ``players``."""

    @cache
    def reachable(n: int) -> bool:
        return n == 0 or any(s <= n and reachable(n - s) for s in sizes)

    return max(n for n in range(players + 1) if reachable(n))


def test_seven_play_four_and_three_at_a_game_of_three_to_five():
    comrade = engine.GAMES["comrade"]
    assert sorted(comrade.player_counts) == [3, 4, 5]
    for game in ("napoleon", "comrade"):
        rules = engine.GAMES[game]
        assert layouts(7, sorted(rules.player_counts), rules.best_players)[0] == (4, 3)
        drawn = balanced(
            list(range(1, 8)),
            sorted(rules.player_counts),
            rules.best_players,
            History(),
            random.Random(1),
        )
        assert sorted(map(len, drawn.tables), reverse=True) == [4, 3] and drawn.sat_out == []
        ranked = swiss(
            list(range(1, 8)),
            sorted(rules.player_counts),
            rules.best_players,
            History(),
            random.Random(1),
        )
        assert ranked.tables == [[1, 2, 3, 4], [5, 6, 7]] and ranked.sat_out == []


@pytest.mark.parametrize("game", GAMES)
def test_every_count_a_game_can_seat_is_seated_whole_at_allowed_sizes(game):
    rules = engine.GAMES[game]
    sizes = frozenset(rules.player_counts)
    for players in range(min(sizes), 41):
        layout = layouts(players, sorted(sizes), rules.best_players)[0]
        assert sum(layout) == most_seated(players, sizes) == players  # everyone seated
        assert set(layout) <= sizes and len(set(layout)) <= 2
        assert list(layout) == sorted(layout, reverse=True)  # the larger tables first


def test_the_old_sizes_stand_where_one_size_already_seated_everyone():
    napoleon = engine.GAMES["napoleon"]
    sizes, best = sorted(napoleon.player_counts), napoleon.best_players
    assert layouts(8, sizes, best)[0] == (4, 4)
    assert layouts(12, sizes, best)[0] == (4, 4, 4)
    assert (3, 3, 3, 3) in layouts(12, sizes, best)  # balanced may still take it
    rettler = engine.GAMES["rettler"]
    assert layouts(12, sorted(rettler.player_counts), rettler.best_players)[0] == (6, 6)
    assert layouts(13, sorted(rettler.player_counts), rettler.best_players)[0] == (7, 6)


@pytest.mark.parametrize(
    ("players", "sizes", "seated"),
    [(7, [4], (4,)), (9, [4, 6], (4, 4)), (11, [4, 6], (6, 4)), (13, [6], (6, 6))],
)
def test_players_sit_out_only_when_no_split_seats_everyone(players, sizes, seated):
    assert most_seated(players, frozenset(sizes)) == sum(seated) < players
    assert layouts(players, sizes, 4)[0] == seated
    drawn = balanced(list(range(players)), sizes, 4, History(), random.Random(2))
    assert len(drawn.sat_out) == players - sum(seated)


def test_too_few_for_any_table_get_no_draw():
    with pytest.raises(NoDraw):
        layouts(2, [3, 4, 5, 6], 4)


def test_sitting_out_goes_round_when_no_split_seats_everyone():
    """13 at a game of 6 a table only: one sits out each round, nobody twice in 13."""
    players = list(range(100, 113))
    sat: dict[int, int] = {}
    for number in range(13):
        drawn = balanced(players, [6], 6, History(sat=sat), random.Random(number))
        assert [len(t) for t in drawn.tables] == [6, 6] and len(drawn.sat_out) == 1
        out = drawn.sat_out[0]
        assert sat.get(out, 0) == 0
        sat[out] = 1
    assert set(sat) == set(players)


def test_a_final_draws_the_others_whole_too():
    napoleon = engine.GAMES["napoleon"]
    order = list(range(1, 12))  # 11: the top 4 at the final table, 7 others at 4 + 3
    drawn = final(
        order, 4, "balanced", sorted(napoleon.player_counts), 4, History(), random.Random(3)
    )
    assert drawn.tables[0] == [1, 2, 3, 4]
    assert sorted(map(len, drawn.tables[1:])) == [3, 4] and drawn.sat_out == []
