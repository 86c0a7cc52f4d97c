"""Players onto tables of given sizes at the least cost of who sits with whom (issue 57):
a local search, pure, bounded in time.

The cost of a seating is the sum, over every two players at one table, of what seating
them together costs (``weight``: the round draw weighs a pair by how often and how lately
it met, ``tournaments.round_draw.pair_weight``).  From a random seating, players are
swapped between tables while a swap lowers the cost; from that local best, a few random
swaps shake the seating (an iterated local search) and it is improved again, keeping the
best seen.  It stops at a cost of zero, after ``patience`` shakes in a row found nothing
better, or at ``deadline`` (``time.monotonic()``): a draw never hangs, and answers with
the best found.

A swap's effect is counted from each player's sum of weights towards each table, kept up
to date (a swap changes two tables' sums for every player), so a pass over all swaps
costs one addition per swap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

Matrix = list[list[int]]
"""``weight[i][j]``: the cost of seating the i-th and j-th player together (symmetric)."""


def cost_of(tables: Sequence[Sequence[int]], weight: Matrix) -> int:
    return sum(weight[a][b] for t in tables for i, a in enumerate(t) for b in t[i + 1 :])


class _Seating:
    """Tables of indices with each player's weight towards each table."""

    def __init__(self, tables: list[list[int]], weight: Matrix) -> None:
        self.tables, self.weight = tables, weight
        n = len(weight)
        self.at = [0] * n
        for t, table in enumerate(tables):
            for p in table:
                self.at[p] = t
        self.towards = [[0] * len(tables) for _ in range(n)]
        for p in range(n):
            row, sums = weight[p], self.towards[p]
            for t, table in enumerate(tables):
                sums[t] = sum(row[q] for q in table if q != p)

    def gain(self, p: int, q: int) -> int:
        """How much swapping ``p`` and ``q`` (at different tables) lowers the cost."""
        a, b = self.at[p], self.at[q]
        tp, tq, w = self.towards[p], self.towards[q], self.weight[p][q]
        return tp[a] + tq[b] - (tq[a] - w) - (tp[b] - w)

    def swap(self, p: int, q: int) -> None:
        a, b = self.at[p], self.at[q]
        ta, tb = self.tables[a], self.tables[b]
        ta[ta.index(p)], tb[tb.index(q)] = q, p
        self.at[p], self.at[q] = b, a
        wp, wq = self.weight[p], self.weight[q]
        for x, sums in enumerate(self.towards):
            d = wq[x] - wp[x]
            if d:
                sums[a] += d
                sums[b] -= d

    def descend(self, deadline: float) -> None:
        """Swap while a swap lowers the cost (the best swap of each player first)."""
        improved = True
        while improved and time.monotonic() < deadline:
            improved = False
            for p in range(len(self.at)):
                if time.monotonic() >= deadline:  # a pass of a big night is long too
                    return
                best, partner = 0, -1
                a = self.at[p]
                for b, table in enumerate(self.tables):
                    if b == a:
                        continue
                    for q in table:
                        g = self.gain(p, q)
                        if g > best:
                            best, partner = g, q
                if partner >= 0:
                    self.swap(p, partner)
                    improved = True


def search(
    sizes: Sequence[int],
    weight: Matrix,
    rng: random.Random,
    deadline: float,
    patience: int = 30,
    floor: int = 0,
) -> tuple[list[list[int]], int]:
    """Tables of ``sizes`` (indices into ``weight``, every index seated when the sizes add
    up to them) at the least cost found, and that cost.  ``floor``: no seating costs less
    (stop on reaching it)."""
    order = list(range(len(weight)))
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    state = _Seating(tables, weight)
    state.descend(deadline)
    best_tables, best = [list(t) for t in state.tables], cost_of(state.tables, weight)
    if len(tables) < 2:
        return best_tables, best
    calm = 0
    while best > floor and calm < patience and time.monotonic() < deadline:
        for _ in range(rng.randint(1, 3)):  # shake: a few random swaps
            a, b = rng.sample(range(len(tables)), 2)
            state.swap(rng.choice(state.tables[a]), rng.choice(state.tables[b]))
        state.descend(deadline)
        found = cost_of(state.tables, weight)
        if found < best:
            best_tables, best, calm = [list(t) for t in state.tables], found, 0
        else:
            calm += 1
            if found > best:  # back to the best, shaken again next time
                state = _Seating([list(t) for t in best_tables], weight)
    return best_tables, best


def polish(
    tables: list[list[int]],
    weight: Matrix,
    extra: Callable[[Sequence[int]], int],
    deadline: float,
) -> list[list[int]]:
    """``tables`` with swaps that cost no more in pairs and lower ``extra`` (a table's
    own cost: the round draw's seats out of their fair range), while one helps."""
    state = _Seating([list(t) for t in tables], weight)
    costs = [extra(t) for t in state.tables]
    improved = True
    while improved and any(costs) and time.monotonic() < deadline:
        improved = False
        for a, table in enumerate(state.tables):
            for p in [p for p in table if costs[a]]:
                for b, other in enumerate(state.tables):
                    if b == a or not _better(state, costs, extra, p, other, a, b):
                        continue
                    improved = True
                    break
    return state.tables


def _better(
    state: _Seating,
    costs: list[int],
    extra: Callable[[Sequence[int]], int],
    p: int,
    other: list[int],
    a: int,
    b: int,
) -> bool:
    """Swap ``p`` (at table ``a``) with a player of table ``b`` when that lowers the two
    tables' own costs without raising the pairs' cost."""
    for q in other:
        if state.gain(p, q) < 0:
            continue
        mine = [q if x == p else x for x in state.tables[a]]
        theirs = [p if x == q else x for x in other]
        after = (extra(mine), extra(theirs))
        if sum(after) < costs[a] + costs[b]:
            state.swap(p, q)
            costs[a], costs[b] = after
            return True
    return False
