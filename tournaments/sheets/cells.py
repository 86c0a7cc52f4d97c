"""A spreadsheet file as rows of cells: CSV (UTF-8, with or without Excel's byte-order
mark, or Shift_JIS, which Japanese Excel writes) or XLSX (its first worksheet).

Cells come out as text, except the dates an XLSX file holds as dates.  Rows keep
the numbers the spreadsheet shows (the heading row is row 1), and blank rows are
left out.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from tournaments.records import Rejection, error
from tournaments.roster import decode

MAX_BYTES = 20 * 1024 * 1024
MAX_ROWS = 100_000

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
    table: list[list[object]]
    if data.startswith(b"PK\x03\x04"):
        table = _xlsx(data)
    else:
        table = [list(row) for row in csv.reader(io.StringIO(decode(data)))]
    numbered = [(n, row) for n, row in enumerate(table, start=1) if any(_text(c) for c in row)]
    if not numbered:
        raise Rejection((error("missing_field", "file", gettext_noop("the file is empty")),))
    if len(numbered) - 1 > MAX_ROWS:
        raise Rejection((error("too_large", "file", gettext_noop("the file has more than %(rows)s rows"), rows=MAX_ROWS),))  # fmt: skip
    (_n, header), *rows = numbered
    return Rows([_text(c) for c in header], [(n, [_cell(c) for c in row]) for n, row in rows])


def _xlsx(data: bytes) -> list[list[object]]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise Rejection((error("wrong_type", "file", gettext_noop("the file is not an XLSX workbook that can be read")),)) from None  # fmt: skip
    try:
        sheet = book.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        book.close()


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
