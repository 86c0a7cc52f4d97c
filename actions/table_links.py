"""A table's link (``tournaments.table_links`` reads it): made, made again, revoked, and
a seated player bound to the phone that holds it once their PIN is checked."""

from __future__ import annotations

import secrets

from django.utils import timezone

from tournaments.models import LinkScorer, Player, Table


def make(table: Table) -> str:
    """A new secret for the table (the old link stops working; a revoked table has a link
    again)."""
    table.link_token = secrets.token_urlsafe(24)
    table.link_revoked_at = None
    Table.objects.filter(pk=table.pk).update(link_token=table.link_token, link_revoked_at=None)
    return table.link_token


def ensure(table: Table) -> str:
    """The table's secret, made when it has none; ``""`` for a revoked table (revoked
    stays revoked until an administrator makes a new link: :func:`make`)."""
    if table.link_revoked_at is not None:
        return ""
    return table.link_token or make(table)


def revoke(table: Table) -> None:
    table.link_token = ""
    table.link_revoked_at = timezone.now()
    Table.objects.filter(pk=table.pk).update(link_token="", link_revoked_at=table.link_revoked_at)


def bind(table: Table, holder: str, player: Player) -> None:
    """``player`` (their PIN checked) scores on the phone ``holder`` at ``table``: stored
    once however often it is sent."""
    LinkScorer.objects.get_or_create(table=table, holder=holder, player=player)
