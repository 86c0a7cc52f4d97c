"""A player's season in numbers, per game: the leaderboard's line (points, rank) and the
game's statistics (``tournaments.games.statistics``), made of the sums the season
rebuild keeps on the line (``SeasonStanding``: its count columns and rank sums): one query, whatever the number of deals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import F
from django.utils.translation import gettext

from scoring.finals import ordinal
from scoring.models import SeasonStanding
from scoring.season_totals import RANK_SUMS, count_columns
from tournaments.games import LEAGUE_GAMES
from tournaments.games.statistics import GENERIC, Statistic
from tournaments.models import Division, Placement, Player, Season

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
    """One entry per season and game the player played, in the season's order of games,
    with its ``rank`` said on its board: the division's when the player has one that
    season ("3rd in Division A", ranked among its players as its leaderboard ranks them),
    else the season's ("3rd in the season").  Three queries, whatever the seasons."""
    seasons = list(seasons)
    rows = SeasonStanding.objects.filter(player=player, season__in=seasons).select_related("season")
    placed = {
        p.season_id: p.division
        for p in Placement.objects.filter(player=player, season__in=seasons).select_related(
            "division"
        )
    }
    ahead = _division_ranks(placed)
    out = []
    for row in sorted(rows, key=lambda r: (-r.season.pk, _order(r.season, r.game))):
        have = sums(row)
        shown = [(s, s.shown(have)) for s in statistics_of(row.game)]
        division = placed.get(row.season_id)
        if division is None:
            board = gettext("%(rank)s in the season") % {"rank": ordinal(row.rank)}
        else:
            rank = 1 + sum(1 for r in ahead.get((division.pk, row.game), []) if r < row.rank)
            board = gettext("%(rank)s in Division %(name)s") % {
                "rank": ordinal(rank),
                "name": division.name,
            }
        out.append(
            {
                "season": row.season,
                "game": row.game,
                "standing": row,
                "statistics": shown,
                "rank": board,
            }
        )
    return out


def _division_ranks(placed: dict[int, Division]) -> dict[tuple[int, str], list[int]]:
    """The season ranks of every line of the players of each of ``placed``'s divisions,
    by (division, game): a division's board ranks its players by their season order
    (``scoring.leaderboard``), ties kept."""
    lines = SeasonStanding.objects.filter(
        season__in=list(placed),
        player__placements__division__in=[d.pk for d in placed.values()],
        player__placements__season=F("season"),  # the same placement: of the line's season
    ).values_list("player__placements__division_id", "game", "rank")
    out: dict[tuple[int, str], list[int]] = defaultdict(list)
    for division, game, rank in lines:
        out[(division, game)].append(rank)
    return out


def _order(season: Season, game: str) -> int:
    return season.games.index(game) if game in season.games else len(season.games)
