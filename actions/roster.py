"""A club's players from a list: a CSV of names, as a secretary keeps it, or names pasted
a line each (:func:`read_pasted`).

The first row names the columns, in English or Japanese: ``name`` (名前, required),
``name_ja`` (日本語名), ``reading`` (よみ, ふりがな or 読み: in kana, checked as a
player's page checks it, :func:`tournaments.models.league.validate_reading`; lists sort
by it, since a name in kanji cannot be read for sure: 彩 is あや, not さい) and ``handle``
(ハンドル), in any order.  The file is read as
:mod:`tournaments.textfile` reads CSV: UTF-8 (with or without the byte-order mark
Excel writes), Shift_JIS, which Japanese Excel writes, or Excel's UTF-16 text.  A name the club has already (the same handle, or the same name
whatever its case, width and spaces, or a player's Japanese name) is skipped, so the
same list can be given twice.  Every mistake
is reported with its row (as the spreadsheet numbers it: the header is row 1) and
its column; then nothing is written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from tournaments.errors import Rejection, error
from tournaments.models import Club, Player
from tournaments.models.league import validate_reading
from tournaments.names import unique_handle, unspaced
from tournaments.textfile import csv_rows, no_larger_than

MAX_BYTES = 1024 * 1024
MAX_ROWS = 5000
COLUMNS = {
    "name": "name",
    "名前": "name",
    "氏名": "name",
    "name_ja": "name_ja",
    "日本語名": "name_ja",
    "handle": "handle",
    "ハンドル": "handle",
    "reading": "reading",
    "よみ": "reading",
    "読み": "reading",
    "ふりがな": "reading",
}
"""Accepted headings (lower-cased, stripped) → the column they are."""
LENGTHS = {"name": 100, "name_ja": 100, "handle": 40, "reading": 100}


@dataclass
class Roster:
    """What a list adds: the new players (unsaved until :func:`add_players` writes them)
    and the names skipped because the club has them."""

    new: list[Player] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def read(club: Club, data: bytes) -> Roster:
    """The players a list would add to ``club``, or a :class:`Rejection` naming every
    mistake by row and column (nothing is written either way)."""
    no_larger_than(data, MAX_BYTES)
    rows = list(csv_rows(data))
    if not rows:
        raise Rejection((error("missing_field", "file", gettext_noop("the file is empty")),))
    return _read_rows(club, _columns(rows[0]), rows[1:], first=2)


def read_pasted(club: Club, text: str) -> Roster:
    """The players of names pasted into a box: a name a line, as a secretary copies
    them from a message or a spreadsheet's column; with a spreadsheet's second column
    pasted beside it (a tab between), that column is the reading, as kana after a comma
    is (:func:`_name_and_reading`).  A first line naming
    the columns (``name``, 名前, …) is read as a list's heading, as :func:`read` reads a
    file.  Rows are numbered as the lines are."""
    no_larger_than(text.encode(), MAX_BYTES)
    lines = text.splitlines()
    if lines and any(COLUMNS.get(c.strip().lower()) == "name" for c in re.split("[\t,]", lines[0])):
        return read(club, text.encode())
    cells = [_name_and_reading(line) for line in lines]
    if not any(cell.strip() for line in cells for cell in line):
        raise Rejection((error("missing_field", "names", gettext_noop("no name was pasted")),))
    return _read_rows(club, {"name": 0, "reading": 1}, cells, first=1)


def _name_and_reading(line: str) -> list[str]:
    """A pasted line's name and reading: apart at a tab (a spreadsheet's two columns),
    or, typed on a phone that has no tab key, at a comma followed by kana alone
    (``木村 拓也, きむら たくや``; ``Ito, Aki`` stays one name)."""
    if "\t" in line:
        return line.split("\t")[:2]
    name, comma, reading = line.replace("、", ",").replace("，", ",").rpartition(",")
    if comma and reading.strip():
        try:
            validate_reading(reading.strip())
        except ValidationError:
            return [line]
        return [name, reading]
    return [line]


def _read_rows(club: Club, columns: dict[str, int], rows: list[list[str]], first: int) -> Roster:
    """The players of ``rows`` (their cells at ``columns``), the first numbered ``first``."""
    if len(rows) > MAX_ROWS:
        raise Rejection(
            (
                error(
                    "too_large",
                    "file",
                    gettext_noop("the list has more than %(rows)s rows"),
                    rows=MAX_ROWS,
                ),
            )
        )
    existing = list(
        Player.objects.filter(club=club).values_list("handle", "display_name", "name_ja")
    )
    handles = {h for h, _n, _j in existing}
    # A name the club has, as the attendance tells a guest who is a player: spaces and
    # width aside (山田太郎, 山田　太郎 and 山田 太郎), in either of a player's names.
    names = {unspaced(n) for _h, *both in existing for n in both if n}
    seen: dict[str, int] = {}
    roster = Roster()
    errors: list[dict[str, Any]] = []
    for number, row in enumerate(rows, start=first):
        # Spaces as one plain space: 高橋　健 (a full-width space) is stored 高橋 健, as
        # the club's other names are, and a name never ends in a space.
        values = {
            col: (" ".join(row[i].split()) if i < len(row) else "") for col, i in columns.items()
        }
        if not any(values.values()):
            continue  # a blank line
        place = f"row {number}"
        for col, value in values.items():
            if len(value) > LENGTHS[col]:
                errors.append(
                    error(
                        "too_long",
                        f"{place}.{col}",
                        gettext_noop("at most %(length)s characters"),
                        length=LENGTHS[col],
                    )
                )
        name, handle = values["name"], values.get("handle", "")
        if not name:
            errors.append(
                error("missing_field", f"{place}.name", gettext_noop("a name is required"))
            )
            continue
        try:
            validate_reading(values.get("reading", ""))
        except ValidationError:
            errors.append(
                error(
                    "wrong_reading",
                    f"{place}.reading",
                    gettext_noop("a reading is written in kana"),
                )
            )
            continue
        if handle and slugify(handle) != handle:
            errors.append(
                error(
                    "wrong_handle",
                    f"{place}.handle",
                    gettext_noop("a handle is lower-case letters, digits and hyphens"),
                )
            )
            continue
        key = unspaced(name)
        if key in seen:
            errors.append(
                error(
                    "duplicate",
                    f"{place}.name",
                    gettext_noop("%(name)s is on row %(row)s already"),
                    name=name,
                    row=seen[key],
                )
            )
            continue
        seen[key] = number
        also = unspaced(values.get("name_ja", ""))
        if key in names or (also and also in names) or (handle and handle in handles):
            roster.skipped.append(name)
            continue
        # a reading is the person's own word for the name: romaji from it, not a guess (彩)
        reading = unicodedata.normalize("NFKC", values.get("reading", "")).strip()
        handle = handle or unique_handle(reading or name, handles)
        handles.add(handle)
        roster.new.append(
            Player(
                club=club,
                display_name=name,
                name_ja=values.get("name_ja", ""),
                reading=reading,
                handle=handle,
            )
        )
    if errors:
        raise Rejection(tuple(errors))
    return roster


def add_players(club: Club, data: bytes | str) -> Roster:
    """Read the list (a file's bytes, or names pasted: :func:`read_pasted`) and write its
    new players in one transaction (all or none).  The same list given again adds
    nothing: its names are the club's already."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)  # one list at a time per club
        roster = read_pasted(club, data) if isinstance(data, str) else read(club, data)
        Player.objects.bulk_create(roster.new)
    return roster


def _columns(header: list[str]) -> dict[str, int]:
    """Which column holds what, from the header row; a :class:`Rejection` without a name."""
    columns: dict[str, int] = {}
    for i, heading in enumerate(header):
        col = COLUMNS.get(heading.strip().lower())
        if col is not None and col not in columns:
            columns[col] = i
    if "name" not in columns:
        raise Rejection(
            (
                error(
                    "missing_field",
                    "row 1",
                    gettext_noop(
                        "the first row names the columns: name (名前), and name_ja (日本語名), reading (よみ) or handle (ハンドル) if you have them"
                    ),
                ),
            )
        )
    return columns
