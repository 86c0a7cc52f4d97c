"""A player's season in numbers, per game: the leaderboard's line (points, rank) and the
game's statistics (``tournaments.games.statistics``), made of the sums the season
rebuild keeps on the line (``SeasonStanding``: its count columns and rank sums): one query, whatever the number of deals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.models import SeasonStanding
from scoring.season_totals import RANK_SUMS, count_columns
from tournaments.games import LEAGUE_GAMES
from tournaments.games.statistics import GENERIC, Statistic
from tournaments.models import Player, Season

LINE_SUMS = ("matches", "matches_won", "deals", "deals_won", *RANK_SUMS)
"""The season line's own columns the generic statistics are made of (and ``points``)."""


def sums(line: SeasonStanding) -> dict[str, int]:
    """Everything a statistic of the line's game may be made of: the game's own counts
    (from their columns), the line's sums, and its points."""
    league = LEAGUE_GAMES.get(line.game)
    columns = count_columns(league) if league else []
    own = {key: getattr(line, column) or 0 for key, column in columns}
    return {**own, **{name: getattr(line, name) for name in LINE_SUMS}, "points": line.total}


def statistics_of(game: str) -> tuple[Statistic, ...]:
    """The game's statistics, the generic ones first."""
    league = LEAGUE_GAMES.get(game)
    return league.all_statistics() if league else GENERIC


def figures(line: SeasonStanding) -> list[tuple[Statistic, int | float | None]]:
    """Each statistic of the line's game with its value (``None``: nothing to divide by)."""
    have = sums(line)
    return [(s, s.value(have)) for s in statistics_of(line.game)]


def season_numbers(player: Player, seasons: Iterable[Season]) -> list[dict[str, Any]]:
    """One entry per season and game the player played, in the season's order of games."""
    rows = SeasonStanding.objects.filter(player=player, season__in=seasons).select_related("season")
    out = []
    for row in sorted(rows, key=lambda r: (-r.season.pk, _order(r.season, r.game))):
        have = sums(row)
        shown = [(s, s.shown(have)) for s in statistics_of(row.game)]
        out.append({"season": row.season, "game": row.game, "standing": row, "statistics": shown})
    return out


def _order(season: Season, game: str) -> int:
    return season.games.index(game) if game in season.games else len(season.games)
