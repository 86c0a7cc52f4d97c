"""A game's score-sheet template (CSV or XLSX, English or Japanese headings), and the
row a deal record makes, the inverse of reading one: the game's entry form filled
in from the record (:meth:`~tournaments.games.base.LeagueGame.initial`), written as
a person fills the cells in.

The XLSX template's first sheet is the blank one that is read back; a second sheet
shows a few rows filled in from the game's demo matches.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext, pgettext

from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Match
from tournaments.sheets.columns import (
    SheetForm,
    renamed,
    seat_handle,
    seat_key,
    template_columns,
)

FORMATS = ("csv", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def deal_cells(
    game: str,
    names: Sequence[str],
    handles: Sequence[str],
    record: Mapping[str, Any],
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> dict[str, str]:
    """The cells of the game's fields for a deal ``record`` (a summary, in ``handles``)
    of players called ``names`` (seat order)."""
    web = league_game(game)
    seats = range(1, len(handles) + 1)
    to_seat = {h: seat_handle(i) for i, h in enumerate(handles, 1)}
    by_seat = {seat_handle(i): n for i, n in enumerate(names, 1)}
    match = Match(game=game, rules=dict(rules or {}), target=target)
    form = SheetForm(web, match, seats, dict(zip(seats, names, strict=True)))
    values = web.initial(renamed(dict(record), to_seat), list(by_seat))
    out: dict[str, str] = {}
    for name, value in values.items():
        if name not in form.fields or value is None or value == "" or value == []:
            continue
        widget = form.fields[name].widget
        if isinstance(value, list):
            out[name] = ", ".join(by_seat.get(v, str(v)) for v in value)
        elif isinstance(widget, forms.Textarea):
            out[name] = " / ".join(line for line in str(value).splitlines() if line.strip())
        else:
            out[name] = by_seat.get(value, str(value)) if isinstance(value, str) else str(value)
    return out


def match_rows(
    game: str,
    season: str,
    date: dt.date,
    table: str,
    names: Sequence[str],
    handles: Sequence[str],
    deals: Sequence[Mapping[str, Any]],
    *,
    number: str = "",
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> list[dict[str, str]]:
    """A match as sheet rows (column key → cell), one per deal."""
    head = {
        "season": season,
        "date": date.isoformat(),
        "table": table,
        "game": league_game(game).name_en,
        "match": number,
    }
    if rules:
        head["rules"] = " ".join(f"{k}={_rule_text(v)}" for k, v in rules.items())
    if target is not None:
        head["target"] = str(target)
    head.update({seat_key(i): n for i, n in enumerate(names, 1)})
    return [{**head, **deal_cells(game, names, handles, deal, rules, target)} for deal in deals]


def _rule_text(value: Any) -> str:
    return (
        {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)
    )


def as_table(game: str, rows: Sequence[Mapping[str, str]], language: str = "en") -> list[list[str]]:
    """The heading row and ``rows`` in the template's columns."""
    columns = template_columns(game)
    return [[c.heading(language) for c in columns]] + [
        [row.get(c.key, "") for c in columns] for row in rows
    ]


def to_csv(table: Sequence[Sequence[str]]) -> bytes:
    """CSV as Excel reads it: UTF-8 with a byte-order mark."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\r\n").writerows(table)
    return text.getvalue().encode("utf-8-sig")


def to_xlsx(table: Sequence[Sequence[str]], example: Sequence[Sequence[str]] = ()) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = pgettext("worksheet", "Deals")
    for row in table:
        sheet.append(list(row))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    if example:
        shown = book.create_sheet(gettext("Example"))
        for row in example:
            shown.append(list(row))
        for cell in shown[1]:
            cell.font = Font(bold=True)
    for ws in book.worksheets:
        for i, column in enumerate(ws.columns, 1):
            width = max(len(str(c.value or "")) for c in column)
            ws.column_dimensions[get_column_letter(i)].width = min(max(width + 2, 8), 40)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def played(
    game: str,
    seed: int,
    handles: Sequence[str],
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
    most: int | None = None,
) -> list[dict[str, Any]]:
    """A match played by the engine's random legal play, as the summaries a sheet holds."""
    return demo_deals(
        league_game(game), seed, list(handles), rules, target, most, first_in_full=False
    )


EXAMPLE_NAMES = {
    "en": ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi", "Gen", "Hana"],
    "ja": ["亜紀", "勉", "千佳", "大輔", "恵美", "文子", "玄", "花子"],
}
"""The example sheet's players, in the template's language."""


def example_rows(game: str, language: str = "en") -> list[dict[str, str]]:
    """A few rows of a match the engine plays, to show how a sheet is filled in: in the
    template's language (Japanese names, season and game name on the Japanese one)."""
    web = league_game(game)
    plan = web.federation[0]
    handles = ["aki", "ben", "chika", "dai", "emi", "fumi", "gen", "hana"][: plan.players]
    deals = played(game, 2024, handles, plan.rules, plan.target, most=4)[:4]
    names = EXAMPLE_NAMES.get(language, EXAMPLE_NAMES["en"])[: plan.players]
    rows = match_rows(
        game,
        "2024年春" if language == "ja" else "Spring 2024",
        dt.date(2024, 4, 5),
        "1",
        names,
        handles,
        deals,
        rules=plan.rules,
        target=plan.target,
    )
    if language == "ja":
        for row in rows:
            row["game"] = web.name_ja
    return rows


def template(game: str, fmt: str, language: str, filled: bool = False) -> bytes:
    """The blank template of ``game`` with headings in ``language`` (an XLSX one with the
    example on a second sheet); ``filled``: the example itself, a sheet that imports."""
    with translation.override(language):
        blank = as_table(game, [], language)
        if fmt == "csv" and not filled:  # headings alone: no deal played for them
            return to_csv(blank)
        example = as_table(game, example_rows(game, language), language)
        if fmt == "csv":
            return to_csv(example)
        return to_xlsx(example) if filled else to_xlsx(blank, example)
