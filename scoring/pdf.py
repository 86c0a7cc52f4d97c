"""Printable A4 PDFs (reportlab) of export documents: one document, or a book of them
(the night's paper: its table list, then every table's sheet).

What a club expects of paper:

- every document starts on a new page, in its own orientation (a wide sheet is A4
  landscape, the table list portrait);
- a continuation page repeats the document's first title lines at its top (club,
  season, night, table, game and seats) and the table's heading row;
- a sheet to fill in by hand prints its deal numbers, and fits one page: its rows
  shrink to ``LEAST_ROW`` before it continues on a second page;
- a table's headings are never broken inside a word: a column is at least as wide as
  the longest word of its heading (a Japanese heading is one word);
- the only font is the IPA P Gothic shipped in ``scoring/fonts`` (with its licence),
  embedded: Latin and Japanese render the same in any viewer, and no other font (not
  even reportlab's default Helvetica) is named in the file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scoring.documents import Document

FONT = "IPAPGothic"
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "ipagp.ttf"
pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))

MARGIN = 15 * mm
ROW = 9 * mm
"""A blank row's height: room for a handwritten number."""
LEAST_ROW = 6 * mm
"""The least a blank row shrinks to before the sheet continues on another page."""
BODY = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=14)
HEADING = ParagraphStyle("heading", parent=BODY, fontSize=14, leading=18)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10, wordWrap="CJK")
NUMBER_CELL = ParagraphStyle("number", parent=CELL, alignment=TA_RIGHT)
HEADING_CELL = ParagraphStyle("heading-cell", parent=CELL, wordWrap=None)  # between words
NUMBER = re.compile(r"-?\d+(\.\d+)?")
PAGES = {"portrait": A4, "landscape": landscape(A4)}


def book(documents: Sequence[Document]) -> bytes:
    """The documents in one printable A4 file, each from a new page in its orientation."""
    out = io.BytesIO()
    title = documents[0].title[0] if documents and documents[0].title else "Clubscore"
    doc = BaseDocTemplate(
        out,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        initialFontName=FONT,  # no font the PDF does not embed
    )
    first = _orientation(documents[0]) if documents else "portrait"
    names = [first, *(n for n in PAGES if n != first)]  # the first template starts the file
    doc.addPageTemplates(
        [
            PageTemplate(
                id=name,
                pagesize=PAGES[name],
                frames=[
                    Frame(
                        MARGIN,
                        MARGIN,
                        *_frame(name),
                        id=name,
                        leftPadding=0,
                        rightPadding=0,
                        topPadding=0,
                        bottomPadding=0,
                    )
                ],
                onPage=_running_line,
            )
            for name in names
        ]
    )
    story: list[Any] = []
    for i, document in enumerate(documents):
        if i:
            story += [NextPageTemplate(_orientation(document)), PageBreak()]
        story += _story(document, _frame(_orientation(document)))
    doc.build(story)
    return out.getvalue()


def _orientation(document: Document) -> str:
    return "landscape" if document.landscape else "portrait"


def _frame(orientation: str) -> tuple[float, float]:
    width, height = PAGES[orientation]
    return width - 2 * MARGIN, height - 2 * MARGIN


