"""``python manage.py import_club FILE``: restore a club written by export_club."""

import json

from django.core.management.base import BaseCommand, CommandError

from ops.backup import ImportError_, import_club
from scoring.standings import rebuild_club


class Command(BaseCommand):
    help = "Restore a club from an export_club file (all or nothing), then rebuild its standings."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                doc = json.load(handle)
            club = import_club(doc)
        except (
            OSError,
            ValueError,
            ImportError_,
            KeyError,
        ) as exc:  # ValueError: not JSON, not UTF-8
            raise CommandError(f"cannot import {file}: {exc}") from None
        seasons, matches = rebuild_club(club.pk)
        self.stdout.write(f"restored {club}: {matches} matches in {seasons} seasons")
