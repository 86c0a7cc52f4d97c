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
from engine.text import gettext_noop

__all__ = ["MISSING", "Checker", "NotARecord", "Problem", "gettext_noop", "join"]


class NotARecord(ValueError):
    """The input is not a deal record at all (not an object, no known game).

    The command line exits 2 for this; everything else is a :class:`Problem`.
    """


Param = str | int
"""A value of a message's parameter: numbers stay numbers, anything else is text."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record."""

    code: str
    """Stable machine-readable code, e.g. ``unknown_key``, ``point_cards_total``."""
    path: str
    """Where in the record: dotted keys and ``[i]`` indexes; ``""`` is the whole record."""
    message: str
    """A sentence for the person who wrote the record (English)."""
    template: str = ""
    """The message with ``%(name)s`` placeholders: what a translation translates."""
    params: dict[str, Param] = field(default_factory=dict)
    """The values of the template's placeholders."""

    def to_dict(self) -> dict[str, Any]:
        """The problem as the contract shows it: code, path, message and the message's params."""
        return {
            "code": self.code,
            "path": self.path,
            "message": self.message,
            "params": dict(self.params),
        }

    def under(self, prefix: str) -> Problem:
        """The same problem seen from an enclosing record (a match's ``deals[i]``)."""
        if not prefix:
            return self
        sep = "" if not self.path or self.path.startswith("[") else "."
        return Problem(
            self.code, f"{prefix}{sep}{self.path}", self.message, self.template, self.params
        )


