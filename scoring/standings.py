"""Rebuilding standings from the stored deals.

Both rebuilds recompute everything from the deals under a row lock and replace
the old rows in the same transaction, so running one twice gives the same rows
and two running at once (deals committed at two tables of one season) cannot
lose an update: the second waits for the lock and then reads both deals.
The match rules (who leads, who won) are the engine's ``check_match``.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import Count, Q, Sum

import engine
from scoring.models import MatchStanding, SeasonStanding
from scoring.ratings import rebuild_club_ratings
from tournaments.actions import match_record
from tournaments.models import DealScore, Match, Season, counting_deals


def rebuild_match_standings(match_id: int) -> int | None:
    """Rewrite a match's standings; returns its season's id (``None``: no such match)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return None
        seats = match.seats.select_related("player")
        players = {seat.player.handle: seat.player for seat in seats}
        records = list(
            match.deals.filter(counting_deals()).order_by("number").values_list("record", flat=True)
        )
        result = engine.check_match(match_record(match, records))
        MatchStanding.objects.filter(match=match).delete()
        MatchStanding.objects.bulk_create(
            MatchStanding(
                match=match,
                player=players[s.player],
                total=s.total,
                deals=s.deals,
                deals_won=s.deals_won,
                rank=s.rank,
            )
            for s in result.standings
        )
        return match.table.club_night.season_id


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
    match_ids = list(matches.values_list("pk", flat=True))
    for match_id in match_ids:
        rebuild_match_standings(match_id)
    season_ids = list(seasons.values_list("pk", flat=True))
    for season_id in season_ids:
        rebuild_season_standings(season_id)
    for club in sorted(set(seasons.values_list("club_id", flat=True))):
        rebuild_club_ratings(club)
    return len(season_ids), len(match_ids)
