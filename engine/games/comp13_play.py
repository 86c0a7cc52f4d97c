"""Comp-13: replaying a deal move by move, and random legal deals.

The full-play record (docs/deal-records.md, "Comp-13 full play") gives the four
cards dealt to each player and the stock from the top; ``players`` starts with
the provisional dealer (仮親) and follows the order of play, and field A lies in
front of ``players[0]``, B of ``players[1]``, and so on around the table.

Dealer selection (親決め): field A is turned up from the stock; a player holding
its 裏札 (same colour, same rank) becomes the dealer, fields up to C come from
the stock, and the dealer lays field D from the hand (``dealer_card``, never a
joker); play starts left of the dealer.  Otherwise B, then C are turned and
checked the same way; if D is turned too, its 裏札's holder deals and plays
first.  If nobody holds a 裏札 the highest field card (rank, then ♠ ♡ ♢ ♣,
jokers lowest) makes the player in front of it the dealer, who plays first.
Four kings turned from the stock are 流れ; a dealer laying the fourth king on D
makes an All-Ground.

A move is one of the five plays: ``attach`` a card of the field's suit;
``change`` a one-card field for the same rank of another suit; ``exchange`` a
hand card for one card of a field of two or more, or for two cards whose ranks
add up to the hand card's; ``draw``.  A field's sum stays at most 20, the four
at most 52; a joker is a field of its own that nobody can play on.  Attaching
or exchanging 1:1 may make All-Ground (the four fields add up to 52; it goes
first) or Comp (the field adds up to 13).  ``capture`` on the move names the
other field taken by a Comp: a single face card after a 2-card Comp, every face
card of one field after a 3-card Comp.

Decisions: the kings of a Comp's suit in the comping and the next player's
hands are taken automatically (the book says they *may*; nobody declines a
point).  The deal ends as soon as the stock is empty, whether a draw or a
refill emptied it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Suit
from engine.problems import Checker, join

FIELDS = "ABCD"
HAND_SIZE = 4
FIELD_LIMIT = 20
TABLE_LIMIT = 52
COMP = 13
RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUIT_ORDER = {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1}
PARTNER = {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES, Suit.HEARTS: Suit.DIAMONDS,
           Suit.DIAMONDS: Suit.HEARTS}  # fmt: skip
MOVE_KEYS = frozenset({"player", "play", "field", "card", "take", "capture"})


def rank(card: Card) -> int:
    """数位: A 1, 2-10 as printed, J 11, Q 12, K 13, joker 0."""
    if card.rank is None:
        return 0
    return RANK.get(card.rank) or int(card.rank)


def ura(card: Card) -> Card | None:
    """裏札: the same rank in the other suit of the same colour (none for the joker)."""
    return None if card.suit is None else Card(PARTNER[card.suit].value + (card.rank or ""))


class MoveError(ValueError):
    """A move the rules refuse, with its error code."""

    def __init__(self, code: str, message: str, where: str = "") -> None:
        super().__init__(message)
        self.code, self.where = code, where


@dataclass
class Deal:
    """A Comp-13 deal in play."""

    players: list[str]
    hands: dict[str, list[Card]]
    stock: list[Card]
    fields: list[list[Card]] = field(default_factory=lambda: [[], [], [], []])
    captured: dict[str, list[Card]] = field(default_factory=dict)
    dealer: str | None = None
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
                    "missing_field", f"{holder} deals and lays field D from the hand", "dealer_card"
                )
            if dealer_card.is_joker or dealer_card not in self.hands[holder]:
                raise MoveError(
                    "card_not_held",
                    f"{holder} lays a card of the hand on D, never a joker",
                    "dealer_card",
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
        best = max(range(4), key=lambda i: (rank(self.fields[i][0]) if not self.is_joker_field(i) else -1,
                                            SUIT_ORDER.get(self.fields[i][0].suit, 0)))  # type: ignore[arg-type]  # fmt: skip
        self.dealer = self.players[best % n]
        self.turn = best % n

    def _all_kings_turned(self) -> None:
        if all(f and f[0].rank == "K" for f in self.fields):
            self.over = "nagare"  # 流れ ①: four kings turned from the stock

    # -- the five plays ---------------------------------------------------------------------
    def play(self, player: str, move: Mapping[str, Any], card: Card | None, take: list[Card],
             target: int | None, capture: int | None) -> None:  # fmt: skip
        kind = move["play"]
        hand = self.hands[player]
        if kind == "draw":
            drawn = self.turn_up()
            if drawn is not None:
                hand.append(drawn)
            return
        assert target is not None and card is not None
        if card not in hand:
            raise MoveError("card_not_held", f"{player} does not hold {card.code}", "card")
        if card.is_joker:
            raise MoveError("joker_played", "a joker never goes from a hand to a field", "card")
        if self.is_joker_field(target):
            raise MoveError(
                "joker_field", "a joker is a field of its own: nothing is played on it", "field"
            )
        here = self.fields[target]
        suit = self.suit_of(target)
        if kind == "change":
            if len(here) != 1 or rank(card) != rank(here[0]) or card.suit == suit:
                raise MoveError(
                    "illegal_change",
                    "a change swaps a one-card field for the same rank of another suit",
                    "card",
                )
            hand.remove(card)
            hand.append(here[0])
            self.fields[target] = [card]
            return
        if card.suit != suit:
            raise MoveError(
                "wrong_suit", f"field {FIELDS[target]} is {suit}; {card.code} is not", "card"
            )
        if kind == "attach":
            if take:
                raise MoveError("not_applicable", "an attach takes nothing", "take")
            new = here + [card]
        elif kind == "exchange":
            if len(here) < 2:
                raise MoveError(
                    "illegal_exchange", "an exchange needs a field of two or more cards", "field"
                )
            if len(take) not in (1, 2) or any(here.count(t) < take.count(t) for t in take):
                raise MoveError(
                    "illegal_exchange", f"take one or two cards of field {FIELDS[target]}", "take"
                )
            if len(take) == 2 and rank(card) != rank(take[0]) + rank(take[1]):
                raise MoveError(
                    "illegal_exchange",
                    "a 1:2 exchange needs a hand card equal to the two cards' sum",
                    "take",
                )
            new = list(here)
            for t in take:
                new.remove(t)
            new.append(card)
        else:
            raise MoveError(
                "unknown_play", f"{kind!r} is not attach, change, exchange or draw", "play"
            )
        new_sum = sum(rank(c) for c in new)
        if new_sum > FIELD_LIMIT:
            raise MoveError(
                "field_limit",
                f"field {FIELDS[target]} would add up to {new_sum}, over {FIELD_LIMIT}",
                "card",
            )
        total = self.total() - self.field_sum(target) + new_sum
        if total > TABLE_LIMIT:
            raise MoveError(
                "table_limit", f"the fields would add up to {total}, over {TABLE_LIMIT}", "card"
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
                    "All-Ground takes every field; 'capture' is for a Comp",
                    "capture",
                )
            self.all_ground(player)
        elif new_sum == COMP:
            self.comp(player, target, capture)
        elif capture is not None:
            raise MoveError("not_applicable", "no Comp: nothing to capture", "capture")

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
                f"field {FIELDS[capture]} is not {kind} another field can give",
                "capture",
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


# -- replay --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    dealer: str | None
    order_from_dealer: list[str]
    captured: dict[str, list[Card]]
    hand_faces: dict[str, list[Card]]
    ended: str


def replay_comp13(
    record: Mapping[str, Any], players: list[str], deck: Mapping[str, int], checker: Checker
) -> Replayed | None:
    hands = checker.dealt_hands(record, players, HAND_SIZE)
    stock = checker.cards(checker.require(record, "stock"), "stock")
    moves = checker.typed(checker.require(record, "moves"), list, "moves")
    if hands is None or stock is None or moves is None or not checker.ok:
        return None
    placed = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    placed += [(join("stock", i), c) for i, c in enumerate(stock)]
    checker.deck_counts(placed, deck)
    if checker.ok and len(placed) != sum(deck.values()):
        checker.add("incomplete_deck", "stock", "the hands and the stock are not the whole deck")
    dealer_card = (
        checker.card(record["dealer_card"], "dealer_card") if "dealer_card" in record else None
    )
    if not checker.ok:
        return None

    deal = Deal(players=list(players), hands={p: list(hands[p]) for p in players}, stock=list(stock),
                captured={p: [] for p in players})  # fmt: skip
    try:
        deal.choose_dealer(dealer_card)
    except MoveError as exc:
        checker.add(exc.code, exc.where, str(exc))
        return None
    if dealer_card is not None and deal.fields[3] != [dealer_card]:
        checker.add(
            "not_applicable", "dealer_card", "the dealer lays no card: field D came from the stock"
        )
        return None
    for m, move in enumerate(moves):
        path = join("moves", m)
        if deal.over:
            checker.add("deal_over", path, f"the deal was over ({deal.over}) before this move")
            return None
        if not _move(deal, players, move, path, checker):
            return None
    if not deal.over:
        checker.add(
            "deal_not_over", "moves", "the moves end before the stock is empty or the deal is 流れ"
        )
        return None
    dealer = deal.dealer or players[0]
    start = players.index(dealer)
    return Replayed(
        dealer=deal.dealer,
        order_from_dealer=players[start:] + players[:start],
        captured=deal.captured,
        hand_faces={p: [c for c in deal.hands[p] if c.is_face or c.is_joker] for p in players},
        ended=deal.over,
    )


def _move(deal: Deal, players: list[str], move: Any, path: str, checker: Checker) -> bool:
    move = checker.typed(move, dict, path)
    if move is None:
        return False
    checker.known_keys(move, MOVE_KEYS, path)
    player = checker.player(checker.require(move, "player", path), players, join(path, "player"))
    kind = checker.typed(checker.require(move, "play", path), str, join(path, "play"))
    if player is None or kind is None:
        return False
    expected = players[deal.turn]
    if player != expected:
        checker.add("wrong_order", join(path, "player"), f"it is {expected}'s move, not {player}'s")
        return False
    card = target = capture = None
    take: list[Card] = []
    if kind != "draw":
        target = _field(move.get("field"), join(path, "field"), checker, required=True)
        card = checker.card(checker.require(move, "card", path), join(path, "card"))
        if "take" in move:
            take = checker.cards(move["take"], join(path, "take")) or []
        if "capture" in move:
            capture = _field(move["capture"], join(path, "capture"), checker, required=True)
    else:
        extra = sorted(set(move) - {"player", "play"})
        if extra:
            checker.add(
                "not_applicable",
                join(path, extra[0]),
                "a draw takes the top of the stock and nothing else",
            )
    if not checker.ok:
        return False
    try:
        deal.play(player, move, card, take, target, capture)
    except MoveError as exc:
        checker.add(exc.code, join(path, exc.where) if exc.where else path, str(exc))
        return False
    deal.turn = (deal.turn + 1) % len(players)
    return True


def _field(value: Any, path: str, checker: Checker, *, required: bool) -> int | None:
    if value in tuple(FIELDS):
        return FIELDS.index(value)
    checker.add("unknown_field", path, f"{value!r} is not a field (A, B, C or D)")
    return None


# -- random legal deals --------------------------------------------------------------------------


def legal_moves(deal: Deal, player: str) -> list[dict[str, Any]]:
    """Every play but the draw that ``player`` could make now."""
    moves: list[dict[str, Any]] = []
    for card in dict.fromkeys(deal.hands[player]):
        if card.is_joker:
            continue
        for i in range(4):
            if deal.is_joker_field(i) or not deal.fields[i]:
                continue
            here, suit = deal.fields[i], deal.suit_of(i)
            if len(here) == 1 and rank(card) == rank(here[0]) and card.suit != suit:
                moves.append({"play": "change", "field": FIELDS[i], "card": card.code})
            if card.suit != suit:
                continue
            rest = deal.total() - deal.field_sum(i)
            if (
                deal.field_sum(i) + rank(card) <= FIELD_LIMIT
                and rest + deal.field_sum(i) + rank(card) <= TABLE_LIMIT
            ):
                moves.append({"play": "attach", "field": FIELDS[i], "card": card.code})
            if len(here) >= 2:
                for j, t in enumerate(here):
                    new = deal.field_sum(i) - rank(t) + rank(card)
                    if new <= FIELD_LIMIT and rest + new <= TABLE_LIMIT:
                        moves.append(
                            {
                                "play": "exchange",
                                "field": FIELDS[i],
                                "card": card.code,
                                "take": [t.code],
                            }
                        )
                    for u in here[j + 1 :]:
                        if rank(card) == rank(t) + rank(u):
                            moves.append({"play": "exchange", "field": FIELDS[i], "card": card.code,
                                          "take": [t.code, u.code]})  # fmt: skip
    return moves


def random_comp13_deal(
    players: list[str], deck: Mapping[str, int], rng: random.Random, jokers: int = 0
) -> dict[str, Any]:
    """A complete, legal full-play record: players make a random play, or draw."""
    cards = [Card(code) for code, copies in sorted(deck.items()) for _ in range(copies)]
    rng.shuffle(cards)
    n = len(players)
    hands = {p: cards[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(players)}
    stock = cards[n * HAND_SIZE :]
    record: dict[str, Any] = {
        "game": "comp13",
        "players": list(players),
        "rules": {"jokers": jokers},
        "hands": {p: [c.code for c in hands[p]] for p in players},
        "stock": [c.code for c in stock],
        "moves": [],
    }
    deal = Deal(players=list(players), hands={p: list(hands[p]) for p in players}, stock=list(stock),
                captured={p: [] for p in players})  # fmt: skip
    probe = Deal(players=list(players), hands={p: list(hands[p]) for p in players}, stock=list(stock),
                 captured={p: [] for p in players})  # fmt: skip
    try:
        probe.choose_dealer(None)
    except MoveError:  # the dealer must lay field D: pick a card
        holder = next(p for p in players if probe.dealer == p)
        choice = rng.choice([c for c in hands[holder] if not c.is_joker])
        record["dealer_card"] = choice.code
        deal.choose_dealer(choice)
    else:
        deal.choose_dealer(None)
    steps = 0
    while not deal.over:
        player = players[deal.turn]
        options = legal_moves(deal, player)
        steps += 1
        if options and steps < 400 and rng.random() < 0.6:
            move = dict(rng.choice(options))
        else:
            move = {"play": "draw"}
        move["player"] = player
        card = Card(move["card"]) if "card" in move else None
        take = [Card(t) for t in move.get("take", [])]
        target = FIELDS.index(move["field"]) if "field" in move else None
        capture = None
        if target is not None and move["play"] in ("attach", "exchange") and len(take) <= 1:
            after = _sum_after(deal, target, card, take)
            if after == COMP and deal.total() - deal.field_sum(target) + after != TABLE_LIMIT:
                size = len(deal.fields[target]) + (move["play"] == "attach")
                choices = deal.capture_choices(target, size)
                if choices and rng.random() < 0.9:
                    capture = rng.choice(choices)
                    move["capture"] = FIELDS[capture]
        deal.play(player, move, card, take, target, capture)
        deal.turn = (deal.turn + 1) % n
        record["moves"].append({"player": move.pop("player"), **move})
    return record


def _sum_after(deal: Deal, target: int, card: Card | None, take: Sequence[Card]) -> int:
    return deal.field_sum(target) + (rank(card) if card else 0) - sum(rank(t) for t in take)
