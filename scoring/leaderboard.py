"""A season's leaderboards as the season page shows them: a page of each game's board at
a time, a search by name, the reader's own line, and a plot of the leaders and the reader
(issue 39).  A season of a thousand players reads on a phone, and its page costs the same
few queries as a season of forty:

1. the number of lines of each game's board (one ``GROUP BY``);
2. the lines shown, every board's page in one query (each line's place in its board is a
   window function's ``ROW_NUMBER``, filtered);
3. the reader's own lines with their places (when the reader plays in the club);
4. the shown lines' ratings (by points) — by rating they come with the lines;
5. the leaders of each board and 6. their points after each club night (7. the nights'
   names), for the plots.

``PAGE`` lines a page; the plot draws the ``LEADERS`` first by points and the reader.
A few players' lines ranked as the page shows each of them (:func:`shown_lines`: in their
division, where they have one) are what a correction's effect reads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Count,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, Rank, RowNumber

from scoring.models import MatchStanding, Rating, SeasonStanding
from scoring.ratings import with_ratings
from scoring.sheets import SeasonChart, Series, night_points
from tournaments import ranking
from tournaments.models import Division, Placement, Player, Season

PAGE = 25
"""Lines of a board on one page."""
LEADERS = 8
"""Players drawn in a board's plot, besides the reader."""


