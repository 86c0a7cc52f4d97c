"""``python manage.py import_players FILE --club SLUG [--dry-run]``: a club's players from
a CSV list of names (``actions.roster``), all or none; names the club has are skipped."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from actions import roster
from tournaments.errors import Rejection
from tournaments.models import Club


class Command(BaseCommand):
    help = "Add a club's players from a CSV list of names (name, name_ja, reading, handle)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, write nothing"
        )

    def handle(
        self, *args: object, file: Path, club: str, dry_run: bool, **options: object
    ) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with the slug {club!r}")
        data = file.read_bytes()
        try:
            result = roster.read(found, data) if dry_run else roster.add_players(found, data)
        except Rejection as rejection:
            raise CommandError(
                f"{file}: nothing added:\n"
                + "\n".join(f"  {e['path']}: {e['message']}" for e in rejection.errors)
            ) from None
        verb = "would add" if dry_run else "added"
        self.stdout.write(
            f"{verb} {len(result.new)} players; {len(result.skipped)} already in {found.name}"
        )
        for player in result.new:
            self.stdout.write(f"  {player.handle}: {player.display_name} {player.name_ja}".rstrip())
