"""How a round of a club night seats its players (issue 25): pure functions, no database.

Decisions, as a tournament director of a card club would expect them:

- **Everyone seated, at tables near the best size.** Each table's size is one the game
  allows (a round uses at most two sizes), and a round seats every player whenever the
  game's sizes can take them, at the tables nearest the game's best size (Napoleon 4,
  Rettler 6), the more even first: 7 at Napoleon play 4 + 3, 13 at Rettler 7 + 6, 10 at
  Comp-13 4 + 3 + 3.  Only when no split seats everyone do the fewest players sit out
  (7 at a game of 4 players only: one table, three sit out).
- **Who sits out.** Those who sat out least this night; among them, in a Swiss round
  the lowest of the night's order, otherwise by lot.  Nobody sits out twice while
  someone present has not.
- **balanced**: the fewest pairs who met earlier this night, then this season (a local
  search of swaps from several random starts, as ``tournaments.draw``).  It may take a
  size one away from the nearest that seats as many if that keeps more pairs of the night
  apart (12 at Napoleon: three tables of 4, then four tables of 3, so that nobody meets
  the same player twice); never further (Rettler at 6 stays at 6, not 4).
- **swiss**: the night's order so far seats the tables, the first players together;
  a swap between neighbouring tables is made only when it means fewer repeat pairs.
- **final**: the top ``size`` players of the order at one final table (the game's best
  size unless given); the others drawn balanced, or sitting out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.draw import NoDraw, Pair, repeats, search

NIGHT_WEIGHT = 1000
"""A pair that met this night weighs more than any number of meetings earlier in the season."""


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]
    """Player ids in seat order, table by table (the final table first)."""
    sat_out: list[int] = field(default_factory=list)


def layouts(players: int, sizes: Sequence[int], best: int) -> list[tuple[int, ...]]:
    """The ways to seat ``players`` at tables of ``sizes`` (at most two sizes a round),
    each a tuple of table sizes, the larger tables first: those seating the most players
    (everyone, whenever the sizes allow), nearest ``best`` first (the mean distance of a
    table's size from it), then the most even, then the larger tables."""
    allowed = sorted({s for s in sizes if s > 0})
    if not allowed or players < allowed[0]:
        raise NoDraw(f"{players} players cannot make a table: this game takes {min(sizes)} or more")
    found: set[tuple[int, int, int, int]] = set()  # (high, how many, low, how many)
    for i, low in enumerate(allowed):
        for high in allowed[i:]:
            for highs in range(1, players // high + 1):
                lows = (players - highs * high) // low if low != high else 0
                found.add((high, highs, low, lows) if lows else (high, highs, high, 0))
    most = max(h * hs + lo * ls for h, hs, lo, ls in found)
    kept = [(h,) * hs + (lo,) * ls for h, hs, lo, ls in found if h * hs + lo * ls == most]
    return sorted(kept, key=lambda t: (distance(t, best), t[0] - t[-1], -t[0], len(t)))


def distance(tables: Sequence[int], best: int) -> float:
    """How far a layout's tables are from the game's best size, on average."""
    return sum(abs(s - best) for s in tables) / len(tables)


def sitting_out(
    players: Sequence[int],
    count: int,
    sat: Mapping[int, int],
    order: Sequence[int] | None,
    rng: random.Random,
) -> list[int]:
    """``count`` players to sit out: the fewest sit-outs so far, then the lowest of ``order``
    (a Swiss round) or by lot."""
    if count <= 0:
        return []
    if order is not None:
        place = {p: i for i, p in enumerate(order)}
        ranked = sorted(players, key=lambda p: (sat.get(p, 0), -place.get(p, len(place))))
    else:
        shuffled = list(players)
        rng.shuffle(shuffled)
        ranked = sorted(shuffled, key=lambda p: sat.get(p, 0))
    return ranked[:count]


def weights(night: Mapping[Pair, int], season: Mapping[Pair, int]) -> dict[Pair, int]:
    out = dict(season)
    for pair, times in night.items():
        out[pair] = out.get(pair, 0) + NIGHT_WEIGHT * times
    return out


def balanced(
    players: Sequence[int],
    sizes: Sequence[int],
    best: int,
    met_night: Mapping[Pair, int],
    met_season: Mapping[Pair, int],
    sat: Mapping[int, int],
    rng: random.Random,
    starts: int = 12,
) -> Seating:
    met = weights(met_night, met_season)
    found: tuple[tuple[int, float, int], Seating] | None = None
    candidates = layouts(len(players), sizes, best)
    low, high = candidates[0][-1] - 1, candidates[0][0] + 1
    for layout in [t for t in candidates if low <= t[-1] and t[0] <= high]:
        out = sitting_out(players, len(players) - sum(layout), sat, None, rng)
        seated = [p for p in players if p not in out]
        tables = search(seated, layout, met, rng, starts)
        cost = repeats(tables, met)
        key = (cost // NIGHT_WEIGHT, distance(layout, best), cost % NIGHT_WEIGHT)
        if found is None or key < found[0]:
            found = (key, Seating(tables, out))
    assert found is not None
    return found[1]


def swiss(
    order: Sequence[int],
    sizes: Sequence[int],
    best: int,
    met_night: Mapping[Pair, int],
    met_season: Mapping[Pair, int],
    sat: Mapping[int, int],
    rng: random.Random,
) -> Seating:
    """``order``: the present players, first of the night's standings first."""
    layout = layouts(len(order), sizes, best)[0]
    out = sitting_out(order, len(order) - sum(layout), sat, order, rng)
    seated = [p for p in order if p not in out]
    tables = []
    for size in layout:  # the larger tables first: the first of the order at table 1
        tables.append(seated[:size])
        seated = seated[size:]
    met = weights(met_night, met_season)
    for a in range(len(tables) - 1):  # neighbours only: the order stays the order
        upper, lower = tables[a], tables[a + 1]
        for i in range(len(upper) - 1, -1, -1):
            for j in range(len(lower)):
                before = repeats([upper, lower], met)
                upper[i], lower[j] = lower[j], upper[i]
                if repeats([upper, lower], met) < before:
                    break
                upper[i], lower[j] = lower[j], upper[i]
    return Seating(tables, out)


def final(
    order: Sequence[int],
    size: int,
    others: str,
    sizes: Sequence[int],
    best: int,
    met_night: Mapping[Pair, int],
    met_season: Mapping[Pair, int],
    sat: Mapping[int, int],
    rng: random.Random,
) -> Seating:
    """The top ``size`` at the final table; the others ``"balanced"`` or ``"sit_out"``."""
    if size not in sizes:
        raise NoDraw(
            f"a final table of {size}: this game takes {', '.join(map(str, sorted(sizes)))}"
        )
    if len(order) < size:
        raise NoDraw(f"a final table of {size} needs {size} players; {len(order)} are here")
    top, rest = list(order[:size]), list(order[size:])
    if others == "sit_out" or not rest:
        return Seating([top], rest)
    try:
        drawn = balanced(rest, sizes, best, met_night, met_season, sat, rng)
    except NoDraw:  # too few left for a table of their own
        return Seating([top], rest)
    return Seating([top, *drawn.tables], drawn.sat_out)


def pairs(tables: Sequence[Sequence[int]]) -> dict[Pair, int]:
    """The pairs that sat together at ``tables``."""
    out: dict[Pair, int] = {}
    for table in tables:
        for pair in combinations(table, 2):
            key = frozenset(pair)
            out[key] = out.get(key, 0) + 1
    return out
