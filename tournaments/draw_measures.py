"""How fair a night's draw is, as players feel it (issue 57): pure functions of the
seating alone, no database.

The draw reports these for each round (the night so far), the rounds page, the room
display, the API and the night's seating export show them, and ``manage.py check_draw``
recomputes them from an export with code of its own (``ops/draw_check.py``):

- **most met**: the most rounds any two players have sat at one table;
- **excess meetings**: over every pair, the rounds they sat together beyond the first,
  Σ max(0, m − 1) (zero: nobody met anyone twice);
- **consecutive repeats**: a pair at one table in a round and again in the next (a pair
  together in rounds 1, 2 and 3 counts twice);
- **seat balance**: the players whose count in some seat falls outside ⌊e⌋…⌈e⌉, where e
  is the count a fair rotation gives: the sum, over the rounds they sat at a table of k
  seats (k at least that seat's number), of 1/k (⌊r/k⌋…⌈r/k⌉ when every table has k
  seats); **first seat** the same for seat 1 alone, the first dealer.

Decision: a round's figures are the night's up to and including that round (what the
players have lived through when it is seated); a pair's meetings are counted by round,
never by deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import ceil, floor

from tournaments import designs

Tables = Sequence[Sequence[int]]
"""One round: each table's player ids in seat order (seat 1 first)."""


@dataclass(frozen=True)
class Measures:
    most_met: int
    excess: int
    consecutive: int
    seat_off: int
    """Players with a seat outside its bounds."""
    first_seat_off: int
    """Players whose count in seat 1 is outside its bounds."""

    def as_json(self) -> dict[str, int]:
        return {
            "most_met": self.most_met,
            "excess": self.excess,
            "consecutive": self.consecutive,
            "seat_off": self.seat_off,
            "first_seat_off": self.first_seat_off,
        }


def round_pairs(tables: Tables) -> set[frozenset[int]]:
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


def meetings(rounds: Iterable[Tables]) -> Counter[frozenset[int]]:
    """How many rounds each pair sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        met.update(round_pairs(tables))
    return met


def seat_bounds(sizes: Counter[int], seat: int) -> tuple[int, int]:
    """The fair range of a player's count in ``seat`` after tables of ``sizes``."""
    expected = sum((Fraction(n, k) for k, n in sizes.items() if k >= seat), Fraction(0))
    return floor(expected), ceil(expected)


def off_balance(seats: Counter[int], sizes: Counter[int], only_first: bool = False) -> bool:
    widest = 1 if only_first else max(sizes, default=0)
    for seat in range(1, widest + 1):
        low, high = seat_bounds(sizes, seat)
        if not low <= seats[seat] <= high:
            return True
    return False


def measure(rounds: Sequence[Tables], starts: Collection[int] = ()) -> Measures:
    """The measures of ``rounds`` (a night's, in order; a season's, with ``starts``)."""
    return by_round(rounds, starts)[-1] if rounds else Measures(0, 0, 0, 0, 0)


def by_round(rounds: Sequence[Tables], starts: Collection[int] = ()) -> list[Measures]:
    """Each round's measures: the night up to and including it (one pass, each figure
    kept up to date as the rounds are counted in).  ``starts``: the indices of rounds
    that begin a night (a season's rounds): a pair at the last table of one night and
    the first of the next did not sit together two rounds in a row."""
    met: Counter[frozenset[int]] = Counter()
    counts: dict[int, tuple[Counter[int], Counter[int]]] = {}
    off: dict[int, tuple[bool, bool]] = {}
    before: set[frozenset[int]] = set()
    most = excess = consecutive = seat_off = first_off = 0
    out = []
    for i, tables in enumerate(rounds):
        if i in starts:
            before = set()
        now = round_pairs(tables)
        for pair in now:
            met[pair] += 1
            most = max(most, met[pair])
            excess += met[pair] > 1
        consecutive += len(before & now)
        before = now
        for table in tables:
            for seat, player in enumerate(table, 1):
                seats, sizes = counts.setdefault(player, (Counter(), Counter()))
                seats[seat] += 1
                sizes[len(table)] += 1
                was_off, was_first = off.get(player, (False, False))
                is_off, is_first = off_balance(seats, sizes), off_balance(seats, sizes, True)
                seat_off += is_off - was_off
                first_off += is_first - was_first
                off[player] = (is_off, is_first)
        out.append(Measures(most, excess, consecutive, seat_off, first_off))
    return out


def excess_floor(players: int, tables: Sequence[int], rounds: int) -> int:
    """No schedule of ``rounds`` rounds at these table sizes has fewer excess meetings:
    every round seats Σ C(k, 2) pairs, and only C(n, 2) of them can be new."""
    seated = rounds * sum(k * (k - 1) // 2 for k in tables)
    return max(0, seated - players * (players - 1) // 2)


def best_known(players: int, tables: Sequence[int], rounds: int) -> int | None:
    """The fewest excess meetings known to be reachable for a night of ``rounds`` rounds of
    ``players`` at ``tables`` (each round's sizes): 0 where the library of designs holds a
    schedule in which nobody meets twice; the counting floor for one round, and past the
    end of a design in which every pair meets once (each further round's pairs all meet
    again, no more); ``None``: not known."""
    floor_ = excess_floor(players, tables, rounds)
    if len(set(tables)) == 1 and sum(tables) == players:
        size = tables[0]
        if designs.schedule(players, size, rounds) is not None:
            return 0
        if designs.most_rounds(players, size) * (size - 1) == players - 1:
            return floor_  # a design in which every pair meets once, then any rounds
    return floor_ if rounds <= 1 else None