@dataclass
class Board:
    """One game's leaderboard as shown: a page of its lines."""

    game: str
    rows: list[SeasonStanding]
    """The page's lines, each with ``position`` (its place in the board) and ``rating``."""
    lines: int
    """Lines of the board (those found, when searching)."""
    page: int
    me: list[SeasonStanding] = field(default_factory=list)
    """The reader's own line when it is not on this page."""
    chart: SeasonChart | None = None

    @property
    def pages(self) -> int:
        return max(1, -(-self.lines // PAGE))

    @property
    def first(self) -> int:
        return (self.page - 1) * PAGE + 1

    @property
    def last(self) -> int:
        return min(self.page * PAGE, self.lines)


def place(row: SeasonStanding) -> int:
    """A shown line's place in its board (from 1), as :func:`boards` counted it."""
    return int(row.position)  # type: ignore[attr-defined]


def page_of(position: int) -> int:
    """The page on which the line at ``position`` (from 1) is shown."""
    return (position - 1) // PAGE + 1


def boards(
    season: Season,
    scope: str,
    *,
    by_rating: bool = False,
    game: str = "",
    page: int = 1,
    search: str = "",
    reader: Player | None = None,
    division: Division | None = None,
) -> list[Board]:
    """The season's boards, one per game of the season, in its order: ``page`` of the
    board of ``game`` and the first page of every other; lines whose player's name holds
    ``search`` alone when one is given.  With a ``division``, the boards of its players
    alone, ranked among them (``scoring.divisions``: the season's order, ranks from 1)."""
    base = SeasonStanding.objects.filter(season=season)
    if division is not None:
        base = base.filter(player__placements__division=division)
    lines = base
    if search:
        lines = lines.filter(
            Q(player__display_name__icontains=search)
            | Q(player__name_ja__icontains=search)
            | Q(player__reading__icontains=search)
            | Q(player__handle__icontains=search)
        )
    counts = dict(lines.order_by().values_list("game").annotate(n=Count("pk")))
    placed = _placed(lines, scope, by_rating, division is not None)
    pages = {g: 1 for g in season.games}
    if game in pages:
        pages[game] = max(1, min(page, -(-counts.get(game, 0) // PAGE)))
    wanted = Q(pk__in=[])
    for g, p in pages.items():
        wanted |= Q(game=g, position__gt=(p - 1) * PAGE, position__lte=p * PAGE)
    rows = list(placed.filter(wanted).select_related("player").order_by("game", "position"))
    if not by_rating:
        _add_ratings(rows, scope)
    shown: dict[str, list[SeasonStanding]] = defaultdict(list)
    for row in rows:
        shown[row.game].append(row)
    mine: dict[str, list[SeasonStanding]] = defaultdict(list)
    if reader is not None and not search:
        own = _own_lines(base, reader, scope, by_rating, division)
        if not by_rating:
            _add_ratings(own, scope)
        for row in own:
            if all(r.pk != row.pk for r in shown[row.game]):
                mine[row.game].append(row)
    shown_rows = [*rows, *(row for own in mine.values() for row in own)]
    if division is not None:
        for row in shown_rows:  # shown, never saved: the rank in the division
            row.rank = row.division_rank
    _explain(season, shown_rows)
    charts = _charts(season, reader, base if division is not None else None)
    return [
        Board(
            game=g,
            rows=shown[g],
            lines=counts.get(g, 0),
            page=pages[g],
            me=mine[g],
            chart=charts.get(g),
        )
        for g in season.games
    ]


def _explain(season: Season, rows: list[SeasonStanding]) -> None:
    """Each shown line's figure explained by the season's ranking (``explained``: "best 6
    of 9 club nights: …", empty for total points; ``not_yet``: "not yet qualified: 3 of 8
    club nights"), from the lines' match lines (one query for the page)."""
    rule = ranking.Rule.of(season)
    for row in rows:
        row.explained = row.not_yet = ""  # type: ignore[attr-defined]
    if rule.method == ranking.Method.TOTAL and not rule.minimum or not rows:
        return
    lines = (
        MatchStanding.objects.filter(
            season=season, scored__gt=0, player__in={r.player_id for r in rows}
        )
        .order_by("club_night__date", "club_night_id", "match_id")
        .values_list("game", "player_id", "club_night_id", "points")
    )
    # By the night, not its date: two nights on one date are two nights (issue 56).
    nights: dict[tuple[str, int], dict[Any, int]] = defaultdict(lambda: defaultdict(int))
    matches: dict[tuple[str, int], list[int]] = defaultdict(list)
    for game, player, night, points in lines:
        nights[(game, player)][night] += points
        matches[(game, player)].append(points)
    for row in rows:
        key = (row.game, row.player_id)
        played = ranking.Played(
            row.total, row.deals, row.matches, list(nights[key].values()), matches[key]
        )
        row.explained = ranking.explain(rule, played)  # type: ignore[attr-defined]
        row.not_yet = rule.not_yet(played)  # type: ignore[attr-defined]


def shown_lines(season: Season, game: str, players: Collection[int]) -> dict[int, SeasonStanding]:
    """These players' lines on the season's board of ``game`` (by player id; none for a
    player without one), each ``rank`` the one the season page shows for them: in their
    division where they have one this season (:func:`boards` with that ``division``), else
    in the season.  What a correction's effect reads (``actions.corrections``)."""
    base = SeasonStanding.objects.filter(season=season, game=game)
    division_of = dict(
        Placement.objects.filter(season=season, player__in=list(players)).values_list(
            "player_id", "division_id"
        )
    )
    out = {
        row.player_id: row
        for row in base.filter(player__in=[p for p in players if p not in division_of])
    }
    for division in set(division_of.values()):
        ranked = _placed(base.filter(player__placements__division=division), "", False, True)
        wanted = [p for p, d in division_of.items() if d == division]
        for row in _of_players(ranked, wanted):
            row.rank = row.division_rank  # shown, never saved, as on the page
            out[row.player_id] = row
    return out


def _of_players(lines: QuerySet[SeasonStanding], players: list[int]) -> Any:
    """The lines of ``players`` among ``lines`` annotated by a window: kept by a filter on
    a window, which comes after the windows are counted (a plain filter on the player
    would count places and ranks among these players' own lines alone)."""
    of_player = Window(Max("player_id"), partition_by="player_id")
    return lines.annotate(of_player=of_player).filter(of_player__in=players)


def _own_lines(
    base: QuerySet[SeasonStanding],
    reader: Player,
    scope: str,
    by_rating: bool,
    division: Division | None,
) -> list[SeasonStanding]:
    """The reader's lines among ``base`` (the season's, or ``division``'s), each with its
    ``position`` as :func:`_placed` gives it (and in a division its ``division_rank``),
    found by counting: a line's place is one more than the lines of its board ahead of it
    (:func:`_ahead`), its rank in a division one more than the division's lines of a lower
    rank.  The season is never numbered to find one line: a thousand players' season
    numbered by a window was most of a member's page (issue 60)."""
    own = base.filter(player=reader)
    if by_rating:
        own = _keyed(with_ratings(own, scope))
    own = own.annotate(position=_counted(_ahead(division, scope, by_rating)))
    if division is not None:
        lower = _board_lines(division).filter(rank__lt=OuterRef("rank"))
        own = own.annotate(division_rank=_counted(lower))
    return list(own.select_related("player").order_by("game"))


def _board_lines(division: Division | None) -> QuerySet[SeasonStanding]:
    """The lines of the outer line's board: its season's and game's (its division's)."""
    lines = SeasonStanding.objects.filter(season=OuterRef("season"), game=OuterRef("game"))
    if division is not None:
        lines = lines.filter(player__placements__division=division)
    return lines


def _ahead(division: Division | None, scope: str, by_rating: bool) -> QuerySet[SeasonStanding]:
    """The lines of the outer line's board listed before it, in :func:`_placed`'s order:
    (by rating: a higher rating, none last, then) a lower rank, then a lower player id."""
    lines = _board_lines(division)
    before = Q(rank__lt=OuterRef("rank")) | Q(
        rank=OuterRef("rank"), player_id__lt=OuterRef("player_id")
    )
    if not by_rating:
        return lines.filter(before)
    lines = _keyed(with_ratings(lines, scope))
    return lines.filter(Q(key__gt=OuterRef("key")) | Q(before, key=OuterRef("key")))


def _keyed(lines: QuerySet[SeasonStanding]) -> QuerySet[SeasonStanding]:
    """``lines`` rated, each with its rating's ``key``: the rating, or minus infinity for
    none (no rating is), so that "a higher key" is "a higher rating, none last" and two
    lines without a rating have the same key (a ``NULL`` compares equal to nothing)."""
    return lines.annotate(key=Coalesce("rating", Value(float("-inf")), output_field=FloatField()))


def _counted(lines: QuerySet[SeasonStanding]) -> Any:
    """One more than the number of ``lines`` (a correlated subquery)."""
    number = lines.order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(number), 0) + 1


def _placed(
    lines: QuerySet[SeasonStanding], scope: str, by_rating: bool, ranked_again: bool = False
) -> Any:
    """``lines`` each with its ``position`` in its game's board (by points: the rank; by
    rating: the rating, none last, then the rank); ``ranked_again``: with the rank among
    ``lines`` (``division_rank``: ties kept, from 1)."""
    if by_rating:
        lines = with_ratings(lines, scope)
        order: list[Any] = [F("rating").desc(nulls_last=True), "rank", "player_id"]
    else:
        order = ["rank", "player_id"]
    lines = lines.annotate(position=Window(RowNumber(), partition_by="game", order_by=order))
    if ranked_again:
        lines = lines.annotate(
            division_rank=Window(Rank(), partition_by="game", order_by=F("rank").asc())
        )
    return lines


def _add_ratings(rows: list[SeasonStanding], scope: str) -> None:
    """Each shown line's current rating in its game (one query for the page)."""
    ratings = (
        Rating.objects.filter(
            scope=scope, player__in={r.player_id for r in rows}, game__in={r.game for r in rows}
        )
        .order_by()
        .values_list("player_id", "game", "rating")
    )
    by_key = {(player, game): rating for player, game, rating in ratings}
    for row in rows:
        row.rating = by_key.get((row.player_id, row.game))  # type: ignore[attr-defined]


def _charts(
    season: Season, reader: Player | None, division: QuerySet[SeasonStanding] | None = None
) -> dict[str, SeasonChart]:
    """Per game, cumulative points after each club night of the leaders (of the
    ``division``'s lines, when given) and the reader."""
    leaders = (
        SeasonStanding.objects.filter(season=season, rank__lte=LEADERS)
        if division is None
        else division
    ).order_by("game", "rank", "player_id")
    drawn: dict[str, list[int]] = defaultdict(list)
    for game, player in leaders.values_list("game", "player_id"):
        if len(drawn[game]) < LEADERS:
            drawn[game].append(player)
    if reader is not None:
        for players in drawn.values():
            if reader.pk not in players:
                players.append(reader.pk)
    points = night_points([season.pk], drawn)
    people = Player.objects.in_bulk({p for players in drawn.values() for p in players})
    charts = {}
    for game, players in drawn.items():
        lines = {p: points[(season.pk, game, p)] for p in players if (season.pk, game, p) in points}
        series = [
            Series(people[p], [(0, 0), *((x, y) for x, y, _n in line)]) for p, line in lines.items()
        ]
        if series:
            series.sort(key=lambda s: (-s.points[-1][1], s.player.display_name))
            nights = {x: night for line in lines.values() for x, _y, night in line}
            charts[game] = SeasonChart(
                series=series, deals=max(nights), nights=sorted(nights.items())
            )
    return charts
