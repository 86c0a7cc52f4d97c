"""Every page as fast at a million deals as at ten thousand (issue 39), run by hand:
``make bench`` or ``.venv/bin/python bench/pages_bench.py`` with ``make services`` running.

Three databases, each generated once (``clubscore_pages_<scene>``) and rebuilt:

- ``10k``: a federation of 10 clubs, 1,000 players, 10,000 deals;
- ``1M``: a federation of 100 clubs, 10,000 players, 1,000,000 deals;
- ``wide``: one club of 1,000 players, one season of 85,000 deals over 52 club nights.

Every season is public.  In each, four readers: anonymous, a member of the first club
(seated as one of its players), its league administrator and the site operator.  Each
answer is asked once through Django's test client in this process (its queries counted),
then ``BENCH_REPEAT`` times over HTTP from gunicorn (one worker, PostgreSQL on loopback,
``Accept-Encoding: gzip``, a Celery worker on ``BENCH_BROKER``): p95 milliseconds and the
bytes sent.  The 10k and 1M scenes are measured ``BENCH_ROUNDS`` times in turn (2), each
answer's p95 the lowest of its rounds (:data:`ROUNDS`).  The table printed is the README's: queries and p95 at 10k and at 1M and their
ratio; then the wide season, whose PDF and XLSX downloads are also timed with nothing kept
(``BENCH_SCENES=wide BENCH_ONLY=PDF``: the standings and the statistics PDF alone).

The README's table of queries is this bench's, measured at 10k: a run that measures every
answer (no ``BENCH_ONLY``) of the 10k scene exits with an error naming each answer whose
queries differ from the README's count, the README's figure beside the measured one; the
1M scene's counts must be the 10k scene's (or, run alone, the README's).  The last lines
say what was checked.  ``tests/web/test_federation_size.py`` pins that the counts do not
grow with the federation, in a world of its own whose counts are today the same (it asserts
them too, so CI sees a stale table); where the two ever differ, the README's are this
bench's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import PG, ROOT, environment, machine, manage, percentile, server  # noqa: E402

SCENES: dict[str, list[str]] = {
    "10k": ["--clubs", "10", "--players", "1000", "--deals", "10000"],
    "1M": ["--clubs", "100", "--players", "10000", "--deals", "1000000"],
    "wide": ["--clubs", "1", "--players", "1000", "--deals", "85000", "--tables", "250"],
}
REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
"""The 10k and 1M scenes are measured this many times, taken in turn (10k, 1M, 10k, 1M),
and each answer's p95 is the lowest of its rounds: on a shared machine a minute of
someone else's load falls on one scene's round, not on both scenes' best, and a ratio
of the two would otherwise report that load as growth."""
ONLY = os.environ.get("BENCH_ONLY", "")
"""Measure only the answers whose name holds this (``BENCH_ONLY=season``)."""
EXPORT_REPEAT = 5


def database(scene: str) -> str:
    return f"clubscore_pages_{scene.lower()}"


def prepare(scene: str) -> str:
    """The scene's database, generated the first time (a million deals: about 15 minutes)."""
    import psycopg

    name = database(scene)
    env = environment(name, CELERY_TASK_ALWAYS_EAGER="1")
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    wanted = int(SCENES[scene][SCENES[scene].index("--deals") + 1])
    with psycopg.connect(f"{PG}/{name}") as conn:
        try:
            have = conn.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]
        except psycopg.Error:
            have = -1
    manage("migrate", "-v0", env=env)
    manage("collectstatic", "--noinput", "-v0", env=env)  # gunicorn serves the hashed names
    if have != wanted:
        print(f"  {scene}: generating {wanted:,} deals (once)", flush=True)
        manage("flush", "--noinput", env=env)
        manage("generate_federation", *SCENES[scene], "--seed", "39", "--skip-rebuild", env=env)
        manage("rebuild_standings", env=env)
    return name


