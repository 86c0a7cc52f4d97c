"""``python manage.py import_sheets FILE... --club SLUG [--dry-run] [--new-players]
[--player NAME=HANDLE]...``: a club's past score sheets (``tournaments.sheets``), each
file all or nothing, with the page's checks; a file given again adds nothing."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from actions import imports
from tournaments.errors import Rejection
from tournaments.models import Club
from tournaments.sheets import check


class Command(BaseCommand):
    help = "Import past score sheets (CSV or XLSX, one row per deal) into a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, write nothing"
        )
        parser.add_argument(
            "--new-players",
            action="store_true",
            help="make a new player of every name the club does not know",
        )
        parser.add_argument(
            "--player",
            action="append",
            default=[],
            metavar="NAME=HANDLE",
            help="the sheet's NAME is the club's player HANDLE (or 'new')",
        )

    def handle(
        self,
        *args: object,
        files: list[Path],
        club: str,
        dry_run: bool,
        new_players: bool,
        player: list[str],
        **options: object,
    ) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with the slug {club!r}")
        answers = {}
        for given in player:
            name, eq, handle = given.partition("=")
            if not eq:
                raise CommandError(f"--player {given!r}: write NAME=HANDLE")
            answers[name.strip()] = handle.strip()
        refused = 0
        for path in files:
            refused += not self.one(
                found, path, dict(answers), dry_run=dry_run, new_players=new_players
            )
        if refused:
            raise CommandError(
                f"{refused} of {len(files)} files refused; nothing of them was written"
            )

    def one(
        self, club: Club, path: Path, answers: dict[str, str], *, dry_run: bool, new_players: bool
    ) -> bool:
        data = path.read_bytes()
        try:
            if new_players:
                answers = {
                    **{n: check.NEW for n in check.check(club, data, answers).unknown},
                    **answers,
                }
            if dry_run:
                preview = check.check(club, data, answers)
                if not preview.valid:
                    raise imports.SheetRejected(preview)
            else:
                preview = imports.import_sheet(club, data, answers).preview
        except Rejection as rejection:
            self.stderr.write(f"{path}: refused, nothing written:")
            for e in rejection.errors:
                where = (
                    f"row {e['row']}" + (f", {e['column']}" if e.get("column") else "")
                    if "row" in e
                    else e["path"]
                )
                self.stderr.write(f"  {where}: {e['message']}")
            return False
        counts = preview.counts()
        verb = "would add" if dry_run else "added"
        self.stdout.write(
            f"{path}: {verb} {counts['deals']} deals in {counts['matches']} matches on "
            f"{counts['nights']} club nights ({counts['seasons']} new seasons, "
            f"{counts['players']} new players); {counts['deals_imported_before']} deals imported before"
        )
        return True
