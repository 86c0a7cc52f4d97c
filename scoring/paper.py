"""Paper score sheets (PDF): a match's named sheet, a game's blank one, and the night's
paper in one file — its table list, then every table's sheet with the table link's QR
code (issue 29, 7).

A sheet's columns are the deal number, a score per player and a note; a game whose
``paper_columns`` is set (Napoleon, Rettler) has instead the columns its import template
reads, in the same order, headed in the reader's language, and one point-card column per
seated player headed with the player's name: the paper kept as a backup is typed into the
template row by row (the template's player columns are the sheet's seats, in order).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.documents import Document
from tournaments import round_state
from tournaments.games import LEAGUE_GAMES
from tournaments.models import ClubNight, Match
from tournaments.names import night_label, table_label, table_place
from tournaments.sheets.columns import game_columns, seat_handle

SEAT_COLUMN = re.compile(rf"^(\w+?)_{seat_handle(0)[:-1]}(\d+)$")
"""A game column of one seat (``pc_seat3``: the third player's point cards)."""


def header(game: str, names: Sequence[str]) -> list[str]:
    """The sheet's column headings for players ``names`` (seat order)."""
    short = LEAGUE_GAMES[game].paper_headings
    if not short:
        return [_("Deal"), *names, _("Note")]
    out = [_("Deal")]
    for column in game_columns(game):
        seat = SEAT_COLUMN.search(column.key)
        if seat is None:
            out.append(str(short.get(column.key, column.heading(_language()))))
        elif int(seat.group(2)) <= len(names):  # the player's name ("Point cards" above it)
            out.append(f"{short.get(seat.group(1), '')}: {names[int(seat.group(2)) - 1]}")
    return out


def _language() -> str:
    return (get_language() or "en")[:2]


def match_paper(match: Match, link: str = "") -> Document:
    """The match's named sheet (players in seat order), with its table's link as a QR code."""
    night = match.table.club_night
    names = [p.shown_name for p in match.seated_players()]
    game = LEAGUE_GAMES[match.game]
    where = table_place(match.table)
    title = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · {where} · {game.label}",
        _("Seats in order of play") + ": " + ", ".join(f"{i}. {n}" for i, n in enumerate(names, 1)),
    ]
    if link:
        title.append(_("Scan the code to enter this table's deals on a phone."))
    return Document(
        match.game,
        title,
        header(match.game, names),
        [],
        rows_for(match),
        link,
        landscape=bool(game.paper_headings),
    )


MOST_ROWS = 100
"""A match of more deals than this prints this many rows (then a second sheet)."""


def rows_for(match: Match) -> int:
    """A match's sheet's rows: as many as its deals where the night set how many (a game
    with no end of its own: 4 deals, 4 rows, not Napoleon's 20 blank rows), else the
    game's own count."""
    if round_state.open_ended(match.game) and match.target:
        return min(match.target, MOST_ROWS)
    return LEAGUE_GAMES[match.game].blank_rows


def blank_paper(game: str) -> Document:
    """A blank sheet of ``game``, titled with its name in the reader's language."""
    league = LEAGUE_GAMES[game]
    seats = league.rules.best_players
    names = [_("Player %(n)s") % {"n": i + 1} for i in range(seats)]
    title = [
        f"Clubscore – {league.label}",
        _("Club") + ": ____________   " + _("Date") + ": ________   " + _("Table") + ": ______",
    ]
    return Document(
        game,
        title,
        header(game, names),
        [],
        blank_rows=league.blank_rows,
        landscape=bool(league.paper_headings),
    )


def night_paper(
    night: ClubNight, links: Mapping[int, str], tables: Sequence[int] | None = None
) -> list[Document]:
    """The night's table list, then each match's sheet; ``links``: table id → its link;
    ``tables``: only these (one round's)."""
    found = Match.objects.filter(table__club_night=night)
    if tables is not None:
        found = found.filter(table__in=tables)
    matches = list(
        found.select_related("table__club_night__season__club", "table__round")
        .prefetch_related("seats__player")
        .order_by("table__round__number", "table__name", "created_at")
    )
    rows = [
        [
            table_label(m.table.name),
            LEAGUE_GAMES[m.game].label,
            ", ".join(p.shown_name for p in m.seated_players()),
        ]
        for m in matches
    ]
    title = [
        f"{night.season.club.name} – {night.season.name}",
        f"{night_label(night)} · " + _("Tables"),
    ]
    listing = Document("tables", title, [_("Table"), _("Game"), _("Players")], rows)
    return [listing, *(match_paper(m, links.get(m.table_id, "")) for m in matches)]
