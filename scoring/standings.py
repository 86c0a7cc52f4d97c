"""Checking matches: the standings' first half (``scoring.season_totals`` is the second).

**Checking a match** (:func:`rebuild_matches`) runs the engine over the match's deal
records: who leads by the game's match rules (tie-breaks, eliminations, titles), the
player's points and deals, the game's own counts.  It records the version of the match it
checked (``checked_version``), and its lines (``MatchStanding``) are what a season's
leaderboards are totalled from (:mod:`scoring.season_totals`).

A full rebuild (``scoring.rebuild``, one Celery task per batch of clubs) checks only the
matches whose deals changed since their last check (``version`` ≠
``checked_version``: a task that was lost, a bulk import, an upgrade) and totals
every season; ``recheck`` checks every match again, and rewrites the deal scores
and rating events from the records, for after a change to the engine.

Everything is written under row locks (the matches', the season's, the club's),
replacing the old rows in the same transaction: running a rebuild twice, or two at
once, or again after one was killed, ends with the same rows as one clean run.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from dbtools.bulk import insert_rows, plain_plans, update_rows
from scoring.models import COUNT_COLUMNS, COUNTS, MatchStanding
from scoring.season_totals import count_columns
from tournaments import progress
from tournaments.games import LeagueGame, league_game
from tournaments.games.statistics import Played
from tournaments.models import Deal, DealScore, Match, Seat
from tournaments.records import match_envelope

CHUNK = 500
"""Matches checked per transaction by a full rebuild."""

LINE = (
    "match player total deals deals_won rank updated_at season game club_night finished points "
    "scored top_half last_place " + " ".join(COUNT_COLUMNS)
).split()
"""A match line's columns, in the order of ``_lines``' tuples."""


def rebuild_match_standings(match_id: int) -> int | None:
    """Check one match; returns its season's id (``None``: no such match)."""
    seasons = rebuild_matches([match_id])
    return seasons[0] if seasons else None


def rebuild_matches(match_ids: Iterable[int], *, rescore: bool = False) -> list[int]:
    """Check these matches with the engine (locked, in one transaction, four queries and
    the writes whatever their number); returns their seasons' ids.  With ``rescore`` the
    deal scores and rating events of their active deals are rewritten from the records."""
    with transaction.atomic():
        plain_plans()
        matches = list(
            Match.objects.select_for_update(of=("self",))
            .filter(pk__in=list(match_ids))
            .select_related("table__club_night__season")
            .order_by("pk")
        )
        ids = [m.pk for m in matches]
        seats: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for match_id, handle, player_id in (
            Seat.objects.filter(match__in=ids)
            .order_by("match_id", "position")
            .values_list("match_id", "player__handle", "player_id")
        ):
            seats[match_id].append((handle, player_id))
        deals: dict[int, list[tuple[int, bool, bool, dict[str, Any]]]] = defaultdict(list)
        for match_id, deal_id, deleted_at, confirmed_at, record in (
            Deal.objects.filter(match__in=ids)
            .order_by("match_id", "number")
            .values_list("match_id", "pk", "deleted_at", "confirmed_at", "record")
        ):
            deals[match_id].append((deal_id, deleted_at is None, confirmed_at is not None, record))
        now = timezone.now()
        lines: list[tuple[Any, ...]] = []
        scores: list[tuple[int, int, int, bool]] = []
        events: list[tuple[int, dict[str, Any] | None]] = []
        for match in matches:
            night = match.table.club_night
            confirmation = night.season.require_confirmation
            stored = deals[match.pk]
            active = [(i, r) for i, a, _c, r in stored if a]
            counting = [(i, r) for i, a, c, r in stored if a and (c or not confirmation)]
            envelope = match_envelope(match, [h for h, _pid in seats[match.pk]])
            result = engine.check_match({**envelope, "deals": [r for _i, r in counting]})
            lines += _lines(
                match, night.season_id, night.pk, seats[match.pk], counting, result, now
            )
            match.checked_version = match.version
            if rescore:  # after an engine change: the kept progress is redone at the next entry
                match.state = None
                checked = result
                if len(active) != len(counting):
                    checked = engine.check_match({**envelope, "deals": [r for _i, r in active]})
                s, e = progress.deal_rows(match.game, seats[match.pk], active, checked.deals)
                scores += s
                events += e
        MatchStanding.objects.filter(match__in=ids).delete()
        insert_rows(MatchStanding, LINE, lines)
        changed = ["checked_version", "state"] if rescore else ["checked_version"]
        update_rows(Match, changed, [(m.pk, *(getattr(m, f) for f in changed)) for m in matches])
        if rescore:
            deal_ids = list(Deal.objects.filter(match__in=ids).values_list("pk", flat=True))
            DealScore.objects.filter(deal_id__in=deal_ids).delete()  # no join: a plain plan
            insert_rows(DealScore, ["deal", "player", "score", "won"], scores)
            update_rows(Deal, ["event"], events)
        return sorted({m.table.club_night.season_id for m in matches})


def _lines(
    match: Match,
    season_id: int,
    night_id: int,
    seats: list[tuple[str, int]],
    counting: list[tuple[int, dict[str, Any]]],
    result: engine.MatchResult,
    now: dt.datetime,
) -> list[tuple[Any, ...]]:
    """The match's standings rows: the engine's lines, and what the season adds up."""
    ids = dict(seats)
    points: dict[str, int] = defaultdict(int)
    played: dict[str, list[Played]] = defaultdict(list)
    for (_deal_id, record), outcome in zip(counting, result.deals, strict=True):
        if outcome.valid:
            for handle, score in outcome.scores.items():
                points[handle] += score
                played[handle].append(Played(record, outcome.details, score, outcome.scores))
    league = league_game(match.game)
    finished, _winners = match.outcome(result)
    finished = finished and any(s.deals for s in result.standings)  # ended before a deal: no win
    size, worst = len(result.standings), max((s.rank for s in result.standings), default=1)
    return [
        (
            match.pk,
            ids[s.player],
            s.total,
            s.deals,
            s.deals_won,
            s.rank,
            now,
            season_id,
            match.game,
            night_id,
            finished,
            points[s.player],
            len(played[s.player]),
            finished and s.rank * 2 <= size,  # top half
            finished and 1 < s.rank == worst,  # last: nobody below, somebody above
            *_counts(league, league.player_numbers(played[s.player], s.player, result.details)),
        )
        for s in result.standings
    ]


def _counts(league: LeagueGame, numbers: dict[str, int]) -> list[int | None]:
    """A match line's count columns: the game's own counts in the order of its labels."""
    assert set(numbers) <= set(league.counts), f"{league}: counts not in its list"
    values = [numbers.get(key) for key, _column in count_columns(league)]
    return values + [None] * (COUNTS - len(values))
