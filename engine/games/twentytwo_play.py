"""Twenty-Two: replaying a deal's exchange and tricks, and random legal deals.

The rules and the match are :mod:`engine.games.twentytwo`; this module replays
a full-play record (the exchange round, every trick, the last trick played all
at once) and plays random legal deals for it.  It does not import the game
module, which imports it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import BY_CODE, Card, standard_deck
from engine.games.common import after, play_object, plays_once, take
from engine.problems import Checker, gettext_noop, join

FIRST_HAND = 7
"""Cards dealt in the first deal of a match (later deals: the last penalty)."""


def replay(
    record: Mapping[str, Any],
    players: list[str],
    deals_by: str,
    hand_size: int,
    deck: Mapping[str, int],
    checker: Checker,
) -> tuple[dict[str, Card], list[str]] | None:
    """Replay the exchange and the tricks; the last trick's cards and each trick's winner."""
    hands = checker.dealt_hands(record, players, hand_size)
    stock = checker.cards(checker.require(record, "stock"), "stock")
    if hands is None or stock is None:
        return None
    placed = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    placed += [(join("stock", i), c) for i, c in enumerate(stock)]
    checker.deck_counts(placed, deck)
    if not checker.ok:
        return None
    _exchange(record, players, deals_by, hands, list(stock), checker)
    if not checker.ok:
        return None
    winners = _tricks(record, players, after(players, deals_by), hands, checker)
    if winners is None:
        return None
    return {p: hands[p][0] for p in players}, winners


def _exchange(
    record: Mapping[str, Any],
    players: list[str],
    deals_by: str,
    hands: dict[str, list[Card]],
    stock: list[Card],
    checker: Checker,
) -> None:
    """The exchange round: from the dealer's left, each once at most, draws from the top."""
    raw = checker.typed(record.get("exchanges", []), list, "exchanges")
    if raw is None:
        return
    order = [after(players, deals_by, k) for k in range(1, len(players) + 1)]
    position = 0
    for i, item in enumerate(raw):
        path = join("exchanges", i)
        play = play_object(item, path, players, None, checker)
        if play is None:
            continue
        checker.known_keys(play, ("player", "discard", "draw"), path)
        who = str(play["player"])
        if order.index(who) < position:
            checker.add(
                "wrong_order",
                join(path, "player"),
                gettext_noop("the exchange goes once round from the dealer's left"),
            )
            continue
        position = order.index(who) + 1
        discard = checker.cards(play.get("discard", []), join(path, "discard"))
        draw = checker.cards(play.get("draw", []), join(path, "draw"))
        if discard is None or draw is None:
            continue
        if len(discard) > len(stock):
            checker.add(
                "stock_exhausted",
                join(path, "discard"),
                gettext_noop("the stock holds only %(n_stock)s card(s)"),
                n_stock=len(stock),
            )
            continue
        if len(draw) != len(discard):
            checker.add(
                "wrong_card_count",
                join(path, "draw"),
                gettext_noop("draws as many cards as discarded (%(n_discard)s)"),
                n_discard=len(discard),
            )
            continue
        if [c.code for c in draw] != [c.code for c in stock[: len(draw)]]:
            top = ", ".join(c.code for c in stock[: len(draw)])
            checker.add(
                "wrong_draw",
                join(path, "draw"),
                gettext_noop("the top of the stock is %(top)s"),
                top=top,
            )
            continue
        if take(hands[who], discard, who, join(path, "discard"), checker):
            hands[who].extend(draw)
            del stock[: len(draw)]


def _tricks(
    record: Mapping[str, Any],
    players: list[str],
    leader: str,
    hands: dict[str, list[Card]],
    checker: Checker,
) -> list[str] | None:
    tricks = checker.typed(checker.require(record, "tricks"), list, "tricks")
    if tricks is None:
        return None
    winners: list[str] = []
    n = len(players)
    for t, raw in enumerate(tricks):
        path = join("tricks", t)
        if len(hands[leader]) <= 1:
            checker.add(
                "wrong_trick_count",
                path,
                gettext_noop(
                    "every hand is down to one card: the last trick is played at once and not listed"
                ),
            )
            return None
        trick = checker.typed(raw, dict, path)
        plays = (
            None
            if trick is None
            else checker.typed(checker.require(trick, "plays", path), list, join(path, "plays"))
        )
        if plays is None:
            return None
        if not plays_once(plays, path, n, checker):
            return None
        winner = _trick(plays, join(path, "plays"), players, leader, hands, checker)
        if winner is None:
            return None
        winners.append(winner)
        leader = winner
    if len(hands[leader]) != 1:
        checker.add(
            "wrong_trick_count",
            "tricks",
            gettext_noop("the hands still hold %(n_items)s cards: play on until one is left"),
            n_items=len(hands[leader]),
        )
        return None
    return winners


