"""The room display under load (issue 25), run by hand: ``.venv/bin/python
bench/live_bench.py`` with ``make services`` running.

gunicorn (4 sync workers) and one Celery worker (the standings, and the display's
refreshes) on loopback against PostgreSQL and Redis (the broker, and the cache shared by
every process: ``CACHE_URL``).  A night in rounds of 80 players at 20 Napoleon tables; 200
displays poll ``GET /api/club-nights/N/live/`` every 3 seconds each (about 67 requests a
second, each sending the ETag it holds: 304 while nothing changed), and beside them 200
players' phones poll their own night, ``GET /nights/N/me/?player=M&part=mine`` (each of
the 80 players on two or three phones), every 4 seconds with their ETag (as the page's
script does: about 50 requests a second), while 20 scorers each enter a deal every 10 seconds
(2 deals a second; a real room enters one deal per table every few minutes), or every
second with ``live_bench.py 1`` (20 deals a second).  The clients ask on time, whatever
the answers' delay (a server that falls behind is seen falling behind).
Targets: the display's and the players' answers p95 < 20 ms; deal entry p95 < 100 ms.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    BROKER,
    fresh_database,
    load,
    machine,
    percentile,
    purge,
    server,
    setup_django,
    worker,
)

POLLERS = 200
PHONES = int(os.environ.get("BENCH_PHONES", "200"))
"""Players' phones polling their own night."""
POLL_EVERY = 3.0
"""Seconds between one display's questions (``static/clubscore/live.js``)."""
PHONE_EVERY = 4.0
"""Seconds between one phone's questions (``static/clubscore/mine.js``)."""
SCORERS = 20
ENTER_EVERY = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
"""Seconds between one scorer's deals (``live_bench.py 1`` for a deal a second)."""
SECONDS = 30.0


def prepare() -> tuple[dict[str, str], str, int, list[int], dict[int, list[bytes]], list[int]]:
    env = fresh_database("clubscore_bench_live")
    env["CACHE_URL"] = BROKER.rsplit("/", 1)[0] + "/2"  # as deployed: one cache for all
    setup_django(env)
    import datetime as dt

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    import engine
    from actions import rounds
    from engine.games.simulate import random_full_deal
    from tournaments.models import Club, ClubNight, Match, Player, Season

    admin = get_user_model().objects.create_superuser("bench", "b@example.org", "bench-pass-2026")
    token = Token.objects.create(user=admin).key
    club = Club.objects.create(name="Bench Open", slug="bench-open")
    players = [
        Player.objects.create(club=club, handle=f"p{i:02d}", display_name=f"Player {i:02d}").pk
        for i in range(80)
    ]
    season = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Loopback")
    made = rounds.draw_next_round(
        night, game="napoleon", method="balanced", players=players, deals=100, seed=1
    ).round
    matches = list(Match.objects.filter(table__round=made).order_by("pk"))
    rng = random.Random(7)
    bodies = {}
    for match in matches:
        seats = [p.handle for p in match.seated_players()]
        bodies[match.pk] = [
            json.dumps(
                {  # random deals: one may repeat the last, and is meant
                    "record": engine.summarize(
                        random_full_deal(engine.GAMES["napoleon"], seats, rng)
                    ),
                    "confirm_same": True,
                }
            ).encode()
            for _ in range(60)
        ]
    return env, token, night.pk, [m.pk for m in matches], bodies, players


