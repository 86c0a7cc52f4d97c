"""Text as people send it: uploaded CSV files as rows (or a :class:`Rejection` that says
why not), and whole numbers as they type them.

What spreadsheets write: UTF-8 with or without Excel's byte-order mark, Shift_JIS
(Japanese Excel's "CSV"), and UTF-16 with its byte-order mark, tab-separated
(Excel's "Unicode text").  A NUL character or a cell longer than the CSV reader
allows means the file is not a spreadsheet's text: it is refused, naming the row.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from django.utils.translation import gettext_noop

from tournaments.errors import Rejection, error

UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
MOST_DIGITS = 18
"""Longer runs of digits are no number anyone plays to (and Python reads at most 4,300)."""


def whole_number(text: str | None) -> int | None:
    """The whole number ``text`` is (digits of any script: ``１２`` is 12), else ``None``."""
    return int(text) if text and text.isdecimal() and len(text) <= MOST_DIGITS else None


def no_larger_than(data: bytes, limit: int) -> None:
    """Refuse a file of more than ``limit`` bytes, before anything reads it."""
    if len(data) > limit:
        raise Rejection(
            (
                error(
                    "too_large",
                    "file",
                    gettext_noop("the file is larger than %(size)s bytes"),
                    size=limit,
                ),
            )
        )


def decode(data: bytes) -> str:
    """The text of an uploaded file: UTF-16 when it starts with a byte-order mark, else
    UTF-8 (a mark is dropped), else Shift_JIS."""
    encodings = ("utf-16",) if data.startswith(UTF16_MARKS) else ("utf-8-sig", "cp932")
    for encoding in encodings:  # cp932: Shift_JIS as Windows writes it
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise Rejection(
        (
            error(
                "wrong_encoding",
                "file",
                gettext_noop("the file is neither UTF-8 nor Shift_JIS text"),
            ),
        )
    )


def csv_rows(data: bytes, columns: int | None = None) -> Iterator[list[str]]:
    """The rows of a CSV file as they are read (tab-separated when its first line has tabs
    and no commas), each cut to its first ``columns`` cells when that is given.  Lines may
    end as Windows (CR LF), Unix (LF) or the old Mac (CR alone) writes them."""
    text = decode(data)
    first = text.splitlines()[0] if text else ""
    delimiter = "\t" if "\t" in first and "," not in first else ","
    # newline="": lines end at CR LF, LF or CR, and a quoted cell keeps its own line ends.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    n = 0
    try:
        for n, row in enumerate(reader, start=1):
            if any("\x00" in cell for cell in row):
                raise _unreadable(
                    n,
                    gettext_noop(
                        "row %(row)s holds a NUL character: the file is not a spreadsheet's text"
                    ),
                )
            yield row[:columns]
    except csv.Error:
        raise _unreadable(
            n + 1,
            gettext_noop(
                "row %(row)s cannot be read as CSV (a cell too long, or a quote not closed)"
            ),
        ) from None


def _unreadable(row: int, message: str) -> Rejection:
    """Row ``row`` (a spreadsheet's number: the first row is 1) cannot be read."""
    return Rejection((error("wrong_type", f"row {row}", message, row=row),))
