"""Printable A4 PDFs (reportlab) of export documents: one document, or a book of them
(the night's paper: its table list, then every table's sheet).

What a club expects of paper:

- every document starts on a new page, in its own orientation (a wide sheet is A4
  landscape, the table list portrait; a table whose columns do not fit a portrait page
  turns it to landscape, and where they do not fit that either its type shrinks, down
  to ``LEAST_SIZE``: a figure is never cut and nothing runs off the page; the columns'
  widths and cells are ``scoring.pdf_columns``'s);
- a document in sections (``Document.sections``: the season's standings, a table per
  game and division) prints each under its own title ("Napoleon · Division A"), a
  title never alone at a page's foot;
- a continuation page repeats the document's first title lines at its top (club,
  season, night, table, game and seats, and the section's title) and the table's
  heading row;
- a sheet to fill in by hand prints its deal numbers, and fits one page: its rows
  shrink to ``LEAST_ROW`` before it continues on a second page;
- a table's headings are never broken inside a word: a column is at least as wide as
  the longest word of its heading (a Japanese heading is one word); a name too long for
  its column wraps, a Latin one between words, a Japanese one between characters,
  never a character a line (a column of names is at least ``TEXT_EMS`` wide);
- the only font is the IPA P Gothic shipped in ``scoring/fonts`` (with its licence),
  embedded: Latin and Japanese render the same in any viewer, and no other font (not
  even reportlab's default Helvetica) is named in the file.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
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

from scoring.documents import Document, Section
from scoring.pdf_columns import FONT, PADDING, SIZE, Measure, fitted, text_width

MARGIN = 15 * mm
ROW = 9 * mm
"""A blank row's height: room for a handwritten number."""
LEAST_ROW = 6 * mm
"""The least a blank row shrinks to before the sheet continues on another page."""
BODY = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=14)
HEADING = ParagraphStyle("heading", parent=BODY, fontSize=14, leading=18)
SECTION = ParagraphStyle(
    "section", parent=BODY, fontSize=12, leading=16, spaceBefore=5 * mm, keepWithNext=1
)
"""A section's title ("Napoleon · Division A"): never alone at a page's foot."""
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
    layouts = [_Layout.of(document) for document in documents]
    first = layouts[0].orientation if layouts else "portrait"
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
    for i, (document, layout) in enumerate(zip(documents, layouts, strict=True)):
        if i:
            story += [NextPageTemplate(layout.orientation), PageBreak()]
        story += _story(document, layout, _frame(layout.orientation))
    doc.build(story)
    return out.getvalue()


def _frame(orientation: str) -> tuple[float, float]:
    width, height = PAGES[orientation]
    return width - 2 * MARGIN, height - 2 * MARGIN


@dataclass(frozen=True)
class _Layout:
    """What of a document is printed, and how: its orientation (landscape when it is a
    wide sheet, or when its columns do not fit a portrait page), its type size, the
    printed headings and rows as text."""

    orientation: str
    size: float
    header: list[str]
    text: list[list[str]]
    measure: Measure

    @classmethod
    def of(cls, document: Document) -> _Layout:
        columns = list(document.printed) or list(range(len(document.header)))
        header = [str(h) for h in document.printed_header] or [
            str(document.header[i]) for i in columns
        ]
        text = [
            ["" if i >= len(row) or row[i] is None else str(row[i]) for i in columns]
            for row in document.rows
        ]
        if document.blank_rows:  # a sheet to write on: numbered rows, as many as fit a page
            text += [
                [str(len(text) + n + 1)] + [""] * (len(header) - 1)
                for n in range(document.blank_rows)
            ]
        measure = Measure([header, *text])
        orientation = "landscape" if document.landscape else "portrait"
        if not document.blank_rows and sum(measure.least(SIZE)) > _frame("portrait")[0]:
            orientation = "landscape"  # many columns: the page turns before the type shrinks
        size = SIZE if document.blank_rows else measure.size(_frame(orientation)[0])
        return cls(orientation, size, header, text, measure)


class _Running(Flowable):
    """Sets the line printed atop the pages that follow (``""``: none): a document's
    continuation pages say whose they are (and which section's)."""

    def __init__(self, line: str, section: str = "") -> None:
        super().__init__()
        self.line = line
        self.section = section

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.canv._clubscore_running = (self.line, self.section)


