"""The table draw at a large club (issue 14), run by hand: ``make bench``.

60 players come to each of 20 club nights of a season (Rettler and Napoleon); each
night's draw sees every pairing of the nights before.  Prints the slowest and the
mean draw (target: under a second) and how evenly pairs met by the end.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from tournaments.draw import GameSizes, draw  # noqa: E402

PLAYERS, NIGHTS = 60, 20


def main() -> None:
    games = [
        GameSizes(n, engine.GAMES[n].player_counts, engine.GAMES[n].best_players)
        for n in ("rettler", "napoleon")
    ]
    rng = random.Random(2026)
    met: dict[frozenset[int], int] = {}
    seconds = []
    for _night in range(NIGHTS):
        start = time.perf_counter()
        tables = draw(list(range(PLAYERS)), games, met, rng)
        seconds.append(time.perf_counter() - start)
        for table in tables:
            for pair in combinations(table.players, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    counts = [met.get(frozenset(p), 0) for p in combinations(range(PLAYERS), 2)]
    print(
        f"draw, {PLAYERS} players, {NIGHTS} nights: slowest {max(seconds) * 1000:.0f} ms, "
        f"mean {statistics.mean(seconds) * 1000:.0f} ms (target < 1000 ms); "
        f"pairs met 0-{max(counts)} times, mean {statistics.mean(counts):.2f}"
    )


if __name__ == "__main__":
    main()
