"""API throughput and latency (issue 7 b), run by hand: ``make bench`` or
``.venv/bin/python bench/api_bench.py`` with ``make services`` running.

gunicorn (4 sync workers) serves the project on loopback against PostgreSQL;
20 clients, one per table, each enter Napoleon deals into their own match as
fast as the server answers (token authentication, the engine checking every
record, the standings task queued to Redis).  The same clients then fetch the
trivial ``/healthz`` for comparison.  Targets: p95 < 100 ms, and deal entry at
≥ 30% of the trivial endpoint's throughput.
"""

from __future__ import annotations

import http.client
import json
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fresh_database, machine, percentile, purge, server, setup_django  # noqa: E402

CLIENTS = 20
SECONDS = 20.0
SEATS = ["aki", "ben", "chika", "dai"]


def prepare() -> tuple[dict[str, str], str, list[int], list[bytes]]:
    env = fresh_database("clubscore_bench_api")
    setup_django(env)
    import datetime as dt

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    import actions.matches
    from tournaments.models import Club, ClubNight, Player, Season, Table

    admin = get_user_model().objects.create_superuser(
        "bench", "bench@example.org", "bench-pass-2026"
    )
    token = Token.objects.create(user=admin).key
    club = Club.objects.create(name="Bench Club", slug="bench")
    players = [Player.objects.create(club=club, handle=h, display_name=h) for h in SEATS]
    season = Season.objects.create(club=club, name="Bench", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 22), venue="Loopback")
    matches = [
        actions.matches.create_match(
            Table.objects.create(club_night=night, name=f"T{i}"), "napoleon", players
        ).pk
        for i in range(CLIENTS)
    ]
    return env, token, matches, bodies()


def bodies() -> list[bytes]:
    """The entries' bodies: 200 random Napoleon deals of the four seats."""
    import engine
    from engine.games.simulate import random_full_deal

    rng = random.Random(7)
    return [
        json.dumps(
            {  # random deals: one may repeat the last, and is meant (no question asked)
                "record": engine.summarize(random_full_deal(engine.GAMES["napoleon"], SEATS, rng)),
                "confirm_same": True,
            }
        ).encode()
        for _ in range(200)
    ]


def load(base: str, request) -> tuple[int, list[float], int]:
    """Every client sends ``request(client index, connection)`` for SECONDS; (answers, latencies, failures)."""
    host, port = base.removeprefix("http://").split(":")
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    failures = [0] * CLIENTS
    start = threading.Barrier(CLIENTS + 1)
    stop = [0.0]

    def client(i: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        start.wait()
        while time.perf_counter() < stop[0]:
            t = time.perf_counter()
            status = request(i, conn)
            latencies[i].append(time.perf_counter() - t)
            if status >= 300:
                failures[i] += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    stop[0] = time.perf_counter() + SECONDS
    start.wait()
    for t in threads:
        t.join()
    flat = [x for per in latencies for x in per]
    return len(flat), flat, sum(failures)


def main() -> None:
    env, token, matches, bodies = prepare()
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    rng = random.Random(1)

    def enter(i: int, conn: http.client.HTTPConnection) -> int:
        conn.request(
            "POST", f"/api/matches/{matches[i]}/deals/", body=rng.choice(bodies), headers=headers
        )
        response = conn.getresponse()
        response.read()
        return response.status

    def trivial(i: int, conn: http.client.HTTPConnection) -> int:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        return response.status

    print(
        f"{machine()}; gunicorn 4 sync workers, PostgreSQL and Redis on loopback; {CLIENTS} clients, {SECONDS:.0f} s each"
    )
    with server(env, workers=4) as base:
        results = {}
        for label, request in (
            ("deal entry (POST /api/matches/N/deals/)", enter),
            ("trivial (GET /healthz)", trivial),
        ):
            n, latencies, failed = load(base, request)
            results[label] = n / SECONDS
            print(
                f"  {label}: {n / SECONDS:7.1f} requests/s, p50 {percentile(latencies, 50) * 1000:6.1f} ms, "
                f"p95 {percentile(latencies, 95) * 1000:6.1f} ms, {failed} failed"
            )
    purge(env)  # no worker ran: the queued standings tasks are dropped
    entry, plain = results.values()
    print(f"  deal entry runs at {entry / plain:.0%} of the trivial endpoint's throughput")


if __name__ == "__main__":
    main()
