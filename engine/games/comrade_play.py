"""Comrade: the bid cards, replaying the bidding and the tricks, and random legal games.

The rules and the match are :mod:`engine.games.comrade`; this module holds the
decks and bid cards per player count, replays a full-play record (the bidding
turn by turn, then every trick) and plays random legal games.  It does not
import the game module, which imports it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import BY_CODE, JOKER, RANKS, Card, Suit, standard_deck
from engine.games.common import after, one_card, play_object, take
from engine.problems import Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"bidding", "hands", "tricks"})
SUITS = {
    "spades": Suit.SPADES,
    "hearts": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS,
    "clubs": Suit.CLUBS,
}
SUIT_NAME = {s: name for name, s in SUITS.items()}
TARGET = {3: 12, 4: 13, 5: 10}
BID_RANKS = {3: RANKS[:4], 4: RANKS[:6], 5: RANKS[:4]}
ROUNDS = 3
PASSES = 3


def bid_value(card: Card) -> int:
    return 1 if card.rank in ("A", None) else int(card.rank or 1)


def trick_deck(players: int) -> Mapping[str, int]:
    """3 players: the deck without A–4 (they are the bid cards); else all 52."""
    deck = standard_deck()
    if players != 3:
        return deck
    return {code: n for code, n in deck.items() if BY_CODE[code].rank not in RANKS[:4]}


def bid_cards(players: int) -> list[Card]:
    cards = [BY_CODE[s.value + r] for s in Suit for r in BID_RANKS[players]]
    return cards + ([BY_CODE[JOKER]] * 2 if players == 5 else [])


def hand_sizes(players: list[str], deals_by: str) -> dict[str, int]:
    """Dealt one at a time round from the dealer's left (5 players: from the dealer)."""
    n = len(players)
    total = sum(trick_deck(n).values())
    start = deals_by if n == 5 else after(players, deals_by)
    order = [after(players, start, k) for k in range(n)]
    return {p: total // n + (1 if order.index(p) < total % n else 0) for p in players}


def bids_total(bids: Mapping[str, Mapping[Suit, int]]) -> int:
    return sum(sum(b.values()) for b in bids.values())


def by_suit_name(table: Mapping[str, Mapping[Suit, int]]) -> dict[str, dict[str, int]]:
    return {p: {SUIT_NAME[s]: n for s, n in row.items() if n} for p, row in table.items()}


class Bidding:
    """The bid cards on the table and what each player took."""

    def __init__(self, players: list[str]) -> None:
        self.n = len(players)
        self.table: list[Card] = bid_cards(self.n)
        self.bids: dict[str, dict[Suit, int]] = {p: {} for p in players}

    def total(self) -> int:
        return bids_total(self.bids)

    def can_take(self, player: str, card: Card) -> bool:
        if card.suit is None:
            return True
        return bid_value(card) > self.bids[player].get(card.suit, 0)

    def increment(self, player: str, card: Card) -> int:
        if card.suit is None:
            return 1
        return bid_value(card) - self.bids[player].get(card.suit, 0)

    def stuck(self) -> bool:
        """No card left can be taken by anyone without passing the target."""
        room = TARGET[self.n] - self.total()
        return all(
            not self.can_take(p, card) or self.increment(p, card) > room
            for card in self.table
            for p in self.bids
        )

    def take(self, player: str, card: Card, suit: Suit) -> None:
        self.table.remove(card)
        if card.suit is None:
            self.bids[player][suit] = self.bids[player].get(suit, 0) + 1
            return
        self.bids[player][suit] = bid_value(card)


def replay(
    record: Mapping[str, Any], players: list[str], deals_by: str, checker: Checker
) -> tuple[dict[str, dict[Suit, int]], dict[str, dict[Suit, int]], str] | None:
    """The bidding and the tricks: (bids, tricks won per led suit, outcome)."""
    n = len(players)
    order = [after(players, deals_by, k) for k in range(n)]
    sizes = hand_sizes(players, deals_by)
    hands = checker.dealt_hands(record, players, sizes)
    turns = checker.typed(checker.require(record, "bidding"), list, "bidding")
    if hands is None or turns is None or not checker.ok:
        return None
    checker.deck_counts(
        ((join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])),
        trick_deck(n),
    )
    if not checker.ok:
        return None
    bidding = Bidding(players)
    outcome = _bid(turns, order, bidding, checker)
    if outcome is None:
        return None
    won: dict[str, dict[Suit, int]] = {p: {} for p in players}
    tricks = checker.typed(record.get("tricks", []), list, "tricks")
    if tricks is None:
        return None
    if outcome != "success":
        if tricks:
            checker.add(
                "deal_over",
                "tricks",
                gettext_noop("the game failed in the bidding: no trick is played"),
            )
            return None
        return bidding.bids, won, outcome
    leader = deals_by
    count = TARGET[n]
    for t, item in enumerate(tricks):
        path = join("tricks", t)
        if outcome != "success" or t >= count:
            checker.add("deal_over", path, gettext_noop("the game was over before this trick"))
            return None
        winner, suit = _trick(item, path, players, leader, hands, checker)
        if winner is None or suit is None:
            return None
        won[winner][suit] = won[winner].get(suit, 0) + 1
        bid = bidding.bids[winner].get(suit, 0)
        if won[winner][suit] > bid:
            outcome = "too_many" if bid else "wrong_suit"
        leader = winner
    if outcome == "success" and len(tricks) < count:
        checker.add(
            "deal_not_over",
            "tricks",
            gettext_noop("%(n_tricks)s of %(count)s tricks played"),
            n_tricks=len(tricks),
            count=count,
        )
        return None
    if outcome == "success":
        met = all(won[p].get(s, 0) == c for p, row in bidding.bids.items() for s, c in row.items())
        outcome = "success" if met else "short"
    return bidding.bids, won, outcome


