"""Skill ratings per game, from the deal records alone (issue 7).

The model is OpenSkill's Plackett-Luce (the ``openskill`` package, its defaults:
mu 25, sigma 25/3); the displayed rating is its ordinal, mu - 3 sigma, so a new
player starts at 0 and climbs as the system grows sure of them.  Every counting
deal (not deleted; confirmed where the season asks for it) is one rated event,
whose teams the game's web module forms (``LeagueGame.rating_teams``):

- by default the engine's sides (every player alone, or Packing's partnerships)
  ranked by their deal score, equal scores equal ranks; only the players with a
  score in the deal take part (Twenty-Two: those already out have none);
- Napoleon and Rettler: the army against the coalition, weighted and staked by
  the deal's multiplier (``tournaments.games.declarer``).

Games the engine marks as not ``rated`` (the cooperative Comrade) have no
ratings: everyone wins or loses together, so there is nobody to be ranked against.

Ratings are per club and game, in a fixed order of the deals: club night date,
match start, match id, deal number.  ``rebuild_ratings`` replays a club's
deals of one game from a given night on, starting from each player's last
rating before that night; a rebuild from scratch gives the same numbers as the
incremental updates, whatever order the deals were entered in.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.db import transaction
from django.db.models import F, OuterRef, QuerySet, Subquery
from openskill.models import PlackettLuce

import engine
from scoring.models import Rating, RatingHistory, SeasonStanding
from scoring.sheets import SeasonChart, Series
from tournaments.bulk import insert_rows
from tournaments.games import league_game
from tournaments.models import Club, Deal, DealScore, Match, Player, Seat, counting_deals

MODEL = PlackettLuce()
BATCH = 5000

DEAL_ORDER = ("match__table__club_night__date", "match__created_at", "match_id", "number")


@dataclass(frozen=True)
class Event:
    """One deal as the rating sees it: teams of player ids, ranks (lower is better)."""

    teams: list[list[int]]
    ranks: list[float]
    weights: list[list[float]] | None = None
    stake: float = 1.0
    """How far mu moves, relative to the library's update."""


def event(
    game: str, record: dict[str, Any], seats: list[tuple[str, int]], scores: dict[int, int]
) -> Event:
    """The rated event of one deal: ``seats`` are (handle, player id) in order of play."""
    ids = dict(seats)
    in_deal = [h for h, pid in seats if pid in scores]
    by_handle = {h: scores[ids[h]] for h in in_deal}
    rated = league_game(game).rating_teams(record, in_deal, by_handle)
    teams = [[ids[h] for h in team] for team in rated.teams]
    return Event(teams, list(rated.ranks), rated.weights, rated.stake)


State = dict[int, tuple[float, float, int]]
"""Player id → (mu, sigma, deals rated)."""


def rate(ev: Event, state: State) -> list[tuple[int, float, float]]:
    """The new (player, mu, sigma) of everyone in the event; ``state`` is updated."""
    teams = [
        [MODEL.rating(*state.get(pid, (MODEL.mu, MODEL.sigma, 0))[:2]) for pid in team]
        for team in ev.teams
    ]
    rated = MODEL.rate(teams, ranks=list(ev.ranks), weights=ev.weights)
    out = []
    for team, before, after in zip(ev.teams, teams, rated, strict=True):
        for pid, old, new in zip(team, before, after, strict=True):
            mu = old.mu + ev.stake * (new.mu - old.mu)
            deals = state.get(pid, (0.0, 0.0, 0))[2] + 1
            state[pid] = (mu, new.sigma, deals)
            out.append((pid, mu, new.sigma))
    return out


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def _deals(club_id: int, game: str, since: dt.date | None) -> Iterator[tuple[Any, ...]]:
    """(deal id, night, record or None, seats, {player id: score}) in rating order, streamed:
    the deals through a server-side cursor, and per batch of them one query for their
    scores and one for their matches' seats (lookups by id, whatever the planner knows)."""
    deals = Deal.objects.filter(counting_deals(), match__game=game,
                                match__table__club_night__season__club_id=club_id)  # fmt: skip
    if since is not None:
        deals = deals.filter(match__table__club_night__date__gte=since)
    fields = ["pk", "match_id", "match__table__club_night__date"]
    if league_game(game).rating_needs_record:
        fields.append("record")
    rows = deals.order_by(*DEAL_ORDER).values_list(*fields).iterator(chunk_size=BATCH)
    while batch := list(islice(rows, BATCH)):
        scores: dict[int, dict[int, int]] = defaultdict(dict)
        for deal_id, player_id, score in DealScore.objects.filter(
            deal_id__in=[r[0] for r in batch]
        ).values_list("deal_id", "player_id", "score"):
            scores[deal_id][player_id] = score
        seats: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for match_id, handle, player_id in (
            Seat.objects.filter(match_id__in={r[1] for r in batch})
            .order_by("match_id", "position")
            .values_list("match_id", "player__handle", "player_id")
        ):
            seats[match_id].append((handle, player_id))
        for row in batch:
            yield row[0], row[2], row[3] if len(row) > 3 else {}, seats[row[1]], scores[row[0]]


