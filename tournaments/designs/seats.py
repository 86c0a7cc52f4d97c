"""Seat order for a schedule: every player's count in each seat stays within
⌊t/k⌋…⌈t/k⌉ after every prefix of t rounds.

The rounds are taken in consecutive chunks of k (the table size). In a chunk, the
bipartite graph of the chunk's tables against the players is k-regular on the table side
(a table seats k players) and of degree at most k on the player side (a player sits once
a round), so by König's theorem its edges can be coloured with k colours, no two edges at
one vertex alike. The colour of an edge (table, player) is the player's seat at that
table: each table gets every seat once, and each player sits in a different seat in every
round of the chunk. After c whole chunks and s more rounds every player has sat c times
in each seat, plus at most once more: within ⌊t/k⌋…⌈t/k⌉ for t = ck + s.

The colouring is the textbook one (an alternating path, or Kempe chain, swapped when the
two ends of an edge lack a common free colour), and deterministic: the same schedule
always gets the same seats.
"""

from __future__ import annotations

from collections.abc import Sequence

Round = tuple[tuple[int, ...], ...]


def seat_order(rounds: Sequence[Sequence[Sequence[int]]], size: int) -> tuple[Round, ...]:
    """``rounds`` (each a partition of the players into tables of ``size``) with each
    table's players in seat order, seat 1 first."""
    seated: list[Round] = []
    for start in range(0, len(rounds), size):
        seated.extend(_chunk(rounds[start : start + size], size))
    return tuple(seated)


def _chunk(rounds: Sequence[Sequence[Sequence[int]]], size: int) -> list[Round]:
    # Vertices: ("t", round, table) and ("p", player); colour[v][c] = the vertex across
    # the edge of colour c at v.
    colour: dict[tuple[str, int, int], dict[int, tuple[str, int, int]]] = {}
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            if len(table) != size:
                raise ValueError(f"a table of {len(table)} in a schedule at tables of {size}")
            for player in table:
                _colour_edge(colour, ("t", r, t), ("p", player, 0), size)
    out: list[Round] = []
    for r, tables in enumerate(rounds):
        seated = []
        for t in range(len(tables)):
            at = colour[("t", r, t)]
            seated.append(tuple(at[c][1] for c in range(size)))
        out.append(tuple(seated))
    return out


def _colour_edge(
    colour: dict[tuple[str, int, int], dict[int, tuple[str, int, int]]],
    u: tuple[str, int, int],
    v: tuple[str, int, int],
    size: int,
) -> None:
    at_u = colour.setdefault(u, {})
    at_v = colour.setdefault(v, {})
    a = next(c for c in range(size) if c not in at_u)
    if a in at_v:
        b = next(c for c in range(size) if c not in at_v)
        # The path from v along colours a, b, a, … (v has no edge of colour b, so it is an
        # end) never reaches u: the vertices on u's side are entered along an edge of
        # colour a, which u lacks. Swapping a and b along it frees a at v and keeps a free at u.
        path = [v]
        c, w = a, v
        while c in colour[w]:
            w = colour[w][c]
            path.append(w)
            c = b if c == a else a
        edges = [(path[i], path[i + 1]) for i in range(len(path) - 1)]
        coloured = [(x, y, colour[x][a] == y) for x, y in edges]
        for x, y, was_a in coloured:
            del colour[x][a if was_a else b]
            del colour[y][a if was_a else b]
        for x, y, was_a in coloured:
            colour[x][b if was_a else a] = y
            colour[y][b if was_a else a] = x
    at_u[a] = v
    at_v[a] = u
