"""Who the names in a score sheet are (``tournaments.sheets.check``): each name written
in a seat column is matched to a player of the club by their name, Japanese name or
handle (normalised), or by the importer's answer for it (a handle, or "new"); a name
no player has and nobody answered is a mistake, with the club's closest names as
suggestions.  The same name keeps the same handle throughout the sheet."""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from django.db import models
from django.utils.translation import gettext

from tournaments.models import Club, Player
from tournaments.names import unique_handle
from tournaments.sheets.columns import normal

NEW = "new"
"""The answer for a name that is a new player of the club."""

Fail = Callable[[str, int, "str | None", str], None]
"""Note a mistake: its code, row, column and message."""
Fits = Callable[[int, str, type[models.Model], str, Any], bool]
"""Whether a value can be stored in a model's field (a mistake at its cell when not)."""


class SheetNames:
    """The sheet's names and the handles they play under, found as the rows are read."""

    def __init__(self, club: Club, answers: Mapping[str, str], fail: Fail, fits: Fits) -> None:
        self.club = club
        self.answers = {normal(k): v for k, v in answers.items()}
        self.fail = fail
        self.fits = fits
        self.players = list(Player.objects.filter(club=club))
        self.by_name: dict[str, list[Player]] = defaultdict(list)
        for p in self.players:
            for name in {normal(p.display_name), normal(p.name_ja), normal(p.handle)} - {""}:
                self.by_name[name].append(p)
        self.taken = {p.handle for p in self.players}
        self.aliases: dict[str, str] = {
            n: ps[0].handle for n, ps in self.by_name.items() if len(ps) == 1
        }
        """Any name of a player (normalised) → their handle: the club's names and the sheet's."""
        self.handles: dict[str, str] = {}
        """Normalised name → the handle it plays under in this sheet."""
        self.unanswered: dict[str, str] = {}
        """Normalised name → the name as first written, for names nobody answered."""
        # What the preview shows (``check.Preview``'s fields of the same names):
        self.known: dict[str, Player] = {}
        self.unknown: dict[str, list[int]] = {}
        self.suggestions: dict[str, list[Player]] = {}
        self.new_players: dict[str, Player] = {}

    def handle(self, row: int, column: str, name: str) -> str:
        """The handle the sheet's ``name`` plays under (a mistake when no player has it and
        no answer says who it is; it is then checked as a new player would be)."""
        key = normal(name)
        handle = self.handle_of(row, column, name, key)
        self.aliases.setdefault(key, handle)
        return handle

    def handle_of(self, row: int, column: str, name: str, key: str) -> str:
        if key in self.handles:
            handle = self.handles[key]
            first = self.unanswered.get(key)
            if first is not None:
                self.unknown[first].append(row)
                self.unknown_name(row, column, first)
            return handle
        matched = self.by_name.get(key, [])
        answer = self.answers.get(key)
        player: Player | None = None
        if answer and answer != NEW:
            player = next((p for p in self.players if p.handle == answer), None)
            if player is None:
                self.fail(
                    "unknown_player",
                    row,
                    column,
                    gettext("%(handle)s is not a handle of the club's players")
                    % {"handle": answer},
                )
        elif len(matched) == 1:  # the club's (an answer "new" given before it was added)
            player = matched[0]
        elif len(matched) > 1:
            self.fail(
                "ambiguous_player",
                row,
                column,
                gettext("%(name)s is the name of %(count)s players: write the handle (%(handles)s)")
                % {
                    "name": name,
                    "count": len(matched),
                    "handles": ", ".join(p.handle for p in matched),
                },
            )
        if player is not None:
            self.known[name] = player
            self.handles[key] = player.handle
            return player.handle
        handle = unique_handle(name, self.taken)
        self.taken.add(handle)
        self.handles[key] = handle
        if answer == NEW and not matched:
            if not self.fits(row, column, Player, "display_name", name):
                return handle
            self.new_players[name] = Player(club=self.club, handle=handle, display_name=name)
        elif not matched:
            self.unanswered[key] = name
            self.unknown[name] = [row]
            self.suggestions[name] = self.close_to(name)
            self.unknown_name(row, column, name)
        return handle

    def unknown_name(self, row: int, column: str, name: str) -> None:
        close = self.suggestions.get(name) or []
        hint = (
            gettext(" (did you mean %(names)s?)")
            % {"names": ", ".join(p.display_name for p in close)}
            if close
            else ""
        )
        self.fail(
            "unknown_player",
            row,
            column,
            gettext("%(name)s is not a player of the club%(hint)s: add them, or say who they are")
            % {"name": name, "hint": hint},
        )

    def close_to(self, name: str) -> list[Player]:
        names = {normal(p.display_name): p for p in self.players}
        return [names[n] for n in difflib.get_close_matches(normal(name), names, n=3, cutoff=0.6)]
