"""A spreadsheet file as rows of cells: CSV (as :mod:`tournaments.textfile` reads it: UTF-8,
Shift_JIS, which Japanese Excel writes, or Excel's UTF-16 text) or XLSX (its first worksheet).

Cells come out as text, except the dates an XLSX file holds as dates.  Rows keep
the numbers the spreadsheet shows (the heading row is row 1), and blank rows are
left out.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from tournaments.records import Rejection, error
from tournaments.textfile import csv_rows

MAX_BYTES = 20 * 1024 * 1024
MAX_ROWS = 100_000
MAX_COLUMNS = 500
"""Cells to the right of this column are not read (a sheet has some 40 columns)."""

Cell = str | dt.date


@dataclass(frozen=True)
class Rows:
    header: list[str]
    rows: list[tuple[int, list[Cell]]]
    """(the row's number in the spreadsheet, its cells)."""


def read(data: bytes) -> Rows:
    """The rows of a CSV or XLSX file, or a :class:`Rejection` saying why it cannot be read."""
    if len(data) > MAX_BYTES:
        raise Rejection((error("too_large", "file", gettext_noop("the file is larger than %(size)s bytes"), size=MAX_BYTES),))  # fmt: skip
    table = _xlsx(data) if data.startswith(b"PK\x03\x04") else iter(csv_rows(data))
    numbered: list[tuple[int, Sequence[object]]] = []
    for n, row in enumerate(table, start=1):  # a workbook is read as it streams: stop early
        if not any(_text(c) for c in row):
            continue
        if len(numbered) > MAX_ROWS:
            raise Rejection((error("too_large", "file", gettext_noop("the file has more than %(rows)s rows"), rows=MAX_ROWS),))  # fmt: skip
        numbered.append((n, row))
    if not numbered:
        raise Rejection((error("missing_field", "file", gettext_noop("the file is empty")),))
    (_n, header), *rows = numbered
    return Rows([_text(c) for c in header], [(n, [_cell(c) for c in row]) for n, row in rows])


def _xlsx(data: bytes) -> Iterator[Sequence[object]]:
    """The first worksheet's rows, as they are read, its first :data:`MAX_COLUMNS` columns.

    The workbook's own claim of its size is not believed (it can say a million
    columns); any failure to read it is the file's, reported as such."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            sheet.reset_dimensions()
            for row in sheet.iter_rows(values_only=True):
                yield row[:MAX_COLUMNS]
        finally:
            book.close()
    except Rejection:
        raise
    except Exception:  # openpyxl and the XML parser raise many kinds: all mean "cannot be read"
        raise Rejection((error("wrong_type", "file", gettext_noop("the file is not an XLSX workbook that can be read")),)) from None  # fmt: skip


def _cell(value: object) -> Cell:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return _text(value)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()
