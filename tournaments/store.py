"""Storing a deal: the one hot write of a club night, in one statement.

On PostgreSQL one statement locks the match row, checks that nothing changed
since its progress was read (``version``), numbers and inserts the deal, writes
its scores and the match's new progress: one round trip, its own transaction
when none is open.  Other databases (the SQLite demo) run the same steps as
three statements in a transaction.  Either way the deal is stored with
everything it implies, or nothing is.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F

from dbtools import backend
from tournaments.models import Deal, DealScore, Match, Player


def request_hash(record: Any) -> str:
    """What a retry must repeat: the record as sent, in canonical JSON (the key's
    ``request_hash``, whatever way the deal came in)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


STATEMENT = """
WITH m AS (
    UPDATE tournaments_match
       SET version = version + 1, state = %(state)s, status = %(status)s,
           finished_at = %(finished_at)s
     WHERE id = %(match)s AND version = %(version)s AND status = 'open'
 RETURNING id
), d AS (
    INSERT INTO tournaments_deal (match_id, number, record, entered_by_id, entered_at,
                                  entered_at_table, entered_by_holder, idempotency_key,
                                  request_hash, event)
    SELECT id, %(number)s, %(record)s, %(entered_by_id)s, %(entered_at)s,
           %(entered_at_table)s, %(entered_by_holder)s, %(idempotency_key)s,
           %(request_hash)s, %(event)s FROM m
 RETURNING id
), s AS (
    INSERT INTO tournaments_dealscore (deal_id, player_id, score, won)
    SELECT d.id, x.player, x.score, x.won
      FROM d, unnest(%(players)s::bigint[], %(scores)s::integer[], %(won)s::boolean[])
              AS x(player, score, won)
)
SELECT id FROM d
"""


@dataclass(frozen=True)
class NewDeal:
    match: Match
    version: int
    """The match's version the deal was checked against."""
    number: int
    record: dict[str, Any]
    scores: list[tuple[Player, int, bool]]
    """(player, score, won) in order of play; the players need only their id and handle."""
    state: dict[str, Any]
    finished_at: datetime | None
    user_id: int | None
    at: datetime
    at_table: bool
    holder: str
    """The phone's link-holder id when entered through the table's link."""
    key: str
    request_hash: str
    event: dict[str, Any] | None


def insert(new: NewDeal) -> Deal | None:
    """Store ``new``: the deal with its scores (``deal.scores.all()`` answers without a
    query), or ``None`` when the match changed since ``new.version`` (nothing stored).
    A deal number or key taken already raises ``IntegrityError`` (nothing stored)."""
    status = Match.Status.FINISHED if new.finished_at else Match.Status.OPEN
    columns: dict[str, Any] = {
        "number": new.number,
        "record": new.record,
        "entered_by_id": new.user_id,
        "entered_at": new.at,
        "entered_at_table": new.at_table,
        "entered_by_holder": new.holder,
        "idempotency_key": new.key,
        "request_hash": new.request_hash,
        "event": new.event,
    }
    deal_id = _stored(new, status, columns)
    if deal_id is None:
        return None
    new.match.version = new.version + 1
    new.match.state = new.state
    new.match.status = status
    new.match.finished_at = new.finished_at
    deal = Deal(pk=deal_id, match=new.match, **columns)
    # As prefetch_related leaves it: ``deal.scores.all()`` answers from memory.
    scores = deal.scores.all()
    scores._result_cache = [
        DealScore(deal=deal, player=p, score=s, won=w) for p, s, w in new.scores
    ]
    scores._prefetch_done = True  # type: ignore[attr-defined]
    deal._prefetched_objects_cache = {"scores": scores}  # type: ignore[attr-defined]
    return deal


def _in_one_statement(new: NewDeal, status: str, columns: dict[str, Any]) -> int | None:
    params = {
        **{
            k: json.dumps(v) if k in ("record", "event") and v is not None else v
            for k, v in columns.items()
        },
        "state": json.dumps(new.state),
        "status": status,
        "finished_at": new.finished_at,
        "match": new.match.pk,
        "version": new.version,
        "players": [p.pk for p, _s, _w in new.scores],
        "scores": [s for _p, s, _w in new.scores],
        "won": [w for _p, _s, w in new.scores],
    }
    # Inside a transaction a savepoint keeps a refused statement from aborting it.
    with transaction.atomic() if connection.in_atomic_block else nullcontext():
        with connection.cursor() as cursor:
            cursor.execute(STATEMENT, params)
            row = cursor.fetchone()
    return None if row is None else row[0]


def _in_a_transaction(new: NewDeal, status: str, columns: dict[str, Any]) -> int | None:
    """The same steps as :data:`STATEMENT`, for databases without it (the demo's SQLite)."""
    with transaction.atomic():
        moved = Match.objects.filter(
            pk=new.match.pk, version=new.version, status=Match.Status.OPEN
        ).update(
            version=F("version") + 1, state=new.state, status=status, finished_at=new.finished_at
        )
        if not moved:
            return None
        deal_id = Deal.objects.create(match_id=new.match.pk, **columns).pk
        DealScore.objects.bulk_create(
            DealScore(deal_id=deal_id, player=p, score=s, won=w) for p, s, w in new.scores
        )
        return deal_id


_stored = backend.twin(postgresql=_in_one_statement, portable=_in_a_transaction)
"""The deal stored with its scores and the match moved on, or ``None`` when the match
changed meanwhile: PostgreSQL's one statement, or the same steps in a transaction."""
