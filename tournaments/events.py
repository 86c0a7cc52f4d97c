"""What the league tells the layers above it, without importing them.

The league app (models and workflows) sits below ``scoring``: it never imports
it.  When a match's deals change, a workflow calls :func:`match_changed`; once
the transaction commits, every receiver of :data:`deals_changed` hears of it.
``scoring`` connects its standings task there (``scoring.apps``), so the league
queues scoring's work through this one narrow, named function.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

deals_changed = Signal()
"""Sent with ``match_id`` after a transaction that changed a match's deals commits."""


def match_changed(match_id: int) -> None:
    """Announce, once the current transaction commits, that ``match_id``'s deals changed."""
    # Robust: what runs after the commit (the standings task, run eagerly on the embedded
    # database) can fail without turning the stored change into an error answer; the
    # match keeps version != checked_version, and the next entry or a rebuild catches up.
    transaction.on_commit(lambda: deals_changed.send(sender=None, match_id=match_id), robust=True)


seasons_changed_signal = Signal()
"""Sent with ``season_ids`` after a transaction that added many matches to them (an
import) or changed a setting their standings derive from (``tournaments.seasons``)
commits: the layers above rebuild those seasons at once, not match by match."""


def seasons_changed(season_ids: list[int]) -> None:
    """Announce, once the current transaction commits, that ``season_ids`` changed as a
    whole: matches added, or a setting their standings derive from."""
    ids = list(season_ids)
    if ids:
        transaction.on_commit(
            lambda: seasons_changed_signal.send(sender=None, season_ids=ids), robust=True
        )


happened = Signal()
"""Sent with ``kind`` and ``ids`` after a transaction in which something players or a
club's tools hear of happened commits (``reach`` tells them)."""

KINDS = (
    "round.drawn",  # ids: round (or night, for a night drawn without rounds)
    "deal.entered",  # ids: deal: it waits for a confirmation, or counts; its match may end
    "deal.confirmed",  # ids: deal: a second person confirmed it
    "correction.applied",  # ids: change (a DealVersion): the deal may wait again
    "match.finished",  # ids: match: the round or the night may be closed
    "standings.changed",  # ids: season
    "season.closed",  # ids: season
)


def announce(kind: str, **ids: int) -> None:
    """Announce, once the current transaction commits, that ``kind`` happened to ``ids``
    (one of :data:`KINDS`); nothing is announced when the transaction rolls back."""
    if kind not in KINDS:
        raise ValueError(kind)
    transaction.on_commit(lambda: happened.send(sender=None, kind=kind, ids=ids), robust=True)
