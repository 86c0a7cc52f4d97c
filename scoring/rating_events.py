"""The rated events of the deals, as the ratings replay reads them (``scoring.ratings``).

Each deal keeps its rated event (``Deal.event``: teams of player ids, ranks, weights,
stake), written with its scores.  :func:`of_matches` reads the counting deals' events
of some clubs, a row per match in rating order (``DEAL_ORDER``: club night by date then
id, match start, match, deal number), the match's events as one JSON array of text: on PostgreSQL
one statement of its own (:data:`STATEMENT`), elsewhere a row per deal grouped here.
Deals stored without an event (a bulk import, rows older than the column) are found by
that read (their match has no text: :class:`Unfilled`) and get theirs from their
records (:func:`fill`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from itertools import groupby
from typing import Any

from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

import engine
from dbtools import backend
from dbtools.bulk import plain_rows, streamed_rows, update_rows
from tournaments import progress
from tournaments.models import Deal, DealScore, Seat, counting_deals

BATCH = 5000
"""Deals given their event at a time."""

DEAL_ORDER = (
    "match__table__club_night__date",
    "match__table__club_night_id",
    "match__created_at",
    "match_id",
    "number",
)
"""The order in which a game's deals are rated (after the game): two nights on one date
are two nights, the one made first first."""

Since = tuple[dt.date, int]
"""Where a replay starts: a club night's date and id; it replays that night and every
night after it in rating order (a later date, or the same date and a later id)."""


def from_night(since: Since) -> Q:
    """The deals of the night ``since`` and of the nights after it, in rating order."""
    day, night = since
    return Q(match__table__club_night__date__gt=day) | Q(
        match__table__club_night__date=day, match__table__club_night_id__gte=night
    )


def counting(
    club_ids: list[int], games: list[str], since: Since | None, public_only: bool = False
) -> QuerySet[Deal]:
    """The clubs' counting deals (``tournaments.models.counting_deals``) in ``games``, from
    the night ``since`` on, of public seasons alone if ``public_only``."""
    deals = Deal.objects.filter(
        counting_deals(),
        match__game__in=games,
        match__table__club_night__season__club_id__in=club_ids,
    )
    if since is not None:
        deals = deals.filter(from_night(since))
    if public_only:
        deals = deals.filter(match__table__club_night__season__public=True)
    return deals


def fill(club_ids: list[int], games: list[str], since: Since | None = None) -> int:
    """Give the deals stored without a rated event theirs, from their records and scores;
    returns how many."""
    missing = list(
        counting(club_ids, games, since)
        .filter(event__isnull=True)
        .order_by("pk")
        .values_list("pk", "match_id", "match__game", "record")
    )
    for start in range(0, len(missing), BATCH):
        batch = missing[start : start + BATCH]
        scores: dict[int, dict[str, int]] = defaultdict(dict)
        # No order (DealScore's default sorts by match and club: joins the planner may
        # walk from the matches' index of their start, over every deal).
        for deal_id, handle, score in (
            DealScore.objects.filter(deal_id__in=[row[0] for row in batch])
            .order_by()
            .values_list("deal_id", "player__handle", "score")
        ):
            scores[deal_id][handle] = score
        seats: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for match_id, handle, player_id in (
            Seat.objects.filter(match_id__in={row[1] for row in batch})
            .order_by("match_id", "position")
            .values_list("match_id", "player__handle", "player_id")
        ):
            seats[match_id].append((handle, player_id))
        filled: list[tuple[int, dict[str, Any] | None]] = []
        for deal_id, match_id, game, record in batch:
            details = engine.check(record).details
            event = progress.rating_event(game, record, details, seats[match_id], scores[deal_id])
            filled.append((deal_id, event))
        update_rows(Deal, ["event"], filled)
    return len(missing)


class Unfilled(Exception):
    """A match read has a counting deal stored without its rated event (:func:`fill`)."""


@contextmanager
def of_matches(
    club_ids: list[int], games: list[str], since: Since | None, public_only: bool
) -> Iterator[Iterator[tuple[str, int, str]]]:
    """(game, the club night's id, the match's events as one JSON array) of the clubs' matches with
    counting deals, by game and in rating order, each match's events in the order of its
    deals: one query, whose rows the replay takes as the server sends them (a few clubs'
    deals: some megabytes, never all of them at once), to be read within the block.  The
    text is parsed by the replay itself (``orjson``), a fifth of the field's converter
    (``json.loads``).

    Raises :class:`Unfilled` at the first match with a deal stored without its event (a
    bulk import, rows older than the column), once the rest is read (the transaction
    stays usable): the caller fills them in (:func:`fill`) and starts again, so that
    looking for them costs nothing when there are none."""
    with read(club_ids, games, since, public_only) as rows:
        yield with_events(rows)


def with_events(
    rows: Iterator[tuple[str, int, str | None]],
) -> Iterator[tuple[str, int, str]]:
    """The rows while each has its events; :class:`Unfilled` at the first without, once
    every row is read (a stream left early is cancelled, which fails the transaction the
    deals are then filled in)."""
    for game, night, text in rows:
        if text is None:
            for _rest in rows:  # the stream read to its end: the connection is free again
                pass
            raise Unfilled
        yield game, night, text


STATEMENT = """
    SELECT m.game, m.night, d.events
      FROM (SELECT m.id, m.game, n.date, n.id AS night, m.created_at, s.require_confirmation
              FROM tournaments_season s
              JOIN tournaments_clubnight n ON n.season_id = s.id
              JOIN tournaments_table t ON t.club_night_id = n.id
              JOIN tournaments_match m ON m.table_id = t.id
             WHERE s.club_id = ANY(%(clubs)s) AND m.game = ANY(%(games)s) {nights}
             ORDER BY m.game, n.date, n.id, m.created_at, m.id) m
     CROSS JOIN LATERAL (
            SELECT count(*) AS deals,
                   CASE WHEN count(d.event) = count(*)
                        THEN '[' || string_agg(d.event::text, ',') || ']'
                   END AS events
              FROM (SELECT d.event
                      FROM tournaments_deal d
                     WHERE d.match_id = m.id AND d.deleted_at IS NULL
                       AND (d.confirmed_at IS NOT NULL OR NOT m.require_confirmation)
                     ORDER BY d.number) d) d
     WHERE d.deals > 0
     ORDER BY m.game, m.date, m.night, m.created_at, m.id
