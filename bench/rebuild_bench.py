"""Full rebuild at federation scale (issue 7 c and e), run by hand: ``make bench``
or ``.venv/bin/python bench/rebuild_bench.py`` with ``make services`` running.

A federation of BENCH_PLAYERS players (10,000) and BENCH_DEALS deals
(1,000,000) in 100 clubs is generated once into the database ``clubscore_fed``
(``generate_federation``; kept for the next run).  Then ``manage.py
rebuild_standings`` recomputes every match's and season's standings and every
rating from the deal records, in a process of its own, like a worker: its
time is compared with one bare ``SELECT player_id, SUM(score) … GROUP BY
player_id`` over the same deal scores (target: ≤ 3×), and its peak resident
memory is read from the kernel (target: < 500 MB).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BIN, PG, ROOT, environment, machine  # noqa: E402

DATABASE = "clubscore_fed"
DEALS = int(os.environ.get("BENCH_DEALS", 1_000_000))
PLAYERS = int(os.environ.get("BENCH_PLAYERS", 10_000))
CLUBS = 100
BARE = "SELECT player_id, SUM(score) FROM tournaments_dealscore GROUP BY player_id"


def deals_in(conn) -> int:
    try:
        return conn.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]
    except Exception:  # noqa: BLE001 - no such table yet
        conn.rollback()
        return -1


def run(args: list[str], env: dict[str, str]) -> tuple[float, int]:
    """(seconds, peak resident kB) of a manage.py command in a process of its own."""
    start = time.perf_counter()
    proc = subprocess.Popen([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL)  # fmt: skip
    _pid, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit(f"manage.py {' '.join(args)} failed ({status})")
    return time.perf_counter() - start, usage.ru_maxrss


def main() -> None:
    import psycopg

    env = environment(DATABASE)
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone():
            conn.execute(f'CREATE DATABASE "{DATABASE}"')
    with psycopg.connect(f"{PG}/{DATABASE}") as conn:
        have = deals_in(conn)
    if have != DEALS:
        print(
            f"generating {DEALS:,} deals for {PLAYERS:,} players (once; about 15 minutes for a million)"
        )
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{DATABASE}"')
        run(["migrate", "-v0"], env)
        seconds, _ = run(["generate_federation", "--clubs", str(CLUBS), "--players", str(PLAYERS),
                          "--deals", str(DEALS), "--seed", "2026", "--skip-rebuild"], env)  # fmt: skip
        print(f"  generated in {seconds:.0f} s")
    with psycopg.connect(f"{PG}/{DATABASE}") as conn:
        conn.execute("ANALYZE")
        rows = conn.execute("SELECT count(*) FROM tournaments_dealscore").fetchone()[0]
        bare = []
        for _ in range(3):
            start = time.perf_counter()
            conn.execute(BARE).fetchall()
            bare.append(time.perf_counter() - start)
    seconds, peak_kb = run(["rebuild_standings"], env)
    print(f"{machine()}; PostgreSQL 15 on loopback")
    print(f"  {DEALS:,} deals, {rows:,} deal scores, {PLAYERS:,} players in {CLUBS} clubs")
    print(f"  bare SUM … GROUP BY player_id: {min(bare):.2f} s (best of 3)")
    print(f"  rebuild_standings (match and season standings, ratings): {seconds:.0f} s, "
          f"{seconds / min(bare):.0f}× the bare query")  # fmt: skip
    print(f"  peak resident memory of the rebuilding process: {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main()
