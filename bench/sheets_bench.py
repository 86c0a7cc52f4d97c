"""Previewing a large score sheet (issue 17: 10,000 rows in under 10 s), run by hand:
``make bench`` or ``.venv/bin/python bench/sheets_bench.py`` with ``make services`` running.

A file of BENCH_SHEET_ROWS rows (10,000) of every game, matches played by the
engine's random legal play for a club of eight players over three seasons, as
CSV and as XLSX; the preview (``tournaments.sheets.check``: reading, matching
names, every deal through the entry form and the engine, looking up earlier
imports) is timed three times each, then one import of it.
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import fresh_database, machine, setup_django  # noqa: E402

ROWS = int(os.environ.get("BENCH_SHEET_ROWS", "10000"))
NAMES = [
    "Aki Ito",
    "Ben Mori",
    "Chika Sato",
    "Dai Kato",
    "Emi Abe",
    "Fumi Ueda",
    "Gen Oda",
    "Hana Ono",
]


def rows_of_history() -> dict[str, list[dict[str, str]]]:
    from tournaments.games import LEAGUE_GAMES
    from tournaments.sheets import template

    handles = [n.split()[0].lower() for n in NAMES]
    by_game: dict[str, list[dict[str, str]]] = {g: [] for g in LEAGUE_GAMES}
    total, night = 0, 0
    while total < ROWS:
        date = dt.date(2021, 1, 1) + dt.timedelta(days=7 * night)
        season = str(date.year)
        for game, web in LEAGUE_GAMES.items():
            for t, plan in enumerate(web.federation, 1):
                seated = handles[: plan.players]
                deals = template.played(
                    game, night * 100 + t, seated, plan.rules, plan.target, most=12
                )
                rows = template.match_rows(
                    game,
                    season,
                    date,
                    str(t),
                    NAMES[: plan.players],
                    seated,
                    deals,
                    rules=plan.rules,
                    target=plan.target,
                )
                by_game[game] += rows
                total += len(rows)
        night += 1
    return by_game


def main() -> None:
    env = fresh_database("clubscore_sheets")
    setup_django(env)
    from actions import imports
    from tournaments.models import Club, Player
    from tournaments.sheets import check, template

    club = Club.objects.create(name="Bench", slug="bench")
    for name in NAMES:
        Player.objects.create(club=club, handle=name.split()[0].lower(), display_name=name)
    started = time.perf_counter()
    by_game = rows_of_history()
    print(
        f"{machine()}; played {sum(map(len, by_game.values())):,} deals in {time.perf_counter() - started:.0f} s"
    )
    # One file of every game: the union of their columns, as a club's whole history.
    from tournaments.sheets.columns import template_columns

    columns = []
    for game in by_game:
        columns += [c for c in template_columns(game) if c not in columns]
    table = [[c.heading("en") for c in columns]]
    table += [[row.get(c.key, "") for c in columns] for rows in by_game.values() for row in rows]
    files = {"csv": template.to_csv(table), "xlsx": template.to_xlsx(table)}
    for fmt, data in files.items():
        times = []
        for _ in range(3):
            started = time.perf_counter()
            preview = check.check(club, data)
            times.append(time.perf_counter() - started)
        assert preview.valid, preview.errors[:3]
        counts = preview.counts()
        print(
            f"preview {fmt} ({len(data) / 1e6:.1f} MB, {counts['deals']:,} deals in {counts['matches']} matches): "
            f"median {statistics.median(times):.2f} s (goal < 10 s)"
        )
    started = time.perf_counter()
    done = imports.import_sheet(club, files["csv"])
    print(
        f"import csv (checked again under the club's lock, then written): {time.perf_counter() - started:.2f} s, "
        f"{done.preview.counts()['deals']:,} deals"
    )
    started = time.perf_counter()
    again = check.check(club, files["csv"])
    print(
        f"preview of the same file again (all imported before): {time.perf_counter() - started:.2f} s, "
        f"{again.counts()['deals_imported_before']:,} deals found"
    )


if __name__ == "__main__":
    main()
