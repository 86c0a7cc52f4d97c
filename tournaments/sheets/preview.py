"""What checking a score sheet gives (:mod:`tournaments.sheets.check`): the matches and
deals an import would add, every mistake with its row and column, and who the sheet's
names are.  Nothing of it is written; the import (:mod:`actions.imports`) writes
a preview that has no mistake."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from engine.results import DealResult
from tournaments.models import Player, Season
from tournaments.sheets import cells


@dataclass
class SheetDeal:
    row: int
    record: dict[str, Any]
    """The deal record, completed with its match's envelope, in the club's handles."""
    result: DealResult
    key: str
    request_hash: str


@dataclass
class SheetMatch:
    season: str
    date: dt.date
    table: str
    game: str
    number: str
    """The sheet's ``match`` column (``1`` when empty)."""
    row: int
    """Its first row."""
    names: list[str] = field(default_factory=list)
    """The players as the sheet names them, in seat order."""
    handles: list[str] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)
    target: int | None = None
    rows: list[tuple[int, dict[str, cells.Cell]]] = field(default_factory=list)
    deals: list[SheetDeal] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    finished: bool = False
    imported: bool = False
    """Every deal of it is in the club already (imported before): it is skipped."""


@dataclass
class Preview:
    """What a sheet would add; nothing of it is written."""

    matches: list[SheetMatch] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    """Each mistake: code, path (``row 7.player_2``), row, column (as the file heads it),
    message (in the active language)."""
    known: dict[str, Player] = field(default_factory=dict)
    """Names of the sheet → the club's players they are."""
    unknown: dict[str, list[int]] = field(default_factory=dict)
    """Names the club does not know and no answer maps → the rows they are on."""
    suggestions: dict[str, list[Player]] = field(default_factory=dict)
    """Players of the club whose names are close to an unknown name."""
    new_players: dict[str, Player] = field(default_factory=dict)
    """Names answered :data:`NEW` → the unsaved players (with the handles they will get)."""
    new_seasons: dict[str, Season] = field(default_factory=dict)
    close_seasons: dict[str, str] = field(default_factory=dict)
    """A new season's name → the club's season whose name is close to it (a slip?)."""
    seasons: dict[str, Season] = field(default_factory=dict)
    """Every season the sheet's rows are in, by the sheet's name for it (new ones unsaved)."""
    loose_rows: int = 0
    """Rows of deals that belong to no match yet (a mistake in their date, table, game…)."""
    nights_held: set[tuple[str, dt.date]] = field(default_factory=set)
    """The (season, date) of the file's matches whose season has a club night then already
    (the import adds the matches to it)."""

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def to_add(self) -> list[SheetMatch]:
        return [m for m in self.matches if not m.imported]

    def counts(self) -> dict[str, int]:
        """What the file would add.  ``deals`` counts the file's rows of deals (imported
        before: left out), whether they check or not, so that the number stays the same
        while the mistakes are corrected one by one (issue 29, 10); ``deals_checked`` those
        the engine accepted so far (all of them once no mistake is left)."""
        new = self.to_add
        return {
            "matches": len(new),
            "deals": sum(len(m.rows) for m in new) + self.loose_rows,
            "deals_checked": sum(len(m.deals) for m in new),
            "nights": len({(m.season, m.date) for m in new} - self.nights_held),
            "players": len(self.new_players),
            "seasons": len(self.new_seasons),
            "matches_imported_before": len(self.matches) - len(new),
            "deals_imported_before": sum(len(m.deals) for m in self.matches if m.imported),
        }
