"""A realistic federation of clubs for load tests and benchmarks (``generate_federation``).

Every club has its players, one season counting every game, a club night a
week, tables, and matches of every game in turn: the kinds of match each game's
web module plans (``LeagueGame.federation``: seats, rules, target).  Every deal
is legal because the engine produced it: a pool of whole matches per planned
kind is played at random by the engine's own generators
(``engine.deal.play_match``), summarised with ``engine.summarize``, once per
process (:func:`pools`: a federation's seed chooses its players, seats and which
pool match each table plays, not the pools themselves), and each
stored match is one of those with the club's players in its seats, its deals
checked again by ``engine.check`` for their scores.  Matches run until the
engine's match rules end them (Comp-13's 12 deals, Packing's 500, the last
player left in Twenty-Two, a game per player in Comrade…), open-ended ones
(Napoleon, Rettler) for the planned number of deals.

Rows go in with ``insert_rows`` in batches, so a million deals take minutes,
not hours; standings and ratings are derived afterwards by ``rebuild_all``.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from dbtools.bulk import analyze, insert_rows
from engine.deal import play_match
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import PlannedMatch, strip_envelope
from tournaments.models import Club, ClubNight, Deal, DealScore, Match, Player, Season, Seat, Table
from tournaments.records import complete_record, match_record

PLAN: list[tuple[str, PlannedMatch]] = [
    (game.name, planned) for game in LEAGUE_GAMES.values() for planned in game.federation
]
"""The kinds of generated match, in turn."""
POOL = 24
"""Distinct engine-played matches per kind of match."""
BATCH = 2000
TABLES_PER_NIGHT = 6
PLACEHOLDER = "seat{}"


def match_pool(game: str, planned: PlannedMatch, rng: random.Random, size: int = POOL) -> list[str]:
    """Whole matches played by the engine, as JSON lists of summaries with ``seat0``,
    ``seat1`` … for the players."""
    rules = engine.GAMES[game]
    seats = [PLACEHOLDER.format(i) for i in range(planned.players)]
    pool = []
    for _ in range(size):
        most = rng.randint(*planned.deals) if planned.target is None else None
        deals = play_match(rules, rng, seats, planned.rules, planned.target, most)
        pool.append(json.dumps([strip_envelope(engine.summarize(d)) for d in deals]))
    return pool


POOL_SEED = 2026


@functools.cache
def pools() -> tuple[tuple[str, ...], ...]:
    """The pool of every kind of match of :data:`PLAN`, in its order, played once per
    process from :data:`POOL_SEED`: every federation a process generates draws its matches
    from the same pools, so a process that generates many (the test suite) plays them once."""
    rng = random.Random(POOL_SEED)
    return tuple(tuple(match_pool(game, planned, rng)) for game, planned in PLAN)


def seated(template: str, handles: list[str]) -> Any:
    """A pool match (or deal) with the match's players in its seats."""
    for i, handle in enumerate(handles):
        template = template.replace(f'"{PLACEHOLDER.format(i)}"', json.dumps(handle))
    return json.loads(template)


@dataclass
class Report:
    clubs: int = 0
    players: int = 0
    matches: int = 0
    deals: int = 0
    by_game: dict[str, int] = field(default_factory=dict)


class _Writer:
    """Collects deals and their scores and writes them in batches (``insert_rows``)."""

    def __init__(self) -> None:
        self.deals: list[tuple[int, int, dict[str, Any], dt.datetime]] = []
        """(match id, number, record, entered at)"""
        self.scores: list[list[tuple[int, int, bool]]] = []
        """per deal: (player id, score, won)"""

    def add(
        self,
        deal: tuple[int, int, dict[str, Any], dt.datetime],
        scores: list[tuple[int, int, bool]],
    ) -> None:
        self.deals.append(deal)
        self.scores.append(scores)
        if len(self.deals) >= BATCH:
            self.flush()

    def flush(self) -> None:
        ids = insert_rows(Deal, ["match", "number", "record", "entered_at"], self.deals, ids=True)
        insert_rows(
            DealScore,
            ["deal", "player", "score", "won"],
            ((pk, *line) for pk, scores in zip(ids, self.scores, strict=True) for line in scores),
        )
        self.deals, self.scores = [], []


