"""Score sheets and standings as CSV, XLSX (openpyxl) and printable A4 PDF (reportlab).

Every format is one :class:`Exporter` in :data:`EXPORTERS`: the URLs, the
download views and the pages' links iterate over it.  Each export is built from ``scoring.sheets`` (the match sheet) or the season's
standings rows, so the files always say what the pages say.  Labels follow the
active language; games are named as the pages name them.

Exports are data, never code (OWASP, "CSV injection"): a CSV text cell that
begins with ``=`` ``+`` ``-`` ``@``, a tab or a carriage return gets a leading
``'`` so that no spreadsheet evaluates it, and every XLSX text cell is stored as
a string (openpyxl would store ``=…`` as a formula); numbers stay numbers.

PDFs are laid out by ``scoring.pdf`` (one embedded font, a page per document).
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import IO, Any, NamedTuple

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from engine.match import competition_ranks
from scoring import pdf
from scoring.documents import Cell, Document, Section
from scoring.leaderboard import rated
from scoring.models import SeasonStanding
from scoring.players import figures, statistics_of
from scoring.sheets import MatchSheet
from tournaments import divisions, ranking
from tournaments.games import label
from tournaments.models import Season
from tournaments.names import night_label, table_label

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CHUNK_ROWS = 500
"""Rows of a streamed CSV in one block."""


def inert(cell: Cell) -> Cell:
    """A CSV cell no spreadsheet evaluates: text that could start a formula gets a ``'``."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def sheet_table(sheet: MatchSheet) -> tuple[list[str], list[list[Cell]]]:
    """The score sheet as a header and rows: deals, then totals, deals won and ranks."""
    header = [_("Deal"), *[p.display_name for p in sheet.players], _("Note")]
    rows: list[list[Cell]] = [[row.number, *row.scores, row.note] for row in sheet.rows]
    rows.append([_("Total"), *sheet.totals, ""])
    rows.append([_("Deals won"), *sheet.deals_won, ""])
    rows.append([_("Rank"), *sheet.ranks, ""])
    return header, rows


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


def _lines(season: Season, scope: str) -> list[_Line]:
    """The season's leaderboard lines with each player's rating in the reader's ``scope``
    (``scoring.leaderboard.rated``), unordered: one query of the columns printed."""
    columns = [{"name": "player__display_name"}.get(f, f) for f in _Line._fields]
    lines = rated(SeasonStanding.objects.filter(season=season).order_by(), scope)
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
            r.name,
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
        game, player = games[line.game], line.player.display_name
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


def sections(
    rows: Sequence[Sequence[Cell]], title: Callable[[Sequence[Cell]], str]
) -> list[Section]:
    """The printed sections of ``rows`` (in order of their section): a section begins
    where a row's ``title`` differs from the row before's."""
    out: list[Section] = []
    for i, row in enumerate(rows):
        name = title(row)
        if not out or out[-1].title != name:
            out.append(Section(name, i))
    return out


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


def exported_line() -> str:
    return _("Exported on %(date)s") % {"date": f"{timezone.localdate():%Y-%m-%d}"}


def sheet_title(sheet: MatchSheet) -> list[str]:
    match = sheet.match
    night = match.table.club_night
    lines = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · {table_label(match.table.name)} · {label(match.game)}",
        _("Players") + ": " + ", ".join(p.display_name for p in sheet.players),
    ]
    if sheet.finished:
        lines.append(_("Winner") + ": " + ", ".join(p.display_name for p in sheet.winners))
    lines.append(_("Tie-break") + ": " + sheet.tie_break)
    if sheet.outcome:
        lines.append(sheet.outcome)
    lines.append(exported_line())
    return lines


# -- formats -----------------------------------------------------------------------------------


def csv_chunks(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> Iterator[bytes]:
    """The CSV a few hundred rows at a time, for a streamed answer; the BOM first lets
    spreadsheet programs read UTF-8."""
    out = io.StringIO()
    writer = csv.writer(out)
    out.write("\ufeff")
    writer.writerow([inert(c) for c in header])
    starts = FORMULA_STARTS
    for n, row in enumerate(rows, start=1):
        # inert() inline: a season's statistics are a million cells.
        writer.writerow(
            ["'" + c if isinstance(c, str) and c.startswith(starts) else c for c in row]
        )
        if n % CHUNK_ROWS == 0:
            yield out.getvalue().encode("utf-8")
            out.seek(0)
            out.truncate()
    yield out.getvalue().encode("utf-8")


def to_csv(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> bytes:
    return b"".join(csv_chunks(header, rows))


def xlsx_file(
    title: str, header: Sequence[str], rows: Iterable[Sequence[Cell]], notes: Sequence[str] = ()
) -> IO[bytes]:
    """A workbook with numbers stored as numbers, every text as text (never a formula),
    the header in bold and frozen, written row by row to a temporary file (openpyxl's
    write-only mode: the memory stays flat however many rows); read from its start."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title[:31])
    header_row = len(notes) + (2 if notes else 1)
    sheet.freeze_panes = f"B{header_row + 1}"  # before the first row is written

    def text(value: str, bold: bool = False) -> Any:
        cell = WriteOnlyCell(sheet, value)
        cell.data_type = "s"  # text, never a formula
        if bold:
            cell.font = Font(bold=True)
        return cell

    for line in notes:
        sheet.append([text(line)])
    if notes:
        sheet.append([])
    sheet.append([text(h, bold=True) for h in header])
    for row in rows:
        sheet.append([text(c) if isinstance(c, str) else c for c in row])
    out = tempfile.TemporaryFile()
    book.save(out)
    out.seek(0)
    return out


def to_xlsx(
    title: str, header: Sequence[str], rows: Iterable[Sequence[Cell]], notes: Sequence[str] = ()
) -> bytes:
    with xlsx_file(title, header, rows, notes) as file:
        return file.read()


def file_chunks(file: IO[bytes], size: int = 64 * 1024) -> Iterator[bytes]:
    """A file's bytes in blocks, for a streamed answer; the file is closed at the end."""
    with file:
        while block := file.read(size):
            yield block


# -- the registry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exporter:
    """One download format: its file extension, the link's label, its media type, its writer."""

    extension: str
    label: str
    content_type: str
    write: Callable[[Document], Iterable[bytes]]
    """The file in blocks."""
    streamed: bool = True
    """Sent as its blocks come (a thousand players' CSV and XLSX are never whole in
    memory as text); ``False``: one block, sent whole (a PDF is laid out whole)."""
    kept: bool = False
    """A season's file in this format is made once per version of its data and kept
    (``scoring.season_files``): laying it out costs far more than reading its rows.  A CSV
    is written as fast as its rows are read, and streamed: made on each request."""


EXPORTERS: dict[str, Exporter] = {
    e.extension: e
    for e in (
        Exporter("csv", "CSV", "text/csv; charset=utf-8", lambda d: csv_chunks(d.header, d.rows)),
        Exporter(
            "xlsx",
            "XLSX",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            lambda d: file_chunks(xlsx_file(d.name, d.header, d.rows, d.title)),
            kept=True,
        ),
        Exporter(
            "pdf",
            "PDF",
            "application/pdf",
            lambda d: [pdf.book([d])],
            streamed=False,
            kept=True,
        ),
    )
}
"""Every download format, in the order the pages offer them."""
