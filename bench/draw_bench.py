"""How fair and how fast the round draw is (issues 14 and 57), run by hand: ``make bench``
(or ``python bench/draw_bench.py [--seeds N]``).

For each case, over ``--seeds`` seeded nights (40 unless told) drawn round by round
with ``tournaments.round_draw.play_night``, it prints the most times any pair met, the
excess meetings (median and worst), the players whose seats fell outside the fair range,
beside the known optimum or best known, and the p95 time of one round's draw:

- three-round nights at big tables, drawn round by round (target: no pair three times);
- nights whose attendance, rounds and table size were declared (target: no excess
  meeting at all, in every seed: a known design);
- two-round nights (target: the closed-form least repeats, every seed);
- a night of 40 players whose attendance differs from the plan (target: p95 ≤ 2 s and
  never past the time bound);
- a large club's season drawn by ``tournaments.draw`` (60 players, 20 nights).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import combinations
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import machine  # noqa: E402

import engine  # noqa: E402
from tournaments import draw_measures, round_draw  # noqa: E402
from tournaments.draw import GameSizes, draw  # noqa: E402

ROUND_BY_ROUND = [(8, 4, 3), (12, 4, 3), (15, 5, 3), (18, 6, 3), (20, 5, 3), (24, 6, 3)]
DECLARED = [
    (9, 3, 4),
    (15, 3, 7),
    (16, 4, 5),
    (20, 4, 5),
    (24, 4, 7),
    (28, 4, 9),
    (25, 5, 6),
    (36, 6, 3),
]
TWO_ROUNDS = [(8, 4), (12, 4), (15, 5), (18, 6), (20, 5), (24, 6), (21, 7), (24, 8)]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def timed_night(
    attendance: list[list[int]], size: int, seed: int
) -> tuple[draw_measures.Measures, list[float]]:
    """A night drawn round by round: its measures and each round's draw time."""
    rng = random.Random(seed)
    history = round_draw.History()
    times = []
    for players in attendance:
        start = time.perf_counter()
        drawn = round_draw.balanced(players, [size], size, history, rng, size=size)
        times.append(time.perf_counter() - start)
        history.add(drawn)
    return draw_measures.measure(history.rounds), times


def night(
    players: int, size: int, rounds: int, seeds: int, declared: bool
) -> tuple[list[draw_measures.Measures], list[float]]:
    found, times = [], []
    for seed in range(seeds):
        rng = random.Random(seed)
        if declared:
            start = time.perf_counter()
            drawn = list(
                round_draw.play_night(
                    [list(range(players))] * rounds, [size], size, rng, size=size, declared=True
                )
            )
            times.append((time.perf_counter() - start) / rounds)
            found.append(draw_measures.measure([d.tables for d in drawn]))
        else:
            measured, each = timed_night([list(range(players))] * rounds, size, seed)
            found.append(measured)
            times += each
    return found, times


def line(name: str, found: list[draw_measures.Measures], times: list[float], best: str) -> str:
    excess = [m.excess for m in found]
    return (
        f"{name:<10} most met {max(m.most_met for m in found)} "
        f"(3+ in {sum(m.most_met >= 3 for m in found)}/{len(found)}), "
        f"excess median {statistics.median(excess):g} worst {max(excess)} "
        f"(0 in {excess.count(0)}/{len(found)}), "
        f"seats off {max(m.seat_off for m in found)} "
        f"(first seat {max(m.first_seat_off for m in found)}); {best}; "
        f"p95 draw {p95(times) * 1000:.0f} ms"
    )


def two_round_minimum(players: int, size: int) -> int:
    """The least pairs who meet again in round 2: each new table takes its players from
    the old tables as evenly as it can."""
    tables = players // size
    q, r = divmod(size, tables)
    return tables * (r * comb(q + 1, 2) + (tables - r) * comb(q, 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    seeds = parser.parse_args().seeds
    print(machine())
    print(f"Round by round, {seeds} seeds (target: nobody meets three times):")
    for n, k, r in ROUND_BY_ROUND:
        found, times = night(n, k, r, seeds, declared=False)
        floor = draw_measures.excess_floor(n, [k] * (n // k), r)
        print(" ", line(f"{n}×{k}×{r}", found, times, f"no fewer than {floor} (counting)"))
    print(f"Attendance declared, {seeds} seeds (target: no excess meeting in every seed):")
    for n, k, r in DECLARED:
        found, times = night(n, k, r, seeds, declared=True)
        known = draw_measures.best_known(n, [k] * (n // k), r)
        print(" ", line(f"{n}×{k}×{r}", found, times, f"best known {known}"))
    print(f"Two rounds, {seeds} seeds (target: the closed-form least repeats):")
    for n, k in TWO_ROUNDS:
        found, times = night(n, k, 2, seeds, declared=False)
        least = two_round_minimum(n, k)
        hit = sum(m.excess == least for m in found)
        name = f"{n}×{k}×2"
        print(
            f"  {name:<10} least {least}: reached in {hit}/{seeds}; p95 {p95(times) * 1000:.0f} ms"
        )
    forty(seeds)
    season()


def forty(seeds: int) -> None:
    """40 players at Napoleon drawn by search (3 to 5 a table, nothing declared), 4 rounds;
    and 16 declared at tables of 4 for 5 rounds with one player leaving and one arriving
    after round 2 (the design is left): every round's draw timed."""
    napoleon = engine.GAMES["napoleon"]
    sizes, best = sorted(napoleon.player_counts), napoleon.best_players
    cases = {
        "40 players by search, 4 rounds": ([list(range(40))] * 4, None),
        "16 declared at 4, a player changed after round 2": (
            [list(range(16))] * 2 + [[*range(1, 16), 16]] * 3,
            4,
        ),
    }
    for name, (attendance, size) in cases.items():
        times = []
        for seed in range(seeds):
            night = round_draw.play_night(
                attendance, sizes, best, random.Random(seed), size=size, declared=bool(size)
            )
            while True:
                start = time.perf_counter()
                if next(night, None) is None:
                    break
                times.append(time.perf_counter() - start)
        print(
            f"{name}: p95 {p95(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms "
            f"(target p95 ≤ 2000 ms, bound {round_draw.SECONDS * 1000:.0f} ms)"
        )


def season(players: int = 60, nights: int = 20) -> None:
    games = [
        GameSizes(n, engine.GAMES[n].player_counts, engine.GAMES[n].best_players)
        for n in ("rettler", "napoleon")
    ]
    rng = random.Random(2026)
    met: dict[frozenset[int], int] = {}
    seconds = []
    for _night in range(nights):
        start = time.perf_counter()
        tables = draw(list(range(players)), games, met, rng)
        seconds.append(time.perf_counter() - start)
        for table in tables:
            for pair in combinations(table.players, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    counts = [met.get(frozenset(p), 0) for p in combinations(range(players), 2)]
    print(
        f"A season's night draws, {players} players, {nights} nights: slowest "
        f"{max(seconds) * 1000:.0f} ms, mean {statistics.mean(seconds) * 1000:.0f} ms "
        f"(target < 1000 ms); pairs met 0-{max(counts)} times, mean {statistics.mean(counts):.2f}"
    )


if __name__ == "__main__":
    main()