def _trick(
    plays: list[Any],
    path: str,
    players: list[str],
    leader: str,
    hands: dict[str, list[Card]],
    checker: Checker,
) -> str | None:
    standing: list[int] = []
    best = -1
    winner = leader
    count = 0
    for k, raw in enumerate(plays):
        ppath = join(path, k)
        play = play_object(raw, ppath, players, after(players, leader, k), checker)
        if play is None:
            return None
        who = str(play["player"])
        cards = checker.cards(checker.require(play, "cards", ppath), join(ppath, "cards"))
        if cards is None:
            return None
        hand = hands[who]
        ranks = sorted((c.strength for c in cards), reverse=True)
        if k == 0:
            count = len(cards)
            if not cards or len(set(ranks)) != 1:
                checker.add(
                    "illegal_lead",
                    join(ppath, "cards"),
                    gettext_noop("a lead is one card or a set of cards of one rank"),
                )
                return None
            if count >= len(hand):
                checker.add(
                    "illegal_lead",
                    join(ppath, "cards"),
                    gettext_noop("a set lead leaves at least one card in hand"),
                )
                return None
            beats = True
        else:
            if len(cards) != count:
                checker.add(
                    "wrong_card_count",
                    join(ppath, "cards"),
                    gettext_noop("a follow has as many cards as the lead (%(count)s)"),
                    count=count,
                )
                return None
            beats = all(mine >= theirs for mine, theirs in zip(ranks, standing, strict=True))
            lowest = sorted(c.strength for c in hand)[:count]
            if not beats and sorted(ranks) != lowest:
                need = ", ".join(_rank_name(s) for s in standing)
                low = ", ".join(_rank_name(s) for s in lowest)
                checker.add(
                    "illegal_follow",
                    join(ppath, "cards"),
                    gettext_noop(
                        "meet or beat %(need)s card by card, or else play the lowest cards in hand (%(low)s)"
                    ),
                    need=need,
                    low=low,
                )
                return None
        if not take(hand, cards, who, join(ppath, "cards"), checker):
            return None
        if beats:
            standing = ranks
        if ranks[0] >= best:
            best, winner = ranks[0], who
    return winner


_NAMES = {14: "A", 13: "K", 12: "Q", 11: "J"}


def _rank_name(strength: int) -> str:
    return _NAMES.get(strength, str(strength))


def card_codes(cards: Mapping[str, Card]) -> dict[str, str]:
    return {p: c.code for p, c in cards.items()}


# -- random legal play (tests, demo data) ------------------------------------------------


def random_deal(
    rng: random.Random,
    players: list[str],
    deals_by: str,
    hand_size: int = FIRST_HAND,
    decks: int = 1,
    removed: list[str] | None = None,
) -> dict[str, Any]:
    """A full-play record of one deal played by random legal choices."""
    pack = [code for code, n in standard_deck(copies=decks).items() for _ in range(n)]
    for code in removed or []:
        pack.remove(code)
    rng.shuffle(pack)
    hands = {
        p: [BY_CODE[c] for c in pack[i * hand_size : (i + 1) * hand_size]]
        for i, p in enumerate(players)
    }
    stock = pack[len(players) * hand_size :]
    record: dict[str, Any] = {
        "game": "twentytwo",
        "players": list(players),
        "dealer": deals_by,
        "hand_size": hand_size,
        "decks": decks,
        "hands": {p: [c.code for c in h] for p, h in hands.items()},
        "stock": list(stock),
    }
    exchanges = []
    top = 0
    for k in range(1, len(players) + 1):
        who = after(players, deals_by, k)
        n = rng.randint(0, min(hand_size, len(stock) - top)) if rng.random() < 0.6 else 0
        if n:
            discard = rng.sample(hands[who], n)
            for card in discard:
                hands[who].remove(card)
            draw = stock[top : top + n]
            top += n
            hands[who].extend(BY_CODE[c] for c in draw)
            exchanges.append({"player": who, "discard": [c.code for c in discard], "draw": draw})
    record["exchanges"] = exchanges
    tricks = []
    leader = after(players, deals_by)
    while len(hands[leader]) > 1:
        plays = []
        hand = hands[leader]
        card = rng.choice(hand)
        same = [c for c in hand if c.strength == card.strength]
        count = rng.randint(1, min(len(same), len(hand) - 1))
        lead = same[:count]
        standing = sorted((c.strength for c in lead), reverse=True)
        best, winner = standing[0], leader
        plays.append({"player": leader, "cards": [c.code for c in lead]})
        for c in lead:
            hand.remove(c)
        for k in range(1, len(players)):
            who = after(players, leader, k)
            hand = hands[who]
            chosen = sorted(hand, key=lambda c: c.strength)[:count]
            for _ in range(4):
                pick = rng.sample(hand, count)
                ranks = sorted((c.strength for c in pick), reverse=True)
                if all(a >= b for a, b in zip(ranks, standing, strict=True)):
                    chosen = pick
                    break
            ranks = sorted((c.strength for c in chosen), reverse=True)
            if all(a >= b for a, b in zip(ranks, standing, strict=True)):
                standing = ranks
            if ranks[0] >= best:
                best, winner = ranks[0], who
            for c in chosen:
                hand.remove(c)
            plays.append({"player": who, "cards": [c.code for c in chosen]})
        tricks.append({"plays": plays})
        leader = winner
    record["tricks"] = tricks
    return record
