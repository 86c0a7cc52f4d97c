"""Random legal Napoleon and Rettler deals, as full-play records.

Deterministic for a given ``random.Random``: used by the property tests (every
deal it makes must replay without an error) and by generators of demo and
benchmark data.  Players play a random legal card; they are not trying to win.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.cards import Card, Suit
from engine.games.declarations import TRUMPS
from engine.games.follow import random_legal_play
from engine.games.leads import Lead, LeadKind, classify_lead, duty_for, resolve
from engine.games.replay import DeclarerRules
from engine.games.tricks import TRUMP_SUIT, TrickContext, Trump

SUIT_NAMES = {suit: name for name, suit in TRUMP_SUIT.items()}


class DealingRules(DeclarerRules, Protocol):
    """What a random deal reads of :class:`~engine.games.declarer.DeclarerGame` besides
    what the replay reads (this module is below the game module, whose ``random_deal``
    calls it: it does not import it)."""

    @property
    def point_cards_total(self) -> int: ...

    def adjutant_choices(self, players: int) -> tuple[int, ...]: ...

    def minimum_count(self, players: int, adjutants: int) -> int: ...


def random_full_deal(
    game: DealingRules,
    players: list[str],
    rng: random.Random,
    *,
    adjutants: int | None = None,
    trump: str | None = None,
    declarer_cards: Sequence[str] = (),
) -> dict[str, Any]:
    """A complete, legal full-play record for ``players``.

    ``declarer_cards`` are dealt to the first player, who then declares (to set
    up a pair or a 原爆); otherwise the declarer and the trump are random.
    """
    n = len(players)
    deck = [Card(code) for code, copies in sorted(game.deck().items()) for _ in range(copies)]
    rng.shuffle(deck)
    forced = [Card(code) for code in declarer_cards]
    for card in forced:
        deck.remove(card)
    deck = forced + deck
    size = game.hand_size(n)
    hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(players)}
    widow = deck[n * size :]

    declarer = players[0] if declarer_cards else rng.choice(players)
    allowed = adjutants if adjutants is not None else rng.choice(game.adjutant_choices(n))
    count = rng.randint(game.minimum_count(n, allowed), game.point_cards_total)
    trump = trump or rng.choice(TRUMPS)
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
    discardable = list(pool)
    for code in declarer_cards:  # keep the cards the caller set up
        discardable.remove(Card(code))
    discards = rng.sample(discardable, len(widow))
    in_play = {p: list(hands[p]) for p in players}
    remaining = list(pool)
    for card in discards:
        remaining.remove(card)
    in_play[declarer] = remaining

    tricks = []
    leader = declarer
    the_trump = Trump(trump)
    rettler = game.name == "rettler"
    point_call = False
    t = 0
    while in_play[leader]:
        order = players[players.index(leader) :] + players[: players.index(leader)]
        lead, ctx, named_suit = _choose_lead(
            in_play[leader], the_trump, t, rettler, point_call, n, rng
        )
        plays: list[dict[str, Any]] = [{"player": leader, "cards": [c.code for c in lead.cards]}]
        if named_suit is not None:
            plays[0]["suit"] = SUIT_NAMES[named_suit]
        duty = duty_for(lead, ctx)
        played = [list(lead.cards)]
        for who in order[1:]:
            cards = random_legal_play(in_play[who], lead.size, duty, rng)
            plays.append({"player": who, "cards": [c.code for c in cards]})
            played.append(cards)
        for who, cards in zip(order, played, strict=True):
            for card in cards:
                in_play[who].remove(card)
        tricks.append({"plays": plays})
        outcome = resolve(played, lead, ctx)
        leader = order[outcome.winner]
        point_call = outcome.little
        t += 1

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


def _choose_lead(
    hand: list[Card],
    trump: Trump,
    t: int,
    rettler: bool,
    point_call: bool,
    n: int,
    rng: random.Random,
) -> tuple[Lead, TrickContext, Suit | None]:
    """A random legal lead: now and then a pair or a 原爆 where the hand allows one."""
    named = rng.choice(list(Suit)) if trump.notrump else None
    singles: list[list[Card]] = [[c] for c in hand]
    rng.shuffle(singles)
    preferred: list[list[Card]] = []
    if rettler:
        codes = sorted({c.code for c in hand if sum(1 for d in hand if d.code == c.code) >= 2})
        jacks = [c for c in hand if c.rank == trump.jack_rank]
        if len(jacks) >= 5 and rng.random() < 0.7:
            preferred.append(jacks)
        if codes and rng.random() < 0.4:
            preferred += [[Card(code), Card(code)] for code in rng.sample(codes, len(codes))]
    options = [*preferred, *singles, hand]  # the whole hand: a last pair of bridges
    for cards in options:
        ctx = TrickContext(
            trump,
            first=t == 0,
            last=len(cards) == len(hand),
            rettler=rettler,
            named=named,
            point_call=point_call,
        )
        lead = classify_lead(cards, ctx, n)
        if isinstance(lead, Lead):
            names = cards[0].is_joker or lead.kind == LeadKind.BOMB
            if not (names and trump.notrump):
                ctx = TrickContext(trump, ctx.first, ctx.last, rettler, None, point_call)
            return lead, ctx, ctx.named
    raise AssertionError("a hand always has a legal lead")  # pragma: no cover
