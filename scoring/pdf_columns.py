"""A printed table's columns (``scoring.pdf`` lays out the pages around them): the table's
text measured once, the type size at which its columns fit a page's width, each column's
width, and the cells, a heading never broken inside a word, a name too long for its
column wrapped (a Latin one between words, a Japanese one between characters), a value
that fits drawn as it is.

The only font is the IPA P Gothic shipped in ``scoring/fonts`` (with its licence): it is
registered here, since every width is measured in it."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

FONT = "IPAPGothic"
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "ipagp.ttf"
pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))

CELL = ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=10, wordWrap="CJK")
SIZE = 9.0
"""A table's type size (its headings and wrapped values a point smaller)."""
LEAST_SIZE = 4.5
"""The least a table's type shrinks to where its columns do not fit even a landscape page
(some twenty columns of five-digit figures): small print rather than a figure cut."""
PADDING = 6 / 9
"""A cell's padding left and right, in ems (6 points at ``SIZE``)."""
TEXT_EMS = 7
"""A column of text (names) is at least this many ems wide, or as wide as its longest
value: a longer name wraps, but never a character a line."""
NUMBER = re.compile(r"-?\d+(\.\d+)?")
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""Japanese (kana, kanji, full-width forms): wraps between characters."""


class Measure:
    """A table's text measured once, at a type size of one point (a width grows with the
    size): each heading on one line and its longest word, each column's longest value,
    and which columns hold numbers."""

    def __init__(self, text: list[list[str]]) -> None:
        header, rows = text[0], text[1:]
        self.head = [text_width(h, 1) for h in header]
        self.words = [max((text_width(w, 1) for w in h.split()), default=0.0) for h in header]
        self.data = [
            max((text_width(r[i], 1) for r in rows), default=0.0) for i in range(len(header))
        ]
        self.numbers = [  # a column of numbers keeps their width; the others share the rest
            any(r[i] for r in rows) and all(NUMBER.fullmatch(r[i]) or not r[i] for r in rows)
            for i in range(len(header))
        ]

    def least(self, size: float) -> list[float]:
        """Each column's least width at ``size``: its heading's longest word (headings are
        a point smaller, never broken inside a word), its longest number, and for text
        (names) its longest value up to ``TEXT_EMS`` ems (longer names wrap)."""
        return [
            pad(size) + max(w * (size - 1), d * size if n else min(d, TEXT_EMS) * size)
            for w, d, n in zip(self.words, self.data, self.numbers, strict=True)
        ]

    def size(self, width: float) -> float:
        """The type size at which the columns fit ``width``: ``SIZE``, or smaller down to
        ``LEAST_SIZE`` (a figure is never cut: a wide table's type shrinks instead)."""
        size = SIZE
        while size > LEAST_SIZE and sum(self.least(size)) > width:
            size -= 0.5
        return size


def pad(size: float) -> float:
    """A cell's padding at type ``size``, and some air."""
    return 2 * PADDING * size + 2


def text_width(text: str, size: float = 8) -> float:
    """``text``'s width in points at type ``size`` in the font: its width at one point
    times the size."""
    return _unit_width(text) * size


@functools.lru_cache(maxsize=1 << 16)
def _unit_width(text: str) -> float:
    """``text``'s width at one point, measured once: a table's cells are measured twice
    (:class:`Measure`, :func:`fitted`) and repeat themselves (ranks, points, a game's
    name): a thousand players' standings are 128,000 measures of some 20,000 texts."""
    return pdfmetrics.stringWidth(text, FONT, 1)


def fitted(
    text: list[list[str]], measure: Measure, size: float, width: float, *, fill: bool = False
) -> tuple[list[list[Any]], list[float]]:
    """The table's cells and column widths inside ``width`` at type ``size``.  As they
    are when every heading and value fits on one line (unless ``fill``: a sheet to write
    on spans the page); else each column is at least its least (:meth:`Measure.least`)
    and the columns of text (names, games) share what is left, wrapping between words
    (Japanese between characters); on a sheet to write on (``fill``) they share it
    equally (:func:`_equal`)."""
    head = [h * size + pad(size) for h in measure.head]
    data = [d * size + pad(size) for d in measure.data]
    numbers = measure.numbers
    if not fill and sum(max(h, d) for h, d in zip(head, data, strict=True)) <= width:
        natural = [max(h, d) for h, d in zip(head, data, strict=True)]
        return _cells(text, natural, size), natural
    least = measure.least(size)
    if fill:
        columns = _equal(least, numbers, width)
        return _cells(text, columns, size), columns
    spare = max(width - sum(least), 0.0)
    wanted = [
        0.0 if n else max(max(h, d) - m, 1.0)
        for h, d, m, n in zip(head, data, least, numbers, strict=True)
    ]
    if not any(wanted):  # only numbers: the headings share the spare room
        wanted = [max(h - m, 1.0) for h, m in zip(head, least, strict=True)]
    total = sum(wanted)
    columns = [m + spare * w / total for m, w in zip(least, wanted, strict=True)]
    return _cells(text, columns, size), columns


@functools.cache
def _styles(size: float) -> tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]:
    """A table's paragraph styles at type ``size`` (a point smaller): a wrapped value
    (Japanese wraps between characters), a wrapped number, a heading (between words)."""
    cell = ParagraphStyle(f"cell-{size}", parent=CELL, fontSize=size - 1, leading=size + 1)
    number = ParagraphStyle(f"number-{size}", parent=cell, alignment=TA_RIGHT)
    heading = ParagraphStyle(f"heading-{size}", parent=cell, wordWrap=None)
    return cell, number, heading


def _cells(text: list[list[str]], columns: list[float], size: float) -> list[list[Any]]:
    """Headings are paragraphs, wrapping between words; so is a value too wide for its
    column (Japanese wraps between characters).  A value that fits stays a string, drawn
    as it is: a paragraph is laid out word by word, a thousand players' standings would
    take seconds (numbers keep to the right by the table's style)."""
    cell, number, heading = _styles(size)
    room = [c - 2 * PADDING * size for c in columns]  # a cell's padding

    def wrapped(v: str, r: float) -> Paragraph:
        if NUMBER.fullmatch(v):
            return Paragraph(escape(v), number)
        # Latin names wrap between words where every word fits; Japanese, or a word
        # wider than the column, between characters.
        words = max(
            (text_width(w, size - 1) for w in v.split()), default=0
        ) <= r and not CJK.search(v)
        return Paragraph(escape(v), heading if words else cell)

    return [
        [Paragraph(escape(h), heading) for h in text[0]],
        *[
            [
                v if text_width(v, size) <= r else wrapped(v, r)
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
