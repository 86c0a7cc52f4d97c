"""Full rebuilds at federation scale (issue 16), run by hand: ``make bench`` or
``.venv/bin/python bench/rebuild_bench.py`` with ``make services`` running.

For each size (BENCH_SIZES, default 100,000 and 1,000,000 deals) a federation
of 100 clubs (BENCH_PLAYERS players, 10,000) is generated once into a database
of its own (``clubscore_fed_<deals>``, kept for the next run) and checked once
(``rebuild_standings --recheck``, skipped by a later run that finds it done).  Then,
each against one bare ``SELECT player_id, SUM(score) … GROUP BY player_id`` over the
same deal scores:

- the standings part alone (every season totalled; the matches are checked
  already), in one process, in the full rebuild's batches of clubs;
- the rating update alone (``engine.skill``) and OpenSkill alone on the same events,
  and the ratings replay with its database work (in the same batches; of unchanged
  rows, and again after every rating row was deleted), in deals per second;
- the full rebuild (``manage.py rebuild_standings`` with no fingerprints kept, as after
  an upgrade: standings and ratings, fanned out over Celery), with 1, 2 and 4 worker
  processes (``BENCH_WORKERS``); with nothing changed, the rebuild's own look (``rebuild_everything`` in a
  running process, best of 3) and the command in a process of its own;
- a deal of an old night (each of 20 clubs' second night) deleted: from the call to
  standings and ratings readable (the task run at the commit, in the process);
- the peak resident memory of one process rebuilding every club (target < 500 MB);
- every season re-ranked under each other ranking method (``tournaments.ranking``), against
  the standings part by total points with nothing changed (target: within 2×).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BIN, PG, ROOT, environment, machine, percentile, purge, worker  # noqa: E402

SIZES = [int(n) for n in os.environ.get("BENCH_SIZES", "100000,1000000").split(",")]
PLAYERS = int(os.environ.get("BENCH_PLAYERS", 10_000))
CLUBS = 100
WORKERS = [int(n) for n in os.environ.get("BENCH_WORKERS", "1,2,4").split(",")]
"""The worker counts of the full rebuild's curve (the first is the base of the speed-ups)."""
BARE = "SELECT player_id, SUM(score) FROM tournaments_dealscore GROUP BY player_id"


def deals_in(conn) -> int:
    try:
        return conn.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]
    except Exception:  # noqa: BLE001 - no such table yet
        conn.rollback()
        return -1


def run(args: list[str], env: dict[str, str]) -> float:
    """Seconds of a manage.py command in a process of its own."""
    start = time.perf_counter()
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - start


def unchecked(database: str) -> bool:
    """Whether the federation still needs its first check (a match never checked, or
    no fingerprint kept by a check: the benchmark stopped half-way)."""
    import psycopg

    with psycopg.connect(f"{PG}/{database}") as conn:
        return bool(
            conn.execute(
                "SELECT EXISTS (SELECT 1 FROM tournaments_match"
                "               WHERE checked_version IS DISTINCT FROM version)"
                " OR NOT EXISTS (SELECT 1 FROM scoring_fingerprint)"
            ).fetchone()[0]
        )


def prepare(deals: int) -> tuple[str, dict[str, str]]:
    import psycopg

    database = f"clubscore_fed_{deals}"
    env = environment(database)
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone():
            conn.execute(f'CREATE DATABASE "{database}"')
    with psycopg.connect(f"{PG}/{database}") as conn:
        have = deals_in(conn)
    if have != deals:
        print(
            f"generating {deals:,} deals for {PLAYERS:,} players (once; about 15 minutes a million)"
        )
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{database}"')
        run(["migrate", "-v0"], env)
        flags = f"--clubs {CLUBS} --players {PLAYERS} --deals {deals} --seed 2026 --skip-rebuild"
        seconds = run(["generate_federation", *flags.split()], env)
        print(f"  generated in {seconds:.0f} s")
    run(["migrate", "-v0"], env)
    return database, env