class _Running(Flowable):
    """Sets the line printed atop the pages that follow (``""``: none): a document's
    continuation pages say whose they are."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.canv._clubscore_running = self.line


def _running_line(canvas: Any, doc: Any) -> None:
    line = getattr(canvas, "_clubscore_running", "")
    if line:
        canvas.saveState()
        canvas.setFont(FONT, 8)
        canvas.drawString(MARGIN, doc.pagesize[1] - MARGIN + 3 * mm, line)
        canvas.restoreState()


def _story(document: Document, frame: tuple[float, float]) -> list[Any]:
    width, height = frame
    title = _title(document, width)
    header = [str(h) for h in document.header]
    columns = document.print_columns or len(header)
    header = header[:columns]
    text = [["" if c is None else str(c) for c in row][:columns] for row in document.rows]
    rows_height: list[float] | None = None
    if document.blank_rows:  # to fill in by hand: numbered, as many as fit one page
        text += [
            [str(len(text) + n + 1)] + [""] * (len(header) - 1) for n in range(document.blank_rows)
        ]
        cells, widths = _fitted([header, *text], width, fill=True)
        head = Table(cells[:1], widths).wrap(width, height)[1]
        room = height - _height(title, width) - head - 2 * mm  # some slack: never a blank page
        rows_height = [head] + [max(min(ROW, room / max(len(text), 1)), LEAST_ROW)] * len(text)
    else:
        cells, widths = _fitted([header, *text], width)
        rows_height = _heights(cells, widths)
    style = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, 9),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde7f0")),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("VALIGN", (0, 0), (-1, 0), "TOP"),  # headings start on one line
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
            *[("ALIGN", (i, 1), (i, -1), "RIGHT") for i in _numeric(text, len(header))],
        ]
    )
    first = height - _height(title, width)
    tables = [
        Table([cells[0], *cells[a:b]], widths, [rows_height[0], *rows_height[a:b]], repeatRows=1)
        for a, b in _pages(rows_height, first, height)
    ]
    for table in tables:
        table.setStyle(style)
    running = " · ".join(document.title[:3])
    return [_Running(""), *title, _Running(running), *tables, _Running("")]


def _numeric(text: list[list[str]], columns: int) -> list[int]:
    """The columns of numbers (to the right), of those that hold something."""
    return [
        i
        for i in range(columns)
        if any(row[i] for row in text)
        and all(NUMBER.fullmatch(row[i]) or not row[i] for row in text)
    ]


def _heights(cells: list[list[Any]], widths: list[float]) -> list[float]:
    """Each row's height: a line of text, or its tallest wrapped paragraph (padding in)."""
    line = 9 * 1.2 + 6
    return [
        max(
            [line]
            + [
                c.wrap(w - 12, 10_000)[1] + 6
                for c, w in zip(row, widths, strict=True)
                if isinstance(c, Paragraph)
            ]
        )
        for row in cells
    ]


def _pages(heights: list[float], first: float, room: float) -> list[tuple[int, int]]:
    """The rows (after the heading row, ``heights[0]``) in runs of a page each: the first
    page has ``first`` points, every other ``room``.  A long table laid out as one, as
    reportlab does it, measures and copies every remaining row at each page (a thousand
    players' standings: seconds); a table per page is laid out once.  Where a run
    still does not fit, reportlab splits it as usual (the heading repeated)."""
    runs: list[tuple[int, int]] = []
    start, left = 1, first - heights[0]
    for i in range(1, len(heights)):
        if heights[i] > left and i > start:
            runs.append((start, i))
            start, left = i, room - heights[0]
        left -= heights[i]
    runs.append((start, len(heights)))
    return runs


def _title(document: Document, width: float) -> list[Any]:
    """The title block (with the QR code beside it, where the document has one), then
    some air."""
    lines = document.title
    # A Paragraph reads markup: every line is text, escaped (a venue "<img src=…/>" would
    # embed a file of the server; a name "<img src=x …>" would stop the document).
    block: list[Any] = [Paragraph(escape(lines[0]), HEADING)] if lines else []
    block += [Paragraph(escape(line), BODY) for line in lines[1:]]
    if document.qr:
        side = 28 * mm
        block = [
            Table(
                [[block, _qr(document.qr, side)]],
                colWidths=[width - side - 4 * mm, side + 4 * mm],
                style=[
                    ("FONT", (0, 0), (-1, -1), FONT),  # a cell's default would be Helvetica
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ],
            )
        ]
    return [*block, Spacer(1, 6 * mm)]


def _height(flowables: Sequence[Any], width: float) -> float:
    return sum(f.wrap(width, 10_000)[1] for f in flowables)


