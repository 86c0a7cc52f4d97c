"""Packing: random legal full-play deals, for the demo club, the tests and the benchmarks.

Each turn is played by the rules that :func:`engine.games.packing_play.replay_packing`
checks: the drawn card goes to the table or to the hand; with a pack possible the
player packs (always when all four suits are on the table, otherwise now and then),
then now and then steals one other player's pack of another suit with the smallest
hand cards that beat it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from engine.cards import Card, Suit
from engine.games.packing_play import (
    HAND_SIZE,
    TABLE_SIZE,
    Table,
    hand_value,
    play_value,
)


def random_packing_deal(
    players: list[str],
    deck: Mapping[str, int],
    rng: random.Random,
    teams: list[list[str]] | None = None,
    dealer: str | None = None,
) -> dict[str, Any]:
    """A complete, legal full-play record: players pack and steal when they can, now and then.
    ``dealer``: who deals (named in the record; by default the last of ``players``, not
    named); the turns start at their left."""
    cards = [Card(code) for code, copies in sorted(deck.items()) for _ in range(copies)]
    rng.shuffle(cards)
    n = len(players)
    hands = {p: cards[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(players)}
    table = cards[n * HAND_SIZE : n * HAND_SIZE + TABLE_SIZE]
    stock = cards[n * HAND_SIZE + TABLE_SIZE :]
    state = Table(
        hands={p: Counter(c.code for c in hands[p]) for p in players},
        table=list(table),
        stock=list(stock),
        packs={p: [] for p in players},
    )
    turns = []
    first = players.index(dealer) + 1 if dealer is not None else 0
    for t in range(len(stock)):
        who = players[(first + t) % n]
        turn: dict[str, Any] = {"player": who}
        four = len(state.suits_on_table() - {None}) == 4
        drawn = state.stock.pop(0)
        if drawn.suit not in state.suits_on_table():
            state.table.append(drawn)
            turns.append(turn)
            continue
        state.hands[who][drawn.code] += 1
        options = _pack_options(state, who)
        if options and (four or rng.random() < 0.8):
            taken, used_cards = rng.choice(options)
            state.table.remove(taken)
            for c in used_cards:
                state.hands[who][c.code] -= 1
            state.packs[who].append([taken, *used_cards])
            turn["pack"] = {"table": taken.code, "hand": [c.code for c in used_cards]}
            steals = []
            used = {taken.suit}
            for victim, indexes, stealing in _steal_options(state, players, who, used, rng):
                stolen = [state.packs[victim][i] for i in indexes]
                suit = stolen[0][0].suit
                if suit in used or any(
                    state.hands[who][c.code] < sum(1 for d in stealing if d == c) for c in stealing
                ):
                    continue
                used.add(suit)
                state.packs[victim] = [
                    p for i, p in enumerate(state.packs[victim]) if i not in indexes
                ]
                for c in stealing:
                    state.hands[who][c.code] -= 1
                state.packs[who].append([c for p in stolen for c in p] + stealing)
                steals.append(
                    {"from": victim, "packs": indexes, "hand": [c.code for c in stealing]}
                )
            if steals:
                turn["steals"] = steals
        turns.append(turn)
    record: dict[str, Any] = {
        "game": "packing",
        "players": list(players),
        "hands": {p: [c.code for c in hands[p]] for p in players},
        "table": [c.code for c in table],
        "stock": [c.code for c in stock],
        "turns": turns,
    }
    if teams:
        record["teams"] = teams
    if dealer is not None:
        record["dealer"] = dealer
    return record


def _pack_options(state: Table, who: str) -> list[tuple[Card, list[Card]]]:
    """Packs of up to three hand cards, or of the whole suit in hand where only that beats
    the table card (the rules set no limit: ``can_pack`` counts every card)."""
    hand = state.cards_in_hand(who)
    options = []
    for taken in state.table:
        same = [c for c in hand if c.suit == taken.suit]
        small = [
            (taken, list(combo))
            for size in range(1, min(3, len(same)) + 1)
            for combo in combinations(same, size)
            if hand_value(combo) > play_value(taken)
        ]
        if not small and hand_value(same) > play_value(taken):
            small = [(taken, same)]
        options += small
    return options


def _steal_options(
    state: Table, players: list[str], who: str, used: set[Suit | None], rng: random.Random
) -> list[tuple[str, list[int], list[Card]]]:
    """A few steals worth trying, one pack at a time, with the smallest winning hand cards."""
    hand = state.cards_in_hand(who)
    found = []
    for victim in players:
        if victim == who:
            continue
        for i, pack in enumerate(state.packs[victim]):
            suit = pack[0].suit
            if suit in used:
                continue
            same = sorted((c for c in hand if c.suit == suit), key=play_value, reverse=True)
            worth = sum(play_value(c) for c in pack)
            for size in range(1, len(same) + 1):
                if hand_value(same[:size]) > worth:
                    found.append((victim, [i], same[:size]))
                    break
    rng.shuffle(found)
    return found[:1] if rng.random() < 0.7 else []
