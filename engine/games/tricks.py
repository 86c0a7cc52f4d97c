"""Who wins a trick of single cards in Napoleon and Rettler (rulebook 2.3.4, 3.3.3, 3.3.4).

Strength, from the strongest (each step only where the rules make it effective):

1. マイティ (♠A); with よろめき (♡Q) in the same trick the ♡Q wins, with よろめき返し
   (♡K) as well the ♡K wins, and in Rettler with よろめき返し返し (♡A) too the ♡A wins.
2. The joker, only when led (not on the first trick of an ordinary or red/black trump).
3. セイム 2: when every card of the trick is of the led suit, the 2 of that suit; not
   on a ♠3 lead, and in Rettler a second 2 played last wins (セイム 2 返し).  It
   beats the jacks: table 2.2 marks セイム 2 effective from 正ジャック down, and
   appendix A lists "セイム 2 does not work on the jacks" as a local rule.
4. 正ジャック: the jack of a trump suit (the 4 in 囲碁将棋部ノートラ, none in 地学部ノートラ).
5. 裏ジャック: the jack of the trump suit's colour partner (not with red/black).
6. Trump cards by rank (A K Q J 10 … 2).
7. Cards of the led suit by rank; any other card never wins.

With ordinary trumps (a suit, red or black) the first and the last trick know only
step 1 (and the joker on the last trick): trumps, jacks and セイム 2 are void, and a
♠3 lead does not call the joker (:func:`engine.games.leads.duty_for`).  The
no-trump family has no first/last-trick rule; its trump is the led suit (the
suit the leader names on a joker lead).

Equal cards: in Rettler the first played wins (3.3.3).  With red/black the two
trump suits are equal: a trump lead's suit wins, otherwise the first played
(2.3.4, 赤、黒).

Decision (ambiguous in the book): a joker lead that has no effect (first trick of
an ordinary trump) is won as if the trick had been led by the first card after
the joker; so is Rettler's double joker (:func:`engine.games.leads.strength_suit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.cards import BRIDGE, JOKER, SAME_COLOUR, Card, Suit

RANK_ORDER = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6,
              "5": 5, "4": 4, "3": 3, "2": 2}  # fmt: skip

BLACK = frozenset({Suit.SPADES, Suit.CLUBS})
RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})

TRUMP_SUIT = {"spades": Suit.SPADES, "hearts": Suit.HEARTS, "diamonds": Suit.DIAMONDS,
              "clubs": Suit.CLUBS}  # fmt: skip

MIGHTY, YOROMEKI, YOROMEKI_GAESHI, YOROMEKI_GAESHI_GAESHI = "SA", "HQ", "HK", "HA"
JOKER_CALL = "S3"
"""♠3 ジョーカー落とし: leading it obliges the joker's holder to give the joker up."""


@dataclass(frozen=True, slots=True)
class Trump:
    """A declared trump and what it makes of a trick (its facts are worked out once)."""

    name: str
    """The record's value: ``spades`` … ``clubs``, ``red``, ``black``, ``notrump``,
    ``igo-notrump`` or ``chigaku-notrump``."""
    ordinary: bool = field(init=False)
    """A suit, red or black: the kinds with first- and last-trick rules."""
    notrump: bool = field(init=False)
    """The no-trump family: the led suit is the trump."""
    jack_rank: str | None = field(init=False)
    """The rank of the 正/裏 jacks: J, the 4 in 囲碁将棋部ノートラ, none in 地学部ノートラ."""
    fixed: frozenset[Suit] | None = field(init=False)
    """The trump suits when they do not depend on the lead (a suit, red, black)."""

    def __post_init__(self) -> None:
        name = self.name
        fixed = {"black": BLACK, "red": RED}.get(name)
        if name in TRUMP_SUIT:
            fixed = frozenset({TRUMP_SUIT[name]})
        object.__setattr__(self, "ordinary", fixed is not None)
        object.__setattr__(self, "notrump", name.endswith("notrump"))
        object.__setattr__(
            self, "jack_rank", {"igo-notrump": "4", "chigaku-notrump": None}.get(name, "J")
        )
        object.__setattr__(self, "fixed", fixed)

    def suits(self, led: Suit | None) -> frozenset[Suit]:
        """The trump suits of a trick whose led (or named) suit is ``led``."""
        if self.fixed is not None:
            return self.fixed
        if self.name == "chigaku-notrump" or led is None:
            return NO_SUITS
        return _ONE_SUIT[led]

    def called_suits(self, named: Suit | None) -> frozenset[Suit]:
        """What a joker lead calls for: the trump (either colour with red/black, the named suit).

        In the no-trump family the joker's leader names the suit (2.3.4: 「ノートラ系では
        「ジョーカー」を使ったものがスートを指定できる」).  地学部ノートラ has no trump
        for strength, but its joker is played as in ノートラ (L599), so a joker lead
        there calls the named suit too (and a joker-led 点札請求 its point cards, L979-980).
        """
        if self.notrump:
            return NO_SUITS if named is None else _ONE_SUIT[named]
        return self.suits(named)


