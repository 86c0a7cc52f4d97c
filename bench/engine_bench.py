"""Engine throughput, run by hand: ``make bench`` (or ``.venv/bin/python bench/engine_bench.py``).

Checks full-play Rettler records (6 players: hands, widow, discards and every
trick, replayed with every rule) and summary records on one core, and compares
each with ``json.loads`` of the same records.  Target (issue 3): at least 2,000
full Rettler records per second.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.games.simulate import random_full_deal  # noqa: E402
from engine.registry import GAMES  # noqa: E402

PLAYERS = ["A", "B", "C", "D", "E", "F"]


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def report(label: str, texts: list[str]) -> None:
    records = [json.loads(t) for t in texts]
    assert all(engine.check(r).valid for r in records)  # and a warm-up
    # The best of several runs: this is a shared machine whose speed varies.
    parse = min(timed(json.loads, texts) for _ in range(7))
    check = min(timed(engine.check, records) for _ in range(7))
    n = len(records)
    print(f"{label}: {n} records")
    print(f"  engine.check {n / check:9,.0f} records/s  ({check / n * 1e6:7.1f} µs each)")
    print(f"  json.loads   {n / parse:9,.0f} records/s  ({parse / n * 1e6:7.1f} µs each)")
    print(f"  check takes {check / parse:.1f}× the time of json.loads")


def main(n: int = 2_000) -> None:
    rng = random.Random(7)
    full = [random_full_deal(GAMES["rettler"], PLAYERS, rng) for _ in range(n)]
    summaries = [engine.summarize(r) for r in full]
    compiled = Path(engine.api.__file__).suffix == ".so"
    how = "compiled with mypyc (make engine)" if compiled else "pure Python (no make engine)"
    print(
        f"Python {sys.version.split()[0]}, one core, engine {how}; the first figure, "
        "full-play records/s, is the machine speed every benchmark's first line gives"
    )
    report("Rettler full-play (6 players, replayed)", [json.dumps(r) for r in full])
    report("Rettler summary", [json.dumps(r) for r in summaries])


if __name__ == "__main__":
    main()
