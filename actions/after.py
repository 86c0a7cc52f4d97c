"""What an action hands to the workers once its transaction commits: the standings to
refresh and what happened to tell (``reach``).

The one place the floor queues work; there are no domain signals.  Each hand-off is
registered with ``transaction.on_commit`` (nothing is queued when the transaction rolls
back) as *robust*: what runs after the commit (run eagerly on the embedded database) can
fail without turning the stored change into an error answer.  A match's version stays
ahead of its checked version until a refresh catches up, so the next entry or a rebuild
repairs a hand-off that was lost.

Refreshing the standings and telling that they changed are one Celery chain: the
scoring task returns the seasons it refreshed and ``reach.tasks.standings_changed``
tells their listeners; ``scoring`` never imports ``reach``.

An action that both changes a match and announces it (an entry, a confirmation, a
correction, a match ended) hands both on as one message (``announcing``): a worker
sends the refresh and the announcement on (:func:`hand_on`, found by the workers
through ``actions.tasks``).  Each message sent from a request costs it about a
millisecond of Python, the chain more (docs/benchmarks.md); the worker's extra step
costs the standings a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable

from celery import chain, shared_task
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

from reach import tasks as reach_tasks
from scoring import tasks as scoring_tasks
from tournaments import progress

KINDS = (
    "round.drawn",  # ids: round (or night, for a night drawn without rounds)
    "deal.entered",  # ids: deal: it waits for a confirmation, or counts; its match may end
    "deal.confirmed",  # ids: deal: a second person confirmed it
    "correction.applied",  # ids: change (a DealVersion): the deal may wait again
    "match.finished",  # ids: match: the round or the night may be closed
    "standings.changed",  # ids: season (said by the refresh, after the standings are new)
    "season.closed",  # ids: season
    "night.cancelled",  # ids: night: called off
    "night.restored",  # ids: night, sequence: a called-off night held after all
)


Announcing = tuple[str, dict[str, int]]
"""What an action announces with its change to a match: a kind of :data:`KINDS` and its ids."""


def match_changed(match_id: int, announcing: Announcing | None = None) -> None:
    """Once the transaction commits, refresh ``match_id``'s standings, its season's
    leaderboards and its club's ratings, then tell that the standings changed; and
    announce ``announcing`` (as :func:`announce`), in the same message."""
    if announcing is None:
        transaction.on_commit(lambda: refresh_match(match_id), robust=True)
        return
    kind, ids = announcing
    if kind not in KINDS:
        raise ValueError(kind)
    transaction.on_commit(lambda: hand_on.delay(match_id, kind, ids), robust=True)


def match_edited(
    match_id: int, *, deals_changed: bool = True, announcing: Announcing | None = None
) -> None:
    """A change to a match other than an entry (a correction, a confirmation, a rename,
    the admin's match form): its version goes up and its kept progress is emptied
    (unless only what counts changed: ``deals_changed=False``), now; then
    :func:`match_changed` once the transaction commits."""
    progress.changed(match_id, deals_changed=deals_changed)
    match_changed(match_id, announcing)


def seasons_changed(season_ids: Iterable[int]) -> None:
    """Once the transaction commits, rebuild ``season_ids`` as a whole (matches added by
    an import, a merge, or a setting their standings derive from changed)."""
    ids = list(season_ids)
    if ids:
        transaction.on_commit(lambda: refresh_seasons(ids), robust=True)


def announce(kind: str, **ids: int) -> None:
    """Once the transaction commits, tell players and a club's tools that ``kind``
    (one of :data:`KINDS`) happened to ``ids``; nothing when it rolls back."""
    if kind not in KINDS:
        raise ValueError(kind)
    transaction.on_commit(lambda: tell(kind, ids), robust=True)


@shared_task(autoretry_for=(BrokerUnavailable,), retry_backoff=True, max_retries=5)
def hand_on(match_id: int, kind: str, ids: dict[str, int]) -> None:
    """On a worker: queue ``match_id``'s refresh (its chain) and the announcement of
    ``kind``, each then run, and retried, on its own.  Sent again (a retry, a
    redelivery), each does nothing twice: a refresh makes what the deals say, an
    announcement's events are keyed by what they announce (``reach.tasks.fan_out``)."""
    refresh_match(match_id)
    tell(kind, ids)


# The hand-offs themselves: messages to the broker (run in-process when tasks run
# eagerly).  Tests that only want to see what was handed on replace these three
# (``hand_on`` calls them).


def refresh_match(match_id: int) -> None:
    chain(scoring_tasks.refresh_standings.si(match_id), reach_tasks.standings_changed.s()).delay()


def refresh_seasons(season_ids: list[int]) -> None:
    chain(scoring_tasks.refresh_seasons.si(season_ids), reach_tasks.standings_changed.s()).delay()


def tell(kind: str, ids: dict[str, int]) -> None:
    reach_tasks.fan_out.delay(kind, ids)
