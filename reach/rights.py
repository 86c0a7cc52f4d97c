"""Whether a push subscription may still be told what happens in a season.

A subscription holds the right it was made with, and every message checks it again,
when it is stored and right before it is sent:

- ``user``: the account still reads the season (``tournaments.access.visible``): a
  member who left the club, or a season made private to a stranger, stops it;
- ``table`` (a phone that followed a table's link, no account): that link still works
  (not revoked, not replaced by a new one, on the night's date or the day after) and
  the message is of the link's night, and of nothing else;
- neither: the season is public.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from tournaments import access, table_links
from tournaments.models import Season, Table

from .models import Subscription


def link_hash(token: str) -> str:
    """What a subscription keeps of the table link it was made through (never the secret)."""
    return hashlib.sha256(token.encode()).hexdigest()


def link_works(subscription: Subscription) -> bool:
    """The table link the subscription was made through still works (read now)."""
    pk = subscription.table_id
    tables = Table.objects.select_related("club_night")
    table = tables.filter(pk=pk).first() if pk is not None else None
    return (
        table is not None
        and bool(table.link_token and subscription.link)
        and secrets.compare_digest(link_hash(table.link_token), subscription.link)
        and table_links.in_time(table)
    )


def may_tell(subscription: Subscription, season: int, night: int | None) -> bool:
    """``subscription`` may be told what happened in ``season`` (at ``night``)."""
    if subscription.user is not None:
        user = subscription.user
        return bool(user.is_active) and (
            access.visible(Season.objects.filter(pk=season), user).exists()
        )
    if subscription.table_id is not None:
        return night is not None and subscription.night_id == night and link_works(subscription)
    return Season.objects.filter(pk=season, public=True).exists()


def teller(season: int, night: int | None) -> Callable[[Subscription], bool]:
    """:func:`may_tell` for many subscriptions of one event, each right read once: the
    season's being public once, each account's reading the season once (an event told
    to a whole club asks a handful of queries, not one or two a phone).  A subscription
    made through a table link holds its own link: each is read apart."""
    known: dict[tuple[str, int], bool] = {}

    def may(subscription: Subscription) -> bool:
        if subscription.user is not None:
            key = ("user", subscription.user.pk)
        elif subscription.table_id is not None:
            if night is None or subscription.night_id != night:
                return False
            key = ("link", subscription.pk)  # its own link's hash: each read apart
        else:
            key = ("public", 0)
        if key not in known:
            known[key] = may_tell(subscription, season, night)
        return known[key]

    return may
