"""``python manage.py import_club FILE``: restore a club written by export_club."""

import json

from django.core.management.base import BaseCommand, CommandError

from ops.restore import Accounts, import_club, restored
from scoring.rebuild import rebuild_club


class Command(BaseCommand):
    help = (
        "Restore a club from an export_club file (all or nothing), then rebuild its standings. "
        "Accounts of this site are linked (roles, players, scorers, who entered or confirmed) "
        "only where named with --link-account, or all with --link-all-accounts."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--link-account",
            action="append",
            default=[],
            metavar="USER",
            help="an account of this site the file's user name USER is (repeat for each)",
        )
        parser.add_argument(
            "--link-all-accounts",
            action="store_true",
            help="every user name of the file is the same-named account of this site "
            "(restoring onto the site the file was made on)",
        )
        parser.add_argument(
            "--accept-unsigned",
            action="store_true",
            help="restore a file without a valid signature (made by another site, or edited)",
        )

    def handle(self, *args, file, link_account, link_all_accounts, accept_unsigned, **options):
        accounts = Accounts(None if link_all_accounts else frozenset(link_account))
        try:
            with open(file, encoding="utf-8") as handle:
                doc = json.load(handle)
            club = import_club(doc, accounts=accounts, accept_unsigned=accept_unsigned)
        except (OSError, ValueError, RecursionError) as exc:  # ImportError_ is a ValueError
            raise CommandError(f"cannot import {file}: {exc}") from None
        seasons, matches = rebuild_club(club.pk)
        self.stdout.write(f"restored {club} ({club.slug}):")
        counts = restored(club)
        width = max(map(len, counts))
        for kind, count in counts.items():
            self.stdout.write(f"  {kind:<{width}}  {count:>6}")
        if accounts.left_out:
            names = ", ".join(sorted(accounts.left_out))
            self.stdout.write(
                f"left out: {len(accounts.left_out)} user names of the file linked to no "
                f"account of this site (their roles, players' accounts, scorers and who "
                f"entered, confirmed or changed a deal): {names}; name them with "
                f"--link-account USER, or --link-all-accounts"
            )
        self.stdout.write(f"standings rebuilt: {matches} matches in {seasons} seasons")
