"""A realistic federation of clubs for load tests and benchmarks (``generate_federation``).

Every club has its players, one season counting every game, a club night a
week, tables, and matches of every implemented game; every deal is legal
because the engine produced it: a pool of deals per game and player count is
played at random by the engine's own simulators (``engine.games.simulate``,
``comp13_play``, ``packing_play``), summarised with ``engine.summarize``, and
each stored deal is one of those with the match's players in its seats,
checked again by ``engine.check`` for its scores.  Comp-13 matches run their 12
deals, Packing matches until a side passes 500 (the engine's ``is_finished``),
Napoleon and Rettler matches 4 to 12 deals.

Rows go in with ``bulk_create`` in batches, so a million deals take minutes,
not hours; standings and ratings are derived afterwards by ``rebuild_all``.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from engine.cards import standard_deck
from engine.games.comp13_play import random_comp13_deal
from engine.games.packing_play import random_packing_deal
from engine.games.simulate import random_full_deal
from tournaments.actions import complete_record
from tournaments.models import Club, ClubNight, Deal, DealScore, Match, Player, Season, Seat, Table

PLAN: list[tuple[str, int]] = [
    ("rettler", 6),
    ("napoleon", 4),
    ("napoleon", 5),
    ("comp13", 4),
    ("comp13", 3),
    ("packing", 4),
    ("packing", 2),
]
"""The (game, players) of the generated matches, in turn."""
POOL = 120
"""Distinct engine-played deals per (game, players)."""
BATCH = 2000
TABLES_PER_NIGHT = 6
PLACEHOLDER = "seat{}"


def _full_deal(game: str, seats: list[str], rng: random.Random) -> dict[str, Any]:
    rules = engine.GAMES[game]
    if game == "comp13":
        return random_comp13_deal(seats, standard_deck(jokers=0), rng)
    if game == "packing":
        teams = rules.sides(seats) if len(seats) in (4, 6) else None
        return random_packing_deal(seats, rules.deck(len(seats)), rng, teams)
    return random_full_deal(rules, seats, rng)


def deal_pool(game: str, n: int, rng: random.Random, size: int = POOL) -> list[str]:
    """Summaries of engine-played deals as JSON with ``seat0``, ``seat1`` … for the players."""
    seats = [PLACEHOLDER.format(i) for i in range(n)]
    pool = []
    for _ in range(size):
        summary = engine.summarize(_full_deal(game, seats, rng))
        for key in ("game", "players", "rules", "teams"):
            summary.pop(key, None)  # the match fills its envelope in
        pool.append(json.dumps(summary))
    return pool


def seated(template: str, handles: list[str]) -> dict[str, Any]:
    """A pool deal with the match's players in its seats."""
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
    """Collects deals and their scores and writes them in batches."""

    def __init__(self) -> None:
        self.deals: list[Deal] = []
        self.scores: list[list[DealScore]] = []

    def add(self, deal: Deal, scores: list[DealScore]) -> None:
        self.deals.append(deal)
        self.scores.append(scores)
        if len(self.deals) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.deals:
            return
        Deal.objects.bulk_create(self.deals)
        for deal, scores in zip(self.deals, self.scores, strict=True):
            for score in scores:
                score.deal_id = deal.pk
        DealScore.objects.bulk_create(
            [s for scores in self.scores for s in scores], batch_size=BATCH * 4
        )
        self.deals, self.scores = [], []


def generate(clubs: int, players: int, deals: int, seed: int,
             progress: Callable[[str], None] = lambda _: None) -> Report:  # fmt: skip
    """Create ``clubs`` clubs sharing ``players`` players and ``deals`` deals in all."""
    rng = random.Random(seed)
    pools = {(game, n): deal_pool(game, n, rng) for game, n in PLAN}
    report = Report(clubs=clubs, players=players)
    per_club = [deals // clubs + (1 if i < deals % clubs else 0) for i in range(clubs)]
    start = Club.objects.count()
    for c in range(clubs):
        with transaction.atomic():
            made = _club(start + c + 1, max(players // clubs, 6), per_club[c], rng, pools, report)
        progress(f"club {c + 1}/{clubs}: {made} deals")
    return report


def _club(number: int, n_players: int, n_deals: int, rng: random.Random,
          pools: dict[tuple[str, int], list[str]], report: Report) -> int:  # fmt: skip
    club = Club.objects.create(name=f"Federation Club {number}", slug=f"fed-{number}")
    members = Player.objects.bulk_create(
        Player(club=club, handle=f"p{i:05d}", display_name=f"Player {number}-{i}")
        for i in range(n_players)
    )
    season = Season.objects.create(club=club, name="Federation Season", games=sorted({g for g, _ in PLAN}),
                                   starts_on=dt.date(2026, 1, 6))  # fmt: skip
    writer = _Writer()
    made = 0
    nights = _nights(season)
    plan = iter(PLAN * (n_deals + 1))
    while made < n_deals:
        night = next(nights)
        tables = Table.objects.bulk_create(
            Table(club_night=night, name=f"Table {t + 1}") for t in range(TABLES_PER_NIGHT)
        )
        for table in tables:
            if made >= n_deals:
                break
            game, n = next(plan)
            made += _match(table, game, rng.sample(members, n), pools[(game, n)], n_deals - made, rng,
                           writer, report)  # fmt: skip
    writer.flush()
    return made


def _nights(season: Season) -> Iterator[ClubNight]:
    day = season.starts_on or dt.date(2026, 1, 6)
    while True:
        yield ClubNight.objects.create(season=season, date=day, venue="Club room")
        day += dt.timedelta(days=7)


def _match(table: Table, game: str, players: list[Player], pool: list[str], room: int,
           rng: random.Random, writer: _Writer, report: Report) -> int:  # fmt: skip
    rules = engine.GAMES[game]
    target = rules.default_target
    started = timezone.make_aware(dt.datetime.combine(table.club_night.date, dt.time(19)))
    match = Match.objects.create(table=table, game=game, target=target, created_at=started)
    seats = Seat.objects.bulk_create(
        Seat(match=match, player=p, position=i) for i, p in enumerate(players)
    )
    match._prefetched_objects_cache = {"seats": seats}  # complete_record reads the seats
    handles = [p.handle for p in players]
    by_handle = {p.handle: p for p in players}
    sides = rules.sides(handles)
    totals = [0] * len(sides)
    limit = min(room, 12 if target is None else 60)
    wanted = rng.randint(4, 12) if target is None else limit
    number = 0
    while number < min(wanted, limit):
        record = complete_record(match, seated(rng.choice(pool), handles))
        result = engine.check(record)
        if not result.valid:  # a pool deal is legal in any seats; this would be a bug
            raise AssertionError(f"generated {game} deal refused: {result.errors[0].message}")
        number += 1
        deal = Deal(
            match=match,
            number=number,
            record=record,
            entered_at=started + dt.timedelta(minutes=10 * number),
        )
        writer.add(deal, [DealScore(player=by_handle[h], score=s, won=h in result.winners)
                          for h, s in result.scores.items()])  # fmt: skip
        totals = [t + result.scores[side[0]] for t, side in zip(totals, sides, strict=True)]
        if rules.is_finished(totals, number, target):
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.FINISHED, finished_at=deal.entered_at
            )
            break
    report.matches += 1
    report.deals += number
    report.by_game[game] = report.by_game.get(game, 0) + number
    return number
