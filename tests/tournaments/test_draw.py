"""The table draw: everyone seated once, legal sizes, repeat pairings at the optimum."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from tournaments.draw import GameSizes, NoDraw, draw, repeats, table_sizes


def sizes(name: str) -> GameSizes:
    game = engine.GAMES[name]
    return GameSizes(name, game.player_counts, game.best_players)


RETTLER, NAPOLEON, COMP13 = sizes("rettler"), sizes("napoleon"), sizes("comp13")


def test_fourteen_players_for_rettler_and_napoleon_sit_at_the_best_sizes():
    assert table_sizes(14, [RETTLER, NAPOLEON]) == [
        ("rettler", 6),
        ("napoleon", 4),
        ("napoleon", 4),
    ]


def test_a_single_game_takes_everyone_at_sizes_it_allows():
    assert table_sizes(12, [RETTLER]) == [("rettler", 6), ("rettler", 6)]
    assert table_sizes(7, [RETTLER]) == [("rettler", 7)]


def test_players_that_no_table_can_take_get_no_draw_and_a_reason():
    with pytest.raises(
        NoDraw, match="3 players cannot be split into tables of rettler 4, 5, 6, 7, 8"
    ):
        table_sizes(3, [RETTLER])
    with pytest.raises(NoDraw):
        table_sizes(5, [])


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 40),
    names=st.lists(st.sampled_from(sorted(engine.GAMES)), min_size=1, max_size=3, unique=True),
    seed=st.integers(0, 10**6),
)
def test_everyone_is_seated_once_at_a_size_the_game_allows(n, names, seed):
    games = [sizes(name) for name in names]
    players = list(range(100, 100 + n))
    try:
        tables = draw(players, games, {}, random.Random(seed))
    except NoDraw:
        return
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == players
    for table in tables:
        assert len(table.players) in engine.GAMES[table.game].player_counts


def brute_force(players, layout, met):
    """The fewest repeat pairings over every way to fill tables of these sizes."""
    best = None

    def fill(left, sizes, tables):
        nonlocal best
        if not sizes:
            cost = repeats(tables, met)
            best = cost if best is None else min(best, cost)
            return
        first, rest = left[0], left[1:]
        for others in combinations(rest, sizes[0] - 1):
            table = [first, *others]
            fill([p for p in rest if p not in others], sizes[1:], [*tables, table])

    # Tables of one size are interchangeable: fill them in order of their first player.
    fill(list(players), [s for _g, s in layout], [])
    return best


@pytest.mark.parametrize("seed", range(8))
def test_on_small_nights_the_repeat_pairings_are_the_brute_force_optimum(seed):
    rng = random.Random(seed)
    n = rng.choice([7, 8, 9, 10])
    players = list(range(1, n + 1))
    met = {frozenset(p): rng.choice([0, 0, 1, 2, 3]) for p in combinations(players, 2)}
    games = [NAPOLEON] if n in (8, 9) else [RETTLER, NAPOLEON]
    tables = draw(players, games, met, random.Random(seed))
    layout = table_sizes(n, games)
    assert repeats([t.players for t in tables], met) == brute_force(players, layout, met)


def test_over_a_season_pairs_meet_evenly():
    """Twelve players, four tables of three (Napoleon) a night for six nights: every
    pair could meet at most twice if the draw is fair."""
    players = list(range(12))
    met: dict[frozenset[int], int] = {}
    rng = random.Random(5)
    for _night in range(6):
        for table in draw(players, [GameSizes("napoleon", frozenset({3}), 3)], met, rng):
            for pair in combinations(table.players, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert max(met.values()) <= 2
