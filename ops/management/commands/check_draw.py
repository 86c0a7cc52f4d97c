"""``python manage.py check_draw FILE [--json]``: a night's draw checked from its seating
export alone (``ops/draw_check.py``, which also runs without Django)."""

from django.core.management.base import BaseCommand, CommandError

from ops import draw_check


class Command(BaseCommand):
    help = (
        "Recompute a night's draw measures (most met, excess meetings, consecutive repeats,"
        " seat balance) from its seating export; see docs/draw-check.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the night's seating export (CSV)")
        parser.add_argument("--json", action="store_true", help="the figures as JSON")

    def handle(self, *args, file, json, **options):
        try:
            self.stdout.write(draw_check.report(draw_check.read_file(file), json))
        except draw_check.REFUSED as error:
            raise CommandError(f"{file}: {error}") from error
