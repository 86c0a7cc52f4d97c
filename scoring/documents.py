"""What an export holds, whatever its format (``scoring.exports`` writes CSV and XLSX,
``scoring.pdf`` prints it): a title block, a header and rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Cell = str | int | float | None


@dataclass(frozen=True)
class Section:
    """Printed, a run of a document's rows under a title of its own (``scoring.pdf``):
    one game's leaderboard, one division's."""

    title: str
    start: int
    """The index of its first row in the document's ``rows`` (it ends where the next
    section starts)."""


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
    printed: Sequence[int] = ()
    """The columns the PDF prints, in order (empty: all): the others (the club and season
    on every row, the game a section's title names, for a spreadsheet) are in the printed
    titles."""
    printed_header: Sequence[str] = ()
    """The printed columns' headings where they differ from ``header`` (empty: the same):
    shorter where a section's title says the rest ("Rank" under "Division A")."""
    sections: Sequence[Section] = ()
    """The PDF prints the rows as one titled table per section (empty: one table)."""
