"""Engine throughput, run by hand: ``.venv/bin/python bench/engine_bench.py``.

Checks Rettler summary records (the records tables log today) on one core and
compares with ``json.loads`` of the same records: checking should cost a small
multiple of parsing.  Full-play Rettler records (replay) join this benchmark
when replay exists.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402

PLAYERS = ["A", "B", "C", "D", "E", "F"]


def rettler_summary(rng: random.Random) -> dict:
    declarer, *others = rng.sample(PLAYERS, 6)
    adjutants = others[: rng.choice([0, 1, 2])]
    discarded = rng.randint(0, 3)
    cuts = sorted(rng.randint(0, 40 - discarded) for _ in range(5))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, 40 - discarded], strict=True)]
    return {
        "game": "rettler",
        "players": PLAYERS,
        "declaration": {"player": declarer, "count": rng.randint(25, 40), "trump": "spades"},
        "adjutant_cards": ["SA", "HJ"][: max(1, len(adjutants))],
        "adjutants": adjutants,
        "point_cards": dict(zip(PLAYERS, shares, strict=True)),
        "discarded_point_cards": discarded,
    }


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def main(n: int = 20_000) -> None:
    rng = random.Random(7)
    texts = [json.dumps(rettler_summary(rng)) for _ in range(n)]
    records = [json.loads(t) for t in texts]
    assert all(engine.check(r).valid for r in records[:100])
    parse = min(timed(json.loads, texts) for _ in range(3))
    check = min(timed(engine.check, records) for _ in range(3))
    print(f"records: {n} Rettler summary records")
    print(f"engine.check: {n / check:,.0f} records/s ({check / n * 1e6:.1f} µs each)")
    print(f"json.loads:   {n / parse:,.0f} records/s ({parse / n * 1e6:.1f} µs each)")
    print(f"check / json.loads time ratio: {check / parse:.1f}")


if __name__ == "__main__":
    main()
