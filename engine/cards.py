"""Cards and their canonical text form.

A card is written as a suit letter (``S`` ``H`` ``D`` ``C``) followed by a rank
(``A`` ``2``…``10`` ``J`` ``Q`` ``K``); the joker is ``JK`` and Rettler's bridge
card is ``BR``.  Input may be lower case and may use the suit symbols
(♠ ♥/♡ ♦/♢ ♣); :func:`parse_card` always returns the canonical form, so
``parse_card(text).code`` round-trips every card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from types import MappingProxyType

from engine.text import gettext_noop

NOT_A_CARD = gettext_noop("%(text)s is not a card (expected e.g. 'SA', 'H10', 'DJ', 'JK')")


class InvalidCard(ValueError):
    """The text is not a card code: an English message, and its template and params."""

    def __init__(self, template: str, **params: str) -> None:
        super().__init__(template % params)
        self.template = template
        self.params = params


class Suit(StrEnum):
    """The four suits, by their canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


SAME_COLOUR: dict[Suit, Suit] = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
"""Each suit's other suit of the same colour: Napoleon's and Rettler's 裏ジャック, Comp-13's
裏札."""

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Ranks in the order of a suit, ace low (games give their own strength orders)."""

FACE_RANKS: frozenset[str] = frozenset({"A", "10", "J", "Q", "K"})
"""The ranks Napoleon and Rettler call point cards (点札) and Comp-13 calls face cards (絵札)."""

_ACE_HIGH = {rank: 14 if rank == "A" else i + 1 for i, rank in enumerate(RANKS)}

JOKER = "JK"
BRIDGE = "BR"

SUIT_ALIASES: dict[str, Suit] = {  # the suit letters and symbols a card may be written with
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; two-deck games simply hold two equal values."""

    code: str
    """Canonical code: ``"SA"``, ``"H10"``, ``"JK"``, ``"BR"``."""
    suit: Suit | None = field(init=False, compare=False, repr=False)
    """The suit, or ``None`` for the joker and the bridge."""
    rank: str | None = field(init=False, compare=False, repr=False)
    """The rank (``"A"``, ``"10"``, ``"K"``…), or ``None`` for the joker and the bridge."""
    is_joker: bool = field(init=False, compare=False, repr=False)
    """True for the joker."""
    is_face: bool = field(init=False, compare=False, repr=False)
    """True for A, 10, J, Q and K of any suit (never the joker)."""
    strength: int = field(init=False, compare=False, repr=False)
    """The rank's order with the ace high: A 14, K 13 … 2 2; 0 for the joker and bridge."""

    def __post_init__(self) -> None:
        # Derived once: the replay reads these for every card of every trick.
        plain = self.code not in (JOKER, BRIDGE)
        rank = self.code[1:] if plain else None
        object.__setattr__(self, "suit", Suit(self.code[0]) if plain else None)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "is_joker", self.code == JOKER)
        object.__setattr__(self, "is_face", rank in FACE_RANKS)
        object.__setattr__(self, "strength", 0 if rank is None else _ACE_HIGH[rank])

    def __str__(self) -> str:
        return self.code


def parse_card(text: object) -> Card:
    """Read one card code in any accepted spelling; raise :class:`InvalidCard` otherwise."""
    card = BY_CODE.get(text) if type(text) is str else None
    if card is not None:  # the canonical spelling: one shared value per card
        return card
    if not isinstance(text, str):
        raise InvalidCard(
            gettext_noop("a card is a string such as 'SA', not %(kind)s"), kind=type(text).__name__
        )
    if len(text) > 8:  # never cache or echo a long string
        raise InvalidCard(NOT_A_CARD, text=repr(text[:8]) + "…")
    return _parse(text)


@lru_cache(maxsize=512)
def _parse(text: str) -> Card:
    raw = text.strip().upper()
    if raw in (JOKER, BRIDGE):
        return Card(raw)
    if len(raw) >= 2 and raw[0] in SUIT_ALIASES and raw[1:] in RANKS:
        return Card(SUIT_ALIASES[raw[0]].value + raw[1:])
    raise InvalidCard(NOT_A_CARD, text=repr(text))


SUIT_MARKS: dict[str, str] = {"S": "♠", "H": "♡", "D": "♢", "C": "♣"}
"""The suit symbols cards are shown with (the card pads' marks)."""


def card_label(code: str) -> str:
    """A card as people read it and the card pads show it: ``SA`` → ♠A, ``H10`` → ♡10
    (the joker, the bridge and anything else: as written, ``JK``, ``BR``)."""
    return SUIT_MARKS[code[0]] + code[1:] if code[:1] in SUIT_MARKS and len(code) > 1 else code


BY_CODE: dict[str, Card] = {
    code: Card(code) for code in [s.value + r for s in Suit for r in RANKS] + [JOKER, BRIDGE]
}
"""Every card by its canonical code."""


@cache
def standard_deck(*, copies: int = 1, jokers: int = 0, bridges: int = 0) -> Mapping[str, int]:
    """How many of each card code a game's deck holds (shared and read-only: built once)."""
    deck: Counter[str] = Counter()
    for suit in Suit:
        for rank in RANKS:
            deck[suit.value + rank] = copies
    if jokers:
        deck[JOKER] = jokers
    if bridges:
        deck[BRIDGE] = bridges
    return MappingProxyType(deck)
