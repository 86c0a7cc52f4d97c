"""``python manage.py rebuild_standings``: recompute every standing from the deal records alone.

Run it after a worker was down (tasks lost) or after restoring a backup.
"""

from django.core.management.base import BaseCommand

from scoring.standings import rebuild_all


class Command(BaseCommand):
    help = "Recompute all match and season standings from the stored deals."

    def add_arguments(self, parser):
        parser.add_argument("--club", type=int, help="only this club (id)")

    def handle(self, *args, club=None, **options):
        seasons, matches = rebuild_all(club_id=club)
        self.stdout.write(f"rebuilt {matches} matches and {seasons} seasons")
