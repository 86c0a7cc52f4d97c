"""Pages that do not grow with history (issue 16 e), run by hand: ``make bench`` or
``.venv/bin/python bench/pages_bench.py`` with ``make services`` running.

One club of 40 players plays a season of 20 club nights with 10,000, 100,000 and
1,000,000 deals (BENCH_PAGE_SIZES; more tables a night for more deals), each
generated once into a database of its own (``clubscore_pages_<deals>``) and
rebuilt.  Then the season page, the season's standings API and a player's page
are each asked 20 times in one process (Django's test client, PostgreSQL on
loopback): the number of queries and the median time of each.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import PG, environment, machine, manage  # noqa: E402

SIZES = [int(n) for n in os.environ.get("BENCH_PAGE_SIZES", "10000,100000,1000000").split(",")]
NIGHTS = 20
DEALS_PER_MATCH = 6  # about, over the games the generator plays


def prepare(deals: int) -> str:
    import psycopg

    database = f"clubscore_pages_{deals}"
    env = environment(database, CELERY_TASK_ALWAYS_EAGER="1")
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone():
            conn.execute(f'CREATE DATABASE "{database}"')
    with psycopg.connect(f"{PG}/{database}") as conn:
        try:
            have = conn.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]
        except psycopg.Error:
            have = -1
    manage("migrate", "-v0", env=env)
    if have != deals:
        print(f"  generating {deals:,} deals (once)", flush=True)
        tables = max(6, deals // (NIGHTS * DEALS_PER_MATCH))
        manage("flush", "--noinput", env=env)
        manage("generate_federation", "--clubs", "1", "--players", "40", "--deals", str(deals),
               "--tables", str(tables), "--seed", "16", "--skip-rebuild", env=env)  # fmt: skip
        manage("rebuild_standings", "--recheck", env=env)
    return database


def measure(database: str) -> None:
    """In a process of its own: queries and median milliseconds of each page."""
    from common import setup_django

    setup_django(environment(database, CELERY_TASK_ALWAYS_EAGER="1"))
    from django.conf import settings

    # No collectstatic here: plain static URLs, as the tests use.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # fmt: skip
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from scoring.models import SeasonStanding
    from tournaments.models import ClubNight, Deal, Season

    season = Season.objects.get()
    leader = SeasonStanding.objects.filter(season=season).order_by("rank").first()
    assert leader is not None
    admin, _ = get_user_model().objects.get_or_create(username="bench", is_superuser=True, is_staff=True)  # fmt: skip
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(admin)
    pages = {
        "season page": f"/seasons/{season.pk}/",
        "standings API": f"/api/standings/?season={season.pk}",
        "player page": f"/players/{leader.player_id}/",
    }
    out = {"deals": Deal.objects.count(), "nights": ClubNight.objects.count()}
    for name, url in pages.items():
        client.get(url)
        queries: list[str] = []

        def count(run, sql, *args, queries=queries):
            queries.append(sql)
            return run(sql, *args)

        with connection.execute_wrapper(count):
            assert client.get(url).status_code == 200
        times = []
        for _ in range(20):
            start = time.perf_counter()
            client.get(url)
            times.append(time.perf_counter() - start)
        out[name] = (len(queries), statistics.median(times) * 1000)
    print(json.dumps(out))


def main() -> None:
    print(f"{machine()}; PostgreSQL 15 on loopback; one season of {NIGHTS} club nights, 40 players")
    rows = []
    for size in SIZES:
        database = prepare(size)
        done = subprocess.run([sys.executable, __file__, "--measure", database], capture_output=True,
                              text=True, check=True)  # fmt: skip
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print("  " + ", ".join(f"{r['deals']:,} deals in {r['nights']} club nights" for r in rows))
    for name in ("season page", "standings API", "player page"):
        cells = ", ".join(
            f"{r['deals']:,} deals: {r[name][0]} queries {r[name][1]:.0f} ms" for r in rows
        )
        print(f"  {name}: {cells}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2])
    else:
        main()