def readers() -> dict[str, Any]:
    """The four readers (made once per database) and what they read."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Club, Membership, Player, Season

    Season.objects.update(public=True)
    users = get_user_model().objects
    club = Club.objects.order_by("pk").first()
    assert club is not None
    operator, _ = users.get_or_create(username="bench-operator", is_superuser=True, is_staff=True)
    admin, _ = users.get_or_create(username="bench-admin")
    member, _ = users.get_or_create(username="bench-member")
    Membership.objects.get_or_create(user=admin, club=club, role=Membership.Role.ADMIN)
    Membership.objects.get_or_create(user=member, club=club, role=Membership.Role.MEMBER)
    player = Player.objects.filter(club=club).order_by("pk").first()
    assert player is not None
    Player.objects.filter(user=member).exclude(pk=player.pk).update(user=None)
    Player.objects.filter(pk=player.pk).update(user=member)
    season = Season.objects.filter(club=club).order_by("pk").first()
    assert season is not None
    return {
        "users": {"anonymous": None, "member": member, "admin": admin, "operator": operator},
        "season": season.pk,
        "player": player.pk,
    }


def answers(scene: str, season: int, player: int) -> list[tuple[str, str, str]]:
    """(answer, reader, URL) of the scene."""
    if scene == "wide":
        return [
            ("season page", "anonymous", f"/seasons/{season}/"),
            ("season page", "member", f"/seasons/{season}/"),
            ("season page by rating", "anonymous", f"/seasons/{season}/?sort=rating"),
            ("standings API", "anonymous", f"/api/standings/?season={season}"),
            ("standings CSV", "anonymous", f"/seasons/{season}/standings.csv"),
            ("standings XLSX", "anonymous", f"/seasons/{season}/standings.xlsx"),
            ("standings PDF", "anonymous", f"/seasons/{season}/standings.pdf"),
            ("statistics PDF", "anonymous", f"/seasons/{season}/statistics.pdf"),
            ("preview image", "anonymous", f"/seasons/{season}/preview.png?lang=ja"),
        ]
    return [
        ("home", "anonymous", "/"),
        ("home", "member", "/"),
        ("home", "admin", "/"),
        ("/api/matches/", "anonymous", "/api/matches/"),
        ("/api/matches/", "operator", "/api/matches/"),
        ("/api/matches/?season=", "member", f"/api/matches/?season={season}"),
        ("/api/players/", "anonymous", "/api/players/"),
        ("/api/players/", "member", "/api/players/"),
        ("player page", "member", f"/players/{player}/"),
        ("player page", "anonymous", f"/players/{player}/"),
        ("season page", "member", f"/seasons/{season}/"),
        ("admin: matches", "operator", "/admin/tournaments/match/"),
        ("admin: deals", "operator", "/admin/tournaments/deal/"),
        ("admin: club nights", "operator", "/admin/tournaments/clubnight/"),
        ("admin: tables", "operator", "/admin/tournaments/table/"),
    ]


README = ROOT / "README.md"


def readme_counts() -> list[int]:
    """The query counts of the README's table ("At any size"), in its rows' order: the
    answers of :func:`answers` (not the wide season's) in their order."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| answer (reader) | queries |") :].split("\n\n")[0]
    counts: list[int] = []
    for row in table.splitlines()[2:]:
        counts += [int(n) for n in row.split("|")[2].split(",")]
    return counts


def readme_differences(rows: list[dict[str, Any]]) -> list[str]:
    """Each answer whose queries, as measured, are not the README's count (none: the
    README is true)."""
    listed = readme_counts()
    if len(listed) != len(rows):
        return [f"the README lists {len(listed)} counts, the bench measures {len(rows)} answers"]
    return [
        f"{r['answer']} ({r['reader']}): the README says {n} queries, measured {r['queries']}"
        for n, r in zip(listed, rows, strict=True)
        if n != r["queries"]
    ]


def growth(small: list[dict[str, Any]], large: list[dict[str, Any]]) -> list[str]:
    """Each answer whose queries at 1M are not its queries at 10k."""
    return [
        f"{a['answer']} ({a['reader']}): {a['queries']} queries at 10k, {b['queries']} at 1M"
        for a, b in zip(small, large, strict=True)
        if a["queries"] != b["queries"]
    ]


def readme_check(results: dict[str, Any]) -> tuple[str, list[str]]:
    """What the README's counts were checked against, and each way they are not true.

    The README's counts are the 10k scene's, which a run measures in minutes.  The 1M
    scene's are checked against the 10k scene's when both ran (a count that differs is
    one that grows with the federation, not a stale README), else against the README's.
    Nothing is checked when ``BENCH_ONLY`` left answers out."""
    if ONLY:
        return f"not checked (BENCH_ONLY={ONLY!r} measures only some answers)", []
    stale, checked = [], []
    if "10k" in results:
        checked.append("the 10k scene's against the README")
        stale += [f"10k: {line}" for line in readme_differences(results["10k"]["rows"])]
    if "1M" in results and "10k" in results:
        checked.append("the 1M scene's against the 10k scene's")
        stale += [f"1M: {line}" for line in growth(results["10k"]["rows"], results["1M"]["rows"])]
    elif "1M" in results:
        checked.append("the 1M scene's against the README")
        stale += [f"1M: {line}" for line in readme_differences(results["1M"]["rows"])]
    if not checked:
        return "not checked (neither the 10k nor the 1M scene ran)", []
    found = f"{len(stale)} differing" if stale else "the same"
    return f"checked {' and '.join(checked)}: {found}", stale


def made(url: str, cookie: str) -> tuple[float, int]:
    """A kept download asked for with nothing kept: seconds until the file came (asking
    again, as the browser's page does, while it says a worker is making it), and how many
    times it was asked."""
    start, asked = time.perf_counter(), 0
    while True:
        asked += 1
        request = urllib.request.Request(url, headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            if response.status == 200:
                return time.perf_counter() - start, asked
            time.sleep(float(response.headers.get("Retry-After", "3")))


def measure(scene: str) -> None:
    """In a process of its own: each answer's queries, bytes sent and p95 over HTTP.  A
    season's PDF and XLSX, made once per version of its data and kept
    (``scoring.season_files``), are first asked for with nothing kept (``first``: until
    the file came, made by the request or, too long for one, by a Celery worker); the
    p95 is then of the kept file's answers."""
    from common import setup_django, worker

    env = environment(database(scene), CELERY_TASK_ALWAYS_EAGER="1")
    served = environment(database(scene))  # a worker makes what a request may not
    setup_django(env)
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from scoring.exports import EXPORTERS
    from scoring.models import SeasonFile
    from tournaments.models import Deal

    # No collectstatic here: plain static URLs, as the tests use.
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    settings.STORAGES = {**settings.STORAGES, "staticfiles": plain}
    who = readers()
    clients: dict[str, Client] = {}
    cookies: dict[str, str] = {}
    for name, user in who["users"].items():
        clients[name] = Client(HTTP_HOST="127.0.0.1")
        if user is not None:
            clients[name].force_login(user)
            cookies[name] = f"sessionid={clients[name].cookies['sessionid'].value}"
    rows = []
    with server(served, workers=1) as base, worker(served):
        for answer, reader, url in answers(scene, who["season"], who["player"]):
            if ONLY not in answer:
                continue
            client = clients[reader]
            first: float | None = None
            fmt = url.rsplit("/", 1)[-1].rpartition(".")[2]  # a download's format, or ""
            kept = "/seasons/" in url and fmt in EXPORTERS and EXPORTERS[fmt].kept
            if kept:
                SeasonFile.objects.filter(season_id=who["season"]).delete()
                first, asked = made(base + url, cookies.get(reader, ""))
                print(f"  {answer}: first {first:.1f} s, asked {asked}×", file=sys.stderr)
            client.get(url)
            queries: list[str] = []

            def count(run, sql, *args, queries=queries):  # type: ignore[no-untyped-def]
                queries.append(sql)
                return run(sql, *args)

            with connection.execute_wrapper(count):
                status = client.get(url).status_code
            assert status == 200, (answer, reader, url, status)
            times, sent = [], 0
            repeat = EXPORT_REPEAT if answer.endswith(("CSV", "XLSX", "PDF")) else REPEAT
            for _ in range(repeat + 1):
                request = urllib.request.Request(
                    base + url,
                    headers={"Accept-Encoding": "gzip", "Cookie": cookies.get(reader, "")},
                )
                start = time.perf_counter()
                with urllib.request.urlopen(request, timeout=60) as response:
                    sent = len(response.read())
                times.append(time.perf_counter() - start)
            rows.append(
                {
                    "answer": answer,
                    "reader": reader,
                    "queries": len(queries),
                    "p95": percentile(times[1:], 95) * 1000,
                    "bytes": sent,
                    "first": first,
                }
            )
    print(json.dumps({"deals": Deal.objects.count(), "rows": rows}))


def best(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """One scene's rounds as one: each answer's lowest p95 (the rest of its row, the
    queries and bytes, is the same in every round)."""
    first = rounds[0]
    rows = [
        {**row, "p95": min(r["rows"][i]["p95"] for r in rounds)}
        for i, row in enumerate(first["rows"])
    ]
    return {**first, "rows": rows}


def run(scene: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--measure", scene], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    scenes = os.environ.get("BENCH_SCENES", "10k,1M,wide").split(",")
    print(
        f"{machine()}; PostgreSQL 15 on loopback; gunicorn, 1 worker; p95 of {REPEAT}, "
        f"the lowest of {ROUNDS} rounds taken in turn"
    )
    for scene in scenes:
        prepare(scene)
    rounds: dict[str, list[dict[str, Any]]] = {scene: [] for scene in scenes}
    for turn in range(ROUNDS):  # the scenes in turn; the wide season once
        for scene in scenes:
            if scene != "wide" or turn == 0:
                rounds[scene].append(run(scene))
    results = {scene: best(found) for scene, found in rounds.items()}
    checked, stale = readme_check(results)
    if "10k" in results and "1M" in results:
        small, large = results["10k"], results["1M"]
        print(
            f"\n| answer | reader | queries {small['deals']:,} → {large['deals']:,} deals "
            "| p95 ms | ratio |"
        )
        print("| --- | --- | --- | --- | --- |")
        for a, b in zip(small["rows"], large["rows"], strict=True):
            ratio = b["p95"] / a["p95"]
            print(
                f"| {a['answer']} | {a['reader']} | {a['queries']} → {b['queries']} "
                f"| {a['p95']:.0f} → {b['p95']:.0f} | {ratio:.2f}× |"
            )
    else:
        for scene in ("10k", "1M"):
            if scene in results:
                print(f"\n{scene}: {results[scene]['deals']:,} deals")
                print("| answer | reader | queries | p95 ms |")
                print("| --- | --- | --- | --- |")
                for r in results[scene]["rows"]:
                    print(f"| {r['answer']} | {r['reader']} | {r['queries']} | {r['p95']:.0f} |")
    if "wide" in results:
        wide = results["wide"]
        print(f"\nOne season of 1,000 players, {wide['deals']:,} deals")
        print("| answer | reader | queries | p95 ms | sent | first, nothing kept |")
        print("| --- | --- | --- | --- | --- | --- |")
        for r in wide["rows"]:
            first = "" if r["first"] is None else f"{r['first']:.1f} s"
            print(
                f"| {r['answer']} | {r['reader']} | {r['queries']} | {r['p95']:.0f} "
                f"| {r['bytes'] / 1000:,.0f} KB | {first} |"
            )
    print(f"\nQuery counts {checked}")
    if stale:
        print("  " + "\n  ".join(stale))
        raise SystemExit(1)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2])
    else:
        main()