def _bid(turns: list[Any], order: list[str], bidding: Bidding, checker: Checker) -> str | None:
    """Replay the bidding; ``success`` or the failure that ended it."""
    n = len(order)
    passes = 0
    for i, raw in enumerate(turns):
        path = join("bidding", i)
        turn = checker.typed(raw, dict, path)
        if turn is None:
            return None
        play = play_object(turn, path, order, order[i % n], checker)
        if play is None:
            return None
        checker.known_keys(play, ("player", "card", "suit", "pass"), path)
        who = order[i % n]
        if play.get("pass") is True:
            passes += 1
        else:
            card = one_card(play, path, checker)
            if card is None:
                return None
            if card not in bidding.table:
                checker.add(
                    "card_not_held",
                    join(path, "card"),
                    gettext_noop("%(code_)s is not on the table (bid cards left: %(names)s)"),
                    code_=card.code,
                    names=" ".join(c.code for c in bidding.table),
                )
                return None
            suit = card.suit
            if card.suit is None:
                name = play.get("suit")
                if not isinstance(name, str) or name not in SUITS:
                    checker.add(
                        "unknown_suit",
                        join(path, "suit"),
                        gettext_noop("a joker names a suit: one of %(names)s"),
                        names=", ".join(SUITS),
                    )
                    return None
                suit = SUITS[str(name)]
            elif not bidding.can_take(who, card):
                checker.add(
                    "illegal_bid",
                    join(path, "card"),
                    gettext_noop(
                        "%(who)s bid %(value)s in %(suit_name)s already: only a higher card"
                    ),
                    who=who,
                    value=bidding.bids[who][card.suit],
                    suit_name=SUIT_NAME[card.suit],
                )
                return None
            if suit is None:
                return None
            bidding.take(who, card, suit)
            passes = 0
        outcome = None
        if bidding.total() > TARGET[n]:
            outcome = "bid_over"
        elif bidding.total() == TARGET[n]:
            outcome = "success"
        elif passes >= PASSES:
            outcome = "three_passes"
        elif bidding.stuck():
            outcome = "stuck"
        elif i + 1 >= ROUNDS * n:
            outcome = "bid_short"
        if outcome is not None:
            if i + 1 != len(turns):
                checker.add(
                    "deal_over",
                    join("bidding", i + 1),
                    gettext_noop("the bidding ended (%(outcome)s)"),
                    outcome=outcome,
                )
                return None
            return outcome
    checker.add(
        "deal_not_over",
        "bidding",
        gettext_noop("the bids make %(value)s of %(target)s: the bidding goes on"),
        value=bidding.total(),
        target=TARGET[n],
    )
    return None


