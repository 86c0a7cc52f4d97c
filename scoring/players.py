"""A player's season in numbers, per game: the leaderboard's line (points, rank, deals,
deals won, matches won) and the game's own counts (``LeagueGame.player_numbers``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from scoring.models import SeasonStanding
from tournaments.games import LEAGUE_GAMES
from tournaments.models import DealScore, Player, Season, counting_deals


def season_numbers(player: Player, seasons: list[Season]) -> list[dict[str, Any]]:
    """One entry per season and game the player played, in the season's order of games."""
    rows = SeasonStanding.objects.filter(player=player, season__in=seasons).select_related("season")
    deals: dict[tuple[int, str], list[tuple[dict[str, Any], int]]] = defaultdict(list)
    scores = DealScore.objects.filter(counting_deals("deal__"), player=player,
                                      deal__match__table__club_night__season__in=seasons)  # fmt: skip
    for season_id, game, record, score in scores.values_list(
        "deal__match__table__club_night__season_id", "deal__match__game", "deal__record", "score"
    ):
        deals[(season_id, game)].append((record, score))
    out = []
    for row in sorted(rows, key=lambda r: (-r.season.pk, _order(r.season, r.game))):
        league = LEAGUE_GAMES.get(row.game)
        extra = (
            league.player_numbers(deals[(row.season_id, row.game)], player.handle) if league else []
        )
        out.append({"season": row.season, "game": row.game, "standing": row, "extra": extra})
    return out


def _order(season: Season, game: str) -> int:
    return season.games.index(game) if game in season.games else len(season.games)
