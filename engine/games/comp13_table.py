"""Comp-13: the table of a deal in play — the four fields, the hands, the stock — and
the five plays (attach, change, exchange, draw, and the captures of a Comp).

:mod:`engine.games.comp13_play` replays records and plays random deals on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import SAME_COLOUR, Card, Suit
from engine.text import gettext_noop

FIELDS = "ABCD"
HAND_SIZE = 4
FIELD_LIMIT = 20
TABLE_LIMIT = 52
COMP = 13
RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUIT_ORDER = {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1}
MOVE_KEYS = frozenset({"player", "play", "field", "card", "take", "capture"})


def rank(card: Card) -> int:
    """数位: A 1, 2-10 as printed, J 11, Q 12, K 13, joker 0."""
    if card.rank is None:
        return 0
    return RANK.get(card.rank) or int(card.rank)


def ura(card: Card) -> Card | None:
    """裏札: the same rank in the other suit of the same colour (none for the joker)."""
    return None if card.suit is None else Card(SAME_COLOUR[card.suit].value + (card.rank or ""))


class MoveError(ValueError):
    """A move the rules refuse, with its error code."""

    def __init__(self, code: str, template: str, where: str = "", **params: object) -> None:
        super().__init__(template % params if params else template)
        self.code, self.where = code, where
        self.template, self.params = template, params


@dataclass
class Deal:
    """A Comp-13 deal in play."""

    players: list[str]
    hands: dict[str, list[Card]]
    stock: list[Card]
    fields: list[list[Card]] = field(default_factory=lambda: [[], [], [], []])
    captured: dict[str, list[Card]] = field(default_factory=dict)
    dealer: str | None = None
    provisional: int = 0
    """Index in ``players`` of the provisional dealer (仮親), who turns up the fields:
    field A lies in front of them, B, C and D in front of the players after them."""
    turn: int = 0
    """Index in ``players`` of the player to move."""
    over: str | None = None
    """Why the deal ended: ``stock`` or ``nagare`` (流れ)."""

    def total(self) -> int:
        return sum(self.field_sum(i) for i in range(4))

    def field_sum(self, i: int) -> int:
        return sum(rank(c) for c in self.fields[i])

    def is_joker_field(self, i: int) -> bool:
        return len(self.fields[i]) == 1 and self.fields[i][0].is_joker

    def suit_of(self, i: int) -> Suit | None:
        return self.fields[i][0].suit if self.fields[i] else None

    def next_player(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    # -- the stock ---------------------------------------------------------------------------
    def turn_up(self) -> Card | None:
        """The top of the stock; the deal ends when the stock runs out."""
        card = self.stock.pop(0) if self.stock else None
        if not self.stock:
            self.over = self.over or "stock"
        return card

    def refill(self, cleared: list[int]) -> None:
        for i in cleared:
            if self.over:
                return
            card = self.turn_up()
            if card is not None:
                self.fields[i] = [card]
        if not self.over and self.total() >= TABLE_LIMIT:
            self.over = "nagare"  # 流れ ③: the refilled fields reach 52

    # -- dealer selection ------------------------------------------------------------------
    def choose_dealer(self, dealer_card: Card | None) -> None:
        """The 親決め: the 仮親 (:attr:`provisional`) turns up field A in front of
        themselves, then B, C, D round the table (:mod:`engine.games.comp13_play`)."""
        n = len(self.players)
        for i in range(4):
            card = self.turn_up()
            if card is None:
                return
            self.fields[i] = [card]
            back = ura(card)
            holder = next(
                (p for p in self.players if back is not None and back in self.hands[p]), None
            )
            if holder is None:
                continue
            self.dealer = holder
            if i == 3:
                self.turn = self.players.index(holder)
                self._all_kings_turned()
                return
            for j in range(i + 1, 3):
                up = self.turn_up()
                if up is None:
                    return
                self.fields[j] = [up]
            if dealer_card is None:
                raise MoveError(
                    "missing_field",
                    gettext_noop("%(holder)s deals and lays field D from the hand"),
                    "dealer_card",
                    holder=holder,
                )
            if dealer_card.is_joker or dealer_card not in self.hands[holder]:
                raise MoveError(
                    "card_not_held",
                    gettext_noop("%(holder)s lays a card of the hand on D, never a joker"),
                    "dealer_card",
                    holder=holder,
                )
            self.hands[holder].remove(dealer_card)
            self.fields[3] = [dealer_card]
            self.turn = (self.players.index(holder) + 1) % n
            if self.total() == TABLE_LIMIT:
                self.all_ground(holder)
            return
        self._all_kings_turned()
        if self.over:
            return
        best = max(
            range(4),
            key=lambda i: (
                rank(self.fields[i][0]) if not self.is_joker_field(i) else -1,
                SUIT_ORDER.get(self.fields[i][0].suit, 0),  # type: ignore[arg-type]
            ),
        )
        seat = (self.provisional + best) % n
        self.dealer = self.players[seat]
        self.turn = seat

    def _all_kings_turned(self) -> None:
        if all(f and f[0].rank == "K" for f in self.fields):
            self.over = "nagare"  # 流れ ①: four kings turned from the stock

    # -- the five plays ---------------------------------------------------------------------
    def play(
        self,
        player: str,
        move: Mapping[str, Any],
        card: Card | None,
        take: list[Card],
        target: int | None,
        capture: int | None,
    ) -> None:
        kind = move["play"]
        hand = self.hands[player]
        if kind == "draw":
            drawn = self.turn_up()
            if drawn is not None:
                hand.append(drawn)
            return
        assert target is not None and card is not None
        if card not in hand:
            raise MoveError(
                "card_not_held",
                gettext_noop("%(player)s does not hold %(code_)s"),
                "card",
                player=player,
                code_=card.code,
            )
        if card.is_joker:
            raise MoveError(
                "joker_played", gettext_noop("a joker never goes from a hand to a field"), "card"
            )
        if self.is_joker_field(target):
            raise MoveError(
                "joker_field",
                gettext_noop("a joker is a field of its own: nothing is played on it"),
                "field",
            )
        here = self.fields[target]
        suit = self.suit_of(target)
        if kind == "change":
            if len(here) != 1 or rank(card) != rank(here[0]) or card.suit == suit:
                raise MoveError(
                    "illegal_change",
                    gettext_noop(
                        "a change swaps a one-card field for the same rank of another suit"
                    ),
                    "card",
                )
            hand.remove(card)
            hand.append(here[0])
            self.fields[target] = [card]
            return
        if card.suit != suit:
            raise MoveError(
                "wrong_suit",
                gettext_noop("field %(fields)s is %(suit)s; %(code_)s is not"),
                "card",
                fields=FIELDS[target],
                suit=suit,
                code_=card.code,
            )
        if kind == "attach":
            if take:
                raise MoveError("not_applicable", gettext_noop("an attach takes nothing"), "take")
            new = here + [card]
        elif kind == "exchange":
            if len(here) < 2:
                raise MoveError(
                    "illegal_exchange",
                    gettext_noop("an exchange needs a field of two or more cards"),
                    "field",
                )
            if len(take) not in (1, 2) or any(here.count(t) < take.count(t) for t in take):
                raise MoveError(
                    "illegal_exchange",
                    gettext_noop("take one or two cards of field %(fields)s"),
                    "take",
                    fields=FIELDS[target],
                )
            if len(take) == 2 and rank(card) != rank(take[0]) + rank(take[1]):
                raise MoveError(
                    "illegal_exchange",
                    gettext_noop("a 1:2 exchange needs a hand card equal to the two cards' sum"),
                    "take",
                )
            new = list(here)
            for t in take:
                new.remove(t)
            new.append(card)
        else:
            raise MoveError(
                "unknown_play",
                gettext_noop("%(kind)s is not attach, change, exchange or draw"),
                "play",
                kind=repr(kind),
            )
        new_sum = sum(rank(c) for c in new)
        if new_sum > FIELD_LIMIT:
            raise MoveError(
                "field_limit",
                gettext_noop("field %(fields)s would add up to %(new_sum)s, over %(field_limit)s"),
                "card",
                fields=FIELDS[target],
                new_sum=new_sum,
                field_limit=FIELD_LIMIT,
            )
        total = self.total() - self.field_sum(target) + new_sum
        if total > TABLE_LIMIT:
            raise MoveError(
                "table_limit",
                gettext_noop("the fields would add up to %(total)s, over %(table_limit)s"),
                "card",
                total=total,
                table_limit=TABLE_LIMIT,
            )
        hand.remove(card)
        hand.extend(take)
        self.fields[target] = new
        if kind == "exchange" and len(take) == 2:
            return  # a 1:2 exchange changes no sum: never Comp nor All-Ground
        if total == TABLE_LIMIT:
            if capture is not None:
                raise MoveError(
                    "not_applicable",
                    gettext_noop("All-Ground takes every field; 'capture' is for a Comp"),
                    "capture",
                )
            self.all_ground(player)
        elif new_sum == COMP:
            self.comp(player, target, capture)
        elif capture is not None:
            raise MoveError(
                "not_applicable", gettext_noop("no Comp: nothing to capture"), "capture"
            )

    def capture_choices(self, target: int, size: int | None = None) -> list[int]:
        """The other fields a Comp of ``target`` (of ``size`` cards) may take from."""
        two = (size if size is not None else len(self.fields[target])) == 2
        choices = []
        for i in range(4):
            if i == target or self.is_joker_field(i):
                continue
            faces = [c for c in self.fields[i] if c.is_face]
            if two and len(self.fields[i]) == 1 and faces or not two and faces:
                choices.append(i)
        return choices

    def comp(self, player: str, target: int, capture: int | None) -> None:
        suit = self.suit_of(target)
        if capture is not None and capture not in self.capture_choices(target):
            kind = (
                "a single face card" if len(self.fields[target]) == 2 else "a field with face cards"
            )
            raise MoveError(
                "illegal_capture",
                gettext_noop("field %(fields)s is not %(kind)s another field can give"),
                "capture",
                fields=FIELDS[capture],
                kind=kind,
            )
        taken = self.captured[player]
        taken.extend(c for c in self.fields[target] if c.is_face)
        cleared = [target]
        if capture is not None:
            taken.extend(c for c in self.fields[capture] if c.is_face)
            cleared.append(capture)
        for p in (player, self.next_player(player)):
            king = Card(f"{suit.value}K") if suit else None
            if king is not None and king in self.hands[p]:
                self.hands[p].remove(king)
                self.captured[p].append(king)
        for i in cleared:
            self.fields[i] = []
        self.refill(sorted(cleared))

    def all_ground(self, player: str) -> None:
        for f in self.fields:
            self.captured[player].extend(c for c in f if c.is_face or c.is_joker)
        for p in self.players:
            keep = [c for c in self.hands[p] if not (c.rank == "K" or c.is_joker)]
            self.captured[p].extend(c for c in self.hands[p] if c.rank == "K" or c.is_joker)
            self.hands[p] = keep
        self.fields = [[], [], [], []]
        if len(self.stock) <= 4:
            self.stock = []
            self.over = "stock"
            return
        self.refill([0, 1, 2, 3])
        if not self.over and all(f[0].rank == "K" for f in self.fields):
            self.over = "nagare"  # 流れ ②: four kings after an All-Ground
