"""``python manage.py load_demo``: the demo club, its season, players, nights, matches and deals."""

from django.core.management.base import BaseCommand

from ops.demo import ADMIN, DEMO_CLUB, SCORER, load_demo


class Command(BaseCommand):
    help = "Load the demo club (idempotent: does nothing when it exists)."

    def handle(self, *args: object, **options: object) -> None:
        club = load_demo()
        if club is None:
            self.stdout.write(f"{DEMO_CLUB} is loaded already.")
            return
        self.stdout.write(self.style.SUCCESS(f"Loaded {DEMO_CLUB}."))
        self.stdout.write(f"League administrator: {ADMIN[0]} / {ADMIN[1]}  (demo only)")
        self.stdout.write(f"Scorer:               {SCORER[0]} / {SCORER[1]}  (demo only)")
