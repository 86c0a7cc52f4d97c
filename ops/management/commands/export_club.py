"""``python manage.py export_club CLUB FILE``: a club's data as one JSON file ('-': stdout)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from ops.backup import as_text, export_club
from tournaments.models import Club


class Command(BaseCommand):
    help = "Write a club's players, seasons, nights, matches and deal records to one JSON file."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's slug")
        parser.add_argument("file", help="where to write; '-' for standard output")

    def handle(self, *args, club, file, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(
                f"no club {club!r}; clubs: {', '.join(Club.objects.values_list('slug', flat=True))}"
            )
        text = as_text(export_club(found))
        if file == "-":
            sys.stdout.write(text)
        else:
            with open(file, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stderr.write(f"wrote {found} to {file}")
