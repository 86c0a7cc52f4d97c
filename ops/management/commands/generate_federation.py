"""``python manage.py generate_federation --clubs C --players N --deals M --seed S``."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandParser

from ops.federation import generate
from scoring.rebuild import rebuild_all


class Command(BaseCommand):
    help = (
        "Create a federation of clubs with players, seasons, club nights and matches of every "
        "game, whose deals the engine played; then rebuild standings and ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clubs", type=int, default=10)
        parser.add_argument(
            "--players", type=int, default=400, help="players in all (split evenly)"
        )
        parser.add_argument("--deals", type=int, default=10_000, help="deals in all")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--tables", type=int, default=6, help="tables a club night")
        parser.add_argument(
            "--skip-rebuild",
            action="store_true",
            help="leave standings and ratings to a later rebuild_standings",
        )

    def handle(self, *args: object, **options: int) -> None:
        if min(options["clubs"], options["players"], options["deals"]) < 1:
            self.stderr.write("clubs, players and deals must be at least 1")
            raise SystemExit(2)
        start = time.perf_counter()
        report = generate(
            options["clubs"],
            options["players"],
            options["deals"],
            options["seed"],
            progress=lambda line: self.stdout.write(line),
            tables=options["tables"],
        )
        made = time.perf_counter() - start
        games = ", ".join(f"{g} {n}" for g, n in sorted(report.by_game.items()))
        self.stdout.write(
            f"{report.clubs} clubs, {report.players} players, {report.matches} matches, "
            f"{report.deals} deals ({games}) in {made:.1f} s"
        )
        if not options["skip_rebuild"]:
            start = time.perf_counter()
            rebuild_all()
            self.stdout.write(
                f"standings and ratings rebuilt in {time.perf_counter() - start:.1f} s"
            )
