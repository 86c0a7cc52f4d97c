"""Random legal Napoleon and Rettler deals, as full-play records.

Deterministic for a given ``random.Random``: used by the property tests (every
deal it makes must replay without an error) and by generators of demo and
benchmark data.  Players play a random legal card; they are not trying to win.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import Card, Suit
from engine.games.declarer import TRUMPS, DeclarerGame
from engine.games.tricks import TrickContext, Trump, legal_cards, trick_winner

SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
              Suit.CLUBS: "clubs"}  # fmt: skip


def random_full_deal(
    game: DeclarerGame, players: list[str], rng: random.Random, *, adjutants: int | None = None
) -> dict[str, Any]:
    """A complete, legal full-play record for ``players``."""
    n = len(players)
    deck = [Card(code) for code, copies in sorted(game.deck().items()) for _ in range(copies)]
    rng.shuffle(deck)
    size = game.hand_size(n)
    hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(players)}
    widow = deck[n * size :]

    declarer = rng.choice(players)
    allowed = adjutants if adjutants is not None else rng.choice(game.adjutant_choices(n))
    count = rng.randint(game.minimum_count(n, allowed), game.point_cards_total)
    trump = rng.choice(TRUMPS)
    own = {c.code for c in hands[declarer]}
    # Name cards the declarer does not hold, never more possible adjutants than allowed.
    candidates = sorted({c.code for c in deck if c.code not in own})
    named: list[str] = []
    possible = 0
    for code in rng.sample(candidates, len(candidates)):
        copies = game.deck()[code]
        if possible + copies <= allowed and len(named) < allowed:
            named.append(code)
            possible += copies
    pool = hands[declarer] + widow
    discards = rng.sample(pool, len(widow))
    in_play = {p: list(hands[p]) for p in players}
    remaining = list(pool)
    for card in discards:
        remaining.remove(card)
    in_play[declarer] = remaining

    tricks = []
    leader = declarer
    the_trump = Trump(trump)
    for t in range(size):
        order = players[players.index(leader) :] + players[: players.index(leader)]
        played: list[Card] = []
        plays: list[dict[str, Any]] = []
        named_suit = None
        ctx = TrickContext(
            the_trump, first=t == 0, last=t == size - 1, rettler=game.name == "rettler"
        )
        for who in order:
            legal, _rule = legal_cards(in_play[who], played[0] if played else None, ctx)
            card = rng.choice(legal)
            play: dict[str, Any] = {"player": who, "cards": [card.code]}
            if not played and card.is_joker and the_trump.notrump:
                named_suit = rng.choice(list(Suit))
                play["suit"] = SUIT_NAMES[named_suit]
                ctx = TrickContext(the_trump, ctx.first, ctx.last, ctx.rettler, named=named_suit)
            in_play[who].remove(card)
            played.append(card)
            plays.append(play)
        tricks.append({"plays": plays})
        leader = order[trick_winner(played, ctx)]

    declaration: dict[str, Any] = {"player": declarer, "count": count, "trump": trump}
    if len(game.adjutant_choices(n)) > 1:
        declaration["adjutants"] = allowed
    return {
        "game": game.name,
        "players": list(players),
        "hands": {p: [c.code for c in hands[p]] for p in players},
        "widow": [c.code for c in widow],
        "declaration": declaration,
        "adjutant_cards": named,
        "discards": [c.code for c in discards],
        "tricks": tricks,
    }
