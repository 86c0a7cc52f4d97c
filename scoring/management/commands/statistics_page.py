"""``python manage.py statistics_page``: write the documents' page of statistics."""

from django.core.management.base import BaseCommand

from scoring.statistics_page import page, paths


class Command(BaseCommand):
    help = "Write docs/statistics.md and docs/statistics.ja.md from the games' statistics."

    def handle(self, *args, **options):
        for language, path in paths().items():
            path.write_text(page(language), encoding="utf-8")
            self.stdout.write(f"wrote {path}")
