"""What an export holds, whatever its format (``scoring.exports`` writes CSV and XLSX,
``scoring.pdf`` prints it): a title block, a header and rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

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


def sections(
    rows: Sequence[Sequence[Cell]], title: Callable[[Sequence[Cell]], str]
) -> list[Section]:
    """The printed sections of ``rows`` (in order of their section): a section begins
    where a row's ``title`` differs from the row before's."""
    out: list[Section] = []
    for i, row in enumerate(rows):
        name = title(row)
        if not out or out[-1].title != name:
            out.append(Section(name, i))
    return out


def exported_line() -> str:
    """The last line of a download's title: the day it was made (in the active time zone)."""
    return _("Exported on %(date)s") % {"date": f"{timezone.localdate():%Y-%m-%d}"}
