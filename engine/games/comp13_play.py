"""Comp-13: replaying a deal move by move, and random legal deals.

The full-play record (docs/deal-records.md, "Comp-13 full play") gives the four
cards dealt to each player and the stock from the top; ``players`` follows the
order of play.  The provisional dealer (仮親) turns up the fields: field A lies
in front of them, B in front of the next player, and so on around the table
(「山札から1枚めくって仮親の前に置きます」, B 「左隣り、下手の人の前」, C 「仮親の
対面」).  The 仮親 is ``provisional_dealer``, by default ``players[0]``; in a
match every deal after the first inherits the last deal's winner
(「次の回は、今回の勝者を仮親として親決めより始める」, :class:`Comp13Match
<engine.games.comp13.Comp13Match>`).

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
refill emptied it.  A deal that is 流れ before a 親 is found (four kings turned,
no 裏札 held) has no 親: its last tie-break runs from ``players[0]``, as a summary
without ``dealer`` does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.games.comp13_table import (
    COMP,
    FIELD_LIMIT,
    FIELDS,
    HAND_SIZE,
    MOVE_KEYS,
    TABLE_LIMIT,
    Deal,
    MoveError,
    rank,
)
from engine.problems import Checker, gettext_noop, join

# -- replay --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    dealer: str | None
    order_from_dealer: list[str]
    captured: dict[str, list[Card]]
    hand_faces: dict[str, list[Card]]
    ended: str


def replay_comp13(
    record: Mapping[str, Any],
    players: list[str],
    deck: Mapping[str, int],
    checker: Checker,
    provisional: str,
) -> Replayed | None:
    """Replay a full-play record whose 親決め the player ``provisional`` (the 仮親) starts."""
    hands = checker.dealt_hands(record, players, HAND_SIZE)
    stock = checker.cards(checker.require(record, "stock"), "stock")
    moves = checker.typed(checker.require(record, "moves"), list, "moves")
    if hands is None or stock is None or moves is None or not checker.ok:
        return None
    placed = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    placed += [(join("stock", i), c) for i, c in enumerate(stock)]
    checker.deck_counts(placed, deck)
    if checker.ok and len(placed) != sum(deck.values()):
        checker.add(
            "incomplete_deck",
            "stock",
            gettext_noop("the hands and the stock are not the whole deck"),
        )
    dealer_card = (
        checker.card(record["dealer_card"], "dealer_card") if "dealer_card" in record else None
    )
    if not checker.ok:
        return None

    deal = Deal(
        players=list(players),
        hands={p: list(hands[p]) for p in players},
        stock=list(stock),
        captured={p: [] for p in players},
        provisional=players.index(provisional),
    )
    try:
        deal.choose_dealer(dealer_card)
    except MoveError as exc:
        checker.add(exc.code, exc.where, exc.template, **exc.params)
        return None
    if dealer_card is not None and deal.fields[3] != [dealer_card]:
        checker.add(
            "not_applicable",
            "dealer_card",
            gettext_noop("the dealer lays no card: field D came from the stock"),
        )
        return None
    for m, move in enumerate(moves):
        path = join("moves", m)
        if deal.over:
            checker.add(
                "deal_over",
                path,
                gettext_noop("the deal was over (%(over)s) before this move"),
                over=deal.over,
            )
            return None
        if not _move(deal, players, move, path, checker):
            return None
    if not deal.over:
        checker.add(
            "deal_not_over",
            "moves",
            gettext_noop("the moves end before the stock is empty or the deal is 流れ"),
        )
        return None
    # 流れ at the 親決め finds no 親: ties then rank from players[0], as in a summary
    # without ``dealer`` (engine/games/comp13.py)
    start = players.index(deal.dealer or players[0])
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
        checker.add(
            "wrong_order",
            join(path, "player"),
            gettext_noop("it is %(expected)s's move, not %(player)s's"),
            expected=expected,
            player=player,
        )
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
                gettext_noop("a draw takes the top of the stock and nothing else"),
            )
    if not checker.ok:
        return False
    try:
        deal.play(player, move, card, take, target, capture)
    except MoveError as exc:
        checker.add(
            exc.code, join(path, exc.where) if exc.where else path, exc.template, **exc.params
        )
        return False
    deal.turn = (deal.turn + 1) % len(players)
    return True


def _field(value: Any, path: str, checker: Checker, *, required: bool) -> int | None:
    if value in tuple(FIELDS):
        return FIELDS.index(value)
    checker.add(
        "unknown_field",
        path,
        gettext_noop("%(value)s is not a field (A, B, C or D)"),
        value=repr(value),
    )
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
                            moves.append(
                                {
                                    "play": "exchange",
                                    "field": FIELDS[i],
                                    "card": card.code,
                                    "take": [t.code, u.code],
                                }
                            )
    return moves


def random_comp13_deal(
    players: list[str],
    deck: Mapping[str, int],
    rng: random.Random,
    jokers: int = 0,
    provisional: str | None = None,
) -> dict[str, Any]:
    """A complete, legal full-play record: players make a random play, or draw.
    ``provisional``: the 仮親 who starts the 親決め (named in the record; by default
    ``players[0]``, not named)."""
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
    if provisional is not None:
        record["provisional_dealer"] = provisional
    seat = players.index(provisional) if provisional is not None else 0
    deal = Deal(
        players=list(players),
        hands={p: list(hands[p]) for p in players},
        stock=list(stock),
        captured={p: [] for p in players},
        provisional=seat,
    )
    probe = Deal(
        players=list(players),
        hands={p: list(hands[p]) for p in players},
        stock=list(stock),
        captured={p: [] for p in players},
        provisional=seat,
    )
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
