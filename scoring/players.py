"""A player's season in numbers, per game: the leaderboard's line (points, rank, deals,
deals won, matches won) and the game's own counts (``LeagueGame.player_numbers``,
added up by the season rebuild into ``SeasonStanding.numbers``): one query, whatever
the number of deals."""

from __future__ import annotations

from typing import Any

from scoring.models import SeasonStanding
from tournaments.games import LEAGUE_GAMES
from tournaments.models import Player, Season


def season_numbers(player: Player, seasons: list[Season]) -> list[dict[str, Any]]:
    """One entry per season and game the player played, in the season's order of games."""
    rows = SeasonStanding.objects.filter(player=player, season__in=seasons).select_related("season")
    out = []
    for row in sorted(rows, key=lambda r: (-r.season.pk, _order(r.season, r.game))):
        league = LEAGUE_GAMES.get(row.game)
        labels = league.number_labels if league else {}
        extra = [(label, row.numbers.get(key, 0)) for key, label in labels.items()]
        out.append({"season": row.season, "game": row.game, "standing": row, "extra": extra})
    return out


def _order(season: Season, game: str) -> int:
    return season.games.index(game) if game in season.games else len(season.games)
