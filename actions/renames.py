"""A player's handle changes without breaking anything (issue 28, 1).

Deal records name players by handle (docs/deal-records.md), and a club keeps those
records for years: its corrections, its ``rebuild_standings --recheck`` and its backups
read them again.  So a rename rewrites every record that names the player, in the same
transaction as the new handle (:func:`save_player`, which every page, the API and the
admin save a player with): the deals of every match where the player sits, the
earlier versions in their history (and the history's effect lines), and the matches'
kept progress (emptied, and recomputed by the next entry).  After a rename the club's
data reads as if the player had always had the new handle.

A record names a player where a string *is* the handle: a value (``"player": "aki"``,
``"adjutants": ["aki"]``) or a key (``"point_cards": {"aki": 9}``).  Each rewritten record
is checked by the engine before it is stored: it must score exactly as before with the
handle changed.  A handle that is also something else in a record (a player handled
``hearts`` in a deal whose trump is hearts) cannot be told apart: such a rename is refused,
naming the deal, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

import engine
from actions import after
from actions.unique import taken_meanwhile
from tournaments.errors import Rejection, error
from tournaments.models import Deal, DealVersion, Match, Player


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` (a record, a list, a key) with every string that is ``old`` made ``new``."""
    if isinstance(value, dict):
        return {renamed(k, old, new): renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    return new if value == old else value


def save_player(player: Player) -> Player:
    """Store a new or changed player: the one way the pages, the API and the admin save a
    player.  A new handle rewrites every stored record that names the player in the same
    transaction; the rewrite may refuse (a :class:`Rejection`), and then nothing is saved."""
    old = (
        Player.objects.filter(pk=player.pk).values_list("handle", flat=True).first()
        if player.pk
        else None
    )
    with taken_meanwhile(player), transaction.atomic():
        player.save()
        if old is not None and old != player.handle:
            rewrite_records(player, old, player.handle)
    return player


def rewrite_records(player: Player, old: str, new: str) -> int:
    """Rewrite every stored record naming ``player`` by ``old`` (call inside the rename's
    transaction); returns the number of deals rewritten, or raises :class:`Rejection`."""
    matches = list(Match.objects.select_for_update().filter(seats__player=player).order_by("pk"))
    deals = list(Deal.objects.filter(match__in=matches).select_related("match").order_by("pk"))
    for deal in deals:
        record = renamed(deal.record, old, new)
        if not _scores_alike(deal.record, record, old, new):
            raise Rejection(
                (
                    error(
                        "handle_in_record",
                        "handle",
                        gettext_noop(
                            "%(handle)s also names something else than a player in deal %(number)s of a %(game)s match: choose another handle"
                        ),
                        handle=old,
                        number=deal.number,
                        game=deal.match.game,
                    ),
                )
            )
        deal.record = record
    Deal.objects.bulk_update(deals, ["record"], batch_size=500)
    versions = list(DealVersion.objects.filter(deal__in=deals))
    for version in versions:
        version.record_before = renamed(version.record_before, old, new)
        version.effect = [
            {**line, "player": new} if line.get("player") == old else line
            for line in version.effect
        ]
    DealVersion.objects.bulk_update(versions, ["record_before", "effect"], batch_size=500)
    for match in matches:
        after.match_edited(match.pk)
    return len(deals)


def _scores_alike(before: Any, after: Any, old: str, new: str) -> bool:
    """The rewritten record scores as the old one did, the player renamed."""
    if after == before:
        return True
    was, now = engine.check(before), engine.check(after)
    if was.valid != now.valid:
        return False
    return bool(
        renamed(was.scores, old, new) == now.scores
        and renamed(was.details, old, new) == now.details
    )
