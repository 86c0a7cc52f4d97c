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
- **balanced** (issue 57): the objective in the order players feel it: first the most
  times any pair meets tonight (a pair's third meeting weighs more than any number of
  second meetings), then the excess meetings, then pairs together in the round just
  before, then meetings on the season's other nights (``pair_weight``); searched by
  ``tournaments.table_search`` for ``SECONDS`` at most.  It may take a size one away
  from the nearest that seats as many if that keeps more pairs of the night apart (12 at
  Napoleon: three tables of 4, then four tables of 3, so that nobody meets the same
  player twice); never further (Rettler at 6 stays at 6, not 4); and never when the
  secretary fixed the table size (``size``: whoever does not fit sits out, in turn).
  A night whose rounds, players and table size were declared follows a known design
  (``tournaments.draw_plan``).
- **seats**: at every table the seats rotate fairly (``tournaments.seat_order``).
- **swiss**: the night's order so far seats the tables, the first players together;
  a swap between neighbouring tables is made only when it lowers the same cost, and
  never moves a table's first player (the leader stays at table 1).
- **final**: the top ``size`` players of the order at one final table (the game's best
  size unless given); the others drawn balanced, or sitting out.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments import draw_measures, draw_plan, seat_order, table_search
from tournaments.draw import NoDraw, Pair

SECONDS = 1.5
"""The longest a round's search takes: then the best found is drawn (a draw never hangs)."""
BASE = 1000
"""Each level of meetings tonight outweighs this many pairs of the level below (a round
seats at most a few hundred pairs)."""
LEVEL = BASE**3
"""A pair meeting a second time tonight."""
CONSECUTIVE = BASE**2
"""A pair that sat together in the round just before: below any repeat, above the season."""
LAYOUTS = 4
"""The layouts tried, nearest the best size first (300 players have 60 within one)."""
MARGIN = 0.05
"""Seconds kept from the search's time for what follows it."""
SEAT_CLASH = 4000
"""Two players left with the same one or two fair seats: below a pair in the round before
(over a round's few hundred pairs), above most of a season's meetings."""
SEAT_TRIES = 10
"""Other seatings of the same cost tried for seats that rotate fairly."""
SEASON_CAP = 30
"""A season's meetings count up to this many (30² × pairs stays below ``CONSECUTIVE``)."""


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]
    """Player ids in seat order, table by table (the final table first)."""
    sat_out: list[int] = field(default_factory=list)

    @property
    def seated(self) -> list[int]:
        """Every player at a table, table by table in seat order."""
        return [p for t in self.tables for p in t]


@dataclass
class History:
    """What the draw knows before a round: the night's rounds so far (tables in seat
    order), the pairs' meetings on the season's other nights, each player's sit-outs and
    seats."""

    rounds: list[list[list[int]]] = field(default_factory=list)
    season: Mapping[Pair, int] = field(default_factory=dict)
    sat: dict[int, int] = field(default_factory=dict)
    seats: dict[int, seat_order.Seats] = field(default_factory=dict)

    def add(self, seating: Seating) -> None:
        """Count a seated round in."""
        self.rounds.append([list(t) for t in seating.tables])
        for p in seating.sat_out:
            self.sat[p] = self.sat.get(p, 0) + 1
        seat_order.record(self.seats, seating.tables)


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


