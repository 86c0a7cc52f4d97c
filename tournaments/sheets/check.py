"""A score sheet checked as a whole, without writing: what an import would add.

Each row is a deal.  Its players are matched to the club's by name, Japanese
name or handle; a name the club does not know is a mistake until the
administrator says whether it is a new player or one the club has (``players``:
name → :data:`NEW` or a handle).  Rows are grouped into matches by season, date,
table, game and the ``match`` column (``1`` when empty), in the order they come:
a match's rows are its deals in order.  Every deal is built by the game's entry
form (:class:`~tournaments.sheets.columns.SheetForm`) from the row's cells and
checked by the engine as the match's next deal, so a sheet is refused for
exactly what the table-side page would refuse.

Decisions a club would expect, where the issue is silent:

* The season column may be left empty when exactly one of the club's seasons
  covers the row's date.  A season the club does not have is new: it counts the
  games of its rows and runs from its first to its last date.
* A match's later rows may leave the players, rules and target empty: they are the
  first row's.  An empty dealer is the one the rules name (as the entry form fills it in).
* A multi-line field (Packing's packs) takes its lines separated by ``/`` or ``;``
  as well as by line breaks within the cell.
* Each deal keeps its row's identity (club, season, date, table, game, match and the
  deal's place in it) as its key: a file imported again adds nothing, and a deal
  whose identity was imported before with other values is a mistake (correct it
  on the match's page), never a second copy.
* Imported deals count at once, as if confirmed by whoever imports them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from openpyxl.utils import get_column_letter

import engine
from tournaments.errors import Rejection, problems
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.games.base import LeagueGame
from tournaments.messages import localize
from tournaments.models import Club, ClubNight, Match, Table
from tournaments.records import add_deal, complete_record, match_envelope
from tournaments.sheets import cells
from tournaments.sheets.columns import (
    SheetForm,
    column_heading,
    known_headings,
    match_column,
    normal,
    renamed,
    seat_handle,
    seat_key,
)
from tournaments.sheets.fields import RowFields, column_for, written_as
from tournaments.sheets.imported import deal_key, mark_imported
from tournaments.sheets.names import NEW as NEW  # check()'s answer for a new player
from tournaments.sheets.names import SheetNames
from tournaments.sheets.preview import Preview, SheetDeal, SheetMatch
from tournaments.sheets.reading import (
    read_date,
    read_game,
    table_name,
)
from tournaments.sheets.seasons import SheetSeasons
from tournaments.sheets.settings import MatchSettings
from tournaments.store import request_hash


def check(
    club: Club, data: bytes | cells.Rows, players: Mapping[str, str] | None = None
) -> Preview:
    """The preview of importing the sheet ``data`` (a file, or its rows already read)
    into ``club``; ``players`` answers the names the club does not know (name →
    :data:`NEW` or a player's handle).  Raises a :class:`Rejection` only when the file
    cannot be read at all."""
    rows = data if isinstance(data, cells.Rows) else cells.read(data)
    return _Checker(club, rows, players or {}).run()


class _Checker:
    def __init__(self, club: Club, sheet: cells.Rows, answers: Mapping[str, str]) -> None:
        self.club = club
        self.sheet = sheet
        self.settings = MatchSettings(self.fail)
        self.fits = self.settings.fits
        self.names = SheetNames(club, answers, self.fail, self.fits)
        self.preview = Preview(
            known=self.names.known,
            unknown=self.names.unknown,
            suggestions=self.names.suggestions,
            new_players=self.names.new_players,
        )
        known = known_headings()
        self.columns: dict[str, int] = {}
        self.headings: dict[str, str] = {}
        for i, heading in enumerate(sheet.header):
            key = known.get(normal(heading))
            if key is not None and key not in self.columns:
                self.columns[key] = i
                self.headings[key] = heading
        self.fields = RowFields(self.columns, self.names.aliases, self.fail)
        self.seasons = SheetSeasons(club, self.preview, self.fail, self.fits)
        self.forms: dict[tuple[Any, ...], SheetForm] = {}
        """The entry forms made so far, by what shapes them (fields are made once)."""

    # -- mistakes --------------------------------------------------------------------
    def fail(self, code: str, row: int, column: str | None, message: str) -> None:
        """A mistake at ``row`` and ``column`` (a column key; ``None``: the whole row)."""
        heading = self.headings.get(column, "") if column else ""
        if column and not heading:
            heading = column_heading(column)
        letter = get_column_letter(self.columns[column] + 1) if column in self.columns else ""
        self.preview.errors.append(
            {
                "code": code,
                "path": f"row {row}.{column}" if column else f"row {row}",
                "row": row,
                "column": heading,
                "letter": letter,
                "message": message,
            }
        )

    # -- the run ---------------------------------------------------------------------
    def run(self) -> Preview:
        missing = [k for k in ("date", "table", "game", seat_key(1)) if k not in self.columns]
        for key in missing:
            self.fail(
                "missing_column",
                1,
                None,
                gettext("the file has no column %(column)s") % {"column": column_heading(key)},
            )
        if missing:
            return self.preview
        groups: dict[tuple[str, dt.date, str, str, str], SheetMatch] = {}
        for number, row in self.sheet.rows:
            values = {k: row[i] if i < len(row) else "" for k, i in self.columns.items()}
            grouped = self.group(number, values)
            if grouped is None:
                self.preview.loose_rows += int(any(str(v).strip() for v in values.values()))
                continue
            identity, match = grouped
            groups.setdefault(identity, match).rows.append((number, values))
        for match in groups.values():
            self.preview.matches.append(match)
            self.check_match(match)
        mark_imported(self.club, self.preview.matches, self.fail)
        self.hold_nights()
        self.preview.errors.sort(key=lambda e: e["row"])
        return self.preview

    def hold_nights(self) -> None:
        """Note the file's nights that their seasons hold already (``Preview.nights_held``):
        the import adds no night for them."""
        pks = {name: s.pk for name, s in self.preview.seasons.items() if s.pk is not None}
        dates = {m.date for m in self.preview.to_add if m.season in pks}
        if not dates:
            return
        names = {pk: name for name, pk in pks.items()}
        held = ClubNight.objects.filter(season_id__in=names, date__in=dates)
        self.preview.nights_held = {
            (names[season], date) for season, date in held.values_list("season_id", "date")
        }

    def group(
        self, row: int, values: dict[str, cells.Cell]
    ) -> tuple[tuple[str, dt.date, str, str, str], SheetMatch] | None:
        """The match a row belongs to, with what tells it apart (season, date, table, game,
        match), or ``None`` after reporting why it belongs to none."""
        text = {k: v if isinstance(v, str) else "" for k, v in values.items()}
        ok = True
        date = read_date(values.get("date", ""))
        if date is None:
            ok = False
            if text["date"]:
                self.fail(
                    "wrong_date",
                    row,
                    "date",
                    gettext("%(value)s is not a date: write it as 2024-04-01")
                    % {"value": text["date"]},
                )
            else:
                self.fail("missing_field", row, "date", gettext("a date is required"))
        table = table_name(text.get("table", ""))
        if not table:
            ok = False
            self.fail(
                "missing_field", row, "table", gettext("a table is required (its name or number)")
            )
        elif not self.fits(row, "table", Table, "name", table):
            ok = False
        game = read_game(text.get("game", ""))
        if game is None:
            ok = False
            if text.get("game"):
                self.fail(
                    "unknown_game",
                    row,
                    "game",
                    gettext("%(value)s is not a game of the app: %(games)s")
                    % {
                        "value": text["game"],
                        "games": ", ".join(g.name_en for g in LEAGUE_GAMES.values()),
                    },
                )
            else:
                self.fail("missing_field", row, "game", gettext("a game is required"))
        if not ok:
            return None
        assert date is not None and game is not None
        season = self.seasons.of_row(row, text.get("season", ""), date, game)
        if season is None:
            return None
        number = text.get("match", "") or "1"
        key = (normal(season), date, normal(table), game, normal(number))
        return key, SheetMatch(season, date, table, game, number, row)

    # -- players ---------------------------------------------------------------------
    # -- a match ---------------------------------------------------------------------
    def check_match(self, match: SheetMatch) -> None:
        game = league_game(match.game)
        first, values = match.rows[0]
        most = max(game.rules.player_counts)
        names = [str(values.get(seat_key(s), "")) for s in range(1, most + 1)]
        while names and not names[-1]:
            names.pop()
        if not all(names):  # none, or a gap: the first empty seat
            seat = names.index("") + 1 if names else 1
            self.fail(
                "missing_player",
                first,
                seat_key(seat),
                gettext("the players are written in seat order without gaps"),
            )
            return
        match.names = names
        match.handles = [self.names.handle(first, seat_key(i), n) for i, n in enumerate(names, 1)]
        match.rules = self.settings.rules(first, values.get("rules", ""))
        season = self.preview.seasons.get(match.season)
        if not str(values.get("rules", "")).strip() and season is not None:
            # None written: the variants the club's season chose for the game, as a match
            # made at its nights plays them.
            chosen = season.rules if isinstance(season.rules, dict) else {}
            match.rules = dict(chosen.get(match.game) or {})
        match.target = self.settings.target(first, values.get("target", ""), game)
        for row, later in match.rows[1:]:
            self.same_as_first(match, row, later, most)
        stored = Match(game=match.game, rules=match.rules, target=match.target)
        envelope = match_envelope(stored, match.handles)
        opened = engine.check_match({**envelope, "deals": []})
        if not opened.valid:
            for problem in problems(opened.errors):
                self.fail(
                    problem["code"],
                    first,
                    match_column(problem["path"]),
                    localize(problem, dict(zip(match.handles, match.names, strict=True))),
                )
            return
        match.snapshot = opened.snapshot
        seat_of = {h: i for i, h in enumerate(match.handles, 1)}
        for index, (row, cells_of) in enumerate(match.rows, 1):
            deal = self.check_deal(match, game, stored, envelope, seat_of, row, cells_of, index)
            if deal is None and game.rules.deals_follow_the_match:
                if index < len(match.rows):
                    self.fail(
                        "not_checked",
                        match.rows[index][0],
                        None,
                        gettext(
                            "not checked: the deals of this match follow from the row before, which has a mistake"
                        ),
                    )
                return

    def same_as_first(
        self, match: SheetMatch, row: int, values: Mapping[str, cells.Cell], most: int
    ) -> None:
        first = match.rows[0][1]
        for key in [seat_key(s) for s in range(1, most + 1)] + ["rules", "target"]:
            value = values.get(key, "")
            if (
                value
                and normal(str(value)) != normal(str(first.get(key, "")))
                and not self.seats_the_same(match, key, str(value))
            ):
                self.fail(
                    "differs_in_match",
                    row,
                    key,
                    gettext(
                        "%(value)s differs from row %(row)s of the same match (a match keeps its players, rules and target; give another match number to start a new one)"
                    )
                    % {"value": value, "row": match.row},
                )

    def seats_the_same(self, match: SheetMatch, key: str, name: str) -> bool:
        """Whether ``name`` is another name (森 勉 for Ben Mori) of the player the match's
        first row seats at ``key``."""
        seat = next((i for i in range(len(match.handles)) if seat_key(i + 1) == key), None)
        return seat is not None and self.names.aliases.get(normal(name)) == match.handles[seat]

    # -- a deal ----------------------------------------------------------------------
    def check_deal(
        self,
        match: SheetMatch,
        game: LeagueGame,
        stored: Match,
        envelope: dict[str, Any],
        seat_of: Mapping[str, int],
        row: int,
        values: Mapping[str, cells.Cell],
        index: int,
    ) -> SheetDeal | None:
        snapshot = match.snapshot
        to_seat = {h: seat_handle(i) for h, i in seat_of.items()}
        to_handle = {v: k for k, v in to_seat.items()}
        inherited = (
            engine.next_deal(envelope, snapshot) if game.rules.deals_follow_the_match else {}
        )
        playing = [seat_of[h] for h in inherited.get("players", match.handles) if h in seat_of]
        names = {seat_of[h]: n for h, n in zip(match.handles, match.names, strict=True)}
        before = renamed(inherited, to_seat)
        shape = (
            match.game,
            tuple(playing),
            tuple(match.names),
            json.dumps([match.rules, match.target, before], sort_keys=True),
        )
        blank = self.forms.get(shape)
        if blank is None:
            blank = self.forms[shape] = SheetForm(game, stored, playing, names, before)
        mistakes = len(self.preview.errors)
        unresolved = any(normal(n) in self.names.unanswered for n in match.names)
        data, failed = self.fields.data(blank, row, values, seat_of, quiet=unresolved)
        self.fields.unused(blank, row, values, len(match.handles))
        form = blank.bound(data)
        if not form.is_valid():
            for name, wrong in form.errors.as_data().items():
                for error in wrong if name not in failed else ():
                    message = " ".join(error.messages)
                    if error.code == "invalid_choice" and name in form.fields:
                        message += " " + written_as(form.fields[name])
                    self.fail("invalid", row, name if name in form.fields else None, message)
        if failed or len(self.preview.errors) > mistakes:
            return None
        record = renamed(game.record(form, form.cleaned_data), to_handle)
        display = dict(zip(match.handles, match.names, strict=True))
        try:
            full = complete_record(stored, record, handles=match.handles, snapshot=snapshot)
        except Rejection as rejection:
            for problem in rejection.errors:
                self.fail(problem["code"], row, None, localize(problem, display))
            return None
        full, step = add_deal(envelope, snapshot, full)
        found = step.result.errors if not step.result.valid else step.errors
        if found:
            for problem in problems(found):
                column = column_for(form, problem["path"], to_seat)
                self.fail(problem["code"], row, column, localize(problem, display))
            return None
        match.snapshot = step.snapshot
        match.finished = step.finished
        key = deal_key(self.club.pk, match, index)
        deal = SheetDeal(row, full, step.result, key, request_hash(full))
        match.deals.append(deal)
        return deal
