"""What an export holds, whatever its format (``scoring.exports`` writes CSV and XLSX,
``scoring.pdf`` prints it): a title block, a header and rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Cell = str | int | float | None


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
    """Wide: the PDF's pages are A4 landscape (``scoring.pdf``)."""
    print_columns: int = 0
    """The PDF prints only the first ``print_columns`` columns (0: all): the rest (the
    club and season on every row, for a spreadsheet) are in the printed title."""
