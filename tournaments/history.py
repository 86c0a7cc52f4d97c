"""What a correction changed, said as people read it (issue 29, 5): the old and the new
record side by side, field by field (``count 14 → 16``, ``adjutant cards SA → HJ``),
players by their display names, never their handles, and values as the game words them
(a trump by its name, a card as ♠A: :meth:`LeagueGame.value_text`).

A record is flattened to its leaves (``declaration · count``, ``point cards · Aki``); a list
of plain values is one leaf (``adjutants: Chika, Dai``), a list of objects (tricks, moves)
a leaf per item (``tricks #3 · plays #2 · cards``).  What a full-play record changes can be
long: the first :data:`SHOWN` differences are listed, with the count of the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from tournaments.games.base import LeagueGame

SHOWN = 12
WORDS = {
    "player": _("player"),
    "dealer": _("dealer"),
    "tricks": _("tricks"),
    "plays": _("plays"),
    "cards": _("cards"),
}
"""The words of the keys that the records of games of different rules share (a deal's
``dealer``, a full play's ``tricks``, ``plays``, ``cards`` and ``player``).  A game's own
keys are named by its module (``LeagueGame.record_words``); any other key is read as its
name, spaced."""
ENVELOPE = {"game", "players", "rules", "teams"}
"""What the match supplies to a record: never what a correction changes."""


@dataclass(frozen=True)
class Change:
    field: str
    before: str
    after: str


def changes(
    before: Any, after: Any, names: Mapping[str, str], game: LeagueGame | None = None
) -> tuple[list[Change], int]:
    """The fields whose values differ, in the order of the records, and how many more
    there are than :data:`SHOWN`; values in the words of ``game``, the records' game."""
    words = _Words(names, game)
    old, new = _leaves(before, words), _leaves(after, words)
    fields = list(old) + [k for k in new if k not in old]
    found = [
        Change(f, old.get(f, "–"), new.get(f, "–")) for f in fields if old.get(f) != new.get(f)
    ]
    return found[:SHOWN], max(0, len(found) - SHOWN)


@dataclass(frozen=True)
class _Words:
    names: Mapping[str, str]
    """The players' display names by handle."""
    game: LeagueGame | None


def _leaves(record: Any, words: _Words) -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(record, dict):
        for key, value in record.items():
            if key not in ENVELOPE:
                _walk(value, [str(key)], words, out)
    return out


def _walk(value: Any, keys: list[str], words: _Words, out: dict[str, str]) -> None:
    """``keys``: the record's keys down to ``value`` (a list's items by ``#n``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _walk(item, [*keys, str(key)], words, out)
    elif isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        for i, item in enumerate(value, start=1):
            _walk(item, [*keys, f"#{i}"], words, out)
    else:
        path = " · ".join(_word(k, words) for k in keys)
        if isinstance(value, list):
            out[path] = ", ".join(_text(v, keys, words) for v in value) or "–"
        else:
            out[path] = _text(value, keys, words)


def _word(key: str, words: _Words) -> str:
    """A key as read: a player's name, or the field's name in words (the game's own,
    then those every game shares)."""
    if key in words.names:
        return words.names[key]
    own = words.game.record_words if words.game is not None else {}
    found = own.get(key, WORDS.get(key))
    return str(found) if found is not None else key.replace("_", " ")


def _text(value: Any, keys: list[str], words: _Words) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str):
        said = words.game.value_text(keys, value) if words.game is not None else None
        return said if said is not None else words.names.get(value, value)
    return "–" if value is None else str(value)