def join(path: str, key: str | int) -> str:
    """Extend a path by a key or an index."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


_TYPE_NAMES = {
    int: gettext_noop("a whole number"),
    str: gettext_noop("a string"),
    list: gettext_noop("a list"),
    dict: gettext_noop("an object"),
    bool: gettext_noop("true or false"),
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
    rewritten: list[tuple[str, str]] = field(default_factory=list)
    """Cards the record writes otherwise than their code (``"♠A"``, ``"sa"``): the path and
    the canonical code (``engine.canonical`` stores the record with the codes)."""

    def add(self, code: str, path: str, template: str, **params: Any) -> None:
        """Record a problem: ``template`` with ``%(name)s`` placeholders, filled by ``params``
        (a template without placeholders is the message itself)."""
        message = template % params if params else template.replace("%%", "%")
        kept: dict[str, Param] = {
            k: v if isinstance(v, int) and not isinstance(v, bool) else str(v)
            for k, v in params.items()
        }
        self.problems.append(Problem(code, path, message, template, kept))

    @property
    def ok(self) -> bool:
        return not self.problems

    def agrees(self, path: str, given: Any, derived: Any, shown: Any = None) -> None:
        """A summary field that a full play log gives as well must say what the log's
        replay says: ``given`` (:data:`MISSING`: not given, or unreadable and reported
        already) against ``derived``, both in the form they compare in; the problem shows
        ``shown`` (default ``derived``), how the field would be written."""
        if given is not MISSING and given != derived:
            self.add(
                "replay_mismatch",
                path,
                gettext_noop("the replay gives %(derived)s"),
                derived=derived if shown is None else shown,
            )

    # -- readers -----------------------------------------------------------------
    def require(self, record: Mapping[str, Any], key: str, path: str = "") -> Any:
        """The value at ``key``, or :data:`MISSING` with a ``missing_field`` problem.

        Every reader below passes :data:`MISSING` on as ``None`` without a second problem.
        """
        if key not in record:
            self.add(
                "missing_field", join(path, key), gettext_noop("'%(key)s' is required"), key=key
            )
            return MISSING
        return record[key]

    def typed(self, value: Any, kind: type, path: str) -> Any:
        """``value`` when it has the JSON type ``kind`` (bool is never an int), else ``None``."""
        if value is MISSING:
            return None
        if type(value) is kind:
            return value
        self.add(
            "wrong_type",
            path,
            gettext_noop("expected %(type_names)s, got %(type_name)s"),
            type_names=_TYPE_NAMES[kind],
            type_name=_type_name(value),
        )
        return None

    def integer(
        self, value: Any, path: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        number = self.typed(value, int, path)
        if number is None:
            return None
        if minimum is not None and number < minimum:
            self.add(
                "out_of_range",
                path,
                gettext_noop("%(number)s is below the minimum %(minimum)s"),
                number=number,
                minimum=minimum,
            )
            return None
        if maximum is not None and number > maximum:
            self.add(
                "out_of_range",
                path,
                gettext_noop("%(number)s is above the maximum %(maximum)s"),
                number=number,
                maximum=maximum,
            )
            return None
        return number

    def known_keys(self, record: Mapping[str, Any], allowed: Iterable[str], path: str = "") -> None:
        allowed = set(allowed)
        for key in record:
            if key not in allowed:
                self.add(
                    "unknown_key",
                    join(path, str(key)),
                    gettext_noop("unknown field '%(key)s' (allowed: %(names)s)"),
                    key=key,
                    names=", ".join(sorted(allowed)),
                )

    def player(self, value: Any, players: list[str], path: str) -> str | None:
        name = self.typed(value, str, path)
        if name is None:
            return None
        if name not in players:
            self.add(
                "unknown_player",
                path,
                gettext_noop("'%(name)s' is not one of the players %(players)s"),
                name=name,
                players=players,
            )
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
                    gettext_noop("'%(key)s' is not one of the players %(players)s"),
                    key=key,
                    players=players,
                )
        if required:
            for name in players:
                if name not in mapping:
                    self.add(
                        "missing_player",
                        join(path, name),
                        gettext_noop("no entry for player '%(name)s'"),
                        name=name,
                    )
        return {k: v for k, v in mapping.items() if k in players}

    def card(self, value: Any, path: str) -> Card | None:
        if value is MISSING:
            return None
        try:
            card = parse_card(value)
        except InvalidCard as exc:
            self.add("invalid_card", path, exc.template, **exc.params)
            return None
        if card.code != value:
            self.rewritten.append((path, card.code))
        return card

    def cards(self, value: Any, path: str) -> list[Card] | None:
        """A list of card codes; every bad code is its own problem."""
        items = self.typed(value, list, path)
        if items is None:
            return None
        try:
            parsed = [parse_card(item) for item in items]
        except InvalidCard:  # slow path: name every bad card with its own path
            cards = [self.card(item, join(path, i)) for i, item in enumerate(items)]
            return None if any(card is None for card in cards) else cards  # type: ignore[return-value]
        for i, (card, item) in enumerate(zip(parsed, items, strict=True)):
            if card.code != item:
                self.rewritten.append((join(path, i), card.code))
        return parsed

    def dealt_hands(
        self,
        record: Mapping[str, Any],
        players: list[str],
        size: int | Mapping[str, int],
        key: str = "hands",
    ) -> dict[str, list[Card]] | None:
        """Every player's dealt hand, each of ``size`` cards, or of ``size[player]`` where
        hands differ (full-play records)."""
        raw = self.per_player(self.require(record, key), players, key)
        if raw is None:
            return None
        hands: dict[str, list[Card]] = {}
        for player, value in raw.items():
            cards = self.cards(value, join(key, player))
            if cards is None:
                continue
            dealt = size if isinstance(size, int) else size[player]
            if len(cards) != dealt:
                self.add(
                    "wrong_card_count",
                    join(key, player),
                    gettext_noop("a hand is dealt %(size)s cards, not %(n_cards)s"),
                    size=dealt,
                    n_cards=len(cards),
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
                if held == 0 and card.is_joker:  # the deck of a game or match without one
                    template = gettext_noop("this deck has no joker (%(code_)s)")
                elif held == 0:
                    template = gettext_noop("%(code_)s is not in this deck")
                else:
                    template = gettext_noop("%(code_)s appears more than %(held)s time(s)")
                self.add("too_many_copies", path, template, code_=card.code, held=held)