"""
"""The counting deals' events in rating order (``DEAL_ORDER``) on PostgreSQL, a row per
match: the matches sorted first (a few thousand narrow rows), then each match's deals
taken by their index (match, number) and their events joined into one array, so that
no deal is sorted with its event nor sent as a row of its own (docs/benchmarks.md has
the figures).  The array is joined in
the order of the subquery under it, with nothing between them that could reorder its
rows (PostgreSQL's documented condition for this); its ``ORDER BY`` is the index's
own order, where an ``ORDER BY`` inside the aggregate sorted every match's deals again.
The events are stored as JSON text (``json``), sent as they are.  The deals' columns it reads
are all in their covering index (``deal_events_by_match``: match, number; confirmation,
event; deals not deleted), so the table's rows are not visited.  The deals counted are
those of ``tournaments.models.counting_deals`` (not deleted; confirmed, or in a season
that asks no confirmation): ``tests/scoring/test_ratings.py`` compares the two.  A
match with a deal stored without its event has no text."""


Rows = AbstractContextManager[Iterator[tuple[str, int, str | None]]]


def _streamed(
    club_ids: list[int], games: list[str], since: Since | None, public_only: bool
) -> Rows:
    """The rows of :func:`of_matches` as the deals are now (none filled), to be read within
    the block: on PostgreSQL streamed (``dbtools.bulk.streamed_rows``)."""
    nights = " AND (n.date, n.id) >= (%(day)s, %(night)s)" if since is not None else ""
    if public_only:
        nights += " AND s.public"
    day, night = since if since is not None else (None, None)
    params: dict[str, Any] = {"clubs": club_ids, "games": games, "day": day, "night": night}
    return streamed_rows(STATEMENT.format(nights=nights), params)


def _grouped(club_ids: list[int], games: list[str], since: Since | None, public_only: bool) -> Rows:
    return nullcontext(iter(grouped_here(club_ids, games, since, public_only)))


read = backend.twin(postgresql=_streamed, portable=_grouped)


def grouped_here(
    club_ids: list[int], games: list[str], since: Since | None, public_only: bool
) -> list[tuple[str, int, str | None]]:
    """The same rows as ``STATEMENT``, from a row per deal grouped by match here (SQLite)."""
    deals = counting(club_ids, games, since, public_only).order_by("match__game", *DEAL_ORDER)
    text = Cast("event", TextField())
    rows = deals.values_list("match__game", "match__table__club_night_id", "match_id", text)
    matches = []
    for (game, night, _match), of_match in groupby(plain_rows(rows), key=lambda r: r[:3]):
        texts = [r[3] for r in of_match]
        matches.append((game, night, None if None in texts else f"[{','.join(texts)}]"))
    return matches