def _qr(url: str, side: float) -> Drawing:
    """The URL as a QR code of ``side`` points (reportlab's own QR widget)."""
    widget = QrCodeWidget(url, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(side, side, transform=[side / (x1 - x0), 0, 0, side / (y1 - y0), 0, 0])
    drawing.add(widget)
    drawing.initialFontName = FONT  # the drawing's state names a font: Helvetica by default
    return drawing


def _width(text: str, size: float = 8) -> float:
    return pdfmetrics.stringWidth(text, FONT, size)


def _fitted(
    text: list[list[str]], width: float, *, fill: bool = False
) -> tuple[list[list[Any]], list[float]]:
    """The table's cells and column widths inside ``width``.  As they are when every
    heading and value fits on one line (unless ``fill``: a sheet to write on spans the
    page); else each column is at least as wide as its
    heading's longest word and its longest number, and the columns of text (names,
    games) share what is left, wrapping between words (Japanese between characters); on a
    sheet to write on (``fill``) they share it equally (:func:`_equal`)."""
    pad = 14  # a cell's padding, and some air
    head = [_width(h, 9) + pad for h in text[0]]
    data = [max((_width(row[i], 9) for row in text[1:]), default=0) + pad for i in range(len(head))]
    if not fill and sum(max(h, d) for h, d in zip(head, data, strict=True)) <= width:
        natural = [max(h, d) for h, d in zip(head, data, strict=True)]
        return _cells(text, natural), natural
    words = [max((_width(w) for w in h.split()), default=0) + pad for h in text[0]]
    numbers = [  # a column of numbers keeps their width; the others share the rest
        any(row[i] for row in text[1:])
        and all(NUMBER.fullmatch(row[i]) or not row[i] for row in text[1:])
        for i in range(len(head))
    ]
    least = [max(w, d if n else 0.0) for w, d, n in zip(words, data, numbers, strict=True)]
    if fill:
        columns = _equal(least, numbers, width)
        return _cells(text, columns), columns
    spare = max(width - sum(least), 0.0)
    wanted = [
        0.0 if n else max(max(h, d) - m, 1.0)
        for h, d, m, n in zip(head, data, least, numbers, strict=True)
    ]
    if not any(wanted):  # only numbers: the headings share the spare room
        wanted = [max(h - m, 1.0) for h, m in zip(head, least, strict=True)]
    total = sum(wanted)
    columns = [m + spare * w / total for m, w in zip(least, wanted, strict=True)]
    return _cells(text, columns), columns


def _cells(text: list[list[str]], columns: list[float]) -> list[list[Any]]:
    """Headings are paragraphs, wrapping between words; so is a value too wide for its
    column (Japanese wraps between characters).  A value that fits stays a string, drawn
    as it is: a paragraph is laid out word by word, a thousand players' standings would
    take seconds (numbers keep to the right by the table's style)."""
    room = [c - 12 for c in columns]  # a cell's padding
    return [
        [Paragraph(escape(h), HEADING_CELL) for h in text[0]],
        *[
            [
                v
                if _width(v, 9) <= r
                else Paragraph(escape(v), NUMBER_CELL if NUMBER.fullmatch(v) else CELL)
                for v, r in zip(row, room, strict=True)
            ]
            for row in text[1:]
        ],
    ]


def _equal(least: list[float], numbers: list[bool], width: float) -> list[float]:
    """A sheet to write on: the columns of numbers as narrow as they may be, the others
    of one width (a wider one only where a heading's word needs it)."""
    columns = list(least)
    room = width - sum(m for m, n in zip(least, numbers, strict=True) if n)
    open_ = [i for i, n in enumerate(numbers) if not n]
    while open_:
        share = room / len(open_)
        wide = [i for i in open_ if least[i] > share]
        if not wide:
            for i in open_:
                columns[i] = share
            break
        for i in wide:
            room -= least[i]
            open_.remove(i)
    return columns
