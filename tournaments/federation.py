"""A realistic federation of clubs for load tests and benchmarks (``generate_federation``).

Every club has its players, one season counting every game, a club night a
week, tables, and matches of the four headline games (``PLAN``; Twenty-Two,
1234, Bhabhi and Comrade are not generated); every deal is legal
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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from engine.cards import standard_deck
from engine.games.comp13_play import random_comp13_deal
from engine.games.packing_play import random_packing_deal
from engine.games.simulate import random_full_deal
from scoring.bulk import insert_rows
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
        insert_rows(DealScore, ["deal", "player", "score", "won"],
                    ((pk, *line) for pk, scores in zip(ids, self.scores, strict=True) for line in scores))  # fmt: skip
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
    day = dt.date(2026, 1, 6)
    plan = iter(PLAN * (n_deals + 1))
    while made < n_deals:
        night = ClubNight.objects.create(season=season, date=day, venue="Club room")
        day += dt.timedelta(days=7)
        tables = Table.objects.bulk_create(
            Table(club_night=night, name=f"Table {t + 1}") for t in range(TABLES_PER_NIGHT)
        )
        started = timezone.make_aware(dt.datetime.combine(night.date, dt.time(19)))
        games = [next(plan) for _ in tables]
        matches = Match.objects.bulk_create(
            Match(table=table, game=game, target=engine.GAMES[game].default_target,
                  created_at=started + dt.timedelta(seconds=t))
            for t, (table, (game, _n)) in enumerate(zip(tables, games, strict=True))
        )  # fmt: skip
        seated_players = [rng.sample(members, n) for _game, n in games]
        seats = Seat.objects.bulk_create(
            Seat(match=match, player=p, position=i)
            for match, players in zip(matches, seated_players, strict=True)
            for i, p in enumerate(players)
        )
        by_match: dict[int, list[Seat]] = {}
        for seat in seats:
            by_match.setdefault(seat.match_id, []).append(seat)
        finished = []
        for match, players, (game, n) in zip(matches, seated_players, games, strict=True):
            if made >= n_deals:
                match.delete()  # the federation is complete: no empty match
                continue
            match._prefetched_objects_cache = {
                "seats": by_match[match.pk]
            }  # complete_record reads them
            count, done = _match(match, players, pools[(game, n)], n_deals - made, rng, writer)
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


def _match(match: Match, players: list[Player], pool: list[str], room: int, rng: random.Random,
           writer: _Writer) -> tuple[int, bool]:  # fmt: skip
    """Play the match's deals from the pool; (deals, finished)."""
    rules = engine.GAMES[match.game]
    target = match.target
    handles = [p.handle for p in players]
    ids = {p.handle: p.pk for p in players}
    sides = rules.sides(handles)
    totals = [0] * len(sides)
    wanted = rng.randint(4, 12) if target is None else 60
    number = 0
    while number < min(wanted, room):
        record = complete_record(match, seated(rng.choice(pool), handles))
        result = engine.check(record)
        if not result.valid:  # a pool deal is legal in any seats; this would be a bug
            raise AssertionError(f"generated {match.game} deal refused: {result.errors[0].message}")
        number += 1
        at = match.created_at + dt.timedelta(minutes=10 * number)
        writer.add((match.pk, number, record, at),
                   [(ids[h], s, h in result.winners) for h, s in result.scores.items()])  # fmt: skip
        totals = [t + result.scores[side[0]] for t, side in zip(totals, sides, strict=True)]
        if rules.is_finished(totals, number, target):
            return number, True
    return number, False