def parts(database: str) -> None:
    """In a process of its own: the standings part, the ratings replay, the rating update
    alone and the library alone, and corrections on old nights."""
    from common import setup_django

    setup_django(environment(database, CELERY_TASK_ALWAYS_EAGER="1"))
    from django.contrib.auth import get_user_model
    from openskill.models import PlackettLuce

    from actions import corrections
    from engine import skill
    from scoring.models import Rating, RatingHistory
    from scoring.ratings import rebuild_clubs_ratings
    from scoring.rebuild import club_batches
    from scoring.season_totals import rebuild_seasons
    from scoring.tasks import rebuild_everything
    from tournaments.models import Club, Deal, Match, Season

    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    rebuild_everything()  # whatever an earlier run left changed (its corrections), made good
    unchanged = []
    for _ in range(3):  # nothing changed since the first check: the rebuild's own look
        start = time.perf_counter()
        assert rebuild_everything() == (0, 0)
        unchanged.append(time.perf_counter() - start)
    start = time.perf_counter()
    batches = club_batches(clubs)  # as the full rebuild's tasks take them
    for batch in batches:  # every season totalled (no fingerprint asked), only differences written
        rebuild_seasons(list(Season.objects.filter(club_id__in=batch).values_list("pk", flat=True)))
    standings = time.perf_counter() - start
    start = time.perf_counter()
    rated = sum(rebuild_clubs_ratings(batch, every=True) for batch in batches)
    ratings = time.perf_counter() - start
    RatingHistory.objects.all().delete()  # as after losing them: every row written again
    Rating.objects.all().delete()
    start = time.perf_counter()
    assert sum(rebuild_clubs_ratings(batch, every=True) for batch in batches) == rated
    ratings_written = time.perf_counter() - start
    peak_before_library = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    events = list(
        Deal.objects.filter(event__isnull=False).values_list("event", flat=True).iterator(5000)
    )
    model = PlackettLuce()
    start = time.perf_counter()
    for event in events:
        model.rate(
            [
                [model.rating(mu=skill.MU, sigma=skill.SIGMA) for _ in team]
                for team in event["teams"]
            ],
            ranks=event["ranks"],
            weights=event["weights"],
        )
    library = time.perf_counter() - start
    start = time.perf_counter()
    for event in events:  # as the replay calls it, each event on players not rated yet
        skill.rate_into({}, event["teams"], event["ranks"], event["weights"], event["stake"])
    update = time.perf_counter() - start
    peak = peak_before_library  # the library's list of every event is the benchmark's own
    users = get_user_model().objects
    admin = users.filter(username="bench-op").first() or users.create_superuser(
        "bench-op", "op@example.org", "bench-pass-2026"
    )
    corrected = []
    for club in clubs[:: max(1, len(clubs) // 20)]:  # 20 clubs: a deal of their 2nd night out
        nights = (
            Match.objects.filter(table__club_night__season__club_id=club)
            .order_by("table__club_night__date")
            .values_list("table__club_night__date", flat=True)
        )
        second = sorted(set(nights))[1]
        match = (
            Match.objects.filter(
                table__club_night__date=second, table__club_night__season__club_id=club
            )
            .exclude(game="comrade")
            .filter(deals__deleted_at__isnull=True)  # earlier runs took deals out too
            .order_by("pk")
            .first()
        )
        if match.status == Match.Status.FINISHED:
            corrections.reopen_match(match, admin, "bench")
        last = match.deals.filter(deleted_at__isnull=True).latest("number")
        start = time.perf_counter()  # the commit runs the standings task (eager): then readable
        corrections.delete_deal(last, admin, "bench")
        corrected.append(time.perf_counter() - start)
    print(
        json.dumps(
            {
                "standings": standings,
                "ratings": ratings,
                "ratings_written": ratings_written,
                "unchanged": min(unchanged),
                "library": library,
                "update": update,
                "rated": rated,
                "events": len(events),
                "peak_mb": peak,
                "corrected": corrected,
            }
        )
    )


def _apart(part: str, database: str) -> dict[str, Any]:
    """What one part (``--parts``, ``--ranking``) measured in a process of its own."""
    done = subprocess.run(
        [sys.executable, __file__, part, database], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    import psycopg

    print(f"{machine()}; PostgreSQL 15 and Redis on loopback")
    for size in SIZES:
        database, env = prepare(size)
        purge(env)
        first = None
        if unchecked(database):  # once after generating: every match checked, fingerprints kept
            with worker(env, concurrency=2):
                first = run(["rebuild_standings", "--recheck"], env)
        with psycopg.connect(f"{PG}/{database}", autocommit=True) as conn:
            # What autovacuum does within minutes of bulk writes: statistics, and the
            # visibility map that lets index-only scans skip the table.
            conn.execute("VACUUM ANALYZE")
            rows = conn.execute("SELECT count(*) FROM tournaments_dealscore").fetchone()[0]
            bare = []
            for _ in range(3):
                start = time.perf_counter()
                conn.execute(BARE).fetchall()
                bare.append(time.perf_counter() - start)
        base = min(bare)
        part, methods = _apart("--parts", database), _apart("--ranking", database)
        fanned = {}
        for workers in WORKERS:
            with psycopg.connect(f"{PG}/{database}", autocommit=True) as conn:
                conn.execute("DELETE FROM scoring_fingerprint")  # as after an upgrade: all again
            with worker(env, concurrency=workers):
                fanned[workers] = run(["rebuild_standings"], env)
        with worker(env, concurrency=2):
            unchanged = run(["rebuild_standings"], env)
        print(f"  {size:,} deals, {rows:,} deal scores, {PLAYERS:,} players in {CLUBS} clubs")
        print(f"    bare SUM … GROUP BY player_id: {base:.2f} s (best of 3)")
        if first is not None:
            print(f"    first check of every match (--recheck, 2 workers): {first:.0f} s")
        standings = part["standings"]
        print(
            f"    standings part alone: {standings:.2f} s, {standings / base:.1f}× the bare query"
        )
        today = methods.pop("today")
        print(
            "    re-ranked under a new method, every season (the standings part by total "
            f"points, nothing changed: {today:.2f} s): "
            + ", ".join(f"{m} {t:.2f} s ({t / today:.1f}×)" for m, t in methods.items())
        )
        library = part["events"] / part["library"]
        update = part["events"] / part["update"]
        print(
            f"    rating update alone (engine.skill): {update:,.0f} events/s; OpenSkill alone"
            f" on the same events: {library:,.0f} events/s (the update at {update / library:.0%}"
            " of it)"
        )
        for key, what in (("ratings", "rows unchanged"), ("ratings_written", "every row written")):
            speed = part["rated"] / part[key]
            print(
                f"    ratings replay (database included, {what}): {speed:,.0f} deals/s, "
                f"{speed / library:.0%} of the library alone"
            )
        corrected = part["corrected"]
        print(
            f"    a deal of an old night deleted, commit to standings and ratings readable "
            f"({len(corrected)} clubs): p50 {percentile(corrected, 50) * 1000:.0f} ms, "
            f"p95 {percentile(corrected, 95) * 1000:.0f} ms"
        )
        peak = part["peak_mb"]
        print(f"    peak resident memory of one process rebuilding every club: {peak:.0f} MB")
        for workers, seconds in fanned.items():
            print(
                f"    full rebuild, {workers} worker process{'es' if workers > 1 else ''}: "
                f"{seconds:.1f} s, {seconds / base:.0f}× the bare query"
            )
        print(
            "    speed-up over one worker: "
            + ", ".join(f"{w} workers {fanned[1] / fanned[w]:.2f}×" for w in WORKERS[1:])
        )
        print(
            f"    rebuild with nothing changed: {part['unchanged']:.2f} s, "
            f"{part['unchanged'] / base:.1f}× the bare query (rebuild_everything in a running "
            f"process); the command, a process's start included: {unchanged:.1f} s"
        )


def ranking_methods(database: str) -> dict[str, float]:
    """In a process of its own: every season totalled by its ranking (issue 40), as the
    standings part does, first by total points with nothing changed (today's standings
    part), then re-ranked under each other method (every season at once: best 6 club
    nights qualified from 4, points per match, points per deal), then back."""
    from common import setup_django

    setup_django(environment(database, CELERY_TASK_ALWAYS_EAGER="1"))
    from scoring.rebuild import club_batches
    from scoring.season_totals import rebuild_seasons
    from tournaments.models import Club, Season

    batches = club_batches(list(Club.objects.order_by("pk").values_list("pk", flat=True)))

    def ranked(**rule: object) -> float:
        Season.objects.update(**rule)
        start = time.perf_counter()
        for batch in batches:
            rebuild_seasons(
                list(Season.objects.filter(club_id__in=batch).values_list("pk", flat=True))
            )
        return time.perf_counter() - start

    total = {"ranking": "total", "best_of": None, "qualify_by": "nights", "qualify_minimum": 0}
    ranked(**total)  # whatever an earlier run left, made good
    seconds = {"today": min(ranked(**total) for _ in range(3))}
    seconds["best_nights"] = ranked(
        **{**total, "ranking": "best_nights", "best_of": 6, "qualify_minimum": 4}
    )
    seconds["per_match"] = ranked(**{**total, "ranking": "per_match"})
    seconds["per_deal"] = ranked(
        **{**total, "ranking": "per_deal", "qualify_by": "deals", "qualify_minimum": 30}
    )
    seconds["back"] = ranked(**total)
    return seconds


if __name__ == "__main__":
    if sys.argv[1:2] == ["--parts"]:
        parts(sys.argv[2])
    elif sys.argv[1:2] == ["--ranking"]:
        print(json.dumps(ranking_methods(sys.argv[2])))
    else:
        main()