NO_SUITS: frozenset[Suit] = frozenset()
_ONE_SUIT = {suit: frozenset({suit}) for suit in Suit}


class TrickContext(NamedTuple):
    """Where a trick stands in the deal (a named tuple: one is made for every trick)."""

    trump: Trump
    first: bool
    last: bool
    rettler: bool
    named: Suit | None = None
    """The suit the leader named on a joker lead or a 原爆 (no-trump family)."""
    point_call: bool = False
    """点札請求: the leader won the previous trick with a リトル (Rettler, 3.3.3)."""

    @property
    def restricted(self) -> bool:
        """First or last trick of an ordinary trump: only マイティ and its answers count."""
        return self.trump.ordinary and (self.first or self.last)


def _rank(card: Card) -> int:
    return RANK_ORDER[card.rank] if card.rank else 0


def led_as_joker(card: Card, ctx: TrickContext) -> bool:
    """A joker lead, or Rettler's bridge led on the last trick (as strong as the joker)."""
    return card.code == JOKER or (card.code == BRIDGE and ctx.last)


def led_suit(cards: Sequence[Card], ctx: TrickContext) -> Suit | None:
    """The suit the trick is played in (for strength, not for following)."""
    lead = cards[0]
    if not led_as_joker(lead, ctx):
        return lead.suit
    if ctx.named is not None:
        return ctx.named
    if ctx.trump.name in TRUMP_SUIT and not ctx.restricted:
        return TRUMP_SUIT[ctx.trump.name]
    return next((c.suit for c in cards[1:] if c.suit is not None), None)


def _first(cards: Sequence[Card], code: str) -> int | None:
    """The index of the first ``code`` played."""
    return next((i for i, c in enumerate(cards) if c.code == code), None)


def _best(cards: Sequence[Card], candidates: list[int], prefer: Suit | None) -> int:
    """The strongest by rank; equal ranks: the ``prefer`` suit, then the first played."""
    return min(candidates, key=lambda i: (-_rank(cards[i]), cards[i].suit != prefer, i))


def mighty_chain(cards: Sequence[Card], mighty: int, rettler: bool) -> int:
    """マイティ at ``mighty`` would win: よろめき, よろめき返し, よろめき返し返し answer it."""
    answer = _first(cards, YOROMEKI)
    if answer is None:
        return mighty
    gaeshi = _first(cards, YOROMEKI_GAESHI)
    if gaeshi is not None:
        answer = gaeshi
        if rettler and (gaeshi2 := _first(cards, YOROMEKI_GAESHI_GAESHI)) is not None:
            answer = gaeshi2
    return answer


def trick_winner(cards: Sequence[Card], ctx: TrickContext) -> int:
    """The index (in order of play) of the card that wins a trick of single cards."""
    codes = [c.code for c in cards]
    if MIGHTY in codes:
        return mighty_chain(cards, codes.index(MIGHTY), ctx.rettler)
    if ctx.point_call:  # 3.3.3: a single 点札請求 lead loses only to マイティ
        return 0
    trump = ctx.trump
    if led_as_joker(cards[0], ctx) and not (trump.ordinary and ctx.first):
        return 0
    suit = led_suit(cards, ctx)
    if suit is None:  # nothing but jokers and bridges: the lead keeps it
        return 0
    if ctx.restricted:
        trumps, jack, false_suit = NO_SUITS, None, None
    else:
        trumps, jack = trump.suits(suit), trump.jack_rank
        false_suit = SAME_COLOUR[next(iter(trumps))] if len(trumps) == 1 else None
        if codes[0] != JOKER_CALL and all(c.suit is suit for c in cards):
            twos = [i for i, c in enumerate(cards) if c.rank == "2"]
            if twos:
                if ctx.rettler and len(twos) > 1 and twos[-1] == len(cards) - 1:
                    return twos[-1]  # セイム 2 返し
                return twos[0]
    lead_is_trump = suit in trumps
    # Each card's key: its step (正ジャック 4, 裏ジャック 3, trump 2, led suit 1, other 0)
    # times STEP, then its strength, doubled to make room for the red/black
    # preference.  Ties keep the first played; with red/black, a card of the led
    # trump suit first.
    best, best_key = 0, -1
    for i, c in enumerate(cards):
        prefer = 1 if lead_is_trump and c.suit is suit else 0
        if jack is not None and c.rank == jack and c.suit in trumps:
            key = 4 * STEP + prefer
        elif jack is not None and c.rank == jack and c.suit is false_suit:
            key = 3 * STEP
        elif c.suit in trumps:
            key = 2 * STEP + 2 * c.strength + prefer
        elif c.suit is suit:
            key = STEP + 2 * c.strength
        else:
            key = 0
        if key > best_key:
            best, best_key = i, key
    return best


STEP = 1000
"""Larger than twice any card's strength plus one."""
