"""Score sheets and standings as CSV, XLSX (openpyxl) and printable A4 PDF (reportlab).

Every format is one :class:`Exporter` in :data:`EXPORTERS`: the URLs, the
download views and the pages' links iterate over it.  Each export is built from
``scoring.sheets`` (the match sheet) or ``scoring.season_tables`` (the season's
standings and statistics), so the files always say what the pages say.  Labels follow the
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
from typing import IO, Any

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from scoring import pdf
from scoring.documents import Cell, Document, exported_line
from scoring.sheets import MatchSheet
from tournaments.games import label
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
    header = [_("Deal"), *[p.shown_name for p in sheet.players], _("Note")]
    rows: list[list[Cell]] = [[row.number, *row.scores, row.note] for row in sheet.rows]
    rows.append([_("Total"), *sheet.totals, ""])
    rows.append([_("Deals won"), *sheet.deals_won, ""])
    rows.append([_("Rank"), *sheet.ranks, ""])
    return header, rows


def sheet_title(sheet: MatchSheet) -> list[str]:
    match = sheet.match
    night = match.table.club_night
    lines = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · {table_label(match.table.name)} · {label(match.game)}",
        _("Players") + ": " + ", ".join(p.shown_name for p in sheet.players),
    ]
    if sheet.finished and sheet.winners:  # a cooperative game (Comrade) has none: its title
        lines.append(_("Winner") + ": " + ", ".join(p.shown_name for p in sheet.winners))
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
