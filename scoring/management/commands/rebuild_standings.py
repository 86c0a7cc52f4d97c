"""``python manage.py rebuild_standings``: standings and ratings from the stored deals.

Run it after a worker was down (tasks lost), after restoring a backup or a bulk
import: it checks the matches whose deals changed since their last check and
totals every season and rating.  Run it with ``--recheck`` after upgrading to an
engine that scores differently: every match is checked again and its deal scores
rewritten.  The clubs are shared among the running Celery workers (start more
workers, on any machine, to go faster); without a broker they run here.
"""

from django.core.management.base import BaseCommand

from scoring.tasks import rebuild_everything


class Command(BaseCommand):
    help = "Recompute match and season standings and ratings from the stored deals."
    # The system checks import every view and URL (exports, PDF fonts, the API schema),
    # none of which a rebuild uses: a third of the command's start.  `manage.py check`
    # and the web processes run them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("--club", type=int, help="only this club (id)")
        parser.add_argument(
            "--recheck",
            action="store_true",
            help="check every match with the engine again (after an engine change)",
        )

    def handle(self, *args, club=None, recheck=False, **options):
        seasons, matches = rebuild_everything(club_id=club, recheck=recheck)
        self.stdout.write(f"checked {matches} matches, rebuilt {seasons} seasons")
