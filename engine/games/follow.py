"""What a player may play to a trick: the duty to follow and the special obligations.

Every duty is written as *levels* of cards, strongest duty first: a play of ``n``
cards must, for each level, contain as many cards of that level or an earlier
one as the hand can give (up to ``n``).  Examples: following a led suit is one
level (the suit); a joker lead calls the trump, then a point card (2.3.4); a ♠3
lead calls the joker (ジョーカー落とし); a 点札請求 calls point cards of the led
suit, then any point card (3.3.3); a 原爆 calls マイティ (one), then trumps,
then point cards.

Where the bridge (Rettler) may stand in (3.3.3 ブリッジ: a joker lead, a ♠3
lead, a 点札請求, a 原爆, but never for マイティ nor for plain following),
bridges fill the *last* slots of the play: the other cards must meet the duties
for their own number.  On a ♠3 lead the bridge stands in only for the joker, so
only a player who holds a joker may use it (「自分が「ジョーカー」をもっているにも
拘らず出したくない場合」); for anyone else the bridge is a card of no suit, played
only when void in spades (「自分が持っていないスートで回った時に出すことが出来る」).  With a pair ♠3 lead and one joker, a bridge and the joker
is legal, a bridge and a spade keeping the joker is not; two bridges are (the
book's example).

A 原爆返し (as many 2s as the bomb has jacks) is always legal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import BRIDGE, BY_CODE, JOKER, Card, Suit

Predicate = Callable[[Card], bool]


@dataclass(frozen=True)
class Duty:
    """The obligations of the players following one lead."""

    levels: tuple[Predicate, ...] = ()
    bridges_stand_in: bool = False
    bridge_for: str | None = None
    """The card the bridge stands in for when only its holder may use it (♠3: the joker)."""
    mighty_first: bool = False
    """原爆: a player holding マイティ (♠A) plays one of them first."""
    twos_answer: int = 0
    """原爆: a play of this many 2s (原爆返し) is legal whatever the duties."""
    rule: str = "follow"
    """Which rule this is, for error messages: follow, joker_call, give_up_joker,
    point_call or bomb."""

    def bridges_for(self, hand: Counter[str]) -> bool:
        """Whether the bridges in a play from ``hand`` stand in for called cards."""
        return self.bridges_stand_in and (self.bridge_for is None or hand[self.bridge_for] > 0)

    def rule_for(self, hand: Counter[str]) -> str:
        """The rule a play from ``hand`` breaks: a ♠3 lead asks no joker of a hand without one."""
        if self.bridge_for is not None and hand[self.bridge_for] == 0:
            return "follow"
        return self.rule


def _follow(suit: Suit | None) -> Duty:
    return Duty(levels=(lambda c: c.suit == suit,))


_FOLLOW: dict[Suit | None, Duty] = {suit: _follow(suit) for suit in [*Suit, None]}


def follow_suit(suit: Suit | None) -> Duty:
    """Follow the led suit: the commonest duty, made once per suit (duties are immutable)."""
    return _FOLLOW[suit]


def joker_call(called: frozenset[Suit]) -> Duty:
    return Duty(
        levels=(lambda c: c.suit in called, lambda c: c.is_face),
        bridges_stand_in=True,
        rule="joker_call",
    )


def give_up_joker() -> Duty:
    return Duty(
        levels=(lambda c: c.code == JOKER, lambda c: c.code == JOKER or c.suit == Suit.SPADES),
        bridges_stand_in=True,
        bridge_for=JOKER,
        rule="give_up_joker",
    )


def point_call(suits: frozenset[Suit]) -> Duty:
    return Duty(
        levels=(lambda c: c.is_face and c.suit in suits, lambda c: c.is_face),
        bridges_stand_in=True,
        rule="point_call",
    )


def bomb_answer(called: frozenset[Suit], jacks: int) -> Duty:
    return Duty(
        levels=(lambda c: c.suit in called, lambda c: c.is_face),
        bridges_stand_in=True,
        mighty_first=True,
        twos_answer=jacks,
        rule="bomb",
    )


NO_DUTY = Duty()


def _meets(play: list[Card], hand: Counter[str], duty: Duty) -> bool:
    size = len(play)
    for i in range(1, len(duty.levels) + 1):
        level = duty.levels[:i]
        given = sum(1 for c in play if any(p(c) for p in level))
        if given >= size:  # the play is all of this level: nothing more can be asked
            return True
        held = sum(k for code, k in hand.items() if k > 0 and any(p(BY_CODE[code]) for p in level))
        if given < min(size, held):
            return False
    return True


def is_legal(play: Sequence[Card], hand: Counter[str] | Sequence[Card], duty: Duty) -> bool:
    """Whether ``play`` (cards all taken from ``hand``) meets ``duty``.

    ``hand`` is the cards, or their counts by code (as the replay keeps them).
    """
    play = list(play)
    if not isinstance(hand, Counter):
        hand = Counter(c.code for c in hand)
    if duty.twos_answer and len(play) == duty.twos_answer and all(c.rank == "2" for c in play):
        return True
    if duty.mighty_first and hand["SA"] > 0:
        if not any(c.code == "SA" for c in play):
            return False
        play.remove(Card("SA"))
        hand = hand - Counter({"SA": 1})
    if duty.bridges_for(hand):
        play = [c for c in play if c.code != BRIDGE]
    return _meets(play, hand, duty)


def random_legal_play(
    hand: Sequence[Card], size: int, duty: Duty, rng: random.Random
) -> list[Card]:
    """A random play of ``size`` cards from ``hand`` that meets ``duty`` (for simulations)."""
    pool = list(hand)
    fixed: list[Card] = []
    if duty.mighty_first and Card("SA") in pool:
        pool.remove(Card("SA"))
        fixed.append(Card("SA"))
    if duty.bridges_for(Counter(c.code for c in pool)):
        bridges = [c for c in pool if c.code == BRIDGE]
        for bridge in bridges[: rng.randint(0, min(len(bridges), size - len(fixed)))]:
            pool.remove(bridge)
            fixed.append(bridge)
    slots = size - len(fixed)
    core: list[Card] = []
    for i in range(1, len(duty.levels) + 1):
        level = duty.levels[:i]
        matching = [c for c in pool if any(p(c) for p in level)]
        have = sum(1 for c in core if any(p(c) for p in level))
        need = min(slots, have + len(matching)) - have
        for card in rng.sample(matching, need):
            pool.remove(card)
            core.append(card)
    for card in rng.sample(pool, slots - len(core)):
        core.append(card)
    return fixed + core
