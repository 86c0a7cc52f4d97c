"""Search social-golfer schedules offline and write ``tournaments/designs/solved.json``.

A build step a developer runs by hand (``python scripts/build_designs.py``); the web
process never imports it, it only reads the JSON it writes (``tournaments.designs``).
See docs/draw.md, "Known designs".

Two searches, both seeded (the same seed finds the same schedules):

- ``golfers``: the social golfer problem, g groups of k for w weeks, no two players in
  one group twice, by tabu search over swaps within a week (after Dotú and Van
  Hentenryck, "Scheduling social golfers locally", CPAIOR 2005): each step takes the
  best swap that moves a player of a repeated pair, a swapped player stays put for a few
  steps, and a long run without progress is broken by random swaps.
- ``cyclic``: a schedule with Z_m as automorphisms (m = the rounds), on the points
  Z_m × {0 … c−1} ∪ {∞_0 … ∞_f−1}: round j adds j to every finite point's first
  coordinate and leaves the ∞s in place, so one base round makes the whole schedule. The
  base round must meet every orbit of pairs at most once (and never two ∞s, or two points
  m/2 apart); a backtracking search, table by table, finds one (15 at tables of 3 for 7
  rounds at once, 28 at tables of 4 for 9 in a few seconds, where the swap search
  struggles: every pair meets exactly once). With one ∞ and f = 1 these are the
  1-rotational resolvable designs.

``--only 20x4x5,28x4x9`` searches those targets alone and keeps every other design of the
file as it is; ``--seconds`` bounds each target's search.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "tournaments" / "designs" / "solved.json"

Schedule = list[list[list[int]]]

TARGETS: list[tuple[int, int, int, str]] = [
    # players, table size, rounds, search ("cyclic:m": by Z_m, rounds/m base rounds). The
    # issue's targets first; then, for each size of night up to about 64 players, the most
    # rounds (up to 13) the searches found in a few seconds. The affine planes and the
    # Latin-square grid (tournaments/designs/constructions.py) need no search.
    (20, 4, 5, "cyclic"),
    (24, 4, 7, "cyclic"),
    (28, 4, 9, "cyclic"),
    (15, 3, 7, "cyclic"),
    (12, 3, 4, "cyclic"),
    (18, 3, 8, "cyclic:4"),
    (21, 3, 10, "cyclic:5"),
    (24, 3, 11, "cyclic"),
    (27, 3, 13, "cyclic"),
    *((players, 3, 13, "cyclic") for players in range(30, 64, 3) if players != 36),
    (36, 3, 12, "cyclic"),
    (32, 4, 9, "cyclic"),
    (36, 4, 9, "cyclic"),
    (40, 4, 10, "cyclic"),
    (44, 4, 11, "cyclic"),
    (48, 4, 12, "cyclic"),
    (52, 4, 13, "cyclic"),
    (56, 4, 13, "cyclic"),
    (60, 4, 12, "cyclic"),
    (64, 4, 12, "cyclic"),
    (30, 5, 6, "cyclic"),
    (35, 5, 5, "cyclic"),
    (40, 5, 6, "cyclic"),
    (45, 5, 6, "cyclic"),
    (50, 5, 7, "cyclic"),
    (55, 5, 8, "cyclic"),
    (60, 5, 9, "cyclic"),
    (42, 6, 6, "cyclic"),
    (48, 6, 4, "cyclic"),
    (54, 6, 4, "cyclic"),
    (60, 6, 5, "cyclic"),
]


def name_of(players: int, size: int, rounds: int, search: str) -> str:
    method, _, group = search.partition(":")
    if method == "cyclic":
        search = f"cyclic Z_{group or rounds}"
    if rounds * (size - 1) == players - 1:  # every pair meets exactly once
        if size == 3:
            return f"Kirkman triple system KTS({players}) (solver, {search})"
        return f"resolvable design RBIBD({players},{size},1) (solver, {search})"
    return f"social golfer {players // size}-{size}-{rounds} (solver, {search})"


def golfers(players: int, size: int, rounds: int, seed: int, seconds: float) -> Schedule | None:
    """A schedule of ``players`` at tables of ``size`` for ``rounds`` rounds, no pair
    twice, or None when the tabu search finds none in ``seconds``."""
    rng = random.Random(seed)
    groups = players // size
    # table[w][p]: p's table in week w; member[w][t]: the players at table t.
    member = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        member.append([order[t * size : (t + 1) * size] for t in range(groups)])
    table = [[0] * players for _ in range(rounds)]
    for w in range(rounds):
        for t, group in enumerate(member[w]):
            for p in group:
                table[w][p] = t
    met = [[0] * players for _ in range(players)]
    for w in range(rounds):
        for group in member[w]:
            for a in group:
                for b in group:
                    if a != b:
                        met[a][b] += 1

    def cost() -> int:
        return sum(max(0, met[a][b] - 1) for a in range(players) for b in range(a + 1, players))

    def delta(w: int, a: int, b: int) -> int:
        """The change in excess meetings if a and b swap tables in week w."""
        d = 0
        for x in member[w][table[w][a]]:
            if x != a:
                d += (met[b][x] >= 1) - (met[a][x] >= 2)
        for x in member[w][table[w][b]]:
            if x != b:
                d += (met[a][x] >= 1) - (met[b][x] >= 2)
        return d

    def swap(w: int, a: int, b: int) -> None:
        ta, tb = table[w][a], table[w][b]
        for x in member[w][ta]:
            if x != a:
                met[a][x] -= 1
                met[x][a] -= 1
                met[b][x] += 1
                met[x][b] += 1
        for x in member[w][tb]:
            if x != b:
                met[b][x] -= 1
                met[x][b] -= 1
                met[a][x] += 1
                met[x][a] += 1
        member[w][ta][member[w][ta].index(a)] = b
        member[w][tb][member[w][tb].index(b)] = a
        table[w][a], table[w][b] = tb, ta

    current = cost()
    best = current
    tabu: dict[tuple[int, int], int] = {}
    step = stale = 0
    deadline = time.monotonic() + seconds
    while current > 0:
        step += 1
        if step % 64 == 0 and time.monotonic() > deadline:
            return None
        moves: list[tuple[int, int, int]] = []
        best_delta = None
        for w in range(rounds):
            for group in member[w]:
                clash = [a for a in group if any(met[a][x] >= 2 for x in group if x != a)]
                for a in clash:
                    for b in range(players):
                        if table[w][b] == table[w][a]:
                            continue
                        d = delta(w, a, b)
                        allowed = tabu.get((w, a), 0) < step and tabu.get((w, b), 0) < step
                        if not allowed and current + d >= best:
                            continue
                        if best_delta is None or d < best_delta:
                            best_delta, moves = d, [(w, a, b)]
                        elif d == best_delta:
                            moves.append((w, a, b))
        if not moves or best_delta is None:
            tabu.clear()
            continue
        w, a, b = rng.choice(moves)
        swap(w, a, b)
        current += best_delta
        tenure = rng.randint(4, 10 + players // 2)
        tabu[(w, a)] = tabu[(w, b)] = step + tenure
        if current < best:
            best, stale = current, 0
        else:
            stale += 1
        if stale > 400:
            for _ in range(2 + players // 8):
                w = rng.randrange(rounds)
                a, b = rng.sample(range(players), 2)
                if table[w][a] != table[w][b]:
                    current += delta(w, a, b)
                    swap(w, a, b)
            best, stale = current, 0
            tabu.clear()
    return [[sorted(group) for group in week] for week in member]


def cyclic(
    players: int, size: int, rounds: int, seed: int, seconds: float, m: int = 0
) -> Schedule | None:
    """A schedule developed from rounds/m base rounds by Z_m (m = ``rounds`` unless given)
    on the points Z_m × {0 … c−1} ∪ {∞_0 … ∞_f−1} (players = cm + f), or None when none is
    found in ``seconds``."""
    m = m or rounds
    bases = rounds // m
    if rounds % m or size < 2 or players % size:
        raise ValueError(f"no cyclic search for {players}x{size}x{rounds} by Z_{m}")
    classes, fixed = divmod(players, m)
    rng = random.Random(seed)
    finite = m * classes
    orbits = classes * ((m - 1) // 2) + classes * (classes - 1) // 2 * m + fixed * classes
    if orbits < bases * players // size * size * (size - 1) // 2:
        return None  # too few orbits of pairs for the base rounds' pairs
    # Point p < finite is (p % m, p // m): residue and class; p ≥ finite is ∞_(p − finite),
    # which every shift leaves in place. The base rounds' pairs must meet each orbit of
    # pairs under Z_m at most once, and only orbits of m pairs: two ∞s (an orbit of one
    # pair) and two points m/2 apart (of m/2 pairs) would meet again in a later round.

    def orbit(a: int, b: int) -> tuple[int, int, int] | None:
        if a >= finite and b >= finite:
            return None
        if a >= finite or b >= finite:
            return (-1, max(a, b) - finite, min(a, b) // m)
        (x, i), (y, j) = (a % m, a // m), (b % m, b // m)
        if i == j:
            d = (y - x) % m
            return None if 2 * d == m else (i, i, min(d, m - d))
        if i > j:
            (x, i), (y, j) = (y, j), (x, i)
        return (i, j, (y - x) % m)

    used: set[tuple[int, int, int]] = set()
    free = set(range(players))
    blocks: list[list[int]] = []
    deadline = time.monotonic() + seconds

    def place() -> bool:
        """Backtracking: the lowest free point's table, then the rest."""
        if not free:
            if len(blocks) == bases * players // size:
                return True
            free.update(range(players))  # the next base round
            if place():
                return True
            free.clear()
            return False
        if time.monotonic() > deadline:
            raise TimeoutError
        first = min(free)
        others = sorted(free - {first})
        rng.shuffle(others)

        def extend(block: list[int], start: int, orbits: list[tuple[int, int, int]]) -> bool:
            if len(block) == size:
                used.update(orbits)
                free.difference_update(block)
                blocks.append(block)
                if place():
                    return True
                blocks.pop()
                free.update(block)
                used.difference_update(orbits)
                return False
            for index in range(start, len(others)):
                q = others[index]
                met = [orbit(q, r) for r in block]
                new = [o for o in met if o is not None]
                if len(new) < len(met) or len(set(new)) < len(new):
                    continue
                if any(o in used or o in orbits for o in new):
                    continue
                if extend([*block, q], index + 1, orbits + new):
                    return True
            return False

        return extend([first], 0, [])

    try:
        if not place():
            return None
    except TimeoutError:
        return None

    def shift(p: int, j: int) -> int:
        return p if p >= finite else (p % m + j) % m + (p // m) * m

    tables = players // size
    return [
        [sorted(shift(p, j) for p in block) for block in blocks[b * tables : (b + 1) * tables]]
        for b in range(bases)
        for j in range(m)
    ]


Search = Callable[[int, int, int, int, float], "Schedule | None"]
SEARCHES: dict[str, Search] = {"cyclic": cyclic, "golfers": golfers}


class Entry(TypedDict):
    name: str
    players: int
    size: int
    rounds: Schedule


def dump(designs: Sequence[Entry]) -> str:
    """The file's text: one design a line, in the order of ``(size, players)``."""
    ordered = sorted(designs, key=lambda d: (d["size"], d["players"]))
    lines = [json.dumps(d, separators=(",", ":")) for d in ordered]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", help="targets such as 20x4x5,28x4x9 (default: all)")
    parser.add_argument("--seconds", type=float, default=60.0, help="each target's bound")
    parser.add_argument("--seed", type=int, default=57)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    targets = [(p, k, r, [search]) for p, k, r, search in TARGETS]
    if args.only:
        wanted = []
        for text in args.only.split(","):
            numbers = tuple(int(x) for x in text.split("x") if x.isdigit())
            if len(numbers) != 3 or numbers[0] % numbers[1]:
                parser.error(f"not players x size x rounds: {text}")
            wanted.append(numbers)
        listed = {t[:3]: t for t in targets}
        targets = [listed.get(w, (*w, list(SEARCHES))) for w in wanted]
    kept: dict[tuple[int, int], Entry] = {}
    if args.output.exists():
        for d in json.loads(args.output.read_text(encoding="utf-8")):
            kept[(d["players"], d["size"])] = d
    for players, size, rounds, searches in targets:
        for search in searches:
            began = time.monotonic()
            method, _, group = search.partition(":")
            if group:
                found = cyclic(players, size, rounds, args.seed, args.seconds, int(group))
            else:
                found = SEARCHES[method](players, size, rounds, args.seed, args.seconds)
            took = time.monotonic() - began
            said = "found" if found else "none"
            print(f"{players}x{size}x{rounds} {search}: {said} in {took:.1f} s", file=sys.stderr)
            if found is None:
                continue
            old = kept.get((players, size))
            if old is None or len(old["rounds"]) <= rounds:
                kept[(players, size)] = {
                    "name": name_of(players, size, rounds, search),
                    "players": players,
                    "size": size,
                    "rounds": found,
                }
            break
    args.output.write_text(dump(list(kept.values())), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
