"""Who takes which seat at a drawn table (issue 57): the seats rotate so that every
player's count in each seat stays within ⌊e⌋…⌈e⌉ over the night, e the count a fair
rotation gives (``tournaments.draw_measures``), seat 1, the first dealer, above all;
in a game with a first dealer, also over the season (seat 1 to whoever dealt first
least, for their share of the season's tables).

Each table is ordered exactly: the order of the least cost over all the ways to seat its
players (a search over subsets of seats, 2^k × k steps, k ≤ 8), each player's cost of a
seat being how far that seat would take them outside the fair range.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, floor

FIRST = 100
"""Seat 1 out of its range weighs more than any other seat's."""
OTHER = 10
SEASON = 1
"""Seat 1 over the season: below every seat of the night."""


@dataclass
class Seats:
    """A player's seats so far: the night's counts and fair shares, and the season's
    first seats (other nights) with their share."""

    count: Counter[int] = field(default_factory=Counter)
    share: Counter[int] = field(default_factory=Counter)
    """Table sizes sat at, tonight."""
    season_first: int = 0
    season_share: Fraction = Fraction(0)


def expected(sizes: Mapping[int, int], seat: int) -> Fraction:
    return sum((Fraction(n, k) for k, n in sizes.items() if k >= seat), Fraction(0))


def seat_cost(seats: Seats, seat: int, size: int, dealer: bool) -> int:
    """What taking ``seat`` at a table of ``size`` costs this player: for every seat, how
    far its count would fall outside the fair range after this round."""
    sizes = seats.share.copy()
    sizes[size] += 1
    cost = 0
    for s in range(1, max(sizes) + 1):
        e = expected(sizes, s)
        have = seats.count[s] + (s == seat)
        off = max(0, have - ceil(e), floor(e) - have)
        cost += off * (FIRST if s == 1 else OTHER)
    if dealer and seat == 1:  # the season's first dealers, evened out
        cost += SEASON * max(
            0, seats.season_first + 1 - ceil(seats.season_share + Fraction(1, size))
        )
    return cost


def order(table: Sequence[int], seats: Mapping[int, Seats], dealer: bool) -> list[int]:
    """``table``'s players in the seat order of least cost (ties: as given)."""
    return _least(table, seats, dealer)[0]


def cost(table: Sequence[int], seats: Mapping[int, Seats], dealer: bool) -> int:
    """The least cost of seating ``table`` (0: every seat within its fair range)."""
    return _least(table, seats, dealer)[1]


def _least(table: Sequence[int], seats: Mapping[int, Seats], dealer: bool) -> tuple[list[int], int]:
    k = len(table)
    costs = [
        [seat_cost(seats.get(p, Seats()), s, k, dealer) for s in range(1, k + 1)] for p in table
    ]
    free = _free_match(costs)  # every player in a seat that costs nothing: no search
    seat_of, least = (free, 0) if free is not None else _search(costs)
    seated = [0] * k
    for p, s in enumerate(seat_of):
        seated[s] = table[p]
    return seated, least


def _search(costs: list[list[int]]) -> tuple[list[int], int]:
    """Each player's seat (an index) at the least total cost, and that cost."""
    k = len(costs)
    full = (1 << k) - 1
    # best[mask]: the least cost of seating the first popcount(mask) players in ``mask``.
    best: list[int | None] = [None] * (full + 1)
    came: list[int] = [0] * (full + 1)
    best[0] = 0
    for mask in range(full):
        done = best[mask]
        if done is None:
            continue
        p = bin(mask).count("1")
        for s in range(k):
            bit = 1 << s
            if mask & bit:
                continue
            total = done + costs[p][s]
            step = best[mask | bit]
            if step is None or total < step:
                best[mask | bit], came[mask | bit] = total, s
    seat_of = [0] * k
    mask = full
    for p in range(k - 1, -1, -1):
        seat_of[p] = came[mask]
        mask &= ~(1 << came[mask])
    return seat_of, best[full] or 0


def _free_match(costs: list[list[int]]) -> list[int] | None:
    """A seat of cost 0 for every player, each seat once (augmenting paths), or None."""
    k = len(costs)
    holder: list[int | None] = [None] * k

    def place(p: int, tried: set[int]) -> bool:
        for s in range(k):  # an empty seat first: a table with no history keeps its order
            if costs[p][s] == 0 and holder[s] is None:
                holder[s] = p
                return True
        for s in range(k):
            if costs[p][s] == 0 and s not in tried:
                tried.add(s)
                other = holder[s]
                if other is None or place(other, tried):
                    holder[s] = p
                    return True
        return False

    if not all(place(p, set()) for p in range(k)):
        return None
    seat_of = [0] * k
    for s, p in enumerate(holder):
        if p is not None:
            seat_of[p] = s
    return seat_of


def record(seats: dict[int, Seats], tables: Sequence[Sequence[int]]) -> None:
    """Count a seated round into ``seats``."""
    for table in tables:
        for s, p in enumerate(table, 1):
            mine = seats.setdefault(p, Seats())
            mine.count[s] += 1
            mine.share[len(table)] += 1
