"""Freshness (issue 7 d), run by hand: ``make bench`` or ``.venv/bin/python
bench/freshness_bench.py`` with ``make services`` running.

gunicorn and one Celery worker against PostgreSQL and Redis on loopback.  A
scorer enters a deal; the clock starts when the API answers 201 (the deal is
committed), and stops when both the match's standings and the season's
leaderboard with the players' ratings, read through the API, include it.
Target: p95 < 1 s.
"""

from __future__ import annotations

import http.client
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api_bench import prepare  # noqa: E402
from common import machine, percentile, server, worker  # noqa: E402

SAMPLES = 60


def main() -> None:
    env, token, matches, bodies = prepare()
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    match = matches[0]
    print(f"{machine()}; gunicorn 2 workers, 1 Celery worker, PostgreSQL and Redis on loopback")
    with server(env, workers=2) as base, worker(env):
        host, port = base.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)

        def get(path: str) -> dict:
            conn.request("GET", path, headers=headers)
            return json.loads(conn.getresponse().read())

        season = get(f"/api/matches/{match}/")["season"]
        delays = []
        for n in range(1, SAMPLES + 1):
            before = {
                r["handle"]: r["rating"] for r in get(f"/api/standings/?season={season}")["results"]
            }
            conn.request(
                "POST",
                f"/api/matches/{match}/deals/",
                body=bodies[n % len(bodies)],
                headers=headers,
            )
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 201, answer.status
            committed = time.perf_counter()
            while True:
                standings = get(f"/api/standings/?match={match}")["results"]
                board = get(f"/api/standings/?season={season}")["results"]
                fresh = (
                    standings
                    and all(row["deals"] == n for row in standings)
                    and len(board) == 4
                    and all(
                        row["deals"] == n and row["rating"] != before.get(row["handle"])
                        for row in board
                    )
                )
                if fresh:
                    break
                if time.perf_counter() - committed > 30:
                    raise SystemExit(f"deal {n} not visible after 30 s: is the worker running?")
                time.sleep(0.005)
            delays.append(time.perf_counter() - committed)
    print(
        f"  commit → standings and ratings readable: p50 {percentile(delays, 50) * 1000:.0f} ms, "
        f"p95 {percentile(delays, 95) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms over {SAMPLES} deals"
    )


if __name__ == "__main__":
    main()
