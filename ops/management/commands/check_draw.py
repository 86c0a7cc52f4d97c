"""``python manage.py check_draw FILE [--json] [--lang en|ja]``: a night's draw checked from
its seating export alone (``ops/draw_check.py``, which also runs without Django), in the
active language unless ``--lang`` says which."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from ops import draw_check


class Command(BaseCommand):
    help = (
        "Recompute a night's draw measures (most met, excess meetings, consecutive repeats,"
        " seat balance) from its seating export; see docs/draw-check.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the night's seating export (CSV)")
        parser.add_argument("--json", action="store_true", help="the figures as JSON")
        parser.add_argument(
            "--lang", choices=["en", "ja"], help="the output's language (default: the active one)"
        )

    def handle(
        self, *args: object, file: str, json: bool, lang: str | None = None, **options: object
    ) -> None:
        lang = draw_check.language(lang or translation.get_language() or "en")
        names: draw_check.Names = {}
        try:
            rounds = draw_check.read_file(file, names)
        except draw_check.DrawFileError as error:
            raise CommandError(f"{file}: {error.say(lang)}") from error
        self.stdout.write(draw_check.report(rounds, json, lang, names))