def _running_line(canvas: Any, doc: Any) -> None:
    line, section = getattr(canvas, "_clubscore_running", ("", ""))
    if line or section:
        text, size = _fit_line(line, section, doc.pagesize[0] - 2 * MARGIN)
        canvas.saveState()
        canvas.setFont(FONT, size)
        canvas.drawString(MARGIN, doc.pagesize[1] - MARGIN + 3 * mm, text)
        canvas.restoreState()


def _fit_line(line: str, section: str, width: float) -> tuple[str, float]:
    """The running line inside ``width``: smaller type, then the document's part cut
    short ("…"); the section's title is kept whole."""
    text = " · ".join(t for t in (line, section) if t)
    size = min(8.0, max(6.0, 8 * width / max(text_width(text, 8), 1)))
    while text_width(text, size) > width and line:
        line = line[:-1]
        text = " · ".join(t for t in (line.rstrip() + "…", section) if t)
    return text, size


def _story(document: Document, layout: _Layout, frame: tuple[float, float]) -> list[Any]:
    width, height = frame
    title = _title(document, width)
    header, text, size = layout.header, layout.text, layout.size
    if document.blank_rows:  # to fill in by hand: numbered, as many as fit one page
        cells, widths = fitted([header, *text], layout.measure, size, width, fill=True)
        head = Table(cells[:1], widths).wrap(width, height)[1]
        room = height - _height(title, width) - head - 2 * mm  # some slack: never a blank page
        rows_height = [head] + [max(min(ROW, room / max(len(text), 1)), LEAST_ROW)] * len(text)
    else:
        cells, widths = fitted([header, *text], layout.measure, size, width)
        rows_height = _heights(cells, widths, size)
    numbers = [i for i, n in enumerate(layout.measure.numbers) if n]
    style = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, size),
            ("LEFTPADDING", (0, 0), (-1, -1), PADDING * size),
            ("RIGHTPADDING", (0, 0), (-1, -1), PADDING * size),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde7f0")),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("VALIGN", (0, 0), (-1, 0), "TOP"),  # headings start on one line
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
            *[("ALIGN", (i, 1), (i, -1), "RIGHT") for i in numbers],
        ]
    )
    running = " · ".join(document.title[:3])
    story: list[Any] = [_Running(""), *title, _Running(running)]
    left = height - _height(title, width)
    sections = list(document.sections) or [Section("", 0)]
    for k, section in enumerate(sections):
        a = section.start + 1  # in ``cells``: after the heading row
        b = sections[k + 1].start + 1 if k + 1 < len(sections) else len(cells)
        if section.title:
            heading = Paragraph(escape(section.title), SECTION)
            above = SECTION.spaceBefore if left < height else 0  # none atop a page
            need = heading.wrap(width, 10_000)[1] + rows_height[0] + max(rows_height[a:b] or [0])
            if above + need > left:  # a title never ends a page
                story.append(CondPageBreak(above + need))
                left, above = height, 0
            story.append(heading)
            left -= above + heading.wrap(width, 10_000)[1]
        runs, left = _pages(rows_height, a, b, left, height)
        for n, (c, d) in enumerate(runs):
            table = Table(
                [cells[0], *cells[c:d]], widths, [rows_height[0], *rows_height[c:d]], repeatRows=1
            )
            table.setStyle(style)
            story.append(table)
            if n == 0 and section.title:  # its continuation pages name the section too
                story.append(_Running(running, section.title))
    return [*story, _Running("")]


def _heights(cells: list[list[Any]], widths: list[float], size: float) -> list[float]:
    """Each row's height: a line of text, or its tallest wrapped paragraph (padding in)."""
    line = size * 1.2 + 6
    return [
        max(
            [line]
            + [
                c.wrap(w - 2 * PADDING * size, 10_000)[1] + 6
                for c, w in zip(row, widths, strict=True)
                if isinstance(c, Paragraph)
            ]
        )
        for row in cells
    ]


def _pages(
    heights: list[float], start: int, end: int, left: float, room: float
) -> tuple[list[tuple[int, int]], float]:
    """The rows ``start:end`` (after the heading row, ``heights[0]``) in runs of a page
    each, the first in the ``left`` points left on this page, every other in ``room``;
    and the points left after the last.  A long table laid out as one, as reportlab does
    it, measures and copies every remaining row at each page (a thousand players'
    standings: seconds); a table per page is laid out once.  Where a run still does not
    fit, reportlab splits it as usual (the heading repeated)."""
    runs: list[tuple[int, int]] = []
    left -= heights[0]
    for i in range(start, end):
        if heights[i] > left and i > start:
            runs.append((start, i))
            start, left = i, room - heights[0]
        left -= heights[i]
    runs.append((start, end))
    return runs, left


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
