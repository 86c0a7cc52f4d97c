"""Score sheets and standings as CSV, XLSX (openpyxl) and printable A4 PDF (reportlab).

Every format is one :class:`Exporter` in :data:`EXPORTERS`: the URLs, the
download views and the pages' links iterate over it.  Each export is built from ``scoring.sheets`` (the match sheet) or the season's
standings rows, so the files always say what the pages say.  Labels follow the
active language; games are named as the pages name them.

Exports are data, never code (OWASP, "CSV injection"): a CSV text cell that
begins with ``=`` ``+`` ``-`` ``@``, a tab or a carriage return gets a leading
``'`` so that no spreadsheet evaluates it, and every XLSX text cell is stored as
a string (openpyxl would store ``=…`` as a formula); numbers stay numbers.

PDFs embed their font: the IPA P Gothic shipped in ``scoring/fonts`` (with its
licence) covers Latin and Japanese, so a sheet renders the same in any viewer,
with or without Japanese fonts of its own.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.models import SeasonStanding
from scoring.ratings import with_ratings
from scoring.sheets import MatchSheet
from tournaments.games import label
from tournaments.models import Season
from tournaments.names import table_label

FONT = "IPAPGothic"
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "ipagp.ttf"
pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))

Cell = str | int | float | None
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


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


def standings_table(season: Season, scope: str) -> tuple[list[str], list[list[Cell]]]:
    """The season's leaderboards, games in the season's order as on the page, with each
    player's rating in the game (in the reader's ``scope``) and the club and season on
    every row."""
    header = [
        _("Game"),
        _("Rank"),
        _("Player"),
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
    standings = with_ratings(
        SeasonStanding.objects.filter(season=season).select_related("player"), scope
    )
    ranked = sorted(standings, key=lambda r: (order.get(r.game, len(order)), r.game, r.rank))
    rows: list[list[Cell]] = [
        [
            label(r.game),
            r.rank,
            r.player.display_name,
            r.total,
            r.deals,
            r.deals_won,
            r.matches,
            r.matches_won,
            None if r.rating is None else round(r.rating, 1),  # type: ignore[attr-defined]
            season.club.name,
            season.name,
        ]
        for r in ranked
    ]
    return header, rows


def exported_line() -> str:
    return _("Exported on %(date)s") % {"date": f"{timezone.localdate():%Y-%m-%d}"}


def sheet_title(sheet: MatchSheet) -> list[str]:
    match = sheet.match
    night = match.table.club_night
    lines = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night.date:%Y-%m-%d} {night.venue} · {table_label(match.table.name)} · {label(match.game)}",
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


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([inert(c) for c in header])
    writer.writerows([inert(c) for c in row] for row in rows)
    return ("\ufeff" + out.getvalue()).encode(
        "utf-8"
    )  # the BOM lets spreadsheet programs read UTF-8


def to_xlsx(
    title: str, header: Sequence[str], rows: Sequence[Sequence[Cell]], notes: Sequence[str] = ()
) -> bytes:
    """A workbook with numbers stored as numbers, the header in bold."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None  # a new workbook has one worksheet
    sheet.title = title[:31]
    for line in notes:
        sheet.append([line])
    if notes:
        sheet.append([])
    sheet.append(list(header))
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(list(row))
    for cells in sheet.iter_rows():
        for cell in cells:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text, never a formula
    header_row = len(notes) + (2 if notes else 1)
    sheet.freeze_panes = f"B{header_row + 1}"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def to_pdf(
    title_lines: Sequence[str],
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    blank_rows: int = 0,
) -> bytes:
    """A printable A4 page (or more) with a title block and the table."""
    return pdf_book([Document("", title_lines, header, rows, blank_rows)])


def pdf_book(documents: Sequence[Document]) -> bytes:
    """The documents in one printable A4 file, each from a new page (the night's paper:
    its table list, then every table's sheet), each with its QR code where it has one."""
    out = io.BytesIO()
    first = documents[0].title if documents and documents[0].title else ["Clubscore"]
    page = landscape(A4) if any(d.landscape for d in documents) else A4
    doc = SimpleDocTemplate(
        out,
        pagesize=page,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=first[0],
        initialFontName=FONT,
    )  # no font the PDF does not embed
    story: list = []
    for i, document in enumerate(documents):
        if i:
            story.append(PageBreak())
        story += _pdf_story(document, page[0] - 30 * mm)
    doc.build(story)
    return out.getvalue()