def _trick(
    item: Any,
    path: str,
    players: list[str],
    leader: str,
    hands: dict[str, list[Card]],
    checker: Checker,
) -> tuple[str | None, Suit | None]:
    trick = checker.typed(item, dict, path)
    plays = (
        None
        if trick is None
        else checker.typed(checker.require(trick, "plays", path), list, join(path, "plays"))
    )
    if plays is None:
        return None, None
    if len(plays) != len(players):
        checker.add(
            "wrong_play_count",
            join(path, "plays"),
            gettext_noop("every one of the %(n_players)s players plays once"),
            n_players=len(players),
        )
        return None, None
    led: Suit | None = None
    best = -1
    winner = leader
    for k, raw in enumerate(plays):
        ppath = join(join(path, "plays"), k)
        who = after(players, leader, k)
        play = play_object(raw, ppath, players, who, checker)
        card = None if play is None else one_card(play, ppath, checker)
        if card is None:
            return None, None
        if k == 0:
            led = card.suit
        elif card.suit != led and any(c.suit == led for c in hands[who]):
            checker.add(
                "revoke",
                join(ppath, "card"),
                gettext_noop("%(who)s must follow %(value)s"),
                who=who,
                value=SUIT_NAME[led] if led else "",
            )
            return None, None
        if not take(hands[who], [card], who, join(ppath, "card"), checker):
            return None, None
        if card.suit == led and card.strength > best:
            best, winner = card.strength, who
    return winner, led


def random_deal(rng: random.Random, players: list[str], deals_by: str) -> dict[str, Any]:
    """A full-play record of one game: random legal bids, then random legal tricks."""
    n = len(players)
    order = [after(players, deals_by, k) for k in range(n)]
    pack = [code for code, k in trick_deck(n).items() for _ in range(k)]
    rng.shuffle(pack)
    hands: dict[str, list[Card]] = {}
    start = deals_by if n == 5 else after(players, deals_by)
    deal_order = [after(players, start, k) for k in range(n)]
    for i, code in enumerate(pack):
        hands.setdefault(deal_order[i % n], []).append(BY_CODE[code])
    bidding = Bidding(players)
    turns: list[dict[str, Any]] = []
    outcome: str | None = None
    for i in range(ROUNDS * n):
        who = order[i % n]
        room = TARGET[n] - bidding.total()
        fits = [
            c
            for c in bidding.table
            if bidding.can_take(who, c) and bidding.increment(who, c) <= room
        ]
        if fits and rng.random() < 0.85:
            card = rng.choice(fits)
            suit = card.suit or rng.choice(list(Suit))
            turn: dict[str, Any] = {"player": who, "card": card.code}
            if card.suit is None:
                turn["suit"] = SUIT_NAME[suit]
            bidding.take(who, card, suit)
        else:
            turn = {"player": who, "pass": True}
        turns.append(turn)
        outcome = _bid(turns, order, Bidding(players), Checker())  # the bidding so far, replayed
        if outcome is not None:
            break
    record: dict[str, Any] = {
        "game": "comrade",
        "players": list(players),
        "dealer": deals_by,
        "hands": {p: [c.code for c in hands[p]] for p in players},
        "bidding": turns,
    }
    tricks: list[dict[str, Any]] = []
    if outcome == "success":
        leader = deals_by
        won: dict[str, dict[Suit, int]] = {p: {} for p in players}
        for _ in range(TARGET[n]):
            plays = []
            led: Suit | None = None
            best, winner = -1, leader
            for k in range(n):
                who = after(players, leader, k)
                suited = [c for c in hands[who] if c.suit == led]
                card = rng.choice(suited or hands[who])
                hands[who].remove(card)
                if k == 0:
                    led = card.suit
                if card.suit == led and card.strength > best:
                    best, winner = card.strength, who
                plays.append({"player": who, "card": card.code})
            tricks.append({"plays": plays})
            assert led is not None
            won[winner][led] = won[winner].get(led, 0) + 1
            leader = winner
            if won[winner][led] > bidding.bids[winner].get(led, 0):
                break
    record["tricks"] = tricks
    return record
