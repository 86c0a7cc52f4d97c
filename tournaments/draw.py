"""A fair table draw for a club night: who sits at which table, playing what.

Pure functions (no database): :func:`table_sizes` and :func:`draw` take the
present players, the night's games and how often each pair of players has met
this season, and propose tables:

- every present player is seated exactly once;
- each table's size is one its game allows (the engine's ``player_counts``);
  among the ways to split the players, the one closest to each game's best size
  (``best_players``, e.g. Rettler at 6) wins, every game of the night at a table
  where the numbers allow, then fewer tables;
- over the season each pair meets as evenly as possible: the players are placed
  to minimise the repeat pairings (the sum, over every pair at a table, of the
  times that pair has met before): the round draw's search
  (``tournaments.table_search``: swaps between tables, shaken out of each local
  best, for 1.5 s at most; Pantheon's shuffled seating with a cost, as Tabbycat and
  bridge movements balance who meets whom);
- the seat order at each table is random.

Decision: a guest (a player added on the night) counts like anyone else; a
night whose players cannot be split into allowed tables gets no proposal
(``NoDraw``, saying how many players each game takes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from tournaments import table_search

SECONDS = 1.5
"""The longest the search takes: then the best found is drawn."""

Pair = frozenset[int]
"""Two player ids."""


class NoDraw(ValueError):
    """The present players cannot be split into tables of the night's games."""


@dataclass(frozen=True)
class GameSizes:
    """What the draw needs of a game: its name, the table sizes it allows, its best size."""

    name: str
    sizes: frozenset[int]
    best: int


@dataclass(frozen=True)
class ProposedTable:
    game: str
    players: list[int]
    """In seat order."""


def table_sizes(players: int, games: Sequence[GameSizes]) -> list[tuple[str, int]]:
    """The (game, size) of each table: sizes its game allows adding up to ``players``,
    nearest the best sizes, every game used when it can be, then the fewest tables."""
    if not games:
        raise NoDraw("pick at least one game for the night")
    options = sorted(
        {(g.name, s) for g in games for s in g.sizes if s > 0}, key=lambda o: (-o[1], o[0])
    )
    best = {g.name: g.best for g in games}
    names = [g.name for g in games]

    @cache
    def plan(
        left: int, used: frozenset[str]
    ) -> tuple[tuple[int, int, int], tuple[tuple[str, int], ...]] | None:
        if left == 0:
            unused = len(set(names) - used)
            return (0, unused, 0), ()
        found: tuple[tuple[int, int, int], tuple[tuple[str, int], ...]] | None = None
        for name, size in options:
            if size > left:
                continue
            rest = plan(left - size, used | {name})
            if rest is None:
                continue
            (dev, unused, tables), chosen = rest
            cost = (dev + abs(size - best[name]), unused, tables + 1)
            if found is None or cost < found[0]:
                found = cost, ((name, size), *chosen)
        return found

    result = plan(players, frozenset())
    plan.cache_clear()
    if result is None:
        takes = "; ".join(f"{g.name} {', '.join(map(str, sorted(g.sizes)))}" for g in games)
        raise NoDraw(f"{players} players cannot be split into tables of {takes} players")
    return sorted(result[1], key=lambda t: (names.index(t[0]), -t[1]))


def repeats(tables: Sequence[Sequence[int]], met: Mapping[Pair, int]) -> int:
    """The repeat pairings of a seating: every pair at a table, times they met before."""
    return sum(met.get(frozenset(p), 0) for table in tables for p in combinations(table, 2))


def draw(
    players: Sequence[int],
    games: Sequence[GameSizes],
    met: Mapping[Pair, int],
    rng: random.Random,
) -> list[ProposedTable]:
    """Propose the night's tables (see the module docstring)."""
    layout = table_sizes(len(players), games)
    best = search(players, [size for _game, size in layout], met, rng)
    return [ProposedTable(game, table) for (game, _size), table in zip(layout, best, strict=True)]


def search(
    players: Sequence[int],
    sizes: Sequence[int],
    met: Mapping[Pair, int],
    rng: random.Random,
    seconds: float = SECONDS,
) -> list[list[int]]:
    """Tables of ``sizes`` with the fewest repeat pairings (``tournaments.table_search``,
    for ``seconds`` at most); the seat order at each random."""
    weights = [[met.get(frozenset((p, q)), 0) for q in players] for p in players]
    found, _cost = table_search.search(sizes, weights, rng, time.monotonic() + seconds)
    tables = [[players[i] for i in t] for t in found]
    for table in tables:
        rng.shuffle(table)
    return tables
