"""1234: which cards make a play or a pass, replaying a game turn by turn (a full-play
record), and random legal games; the rules of a game record, its scoring and a match
are in ``engine.games.onetwothreefour``."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.cards import BY_CODE, Card, standard_deck
from engine.games.common import after, play_object, take
from engine.problems import Checker, gettext_noop, join

HAND = 5
DRAW = 3
FACES = frozenset({"J", "Q", "K"})


def value(card: Card) -> int:
    """A 1, 2–10 face value, J 11, Q 12, K 13."""
    return 1 if card.rank == "A" else card.strength


def is_pass(cards: Sequence[Card]) -> bool:
    """The five pass combinations of the rulebook."""
    ranks = Counter(c.rank for c in cards)
    if len(cards) == 1:
        return cards[0].rank == "A"
    if len(cards) == 3:
        faces = [c for c in cards if c.rank in FACES]
        numbers = [c for c in cards if c.rank not in FACES]
        if len(faces) == 1 and len(numbers) == 2 and numbers[0].rank == numbers[1].rank:
            return True
        return len({c.suit for c in cards}) == 1 or len(ranks) == 1
    if len(cards) == 4:
        return all(r not in FACES for r in ranks) and all(n % 2 == 0 for n in ranks.values())
    return False


def subsets(hand: Sequence[Card]) -> Iterator[list[Card]]:
    """Every non-empty set of cards of ``hand``, smallest first."""
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            yield list(combo)


def options(hand: Sequence[Card], last: int) -> tuple[list[list[Card]], list[list[Card]]]:
    """Every play and every pass a hand allows after the number ``last``."""
    plays: list[list[Card]] = []
    passes: list[list[Card]] = []
    for cards in subsets(hand):
        if last < sum(value(c) for c in cards) <= last + 4:
            plays.append(cards)
        if is_pass(cards):
            passes.append(cards)
    return plays, passes


def best_hand(hands: Mapping[str, Sequence[Card]], order: Sequence[str]) -> str:
    """The stock ending: the highest card, then the next highest…; ties to the first in ``order``."""
    return max(
        order, key=lambda p: (sorted((value(c) for c in hands[p]), reverse=True), -order.index(p))
    )


def replay(
    record: Mapping[str, Any], players: list[str], first: str, checker: Checker
) -> tuple[dict[str, list[Card]], list[str], str, str] | None:
    """Replay every turn: (hands at the end, drop-outs in order, winner, how it ended)."""
    hands = checker.dealt_hands(record, players, HAND)
    start = checker.card(checker.require(record, "start"), "start")
    stock = checker.cards(checker.require(record, "stock"), "stock")
    turns = checker.typed(checker.require(record, "turns"), list, "turns")
    if hands is None or start is None or stock is None or turns is None:
        return None
    placed = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    placed += [("start", start)] + [(join("stock", i), c) for i, c in enumerate(stock)]
    checker.deck_counts(placed, standard_deck())
    if not checker.ok:
        return None
    if len(placed) != 52:
        checker.add(
            "incomplete_deck",
            "stock",
            gettext_noop("hands, start card and stock hold %(n_placed)s cards, not 52"),
            n_placed=len(placed),
        )
        return None
    last = value(start)
    dropped: list[str] = []
    turn = first
    ended = ""
    for i, raw in enumerate(turns):
        path = join("turns", i)
        if ended:
            checker.add("deal_over", path, gettext_noop("the game was over before this turn"))
            return None
        play = play_object(raw, path, players, turn, checker)
        if play is None:
            return None
        checker.known_keys(play, ("player", "play", "pass", "drop"), path)
        kinds = [k for k in ("play", "pass", "drop") if k in play]
        if len(kinds) != 1:
            checker.add(
                "unknown_play", path, gettext_noop("a turn is exactly one of play, pass or drop")
            )
            return None
        hand = hands[turn]
        plays, passes = options(hand, last)
        if kinds[0] == "drop":
            if plays or passes:
                shown = " ".join(c.code for c in (plays or passes)[0])
                checker.add(
                    "could_play",
                    path,
                    gettext_noop("%(turn)s cannot drop out: %(shown)s is a legal %(value)s"),
                    turn=turn,
                    shown=shown,
                    value=gettext_noop("play") if plays else gettext_noop("pass"),
                )
                return None
            dropped.append(turn)
        else:
            cards = checker.cards(play[kinds[0]], join(path, kinds[0]))
            if cards is None or not cards:
                if cards is not None:
                    checker.add(
                        "wrong_card_count", join(path, kinds[0]), gettext_noop("at least one card")
                    )
                return None
            if not take(hand, cards, turn, join(path, kinds[0]), checker):
                return None
            if kinds[0] == "play":
                total = sum(value(c) for c in cards)
                if not last < total <= last + 4:
                    checker.add(
                        "illegal_play",
                        join(path, "play"),
                        gettext_noop(
                            "adds up to %(total)s; this turn needs %(number)s to %(number2)s"
                        ),
                        total=total,
                        number=last + 1,
                        number2=last + 4,
                    )
                    return None
                last = total
            elif not is_pass(cards):
                checker.add(
                    "illegal_pass",
                    join(path, "pass"),
                    gettext_noop(
                        "a pass is one ace, a pair of number cards with a face card, three of a suit, three of a rank, or two pairs of number cards"
                    ),
                )
                return None
            need = min(DRAW, HAND - len(hand))
            hand.extend(stock[:need])
            del stock[:need]
            if not stock:
                ended = "stock"
        left = [p for p in players if p not in dropped]
        if len(left) == 1:
            ended = "last_player"
        else:
            turn = after(players, turn)
            while turn in dropped:
                turn = after(players, turn)
    if not ended:
        checker.add(
            "deal_not_over",
            "turns",
            gettext_noop("the game goes on: it is %(turn)s's turn"),
            turn=turn,
        )
        return None
    left = [p for p in players if p not in dropped]
    order = [after(players, first, k) for k in range(len(players))]
    winner = left[0] if len(left) == 1 else best_hand(hands, [p for p in order if p in left])
    return hands, dropped, winner, ended


# -- random legal play (tests, demo data) ------------------------------------------------


def random_deal(rng: random.Random, players: list[str], deals_by: str) -> dict[str, Any]:
    """A full-play record of one game played by random legal choices."""
    pack = list(standard_deck())
    rng.shuffle(pack)
    n = len(players)
    hands = {
        p: [BY_CODE[c] for c in pack[i * HAND : (i + 1) * HAND]] for i, p in enumerate(players)
    }
    start = pack[n * HAND]
    stock = pack[n * HAND + 1 :]
    record: dict[str, Any] = {
        "game": "1234",
        "players": list(players),
        "dealer": deals_by,
        "hands": {p: [c.code for c in h] for p, h in hands.items()},
        "start": start,
        "stock": list(stock),
    }
    last = value(BY_CODE[start])
    turns: list[dict[str, Any]] = []
    dropped: list[str] = []
    turn = after(players, deals_by)
    top = 0
    while True:
        plays, passes = options(hands[turn], last)
        if not plays and not passes:
            turns.append({"player": turn, "drop": True})
            dropped.append(turn)
            if len(dropped) == n - 1:
                break
        else:
            kind = "play" if plays and (not passes or rng.random() < 0.8) else "pass"
            cards = rng.choice(plays if kind == "play" else passes)
            if kind == "play":
                last = sum(value(c) for c in cards)
            for c in cards:
                hands[turn].remove(c)
            need = min(DRAW, HAND - len(hands[turn]))
            hands[turn].extend(BY_CODE[c] for c in stock[top : top + need])
            top += need
            turns.append({"player": turn, kind: [c.code for c in cards]})
            if top >= len(stock):
                break
        turn = after(players, turn)
        while turn in dropped:
            turn = after(players, turn)
    record["turns"] = turns
    return record
