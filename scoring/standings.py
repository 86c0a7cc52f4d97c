"""Rebuilding standings from the stored deals.

Both rebuilds recompute everything from the deals under a row lock and replace
the old rows in the same transaction, so running one twice gives the same rows
and two running at once (deals committed at two tables of one season) cannot
lose an update: the second waits for the lock and then reads both deals.
The match rules (who leads, who won) are the engine's ``check_match``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import Count, Prefetch, Q, Sum
from django.utils import timezone

import engine
from scoring.models import MatchStanding, SeasonStanding
from scoring.ratings import rebuild_club_ratings
from tournaments.bulk import insert_rows
from tournaments.models import Deal, DealScore, Match, Season, Seat, counting_deals
from tournaments.records import match_record


def rebuild_match_standings(match_id: int) -> int | None:
    """Rewrite a match's standings; returns its season's id (``None``: no such match)."""
    seasons = rebuild_matches([match_id])
    return seasons[0] if seasons else None


CHUNK = 500
"""Matches rebuilt per transaction by a full rebuild."""


def rebuild_matches(match_ids: list[int]) -> list[int]:
    """Rewrite the standings of these matches (locked, in one transaction) with three
    queries whatever their number; returns their seasons' ids."""
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update(of=("self",))
            .filter(pk__in=match_ids)
            .select_related("table__club_night")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
            .order_by("pk")
        )
        records: dict[int, list[Any]] = defaultdict(list)
        deals = Deal.objects.filter(counting_deals(), match__in=[m.pk for m in matches])
        for match_id, record in deals.order_by("match_id", "number").values_list(
            "match_id", "record"
        ):
            records[match_id].append(record)
        rows = []
        now = timezone.now()
        for match in matches:
            players = {seat.player.handle: seat.player for seat in match.seats.all()}
            result = engine.check_match(match_record(match, records[match.pk]))
            rows += [(match.pk, players[s.player].pk, s.total, s.deals, s.deals_won, s.rank, now)
                     for s in result.standings]  # fmt: skip
        MatchStanding.objects.filter(match__in=matches).delete()
        insert_rows(
            MatchStanding,
            ["match", "player", "total", "deals", "deals_won", "rank", "updated_at"],
            rows,
        )
        return sorted({m.table.club_night.season_id for m in matches})


def rebuild_season_standings(season_id: int) -> bool:
    """Rewrite a season's leaderboards (one per game); ``False`` when there is no such season."""
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id).first()
        if season is None:
            return False
        in_season = Q(deal__match__table__club_night__season=season) & counting_deals("deal__")
        totals = (
            DealScore.objects.filter(in_season)
            .values("deal__match__game", "player_id")
            .annotate(
                total=Sum("score"),
                deals=Count("id"),
                deals_won=Count("id", filter=Q(won=True)),
                matches=Count("deal__match", distinct=True),
            )
        )
        wins = (
            MatchStanding.objects.filter(
                match__table__club_night__season=season,
                match__status=Match.Status.FINISHED,
                rank=1,
            )
            .values("match__game", "player_id")
            .annotate(n=Count("id"))
        )
        matches_won = {(w["match__game"], w["player_id"]): w["n"] for w in wins}
        by_game: dict[str, list[dict]] = defaultdict(list)
        for row in totals:
            by_game[row["deal__match__game"]].append(row)

        rows: list[SeasonStanding] = []
        for game_name, lines in by_game.items():
            rank_key = engine.GAMES[game_name].rank_key
            lines.sort(key=lambda r: (rank_key(r["total"], r["deals_won"]), r["player_id"]))
            previous = None
            rank = 0
            for position, line in enumerate(lines, start=1):
                key = rank_key(line["total"], line["deals_won"])
                if key != previous:
                    rank, previous = position, key
                rows.append(
                    SeasonStanding(
                        season=season,
                        game=game_name,
                        player_id=line["player_id"],
                        total=line["total"],
                        deals=line["deals"],
                        deals_won=line["deals_won"],
                        matches=line["matches"],
                        matches_won=matches_won.get((game_name, line["player_id"]), 0),
                        rank=rank,
                    )
                )
        SeasonStanding.objects.filter(season=season).delete()
        SeasonStanding.objects.bulk_create(rows)
        return True


def rebuild_all(*, club_id: int | None = None, season_id: int | None = None) -> tuple[int, int]:
    """Rebuild the matches' and then the seasons' standings (all, one club's or one season's),
    then the ratings of the clubs concerned (from scratch); returns (seasons, matches)."""
    matches = Match.objects.all()
    seasons = Season.objects.all()
    if club_id is not None:
        matches = matches.filter(table__club_night__season__club_id=club_id)
        seasons = seasons.filter(club_id=club_id)
    if season_id is not None:
        matches = matches.filter(table__club_night__season_id=season_id)
        seasons = seasons.filter(pk=season_id)
    match_ids = list(matches.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(match_ids), CHUNK):
        rebuild_matches(match_ids[start : start + CHUNK])
    season_ids = list(seasons.values_list("pk", flat=True))
    for season_id in season_ids:
        rebuild_season_standings(season_id)
    for club in sorted(set(seasons.values_list("club_id", flat=True))):
        rebuild_club_ratings(club)
    return len(season_ids), len(match_ids)
