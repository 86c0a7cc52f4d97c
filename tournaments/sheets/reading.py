"""What a score sheet's cell says: a date, a game, a table, a choice, a rule's value, the
items of a list or the lines of a long field, read as people write them (full-width or
half-width, English or Japanese, ``2026年11月28日`` or ``2026/11/28``).

Each function reads one cell and answers ``None`` (or the text as it was) when it cannot;
saying what is wrong, and where, is :mod:`tournaments.sheets.check`'s.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation

from tournaments.games import LEAGUE_GAMES
from tournaments.sheets import cells
from tournaments.sheets.columns import normal
from tournaments.textfile import MOST_DIGITS, whole_number

LINE_BREAKS = re.compile(r"\s*[/;]\s*")
LIST_SEPARATORS = re.compile(r"\s*[,、;/]\s*")
RULE_SEPARATORS = re.compile(r"[\s,、;]+")
INTEGER = re.compile(rf"-?[0-9]{{1,{MOST_DIGITS}}}")
"""A rule's whole number, as a cell holds one."""
DATE = re.compile(r"^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$")
TRUE = {"yes", "true", "on", "はい", "有", "あり"}
FALSE = {"no", "false", "off", "いいえ", "無", "なし"}


def read_date(value: cells.Cell) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    found = DATE.match(unicode_digits(value))
    if found is None:
        return None
    try:
        return dt.date(*(int(g) for g in found.groups()))
    except ValueError:
        return None


def table_name(name: str) -> str:
    """A bare table number (``3``) is the app's ``Table 3``, as the draw names tables;
    other names are kept as written."""
    number = whole_number(name)
    return name if number is None else f"Table {number}"


def unicode_digits(text: str) -> str:
    return normal(text).replace(" ", "")


def read_game(text: str) -> str | None:
    """A game by its engine name, its name in either language or one of its aliases, or
    both names together as sheets exported before one name per language wrote them
    (``ナポレオン Napoleon``)."""
    wanted = normal(text)
    for name, game in LEAGUE_GAMES.items():
        both = (f"{game.name_ja} {game.name_en}", f"{game.name_en} {game.name_ja}")
        if wanted in {normal(n) for n in (name, game.name_en, game.name_ja, *game.aliases, *both)}:
            return name
    return None


def read_choice(choices: Mapping[Any, Any], text: str) -> Any:
    """A choice by its value, its label in either language (a trump: ``♠ spades`` or
    ``♠ スペード``), or a word of its labels found in no other choice's."""
    wanted = normal(text)
    labels = {value: _in_each_language(label) for value, label in choices.items()}
    for value, said in labels.items():
        if wanted == normal(str(value)) or wanted in said:
            return value
    owners = [v for v, said in labels.items() if any(wanted in s.split() for s in said)]
    return owners[0] if len(owners) == 1 else text


def _in_each_language(label: Any) -> set[str]:
    """A label as each language of the site says it (a lazy one differs by language)."""
    out = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            out.add(normal(str(label)))
    return out


def rule_value(text: str) -> Any:
    if INTEGER.fullmatch(normal(text)):
        return int(normal(text))
    if normal(text) in TRUE:
        return True
    if normal(text) in FALSE:
        return False
    return text


def rule_tokens(text: cells.Cell) -> list[str]:
    """The ``name=value`` pieces of a rules cell."""
    return RULE_SEPARATORS.split(str(text).strip()) if text else []


def list_items(text: str) -> list[str]:
    """The names of a cell that lists several (``aki, ben`` or ``aki、ben``)."""
    return LIST_SEPARATORS.split(text)


def cell_lines(text: str) -> str:
    """A long field's lines, written in one cell separated by ``/`` or ``;``."""
    return "\n".join(LINE_BREAKS.split(text))