def _pdf_story(document: Document, width: float) -> list[Any]:
    style = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=14)
    heading = ParagraphStyle("heading", parent=style, fontSize=14, leading=18)
    # A Paragraph reads markup: every line is text, escaped (a venue "<img src=…/>" would
    # embed a file of the server; a name "<img src=x …>" would stop the document).
    lines = document.title
    block: list[Any] = [Paragraph(escape(lines[0]), heading)] if lines else []
    block += [Paragraph(escape(line), style) for line in lines[1:]]
    story: list[Any] = block
    if document.qr:
        side = 28 * mm
        story = [
            Table(
                [[block, _qr(document.qr, side)]],
                colWidths=[width - side - 4 * mm, side + 4 * mm],
                style=[("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)],
            )
        ]
    story.append(Spacer(1, 6 * mm))
    header = document.header
    text = [list(map(str, header))] + [
        ["" if c is None else str(c) for c in row] for row in document.rows
    ]
    text += [[""] * len(header) for _ in range(document.blank_rows)]
    cells, widths = _fitted(text, width, style)
    heights = [None] + [9 * mm] * (len(text) - 1) if document.blank_rows else None
    table = Table(cells, widths, heights, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde7f0")),
                ("ALIGN", (1, 1), (-2, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
            ]
        )
    )
    story.append(table)
    return story


def _qr(url: str, side: float) -> Drawing:
    """The URL as a QR code of ``side`` points (reportlab's own QR widget)."""
    widget = QrCodeWidget(url, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(side, side, transform=[side / (x1 - x0), 0, 0, side / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _fitted(
    text: list[list[str]], width: float, style: ParagraphStyle
) -> tuple[list[list[Any]], list[float] | None]:
    """The table's cells and column widths inside ``width``: as they are when they fit;
    else every cell a paragraph that wraps (long game and season names, Japanese words
    between characters) in columns shared by what they hold."""
    size = 9
    pad = 14  # a cell's padding, and some air
    head = [pdfmetrics.stringWidth(h, FONT, size) + pad for h in text[0]]
    data = [
        max((pdfmetrics.stringWidth(row[i], FONT, size) for row in text[1:]), default=0) + pad
        for i in range(len(head))
    ]
    cell = ParagraphStyle("cell", parent=style, fontSize=size - 1, leading=size + 1, wordWrap="CJK")
    if not any(any(row) for row in text[1:]):  # a blank sheet: the page's width, by headings
        return [[Paragraph(escape(h), cell) for h in text[0]], *text[1:]], _shared(text[0], width)
    if sum(max(h, d) for h, d in zip(head, data, strict=True)) <= width:
        return text, None
    # Short columns (numbers, ranks) keep the width of what they hold (their headings
    # wrap); the long ones (games, names, club, season) share what is left, and wrap.
    narrow = [d <= width / 12 for d in data]
    kept = [max(d, 30.0) for d in data]
    left = width - sum(k for k, short in zip(kept, narrow, strict=True) if short)
    wanted = [min(max(h, d), width / 3) for h, d in zip(head, data, strict=True)]
    wide = sum(w for w, short in zip(wanted, narrow, strict=True) if not short) or 1.0
    columns = [
        k if short else left * w / wide for k, w, short in zip(kept, wanted, narrow, strict=True)
    ]
    number = ParagraphStyle("number", parent=cell, alignment=TA_RIGHT)
    return [
        [Paragraph(escape(value), number if NUMBER.fullmatch(value) else cell) for value in row]
        for row in text
    ], columns


def _shared(headings: Sequence[str], width: float) -> list[float]:
    """Columns across ``width``: each as wide as its heading's longest word (never broken
    inside a word), the rest shared by the headings' lengths."""
    size, pad = 8, 16  # the cell style's size; reportlab pads a cell 6 points a side
    words = [
        max((pdfmetrics.stringWidth(w, FONT, size) for w in h.split()), default=0) + pad
        for h in headings
    ]
    least = [min(w, width / 8) for w in words]
    whole = [pdfmetrics.stringWidth(h, FONT, size) + pad for h in headings]
    spare = max(width - sum(least), 0)
    extra = [max(w - m, 1.0) for w, m in zip(whole, least, strict=True)]
    return [m + spare * e / sum(extra) for m, e in zip(least, extra, strict=True)]


# -- the registry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    """What an export holds: a title block, a header and rows; ``name`` names the XLSX sheet."""

    name: str
    title: Sequence[str]
    header: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    blank_rows: int = 0
    """Empty rows to fill in by hand (the blank paper sheet)."""
    qr: str = ""
    """A link printed as a QR code beside the title (PDF only): the table's link."""
    landscape: bool = False
    """Wide: the PDF's pages are A4 landscape (all of them, in a book of documents)."""


@dataclass(frozen=True)
class Exporter:
    """One download format: its file extension, the link's label, its media type, its writer."""

    extension: str
    label: str
    content_type: str
    write: Callable[[Document], bytes]


EXPORTERS: dict[str, Exporter] = {
    e.extension: e
    for e in (
        Exporter("csv", "CSV", "text/csv; charset=utf-8", lambda d: to_csv(d.header, d.rows)),
        Exporter(
            "xlsx",
            "XLSX",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            lambda d: to_xlsx(d.name, d.header, d.rows, d.title),
        ),
        Exporter(
            "pdf",
            "PDF",
            "application/pdf",
            lambda d: to_pdf(d.title, d.header, d.rows, blank_rows=d.blank_rows),
        ),
    )
}
"""Every download format, in the order the pages offer them."""
