"""A score sheet's columns, from the games' entry forms.

Every sheet has the match's columns (season, date, table, game, match, rules,
target), the players in seat order (``Player 1`` … as many as the game seats) and
the game's fields: exactly the fields its web module adds to the table-side entry
form (:meth:`~tournaments.games.base.LeagueGame.add_fields`), for every table size
the game allows and every rules variant its module lists in ``sheet_rules``.  A
field's heading is its label on the entry form, in English or in Japanese (both
are read); a player's field is labelled with the seat (``Player 3: captured``).

The form is built with stand-in players whose handles name their seats
(:func:`seat_handle`), so that a field's name is the same for every sheet and
every table (``pc_seat3``): it is the column's key.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import names
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import LeagueGame, Section
from tournaments.models import Match, Player

LANGUAGES = ("en", "ja")
MATCH_COLUMNS = {
    "season": _("Season"),
    "date": _("Date"),
    "table": _("Table"),
    "game": _("Game"),
    "match": _("Match"),
    "rules": _("Rules"),
    "target": _("Target"),
}
"""The columns every sheet has, before the players: the match's own."""


@dataclass(frozen=True)
class Column:
    key: str
    """``season`` …, ``player_3`` (the third seat), or the entry form's field name."""
    headings: tuple[str, ...]
    """The heading in each of :data:`LANGUAGES`."""

    def heading(self, language: str) -> str:
        return self.headings[LANGUAGES.index(language) if language in LANGUAGES else 0]


def seat_handle(seat: int) -> str:
    """The stand-in handle of seat ``seat`` (1 is the first in order of play)."""
    return f"seat{seat}"


def renamed(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` (a record, or part of one) with every string and key that is one of
    ``names`` renamed: stand-in handles to the players' and back."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def seat_key(seat: int) -> str:
    """The column key of the player at seat ``seat``."""
    return f"player_{seat}"


normal = names.normal
"""A heading, a name as compared (``tournaments.names``)."""


class SheetForm(forms.Form):
    """A game's entry form for a deal played by ``seats`` (seat numbers, 1-based) of a
    match: the stand-in players named ``names``; what the web modules read of an entry
    form (:class:`~tournaments.games.base.EntryForm`)."""

    def __init__(
        self,
        game: LeagueGame,
        match: Match,
        seats: Sequence[int],
        names: Mapping[int, str],
        next_deal: Mapping[str, Any] | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(data)
        self.match = match
        self.players = [Player(handle=seat_handle(s), display_name=names[s]) for s in seats]
        self.handles = [p.handle for p in self.players]
        self.next_deal = dict(next_deal or {})
        self.point_total = 0
        game.add_fields(self)
        self.game_field_names = list(self.fields)
        self.game = game

    def bound(self, data: Mapping[str, Any]) -> SheetForm:
        """This form bound to ``data``, sharing its fields, which validating does not
        change (a sheet's deals of one match have the same form: its fields are made once)."""
        form = copy.copy(self)  # the players, handles, game…
        forms.Form.__init__(form, data)  # Django's state of a newly bound form
        form.fields = self.fields
        return form


def _label(form: SheetForm, name: str, sections: Sequence[Section]) -> str:
    """The field's heading: its label, with its block's heading when the label is only a
    player's name (the point cards)."""
    label = str(form.fields[name].label or name)
    if label in {p.display_name for p in form.players}:
        heading = next((s.heading for s in sections if name in s.fields and s.heading), "")
        return f"{label}: {heading}" if heading else label
    return label


def player_label(seat: int) -> str:
    return gettext("Player %(number)s") % {"number": seat}


@cache
def game_columns(name: str) -> tuple[Column, ...]:
    """The game's own columns, in the order of its entry form."""
    game = LEAGUE_GAMES[name]
    labels: dict[str, list[str]] = {}
    order: list[str] = []
    for rules in game.sheet_rules:
        for count in sorted(game.rules.player_counts, reverse=True):
            seats = range(1, count + 1)
            match = Match(game=name, rules=dict(rules), target=game.rules.default_target)
            for language in LANGUAGES:
                with translation.override(language):
                    form = SheetForm(game, match, seats, {s: player_label(s) for s in seats})
                    sections = game.sections(form)
                    for i, field in enumerate(form.game_field_names):
                        if field not in labels:
                            labels[field] = []
                            after = form.game_field_names[i - 1] if i else None
                            order.insert(
                                order.index(after) + 1 if after in order else len(order), field
                            )
                        if len(labels[field]) < LANGUAGES.index(language) + 1:
                            labels[field].append(_label(form, field, sections))
    return tuple(Column(field, tuple(labels[field])) for field in order)


def _both(text: Any) -> tuple[str, ...]:
    out = []
    for language in LANGUAGES:
        with translation.override(language):
            out.append(str(text))
    return tuple(out)


def match_columns() -> tuple[Column, ...]:
    return tuple(Column(key, _both(label)) for key, label in MATCH_COLUMNS.items())


def seat_columns(count: int) -> tuple[Column, ...]:
    out = []
    for seat in range(1, count + 1):
        headings = []
        for language in LANGUAGES:
            with translation.override(language):
                headings.append(player_label(seat))
        out.append(Column(seat_key(seat), tuple(headings)))
    return tuple(out)


def template_columns(name: str) -> tuple[Column, ...]:
    """The columns of the game's template, in order."""
    most = max(LEAGUE_GAMES[name].rules.player_counts)
    return (*match_columns(), *seat_columns(most), *game_columns(name))


@cache
def known_headings() -> dict[str, str]:
    """Every heading any sheet may have (normalised, in either language) → its column key."""
    most = max(max(g.rules.player_counts) for g in LEAGUE_GAMES.values())
    known: dict[str, str] = {}
    columns = [*match_columns(), *seat_columns(most)]
    columns += [c for name in LEAGUE_GAMES for c in game_columns(name)]
    for column in columns:
        for heading in column.headings:
            known.setdefault(normal(heading), column.key)
        known.setdefault(normal(column.key), column.key)
    return known


def match_column(path: str) -> str | None:
    """The column of a match-level field that the engine's ``path`` names."""
    head = path.split(".")[0]
    if head.startswith("players["):
        return seat_key(int(head[len("players[") : -1]) + 1)
    return {"rules": "rules", "target": "target", "players": seat_key(1)}.get(head.split("[")[0])


def column_heading(key: str) -> str:
    """A column's heading in the active language."""
    if key in MATCH_COLUMNS:
        return str(MATCH_COLUMNS[key])
    if key.startswith("player_"):
        return str(seat_columns(int(key.removeprefix("player_")))[-1].headings[_language()])
    for name in LEAGUE_GAMES:
        for column in game_columns(name):
            if column.key == key:
                return column.headings[_language()]
    return key


def _language() -> int:
    return 1 if (translation.get_language() or "en").startswith("ja") else 0
