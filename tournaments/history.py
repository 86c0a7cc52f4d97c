"""What a correction changed, said as people read it (issue 29, 5): the old and the new
record side by side, field by field (``count 14 → 16``, ``adjutant cards SA → HJ``),
players by their display names, never their handles.

A record is flattened to its leaves (``declaration · count``, ``point cards · Aki``); a list
of plain values is one leaf (``adjutants: Chika, Dai``), a list of objects (tricks, moves)
a leaf per item (``tricks #3 · plays #2 · cards``).  What a full-play record changes can be
long: the first :data:`SHOWN` differences are listed, with the count of the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

SHOWN = 12
WORDS = {
    "declaration": _("declaration"),
    "count": _("count"),
    "trump": _("trump"),
    "player": _("player"),
    "adjutant_cards": _("adjutant cards"),
    "adjutants": _("adjutants"),
    "point_cards": _("point cards"),
    "discarded_point_cards": _("point cards discarded"),
    "captured": _("captured"),
    "hand_faces": _("face cards in hand"),
    "packs": _("packs"),
    "dealer": _("dealer"),
    "winner": _("winner"),
    "last_trick": _("last trick"),
    "bhabhi": _("bhabhi"),
    "out": _("out"),
    "dropped": _("dropped out"),
    "hands_left": _("cards left"),
    "bids": _("bids"),
    "tricks_won": _("tricks won"),
    "buy_back": _("buy-back"),
    "hand_size": _("hand size"),
    "tricks": _("tricks"),
    "plays": _("plays"),
    "cards": _("cards"),
}
"""The record's field names in the reader's words (the others: the name, spaced)."""
ENVELOPE = {"game", "players", "rules", "teams"}
"""What the match supplies to a record: never what a correction changes."""


@dataclass(frozen=True)
class Change:
    field: str
    before: str
    after: str


def changes(before: Any, after: Any, names: Mapping[str, str]) -> tuple[list[Change], int]:
    """The fields whose values differ, in the order of the records, and how many more
    there are than :data:`SHOWN`."""
    old, new = _leaves(before, names), _leaves(after, names)
    fields = list(old) + [k for k in new if k not in old]
    found = [
        Change(f, old.get(f, "–"), new.get(f, "–")) for f in fields if old.get(f) != new.get(f)
    ]
    return found[:SHOWN], max(0, len(found) - SHOWN)


def _leaves(record: Any, names: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(record, dict):
        for key, value in record.items():
            if key not in ENVELOPE:
                _walk(value, [_word(key, names)], names, out)
    return out


def _walk(value: Any, path: list[str], names: Mapping[str, str], out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _walk(item, [*path, _word(key, names)], names, out)
    elif isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        for i, item in enumerate(value, start=1):
            _walk(item, [*path, f"#{i}"], names, out)
    elif isinstance(value, list):
        out[" · ".join(path)] = ", ".join(_text(v, names) for v in value) or "–"
    else:
        out[" · ".join(path)] = _text(value, names)


def _word(key: Any, names: Mapping[str, str]) -> str:
    """A key as read: a player's name, or the field's name in words."""
    text = str(key)
    if text in names:
        return names[text]
    return str(WORDS[text]) if text in WORDS else text.replace("_", " ")


def _text(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return names.get(value, value)
    return "–" if value is None else str(value)
