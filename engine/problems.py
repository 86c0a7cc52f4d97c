"""Errors found in a record, and the helpers that read a record while collecting them.

The checker never stops at the first problem: every reader records what is wrong
with a path (``point_cards.B``, ``deals[3].captured.P1[2]``) and returns ``None``
so that the caller can go on checking the rest of the record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, InvalidCard, parse_card


class NotARecord(ValueError):
    """The input is not a deal record at all (not an object, no known game).

    The command line exits 2 for this; everything else is a :class:`Problem`.
    """


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record."""

    code: str
    """Stable machine-readable code, e.g. ``unknown_key``, ``point_cards_total``."""
    path: str
    """Where in the record: dotted keys and ``[i]`` indexes; ``""`` is the whole record."""
    message: str
    """A sentence for the person who wrote the record."""

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}

    def under(self, prefix: str) -> Problem:
        """The same problem seen from an enclosing record (a match's ``deals[i]``)."""
        if not self.path:
            return Problem(self.code, prefix, self.message)
        sep = "" if self.path.startswith("[") else "."
        return Problem(self.code, f"{prefix}{sep}{self.path}", self.message)


def join(path: str, key: str | int) -> str:
    """Extend a path by a key or an index."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


_TYPE_NAMES = {
    int: "a whole number",
    str: "a string",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


class _Missing:
    """What :meth:`Checker.require` returns for an absent field (already reported)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass
class Checker:
    """Collects problems while a game reads a record."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, code: str, path: str, message: str) -> None:
        self.problems.append(Problem(code, path, message))

    @property
    def ok(self) -> bool:
        return not self.problems

    # -- readers -----------------------------------------------------------------
    def require(self, record: Mapping[str, Any], key: str, path: str = "") -> Any:
        """The value at ``key``, or :data:`MISSING` with a ``missing_field`` problem.

        Every reader below passes :data:`MISSING` on as ``None`` without a second problem.
        """
        if key not in record:
            self.add("missing_field", join(path, key), f"'{key}' is required")
            return MISSING
        return record[key]

    def typed(self, value: Any, kind: type, path: str) -> Any:
        """``value`` when it has the JSON type ``kind`` (bool is never an int), else ``None``."""
        if value is MISSING:
            return None
        if type(value) is kind:
            return value
        self.add("wrong_type", path, f"expected {_TYPE_NAMES[kind]}, got {_type_name(value)}")
        return None

    def integer(
        self, value: Any, path: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        number = self.typed(value, int, path)
        if number is None:
            return None
        if minimum is not None and number < minimum:
            self.add("out_of_range", path, f"{number} is below the minimum {minimum}")
            return None
        if maximum is not None and number > maximum:
            self.add("out_of_range", path, f"{number} is above the maximum {maximum}")
            return None
        return number

    def known_keys(self, record: Mapping[str, Any], allowed: Iterable[str], path: str = "") -> None:
        allowed = set(allowed)
        for key in record:
            if key not in allowed:
                self.add(
                    "unknown_key",
                    join(path, str(key)),
                    f"unknown field '{key}' (allowed: {', '.join(sorted(allowed))})",
                )

    def player(self, value: Any, players: list[str], path: str) -> str | None:
        name = self.typed(value, str, path)
        if name is None:
            return None
        if name not in players:
            self.add("unknown_player", path, f"'{name}' is not one of the players {players}")
            return None
        return name

    def per_player(
        self, value: Any, players: list[str], path: str, *, required: bool = True
    ) -> dict[str, Any] | None:
        """An object keyed by player: unknown players are errors, missing ones too if required."""
        mapping = self.typed(value, dict, path)
        if mapping is None:
            return None
        for key in mapping:
            if key not in players:
                self.add(
                    "unknown_player",
                    join(path, key),
                    f"'{key}' is not one of the players {players}",
                )
        if required:
            for name in players:
                if name not in mapping:
                    self.add("missing_player", join(path, name), f"no entry for player '{name}'")
        return {k: v for k, v in mapping.items() if k in players}

    def card(self, value: Any, path: str) -> Card | None:
        if value is MISSING:
            return None
        try:
            return parse_card(value)
        except InvalidCard as exc:
            self.add("invalid_card", path, str(exc))
            return None

    def cards(self, value: Any, path: str) -> list[Card] | None:
        """A list of card codes; every bad code is its own problem."""
        items = self.typed(value, list, path)
        if items is None:
            return None
        try:
            return [parse_card(item) for item in items]
        except InvalidCard:  # slow path: name every bad card with its own path
            cards = [self.card(item, join(path, i)) for i, item in enumerate(items)]
            return None if any(card is None for card in cards) else cards  # type: ignore[return-value]

    def dealt_hands(
        self, record: Mapping[str, Any], players: list[str], size: int, key: str = "hands"
    ) -> dict[str, list[Card]] | None:
        """Every player's dealt hand, each of ``size`` cards (full-play records)."""
        raw = self.per_player(self.require(record, key), players, key)
        if raw is None:
            return None
        hands: dict[str, list[Card]] = {}
        for player, value in raw.items():
            cards = self.cards(value, join(key, player))
            if cards is None:
                continue
            if len(cards) != size:
                self.add(
                    "wrong_card_count",
                    join(key, player),
                    f"a hand is dealt {size} cards, not {len(cards)}",
                )
            hands[player] = cards
        return hands if len(hands) == len(players) else None

    def deck_counts(self, placed: Iterable[tuple[str, Card]], deck: Mapping[str, int]) -> None:
        """Each card used at most as often as the deck holds it; the excess copies are named."""
        seen: Counter[str] = Counter()
        for path, card in placed:
            seen[card.code] += 1
            held = deck.get(card.code, 0)
            if seen[card.code] > held:
                what = "is not in this deck" if held == 0 else f"appears more than {held} time(s)"
                self.add("too_many_copies", path, f"{card.code} {what}")
