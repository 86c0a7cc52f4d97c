"""Two players of a club who are one person become one (issue 29, 6).

:func:`merge` moves everything of ``gone`` to ``kept`` in one transaction under the
club's row lock, and deletes ``gone``: its seats, its deal scores, the confirmations it
gave at the table, the rounds it sat out, its invitations, its account (when ``kept``
has none).  The stored
records name ``gone`` by its handle: they are rewritten to ``kept``'s as a rename
rewrites them (``actions.renames``: every deal and every earlier version, each
checked by the engine to score as before; a handle that is also a trump or a card in a
record is refused, and nothing changes).  Two players seated in one match are two
people: refused, and so are two players who were both in one round (seated or sitting
out).  The standings and ratings of every season either played in are
rebuilt once the merge commits (``after.seasons_changed``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from actions import after
from actions.renames import rewrite_records
from tournaments.errors import Rejection, error
from tournaments.models import (
    Club,
    Deal,
    DealScore,
    Invitation,
    Match,
    Player,
    Round,
    Season,
    Seat,
)


def merge(kept: Player, gone: Player) -> Player:
    """Make ``gone`` part of ``kept``; answers ``kept`` as stored."""
    if kept.pk == gone.pk or kept.club_id != gone.club_id:
        raise Rejection(
            (error("invalid_choice", "player", gettext_noop("choose two players of the club")),)
        )
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=kept.club_id).exists()
        kept = Player.objects.select_for_update().get(pk=kept.pk)
        gone = Player.objects.select_for_update().get(pk=gone.pk)
        shared = Match.objects.filter(seats__player=kept).filter(seats__player=gone)
        if shared.exists():
            raise Rejection(
                (
                    error(
                        "played_together",
                        "player",
                        gettext_noop("%(kept)s and %(gone)s sat at one table: they are two people"),
                        kept=kept.display_name,
                        gone=gone.display_name,
                    ),
                )
            )
        sat_out = Round.objects.filter(sat_out=gone)
        if (
            sat_out.filter(tables__matches__seats__player=kept).exists()
            or sat_out.filter(sat_out=kept).exists()
            or Round.objects.filter(sat_out=kept, tables__matches__seats__player=gone).exists()
        ):
            raise Rejection(
                (
                    error(
                        "played_together",
                        "player",
                        gettext_noop(
                            "%(kept)s and %(gone)s were both in one round: they are two people"
                        ),
                        kept=kept.display_name,
                        gone=gone.display_name,
                    ),
                )
            )
        for round_ in sat_out:  # the night's standings count who sat out
            round_.sat_out.add(kept)
        matches = list(Match.objects.filter(seats__player=gone).values_list("pk", flat=True))
        seasons = list(
            Season.objects.filter(club_nights__tables__matches__pk__in=matches)
            .distinct()
            .values_list("pk", flat=True)
        )
        rewrite_records(gone, gone.handle, kept.handle)
        Seat.objects.filter(player=gone).update(player=kept)
        DealScore.objects.filter(player=gone).update(player=kept)
        Deal.objects.filter(confirmed_by_player=gone).update(confirmed_by_player=kept)
        Invitation.objects.filter(player=gone).update(player=kept)
        account: Any = gone.user
        if kept.user_id is None and account is not None:
            kept.user = account
        if not kept.name_ja and gone.name_ja:
            kept.name_ja = gone.name_ja
        if not kept.reading and gone.reading:
            kept.reading = gone.reading
        gone.delete()  # its standings and ratings with it: rebuilt below
        kept.save(update_fields=["user", "name_ja", "reading"])
        # The rated events name players by id: derived again when rated.
        Deal.objects.filter(match__in=matches).update(event=None)
        after.seasons_changed(seasons)  # the records' matches were marked changed above
    return kept