def pair_weight(history: History, size: int | None = None) -> Callable[[int, int], int]:
    """What seating two players together costs, in the order players feel it: a pair
    that met tonight weighs ``LEVEL`` per meeting, each level more than any number of
    pairs of the level below (a pair's third meeting before two pairs' second); then a
    pair that sat together in the round just before; then two players left with the same
    one or two seats that keep their seats fair (at tables of ``size``); then meetings on
    the season's other nights (the square of their meetings, so again the most met first)."""
    met = draw_measures.meetings(history.rounds)
    last = draw_measures.round_pairs(history.rounds[-1]) if history.rounds else set()
    season = history.season
    free = {p: free_seats(mine, size) for p, mine in history.seats.items()} if size else {}

    def weight(a: int, b: int) -> int:
        pair = frozenset((a, b))
        times = met.get(pair, 0)
        left = free.get(a)
        return (
            (LEVEL * BASE ** (times - 1) if times else 0)
            + (CONSECUTIVE if pair in last else 0)
            + (SEAT_CLASH // len(left) if left and len(left) <= 2 and left == free.get(b) else 0)
            + min(season.get(pair, 0), SEASON_CAP) ** 2
        )

    return weight


def free_seats(seats: seat_order.Seats, size: int) -> frozenset[int]:
    """The seats a player can take at a table of ``size`` and stay in their fair range:
    two players whose only free seat is the same one cannot both keep it."""
    return frozenset(
        s for s in range(1, size + 1) if not seat_order.seat_cost(seats, s, size, False)
    )


def matrix(players: Sequence[int], weight: Callable[[int, int], int]) -> list[list[int]]:
    n = len(players)
    out = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            out[i][j] = out[j][i] = weight(players[i], players[j])
    return out


def seated_in_order(tables: list[list[int]], history: History, dealer: bool) -> list[list[int]]:
    """Each table's players in the seat order that keeps seats balanced
    (``tournaments.seat_order``)."""
    return [seat_order.order(t, history.seats, dealer) for t in tables]


@dataclass
class _Drawn:
    """One layout's best seating: indices into ``seated``, and what it cost."""

    seated: list[int]
    out: list[int]
    weights: table_search.Matrix
    tables: list[list[int]]
    key: tuple[int, float, int]


def balanced(
    players: Sequence[int],
    sizes: Sequence[int],
    best: int,
    history: History,
    rng: random.Random,
    *,
    size: int | None = None,
    deadline: float | None = None,
    dealer: bool = False,
) -> Seating:
    """The layout (sizes within one of the nearest, or ``size`` alone) and seating of the
    least cost (``pair_weight``): a repeat tonight before a table's distance from the best
    size, that before the rest; searched until ``deadline`` at the latest."""
    deadline = deadline if deadline is not None else time.monotonic() + SECONDS
    if size is not None:
        if size not in sizes:
            raise NoDraw(f"tables of {size}: this game takes {', '.join(map(str, sorted(sizes)))}")
        candidates = layouts(len(players), [size], size)[:1]
    else:
        candidates = layouts(len(players), sizes, best)
        low, high = candidates[0][-1] - 1, candidates[0][0] + 1
        candidates = [t for t in candidates if low <= t[-1] and t[0] <= high][:LAYOUTS]
    found: _Drawn | None = None
    made: dict[tuple[tuple[int, ...], int | None], table_search.Matrix] = {}
    for i, layout in enumerate(candidates):
        share = time.monotonic() + (deadline - time.monotonic()) / (len(candidates) - i)
        out = sitting_out(players, len(players) - sum(layout), history.sat, None, rng)
        seated = [p for p in players if p not in out]
        uniform = layout[0] if len(set(layout)) == 1 else None
        kind = (tuple(seated), uniform)
        if kind not in made:  # the same players at the same kind of tables: the same costs
            made[kind] = matrix(seated, pair_weight(history, uniform))
        weights = made[kind]
        tables, cost = table_search.search(layout, weights, rng, share)
        key = (cost // LEVEL, distance(layout, best), cost % LEVEL)
        if found is None or key < found.key:
            found = _Drawn(seated, out, weights, tables, key)
    assert found is not None
    tables = _fair_seats(found, history, rng, dealer, deadline - MARGIN)
    return Seating(seated_in_order(tables, history, dealer), found.out)


def _fair_seats(
    found: _Drawn, history: History, rng: random.Random, dealer: bool, deadline: float
) -> list[list[int]]:
    """``found``'s tables (player ids), or another seating of the same cost in which more
    seats can rotate fairly (``tournaments.seat_order``): polished by swaps, then other
    searches, ``SEAT_TRIES`` at most."""

    def seats_off(table: Sequence[int]) -> int:
        return seat_order.cost([found.seated[i] for i in table], history.seats, dealer)

    layout = [len(t) for t in found.tables]
    cost = table_search.cost_of(found.tables, found.weights)
    tables, off, tries = found.tables, 1, 0
    while off and tries < SEAT_TRIES and time.monotonic() < deadline:
        polished = table_search.polish(tables, found.weights, seats_off, deadline)
        off = sum(map(seats_off, polished))
        if off:
            tries += 1
            again, again_cost = table_search.search(layout, found.weights, rng, deadline)
            if again_cost == cost:
                other = table_search.polish(again, found.weights, seats_off, deadline)
                if sum(map(seats_off, other)) < off:
                    polished = other
        tables = polished
    return [[found.seated[i] for i in t] for t in tables]


def swiss(
    order: Sequence[int],
    sizes: Sequence[int],
    best: int,
    history: History,
    rng: random.Random,
    *,
    size: int | None = None,
    dealer: bool = False,
) -> Seating:
    """``order``: the present players, first of the night's standings first."""
    layout = layouts(len(order), [size] if size else sizes, size or best)[0]
    out = sitting_out(order, len(order) - sum(layout), history.sat, order, rng)
    seated = [p for p in order if p not in out]
    tables = []
    for width in layout:  # the larger tables first: the first of the order at table 1
        tables.append(seated[:width])
        seated = seated[width:]
    weight = pair_weight(history)

    def cost(both: list[list[int]]) -> int:
        return sum(weight(a, b) for t in both for a, b in combinations(t, 2))

    for a in range(len(tables) - 1):  # neighbours only: the order stays the order
        upper, lower = tables[a], tables[a + 1]
        for i in range(len(upper) - 1, 0, -1):  # each table's first stays: the leader at 1
            for j in range(len(lower)):
                before = cost([upper, lower])
                upper[i], lower[j] = lower[j], upper[i]
                if cost([upper, lower]) < before:
                    break
                upper[i], lower[j] = lower[j], upper[i]
    return Seating(seated_in_order(tables, history, dealer), out)


def final(
    order: Sequence[int],
    size: int,
    others: str,
    sizes: Sequence[int],
    best: int,
    history: History,
    rng: random.Random,
    *,
    others_size: int | None = None,
    deadline: float | None = None,
    dealer: bool = False,
) -> Seating:
    """The top ``size`` at the final table; the others ``"balanced"`` (at ``others_size``
    when given) or ``"sit_out"``."""
    if size not in sizes:
        raise NoDraw(
            f"a final table of {size}: this game takes {', '.join(map(str, sorted(sizes)))}"
        )
    if len(order) < size:
        raise NoDraw(f"a final table of {size} needs {size} players; {len(order)} are here")
    top, rest = list(order[:size]), list(order[size:])
    top = seat_order.order(top, history.seats, dealer)
    if others == "sit_out" or not rest:
        return Seating([top], rest)
    try:
        drawn = balanced(
            rest, sizes, best, history, rng, size=others_size, deadline=deadline, dealer=dealer
        )
    except NoDraw:  # too few left for a table of their own
        return Seating([top], rest)
    return Seating([top, *drawn.tables], drawn.sat_out)


def play_night(
    attendance: Sequence[Sequence[int]],
    sizes: Sequence[int],
    best: int,
    rng: random.Random,
    *,
    size: int | None = None,
    declared: bool = False,
    seconds: float = SECONDS,
    dealer: bool = False,
) -> Iterator[Seating]:
    """A whole night of balanced rounds drawn one by one without the database (the bench,
    the checker's tests), each round drawn when asked for (the bench times each):
    ``attendance`` lists who plays each round.  ``declared``: the night's rounds and
    players were declared up front (at ``size`` a table), so a known design is followed
    while the attendance stays as declared (``tournaments.draw_plan``)."""
    history = History()
    plan = (
        draw_plan.start(attendance[0], size, len(attendance), rng)
        if declared and size and attendance
        else None
    )
    for players in attendance:
        planned = draw_plan.follow(plan, players, history.rounds) if plan else None
        if planned is not None:
            drawn = Seating(planned, [])
        else:
            deadline = time.monotonic() + seconds
            drawn = balanced(
                players, sizes, best, history, rng, size=size, deadline=deadline, dealer=dealer
            )
        history.add(drawn)
        yield drawn