def main() -> None:
    env, token, night, matches, bodies, players = prepare()
    print(
        f"{machine()}; gunicorn 4 sync workers, 1 Celery worker, PostgreSQL and Redis on loopback; "
        f"{POLLERS} displays every {POLL_EVERY:.0f} s and {PHONES} players' phones every "
        f"{PHONE_EVERY:.0f} s, "
        f"{SCORERS} scorers every {ENTER_EVERY:.0f} s, {SECONDS:.0f} s"
    )
    display: list[tuple[float, int]] = []
    phones: list[tuple[float, int]] = []
    entry: list[float] = []
    failures = [0]
    lock = threading.Lock()
    with worker(env), server(env, workers=4) as base:
        host, port = base.removeprefix("http://").split(":")
        warm = http.client.HTTPConnection(host, int(port), timeout=30)
        for _ in range(40):  # every worker has imported, compiled and connected once
            warm.request("GET", f"/api/club-nights/{night}/live/")
            warm.getresponse().read()
        warm.close()
        stop = time.perf_counter() + SECONDS

        def poller(i: int, path: str, answers: list[tuple[float, int]], every: float) -> None:
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            tag = ""
            next_at = time.perf_counter() + random.Random(i).uniform(0, every)
            while next_at < stop:
                time.sleep(max(0.0, next_at - time.perf_counter()))
                t = time.perf_counter()
                conn.request("GET", path, headers={"If-None-Match": tag} if tag else {})
                response = conn.getresponse()
                response.read()
                took = time.perf_counter() - t
                tag = response.getheader("ETag") or tag
                with lock:
                    answers.append((took, response.status))
                    if response.status not in (200, 304):
                        failures[0] += 1
                next_at += every
            conn.close()

        def scorer(i: int) -> None:
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
            match = matches[i]
            next_at = time.perf_counter() + random.Random(100 + i).uniform(0, ENTER_EVERY)
            n = 0
            while next_at < stop:
                time.sleep(max(0.0, next_at - time.perf_counter()))
                t = time.perf_counter()
                conn.request(
                    "POST",
                    f"/api/matches/{match}/deals/",
                    body=bodies[match][n % 60],
                    headers=headers,
                )
                response = conn.getresponse()
                response.read()
                with lock:
                    entry.append(time.perf_counter() - t)
                    if response.status != 201:
                        failures[0] += 1
                n += 1
                next_at += ENTER_EVERY
            conn.close()

        live = f"/api/club-nights/{night}/live/"
        threads = [
            threading.Thread(target=poller, args=(i, live, display, POLL_EVERY))
            for i in range(POLLERS)
        ]
        threads += [
            threading.Thread(
                target=poller,
                args=(
                    POLLERS + i,
                    f"/nights/{night}/me/?player={players[i % 80]}&part=mine",
                    phones,
                    PHONE_EVERY,
                ),
            )
            for i in range(PHONES)
        ]
        threads += [threading.Thread(target=scorer, args=(i,)) for i in range(SCORERS)]
        began, cpu = time.perf_counter(), time.process_time()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # The clients share the two cores with the server: how much of one they took.
        clients = (time.process_time() - cpu) / (time.perf_counter() - began)
        stored = len(entry) - failures[0]
        caught_up = time.perf_counter()
        while time.perf_counter() - caught_up < 60:  # the last deal, on the display
            with urllib.request.urlopen(f"{base}/api/club-nights/{night}/live/") as answer:
                shown = sum(t["entered"] for t in json.load(answer)["tables"])
            if shown >= stored:
                break
            time.sleep(0.05)
        lag = time.perf_counter() - caught_up
    purge(env)
    for what, answers in (("room display", display), ("players' own nights", phones)):
        if not answers:
            continue
        times = [t for t, _s in answers]
        fresh = sum(1 for _t, s in answers if s == 200)
        print(
            f"  {what}: {len(answers)} answers ({fresh} × 200, {len(answers) - fresh} × 304), "
            f"p50 {percentile(times, 50) * 1000:.1f} ms, p95 {percentile(times, 95) * 1000:.1f} ms"
        )
    print(
        f"  deal entry: {len(entry)} deals, p50 {percentile(entry, 50) * 1000:.1f} ms, "
        f"p95 {percentile(entry, 95) * 1000:.1f} ms; {failures[0]} failed"
    )
    print(f"  the last deal on the display {lag:.1f} s after the load stopped (shown {shown})")
    print(f"  the clients took {clients:.0%} of a core; {load()} at the end")


if __name__ == "__main__":
    main()
