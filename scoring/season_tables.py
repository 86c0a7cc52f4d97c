"""A season's tables, as every download writes them (``scoring.exports``: CSV and XLSX;
``scoring.pdf``: printed): its leaderboards with the ratings (:func:`standings_table`)
and every player's statistics (:func:`statistics_table`), and each as a
:class:`~scoring.documents.Document` titled with the club, the season and how it ranks.
Read as plain values in one query each: a thousand players' season is 8,000 lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.utils.translation import gettext as _

from engine.match import competition_ranks
from scoring.documents import Cell, Document, exported_line, sections
from scoring.models import SeasonStanding
from scoring.players import figures, statistics_of
from scoring.ratings import with_ratings
from tournaments import divisions, ranking
from tournaments.games import label
from tournaments.models import Season
from tournaments.names import shown


class _Line(NamedTuple):
    """What a leaderboard line's row of the standings is made of (read as plain values:
    a thousand players' season is 8,000 lines, and a model instance of each, with its
    twenty game counts and its player, took half a second more than the read)."""

    game: str
    rank: int
    player_id: int
    name: str
    score: Decimal
    qualified: bool
    nights: int
    total: int
    deals: int
    deals_won: int
    matches: int
    matches_won: int
    rating: float | None
    name_ja: str


def _lines(season: Season, scope: str) -> list[_Line]:
    """The season's leaderboard lines with each player's rating in the reader's ``scope``
    (``scoring.ratings.with_ratings``), unordered: one query of the columns printed."""
    as_read = {"name": "player__display_name", "name_ja": "player__name_ja"}
    columns = [as_read.get(f, f) for f in _Line._fields]
    lines = with_ratings(SeasonStanding.objects.filter(season=season).order_by(), scope)
    return [_Line(*values) for values in lines.values_list(*columns)]


def standings_table(season: Season, scope: str) -> tuple[list[str], list[list[Cell]]]:
    """The season's leaderboards, games in the season's order as on the page, with each
    player's rating in the game (in the reader's ``scope``) and the club and season on
    every row."""
    rule = ranking.Rule.of(season)
    headings = {"score": rule.heading, "qualified": _("Qualified"), "nights": _("Club nights")}
    header = [
        _("Game"),
        _("Rank"),
        _("Player"),
        *(headings[name] for name in rule.shown),  # what the season ranks by
        _("Points"),
        _("Deals"),
        _("Deals won"),
        _("Matches"),
        _("Matches won"),
        _("Rating"),
        _("Club"),
        _("Season"),
    ]
    order = {game: i for i, game in enumerate(season.games)}
    division_of = divisions.placed(season)
    last = divisions.MOST_DIVISIONS  # players without a division after every division

    def place(r: _Line) -> tuple[Any, ...]:  # a tie by name, as ever (then by player)
        at = division_of.get(r.player_id)
        where = (order.get(r.game, len(order)), r.game, at.order if at else last)
        return (*where, r.rank, r.name, r.player_id)

    ranked = sorted(_lines(season, scope), key=place)
    in_division: dict[tuple[str, int | None], dict[int, tuple[int]]] = {}
    for r in ranked:
        at = division_of.get(r.player_id)
        in_division.setdefault((r.game, at.pk if at else None), {})[r.player_id] = (r.rank,)
    ranks = {  # counted again inside each division, as its board counts them
        (game, player): rank
        for (game, _at), keys in in_division.items()
        for player, rank in competition_ranks(keys).items()
    }
    if division_of:  # a season in divisions: each line's division and rank in it
        header[2:2] = [_("Division"), _("Rank in division")]

    def in_its_division(r: _Line) -> list[Cell]:
        if not division_of:
            return []
        at = division_of.get(r.player_id)
        return [at.name if at else "", ranks[(r.game, r.player_id)] if r.qualified else None]

    # Each game's name and each ranking cell's text translated once, not once a row.
    games = {game: str(label(game)) for game in {r.game for r in ranked}}
    cells = _ranking_cells(rule.shown)
    club, name = season.club.name, season.name
    rows: list[list[Cell]] = [
        [
            games[r.game],
            r.rank if r.qualified else None,  # as the page: no rank before qualifying
            *in_its_division(r),
            shown(r.name, r.name_ja),
            *cells(r),
            r.total,
            r.deals,
            r.deals_won,
            r.matches,
            r.matches_won,
            None if r.rating is None else round(r.rating, 1),
            club,
            name,
        ]
        for r in ranked
    ]
    return header, rows


def statistics_table(season: Season) -> tuple[list[str], list[list[Cell]]]:
    """The season's statistics, one row per game, player and statistic (a table that a
    spreadsheet pivots): games in the season's order, players by their rank; a rate's
    name says it is in per cent, and a figure with nothing to divide by is empty."""
    header = [_("Game"), _("Rank"), _("Player"), _("Statistic"), _("Value"), _("Club"), _("Season")]
    order = {game: i for i, game in enumerate(season.games)}
    # Unordered: sorted here, ties by name as ever (``SeasonStanding``'s own ordering
    # joins the season's club and the players' to sort in the database).
    lines = SeasonStanding.objects.filter(season=season).select_related("player").order_by()
    # Each game's and statistic's name translated once, not once a row (a thousand
    # players' statistics are over a hundred thousand rows), the club's and season's
    # names read once.
    games: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    club, name = season.club.name, season.name
    rows: list[list[Cell]] = []

    def place(r: SeasonStanding) -> tuple[Any, ...]:
        return (order.get(r.game, len(order)), r.game, r.rank, r.player.display_name, r.player_id)

    for line in sorted(lines, key=place):
        if line.game not in games:
            games[line.game] = str(label(line.game))
            names[line.game] = [
                f"{s.label} (%)" if s.percent else str(s.label) for s in statistics_of(line.game)
            ]
        game, player = games[line.game], line.player.shown_name
        rows += [
            [game, line.rank, player, statistic, value, club, name]
            for statistic, (_s, value) in zip(names[line.game], figures(line), strict=True)
        ]
    return header, rows


def standings_document(season: Season, scope: str) -> Document:
    """The season's standings as a download: its leaderboards (:func:`standings_table`,
    ratings in the reader's ``scope``) under the club, the season and how it ranks."""
    header, rows = standings_table(season, scope)
    title = [f"{season.club.name} – {season.name}", _("Standings")]
    title += [ranking.Rule.of(season).describe(), exported_line()]
    # Printed, the club and season (the last two columns, on every row) are the title, and
    # each game's (and division's) board is a table of its own under its name: the game
    # and division columns, and the season's rank of a division's player, are not printed.
    printed = list(range(1, len(header) - 2))
    printed_header: list[str] = []
    if _("Rank in division") in header:
        printed = printed[2:]  # its rank in the division, the player, the figures
        printed_header = [_("Rank"), *(header[i] for i in printed[1:])]

    def board(row: Sequence[Cell]) -> str:
        if not printed_header:
            return str(row[0])
        division = _("Division %(name)s") % {"name": row[2]} if row[2] else _("no division")
        return f"{row[0]} · {division}"

    return Document(
        _("Standings"),
        title,
        header,
        rows,
        printed=printed,
        printed_header=printed_header,
        sections=sections(rows, board),
    )


def statistics_document(season: Season, scope: str) -> Document:
    """Every player's statistics in each game of the season (:func:`statistics_table`) as
    a download (no rating in it: the same in every ``scope``)."""
    header, rows = statistics_table(season)
    title = [f"{season.club.name} – {season.name}", _("Statistics"), exported_line()]
    return Document(  # printed, a table per game under its name (not a column)
        _("Statistics"),
        title,
        header,
        rows,
        printed=list(range(1, len(header) - 2)),
        sections=sections(rows, lambda row: str(row[0])),
    )


def _ranking_cells(shown: Sequence[str]) -> Callable[[_Line], list[Cell]]:
    """A line's cells of what the season ranks by (``Rule.shown``), in that order."""
    yes, no = _("yes"), _("no")
    cell: dict[str, Callable[[_Line], Cell]] = {
        "score": lambda line: ranking.plain(line.score),
        "qualified": lambda line: yes if line.qualified else no,
        "nights": lambda line: line.nights,
    }
    wanted = [cell[name] for name in shown]
    return lambda line: [c(line) for c in wanted]
