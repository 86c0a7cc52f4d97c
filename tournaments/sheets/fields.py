"""A score sheet's row as the game's entry form reads it: the form's data from the row's
cells, the cells the deal has no field for, and the column an engine error concerns.
Mistakes go to the checker's ``fail`` (:mod:`tournaments.sheets.check`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext

from tournaments.sheets import cells
from tournaments.sheets.columns import (
    MATCH_COLUMNS,
    SheetForm,
    column_heading,
    normal,
    seat_handle,
    seat_key,
)
from tournaments.sheets.names import Fail
from tournaments.sheets.reading import cell_lines, list_items, read_choice


class RowFields:
    """Reads rows into entry forms for one sheet: ``columns``, the column keys the file
    has; ``aliases``, every name a player may be written as (normalised) → handle."""

    def __init__(self, columns: Collection[str], aliases: Mapping[str, str], fail: Fail) -> None:
        self.columns = columns
        self.aliases = aliases
        self.fail = fail

    def data(
        self,
        form: SheetForm,
        row: int,
        values: Mapping[str, cells.Cell],
        seat_of: Mapping[str, int],
        quiet: bool = False,
    ) -> tuple[dict[str, Any], set[str]]:
        """The entry form's data from the row's cells (players by any of their names, choices
        by value or label, a multi-line field's lines), and the fields found wrong; ``quiet``:
        a seat's name is unknown, so a player's name not at the table is not reported again."""
        data: dict[str, Any] = {}
        failed: set[str] = set()
        seats = {
            alias: seat_handle(seat_of[h]) for alias, h in self.aliases.items() if h in seat_of
        }
        for name in form.game_field_names:
            formfield = form.fields[name]
            cell = values.get(name, "")
            text = cell.isoformat() if isinstance(cell, dt.date) else cell
            if not text:
                if name not in self.columns and formfield.required and formfield.initial is None:
                    self.fail(
                        "missing_column",
                        row,
                        name,
                        gettext("the file has no column %(column)s")
                        % {"column": column_heading(name)},
                    )
                    failed.add(name)
                data[name] = formfield.initial if formfield.initial is not None else ""
                continue
            choices = dict(getattr(formfield, "choices", []) or [])
            if choices and set(choices) <= set(form.handles):  # players, by name
                wanted = (
                    list_items(text) if isinstance(formfield, forms.MultipleChoiceField) else [text]
                )
                picked = []
                for who in wanted:
                    seat = seats.get(normal(who))
                    if (seat is None or seat not in choices) and quiet:
                        failed.add(name)  # a seat's name is unknown: that is the mistake
                    elif seat is None or seat not in choices:
                        self.fail(
                            "not_seated",
                            row,
                            name,
                            gettext("%(name)s is not one of this deal's players (%(players)s)")
                            % {"name": who, "players": ", ".join(str(v) for v in choices.values())},
                        )
                        failed.add(name)
                    else:
                        picked.append(seat)
                single = picked[0] if picked else ""
                data[name] = picked if isinstance(formfield, forms.MultipleChoiceField) else single
            elif choices:
                data[name] = read_choice(choices, text)
            elif isinstance(formfield.widget, forms.Textarea):
                data[name] = cell_lines(text)
            else:
                data[name] = text
        return data, failed

    def unused(
        self, form: SheetForm, row: int, values: Mapping[str, cells.Cell], seated: int
    ) -> None:
        """A filled cell the deal has no field for (another table size, a player who is out)."""
        known = set(MATCH_COLUMNS) | {seat_key(s) for s in range(1, seated + 1)}
        for key, value in values.items():
            if value and key not in known and key not in form.fields:
                if key.startswith("player_"):
                    message = gettext("the match has %(count)s players; this seat is empty") % {
                        "count": seated
                    }
                else:
                    message = gettext("this deal has no such field (leave it empty)")
                self.fail("not_used", row, key, message)


def column_for(form: SheetForm, path: str, to_seat: Mapping[str, str]) -> str | None:
    """The column an engine error at ``path`` concerns (as the entry form places it)."""
    head, _dot, rest = path.partition(".")
    head = head.split("[")[0]
    player = rest.split("[")[0].split(".")[0]
    if head == "point_cards" and not player:  # the total: the point columns, from the first
        points = [n for n in form.fields if n.startswith("pc_")]
        if points:
            return points[0]
    name = form.game.field_for(head, to_seat.get(player, player))
    return name if name in form.fields else None


def written_as(formfield: Any) -> str:
    """What a choice's cell may say, for a mistake's message: each choice as the reader's
    language names it (its label in either language, or its value, is read:
    ``reading.read_choice``)."""
    said = [str(label) for value, label in getattr(formfield, "choices", []) if value != ""]
    return gettext("Write one of: %(choices)s.") % {"choices": ", ".join(said)}