def generate(
    clubs: int,
    players: int,
    deals: int,
    seed: int,
    progress: Callable[[str], None] = lambda _: None,
    tables: int = TABLES_PER_NIGHT,
) -> Report:
    """Create ``clubs`` clubs sharing ``players`` players and ``deals`` deals in all, at
    ``tables`` tables a club night."""
    rng = random.Random(seed)
    played = pools()
    report = Report(clubs=clubs, players=players)
    per_club = [deals // clubs + (1 if i < deals % clubs else 0) for i in range(clubs)]
    start = Club.objects.count()
    for c in range(clubs):
        with transaction.atomic():
            made = _club(
                start + c + 1, max(players // clubs, 6), per_club[c], rng, played, report, tables
            )
        progress(f"club {c + 1}/{clubs}: {made} deals")
    analyze([Club, Player, Season, ClubNight, Table, Match, Seat, Deal, DealScore])
    return report


def _club(
    number: int,
    n_players: int,
    n_deals: int,
    rng: random.Random,
    played: tuple[tuple[str, ...], ...],
    report: Report,
    tables_per_night: int,
) -> int:
    club = Club.objects.create(name=f"Federation Club {number}", slug=f"fed-{number}")
    members = Player.objects.bulk_create(
        Player(club=club, handle=f"p{i:05d}", display_name=f"Player {number}-{i}")
        for i in range(n_players)
    )
    season = Season.objects.create(
        club=club,
        name="Federation Season",
        games=list(dict.fromkeys(g for g, _ in PLAN)),
        starts_on=dt.date(2026, 1, 6),
    )
    writer = _Writer()
    made = 0
    day = dt.date(2026, 1, 6)
    plan = iter(list(enumerate(PLAN)) * (n_deals + 1))
    while made < n_deals:
        night = ClubNight.objects.create(season=season, date=day, venue="Club room")
        day += dt.timedelta(days=7)
        tables = Table.objects.bulk_create(
            Table(club_night=night, name=f"Table {t + 1}") for t in range(tables_per_night)
        )
        started = timezone.make_aware(dt.datetime.combine(night.date, dt.time(19)))
        kinds = [next(plan) for _ in tables]
        matches = Match.objects.bulk_create(
            Match(
                table=table,
                game=game,
                rules=planned.rules,
                target=planned.target
                if planned.target is not None
                else engine.GAMES[game].default_target,
                created_at=started + dt.timedelta(seconds=t),
            )
            for t, (table, (_k, (game, planned))) in enumerate(zip(tables, kinds, strict=True))
        )
        seated_players = [rng.sample(members, planned.players) for _k, (_g, planned) in kinds]
        seats = Seat.objects.bulk_create(
            Seat(match=match, player=p, position=i)
            for match, players in zip(matches, seated_players, strict=True)
            for i, p in enumerate(players)
        )
        by_match: dict[int, list[Seat]] = {}
        for seat in seats:
            by_match.setdefault(seat.match_id, []).append(seat)
        finished = []
        for match, players, (k, (game, _p)) in zip(matches, seated_players, kinds, strict=True):
            if made >= n_deals:
                match.delete()  # the federation is complete: no empty match
                continue
            match._prefetched_objects_cache = {  # type: ignore[attr-defined]
                "seats": by_match[match.pk]
            }  # complete_record reads them
            count, done = _match(match, players, played[k], n_deals - made, rng, writer)
            made += count
            report.matches += 1
            report.deals += count
            report.by_game[game] = report.by_game.get(game, 0) + count
            if done:
                finished.append(match.pk)
        Match.objects.filter(pk__in=finished).update(
            status=Match.Status.FINISHED, finished_at=started
        )
    writer.flush()
    return made


def _match(
    match: Match,
    players: list[Player],
    pool: Sequence[str],
    room: int,
    rng: random.Random,
    writer: _Writer,
) -> tuple[int, bool]:
    """Store one pool match with the match's players in its seats (at most ``room`` deals);
    (deals, finished)."""
    handles = [p.handle for p in players]
    ids = {p.handle: p.pk for p in players}
    deals = seated(rng.choice(pool), handles)[:room]
    previous: list[dict[str, Any]] = []
    for number, deal in enumerate(deals, start=1):
        record = complete_record(match, deal, previous)
        result = engine.check(record)
        if not result.valid:  # a pool match is legal in any seats; this would be a bug
            raise AssertionError(f"generated {match.game} deal refused: {result.errors[0].message}")
        previous.append(record)
        at = match.created_at + dt.timedelta(minutes=10 * number)
        writer.add(
            (match.pk, number, record, at),
            [(ids[h], s, h in result.winners) for h, s in result.scores.items()],
        )
    finished = engine.check_match(match_record(match, previous)).finished
    return len(deals), finished
