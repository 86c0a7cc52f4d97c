"""Known schedules ("designs") for a night whose attendance is fixed: n players at tables
of k for r rounds, no pair at one table twice (issue 57).

The library holds constructions (``constructions``: the affine planes AG(2, q), the
Latin-square grid) and schedules a solver found offline (``data``: ``solved.json``, built
by ``scripts/build_designs.py``). Every table is in seat order (``seats``): each player's
count in each seat stays within ⌊t/k⌋…⌈t/k⌉ after every prefix of t rounds. Pure Python,
no database; see docs/draw.md, "Known designs".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from tournaments.designs import constructions, data, seats

Round = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Design:
    """A schedule on the players 0…n−1: each round's tables, each in seat order (seat 1,
    the first dealer, first)."""

    name: str
    rounds: tuple[Round, ...]

    @property
    def players(self) -> int:
        return sum(len(table) for table in self.rounds[0]) if self.rounds else 0

    @property
    def size(self) -> int:
        return len(self.rounds[0][0]) if self.rounds else 0


@cache
def library() -> tuple[Design, ...]:
    """Every design known, constructions first, each with its seats ordered."""
    found = constructions.constructed() + data.solved()
    return tuple(Design(name, seats.seat_order(rounds, size)) for name, size, rounds in found)


def _best(players: int, size: int) -> Design | None:
    best = None
    for design in library():
        if design.players == players and design.size == size:
            if best is None or len(design.rounds) > len(best.rounds):
                best = design
    return best


def schedule(players: int, size: int, rounds: int) -> Design | None:
    """A schedule of ``players`` at tables of exactly ``size`` for ``rounds`` rounds in which
    no pair meets twice (the first rounds of the longest such design known), or None when
    the library has none."""
    best = _best(players, size)
    if best is None or not 1 <= rounds <= len(best.rounds):
        return None
    return Design(best.name, best.rounds[:rounds])


def most_rounds(players: int, size: int) -> int:
    """The most rounds the library can seat ``players`` at tables of ``size`` with no pair
    twice (0: none known)."""
    best = _best(players, size)
    return len(best.rounds) if best else 0


def known() -> list[tuple[int, int, int]]:
    """(players, table size, most rounds) for every size of night the library knows."""
    pairs = {(d.players, d.size) for d in library()}
    return sorted((n, k, most_rounds(n, k)) for n, k in pairs)


def relabel(design: Design, players: Sequence[int], rng: random.Random) -> list[list[list[int]]]:
    """The design's rounds on ``players`` (the ids, one for each of the design's players),
    relabelled at random: the players permuted, the tables of each round shuffled, and the
    rounds shuffled within each chunk of k (the table size) rounds. Each player sits in a
    different seat in every round of a chunk, so any order of a chunk's rounds keeps every
    prefix's seats balanced; seat order within a table is kept, and chunks stay in order."""
    if len(players) != design.players or len(set(players)) != len(players):
        raise ValueError(f"the design seats {design.players} players, not {len(players)}")
    ids = list(players)
    rng.shuffle(ids)
    out: list[list[list[int]]] = []
    k = design.size
    for start in range(0, len(design.rounds), k):
        chunk = list(design.rounds[start : start + k])
        rng.shuffle(chunk)
        for tables in chunk:
            shuffled = [[ids[p] for p in table] for table in tables]
            rng.shuffle(shuffled)
            out.append(shuffled)
    return out