def rebuild_ratings(club_id: int, game: str, since: dt.date | None = None) -> int:
    """Replay the club's ratings in ``game`` from the night ``since`` (``None``: from the
    first deal); returns the number of deals rated.  Under a lock on the club: two
    rebuilds of one club run one after the other."""
    if not engine.GAMES[game].rated:
        return 0
    with transaction.atomic():
        if not Club.objects.select_for_update().filter(pk=club_id).exists():
            return 0
        history = RatingHistory.objects.filter(player__club_id=club_id, game=game)
        state: State = {}
        seq = 0
        if since is None:
            history.delete()
        else:
            history.filter(night__gte=since).delete()
            last = history.filter(player=OuterRef("pk")).order_by("-seq")
            players = Player.objects.filter(club_id=club_id).annotate(
                mu=Subquery(last.values("mu")[:1]),
                sigma=Subquery(last.values("sigma")[:1]),
                n=Subquery(last.values("deals")[:1]),
                seq=Subquery(last.values("seq")[:1]),
            )
            for pid, mu, sigma, n, at in players.filter(mu__isnull=False).values_list(
                "pk", "mu", "sigma", "n", "seq"
            ):
                state[pid] = (mu, sigma, n)
                seq = max(seq, at)
        rated, pending = 0, []
        fields = ["player", "game", "deal", "night", "seq", "mu", "sigma", "rating", "deals"]
        for deal_id, night, record, seats, scores in _deals(club_id, game, since):
            seq += 1
            rated += 1
            for pid, mu, sigma in rate(event(game, record, seats, scores), state):
                pending.append(
                    (pid, game, deal_id, night, seq, mu, sigma, ordinal(mu, sigma), state[pid][2])
                )
            if len(pending) >= BATCH:
                insert_rows(RatingHistory, fields, pending)
                pending = []
        insert_rows(RatingHistory, fields, pending)
        Rating.objects.filter(player__club_id=club_id, game=game).delete()
        insert_rows(Rating, ["player", "game", "mu", "sigma", "rating", "deals"],
                    ((pid, game, mu, sigma, ordinal(mu, sigma), n) for pid, (mu, sigma, n) in state.items()))  # fmt: skip
        return rated


def refresh_match_ratings(match_id: int) -> None:
    """After a change to a match's deals: replay its club's ratings from the match's night."""
    match = (
        Match.objects.filter(pk=match_id)
        .values_list("game", "table__club_night__date", "table__club_night__season__club_id")
        .first()
    )
    if match is not None:
        game, night, club_id = match
        rebuild_ratings(club_id, game, since=night)


def rebuild_club_ratings(club_id: int) -> None:
    """Every game of the club from scratch (``rebuild_standings``)."""
    games = Match.objects.filter(table__club_night__season__club_id=club_id).values_list(
        "game", flat=True
    )
    for game in sorted(set(games)):
        rebuild_ratings(club_id, game)


def with_ratings(standings: QuerySet[SeasonStanding]) -> QuerySet[SeasonStanding]:
    """Season standings annotated with each player's current rating in the row's game."""
    current = Rating.objects.filter(player=OuterRef("player"), game=OuterRef("game"))
    return standings.annotate(rating=Subquery(current.values("rating")[:1]))


def by_rating(standings: QuerySet[SeasonStanding]) -> QuerySet[SeasonStanding]:
    return with_ratings(standings).order_by("game", F("rating").desc(nulls_last=True), "rank")


def rating_chart(player: Player, game: str) -> SeasonChart:
    """The player's rating after each of their deals in ``game``, with the nights marked."""
    rows = RatingHistory.objects.filter(player=player, game=game).order_by("seq")
    points: list[tuple[int, float]] = []
    nights: list[tuple[int, dt.date]] = []
    for i, (rating, night) in enumerate(rows.values_list("rating", "night"), start=1):
        points.append((i, round(rating, 1)))
        if not nights or nights[-1][1] != night:
            nights.append((i, night))
    series = [Series(player, points)] if points else []
    return SeasonChart(series=series, deals=len(points), nights=nights)
