"""``python manage.py load_demo``: the demo club, its season, players, nights, matches and deals."""

from django.core.management.base import BaseCommand

from ops.demo import ADMIN, DEMO_CLUB, MEMBER, SCORER, load_demo


class Command(BaseCommand):
    help = "Load the demo club (idempotent: does nothing when it exists)."

    def handle(self, *args: object, **options: object) -> None:
        club = load_demo()
        if club is None:
            self.stdout.write(f"{DEMO_CLUB} is loaded already.")
        else:
            self.stdout.write(self.style.SUCCESS(f"Loaded {DEMO_CLUB}."))
        # Every time: whoever starts the demo needs the accounts (demo only: public passwords).
        self.stdout.write(f"League administrator: {ADMIN[0]} / {ADMIN[1]}")
        self.stdout.write(f"Scorer:               {SCORER[0]} / {SCORER[1]}")
        self.stdout.write(f"Member (plays as Aki): {MEMBER[0]} / {MEMBER[1]}")
