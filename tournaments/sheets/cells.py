"""A spreadsheet file as rows of cells: CSV (as :mod:`tournaments.textfile` reads it: UTF-8,
Shift_JIS, which Japanese Excel writes, or Excel's UTF-16 text) or XLSX (its first worksheet).

Cells come out as text, except the dates an XLSX file holds as dates.  Rows keep
the numbers the spreadsheet shows (the heading row is row 1), and blank rows are
left out.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from tournaments.errors import Rejection, error
from tournaments.textfile import csv_rows, no_larger_than

MAX_BYTES = 20 * 1024 * 1024
MAX_ROWS = 100_000
MAX_COLUMNS = 500
"""Cells to the right of this column are not read (a sheet has some 40 columns)."""

# What a workbook of score sheets can be, checked before openpyxl reads a byte of it
# (:func:`guard`): a zip bomb, a million shared strings or a cell at row two billion
# would each keep a web process busy for minutes and take gigabytes.
MAX_UNPACKED = 200 * 1024 * 1024
"""All the workbook's parts unpacked: 100,000 rows of some 40 cells are well under it."""
MAX_RATIO = 100
"""A part's unpacked size over its packed size (spreadsheet XML packs 5 to 20 times)."""
MAX_SHARED_STRINGS = 200_000
"""Distinct texts in a workbook (names, games, trumps… a sheet has a few thousand)."""
MAX_SHEET_ROW = 1_048_576
"""The last row a spreadsheet has (Excel's); a CSV file's too."""
_ROW_NUMBER = re.compile(rb"<(?:[\w.-]+:)?row\b[^>]*?\sr\s*=\s*[\"']\s*\+?(\d[\d.eE+]*)")
"""A row's number as openpyxl reads it: quoted either way, spaced, even written as a
float (``r='5e6'``).  openpyxl makes an empty row for each row a ``<row r=…>`` skips;
a cell's own ``r`` places it in its row, and makes none."""
_SHARED_TEXT = re.compile(rb"<(?:[\w.-]+:)?si[\s/>]")
"""One of the workbook's shared texts (``<si>``, prefixed or not)."""


Cell = str | dt.date


@dataclass(frozen=True)
class Rows:
    header: list[str]
    rows: list[tuple[int, list[Cell]]]
    """(the row's number in the spreadsheet, its cells)."""


def guard(data: bytes) -> None:
    """Refuse, quickly and before any parsing, a file no score sheet can be: too large, or
    a workbook whose parts unpack beyond :data:`MAX_UNPACKED` or :data:`MAX_RATIO`, with more
    than :data:`MAX_SHARED_STRINGS` texts or a row beyond :data:`MAX_SHEET_ROW`."""
    no_larger_than(data, MAX_BYTES)
    if not data.startswith(b"PK\x03\x04"):
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            parts = book.infolist()
            if sum(p.file_size for p in parts) > MAX_UNPACKED or any(
                p.file_size > MAX_RATIO * max(p.compress_size, 1) + 65536 for p in parts
            ):
                raise Rejection(
                    (
                        error(
                            "too_large",
                            "file",
                            gettext_noop(
                                "the workbook unpacks to far more than a score sheet can be"
                            ),
                        ),
                    )
                )
            # Every part is measured, whatever its name: the workbook's own list of parts
            # says which are its worksheets and its texts, and it may name them anything.
            measured = [_measure(book, part) for part in parts]
            if sum(texts for texts, _last in measured) > MAX_SHARED_STRINGS:
                raise Rejection(
                    (
                        error(
                            "too_large",
                            "file",
                            gettext_noop("the workbook holds more than %(n)s different texts"),
                            n=MAX_SHARED_STRINGS,
                        ),
                    )
                )
            if max((last for _texts, last in measured), default=0) > MAX_SHEET_ROW:
                raise _beyond_the_last_row()
    except (
        zipfile.BadZipFile,  # not a zip at all, or a part whose checksum fails
        zipfile.LargeZipFile,  # a ZIP64 archive: no score sheet needs one
        OSError,  # a part cut short
        EOFError,  # the archive cut short
        NotImplementedError,  # a compression method zipfile does not read
        RuntimeError,  # an encrypted part
        zlib.error,  # a packed part whose bytes are damaged
    ):
        raise Rejection(
            (
                error(
                    "wrong_type",
                    "file",
                    gettext_noop("the file is not an XLSX workbook that can be read"),
                ),
            )
        ) from None


def _measure(book: zipfile.ZipFile, part: zipfile.ZipInfo) -> tuple[int, int]:
    """A part's shared texts and the largest row number its tags give, read a megabyte
    at a time and cut after a tag's ``>`` (so that no tag is measured in two pieces),
    never the whole part at once."""
    texts, last, tail = 0, 0, b""
    with book.open(part) as stream:
        while True:
            chunk = stream.read(1 << 20)
            block = tail + chunk
            cut = block.rfind(b">") + 1 if chunk else len(block)
            # ``<si`` counted as bytes; by the slower pattern only where a prefix is used.
            prefixed = b":si" in block
            texts += (
                len(_SHARED_TEXT.findall(block, 0, cut))
                if prefixed
                else block.count(b"<si", 0, cut)
            )
            last = max([last, *map(_row_number, _ROW_NUMBER.findall(block, 0, cut))])
            if not chunk:
                return texts, last
            tail = block[cut:][-65536:]


def _row_number(found: bytes) -> int:
    """A row number as openpyxl reads it (``int``, else ``float``); one beyond the last
    row for a number too large for a float; 0 for no number (openpyxl refuses it)."""
    try:
        return int(float(found))
    except OverflowError:  # "1e999" is infinite
        return MAX_SHEET_ROW + 1
    except ValueError:
        return 0


def _beyond_the_last_row() -> Rejection:
    return Rejection(
        (
            error(
                "too_large",
                "file",
                gettext_noop("the file has a row beyond row %(rows)s"),
                rows=MAX_SHEET_ROW,
            ),
        )
    )


def read(data: bytes) -> Rows:
    """The rows of a CSV or XLSX file, or a :class:`Rejection` saying why it cannot be read."""
    guard(data)
    table = _xlsx(data) if data.startswith(b"PK\x03\x04") else csv_rows(data, MAX_COLUMNS)
    numbered: list[tuple[int, Sequence[object]]] = []
    for n, row in enumerate(table, start=1):  # read as it streams: stop early
        if n > MAX_SHEET_ROW:  # blank rows count: openpyxl makes one for each row skipped
            raise _beyond_the_last_row()
        if not any(_text(c) for c in row):
            continue
        if len(numbered) > MAX_ROWS:
            raise Rejection(
                (
                    error(
                        "too_large",
                        "file",
                        gettext_noop("the file has more than %(rows)s rows"),
                        rows=MAX_ROWS,
                    ),
                )
            )
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
        raise Rejection(
            (
                error(
                    "wrong_type",
                    "file",
                    gettext_noop("the file is not an XLSX workbook that can be read"),
                ),
            )
        ) from None


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
