"""A player's season in numbers, per game: the leaderboard's line (points, rank) and the
game's statistics (``tournaments.games.statistics``), made of the sums the season
rebuild keeps on the line (``SeasonStanding``: its count columns and rank sums): one query, whatever the number of deals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import F, OuterRef, QuerySet, Subquery
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
    else the season's ("3rd in the season").  Three queries, whatever the seasons (two
    without a division)."""
    seasons = list(seasons)
    rows = list(
        SeasonStanding.objects.filter(player=player, season__in=seasons).select_related("season")
    )
    placed = {
        p.season_id: p.division
        for p in Placement.objects.filter(player=player, season__in=seasons).select_related(
            "division"
        )
    }
    said = boards(rows, {row.pk: placed.get(row.season_id) for row in rows})
    out = []
    for row in sorted(rows, key=lambda r: (-r.season.pk, _order(r.season, r.game))):
        have = sums(row)
        shown = [(s, s.shown(have)) for s in statistics_of(row.game)]
        out.append(
            {
                "season": row.season,
                "game": row.game,
                "standing": row,
                "statistics": shown,
                "rank": said[row.pk],
            }
        )
    return out


def boards(
    rows: Iterable[SeasonStanding], division_of: dict[int, Division | None]
) -> dict[int, str]:
    """Each line's rank said on the board the player reads (by the line's id): in its
    division when the player has one that season (``division_of``, by line id), counted
    among the division's players as its leaderboard ranks them ("3rd in Division A"),
    else the season's ("3rd in the season").  One query when a division is named, none
    otherwise."""
    ahead = _division_ranks({d for d in division_of.values() if d is not None})
    said = {}
    for row in rows:
        division = division_of.get(row.pk)
        if division is None:
            said[row.pk] = gettext("%(rank)s in the season") % {"rank": ordinal(row.rank)}
        else:
            rank = 1 + sum(1 for r in ahead.get((division.pk, row.game), []) if r < row.rank)
            said[row.pk] = gettext("%(rank)s in Division %(name)s") % {
                "rank": ordinal(rank),
                "name": division.name,
            }
    return said


def on_their_boards(lines: QuerySet[SeasonStanding]) -> list[tuple[SeasonStanding, str]]:
    """``lines`` (of any players and seasons) each with its rank said on the board its
    player reads (:func:`boards`): the lines' one query, two more only when a player of
    theirs is in a division that season."""
    placed = Placement.objects.filter(player=OuterRef("player"), season=OuterRef("season"))
    rows = list(lines.annotate(division_pk=Subquery(placed.values("division")[:1])))
    named = {row.division_pk for row in rows if row.division_pk is not None}
    divisions = Division.objects.in_bulk(named) if named else {}
    said = boards(rows, {row.pk: divisions.get(row.division_pk) for row in rows})
    return [(row, said[row.pk]) for row in rows]


def _division_ranks(divisions: set[Division]) -> dict[tuple[int, str], list[int]]:
    """The season ranks of every line of the players of each of ``divisions``, by
    (division, game): a division's board ranks its players by their season order
    (``scoring.leaderboard``), ties kept."""
    if not divisions:
        return {}
    lines = SeasonStanding.objects.filter(
        season__in={d.season_id for d in divisions},
        player__placements__division__in=[d.pk for d in divisions],
        player__placements__season=F("season"),  # the same placement: of the line's season
    ).values_list("player__placements__division_id", "game", "rank")
    out: dict[tuple[int, str], list[int]] = defaultdict(list)
    for division, game, rank in lines:
        out[(division, game)].append(rank)
    return out


def _order(season: Season, game: str) -> int:
    return season.games.index(game) if game in season.games else len(season.games)
