"""Leads of one card, Rettler's pair leads (2枚回し) and 原爆, their duties and winners.

Pair tricks (3.3.3, table 3.4).  Each player plays two cards.  Two equal cards
count as one pair whose strength is the sum of the two (A = 14); two different
cards count each on its own, except 正ジャック with 裏ジャック (正裏).  From the
strongest:

1. ダブルマイティ ♠A♠A; ♡Q♡Q takes it, ♡K♡K takes both, ♡A♡A takes all three.
2. ダブルジョーカー, only when led (and not on the first trick of an ordinary trump,
   where the trick goes as if led by the first card after the jokers: see
   :func:`strength_suit`).
3. The 2 pair of the led suit (2 枚組セイム 2), when every player played at least one
   card of the led suit, and two each if ♠A, a double jack or 正裏 was played.
4. ダブル正ジャック, 5. ダブル裏ジャック (4s in 囲碁将棋部ノートラ, none in 地学部).
6. マイティ with any card; よろめき etc. answer it as in a single trick, but only when
   it would win.  A 点札請求 lead ranks here, just under マイティ (3.3.3, 点札請求):
   only ダブルマイティ, a double 正/裏 jack and マイティ take a pair 点札請求
   (footnote 14), so neither a 2 pair nor a single 2 does.
7. 正裏.  8. A single 2 of the led suit when every card is of the led suit
   (セイム 2, with セイム 2 返し for the last player).
9. The trump's double ace (♡A♡A, ♢A♢A, ♣A♣A, and ♠K♠K because ♠A is マイティ),
   10. the led suit's double ace.  11. A single 正ジャック, 12. 裏ジャック.
13. Trumps worth 12 or more (pair sum or card), by worth.
14. The led suit's K, Q or J pairs.  15. Trumps worth 10 or less, by worth.
16. The led suit, by worth.  Anything else never wins.

Equal strength: the first played wins; with red/black a card of the led trump
suit first.  On the first and last trick of an ordinary trump only 1, 2 (last
trick), 6 and the led suit's worth count, as in Napoleon.

A リトル (1 to 5 above; in 地学部ノートラ only 1 and 2) that wins makes the next
trick, led by its winner, a 点札請求.

原爆 (3.3.3, table 3.5): a lead of jacks (4s in 囲碁将棋部ノートラ, none in 地学部)
with at least 3 正/裏 jacks and at least 5 jacks in all (6 with 4 players).  The
others play as many cards: マイティ if they hold it, then trumps, then point
cards; the bomb wins unless someone plays as many 2s (原爆返し).  Decision: a
bomb is not a lead on the first or last trick of an ordinary trump, where jacks
have no power.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import BRIDGE, JOKER, SAME_COLOUR, Card, Suit
from engine.games import follow
from engine.games.tricks import (
    JOKER_CALL,
    MIGHTY,
    RANK_ORDER,
    TRUMP_SUIT,
    TrickContext,
    led_as_joker,
    mighty_chain,
    trick_winner,
)
from engine.problems import gettext_noop

BOMB_JACKS = {4: 6, 5: 5, 6: 5, 7: 5, 8: 5}
"""Table 3.5: jacks in all a 原爆 needs, by player count (with at least 3 正/裏 jacks)."""
BOMB_TRUE_JACKS = 3
DOUBLE_ACES = frozenset({"HA", "DA", "CA", "SK"})


class LeadKind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    BOMB = "bomb"


@dataclass(frozen=True, slots=True)
class Lead:
    """What the leader played, and how many cards everyone plays to it."""

    kind: LeadKind
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        return len(self.cards)


def classify_lead(cards: Sequence[Card], ctx: TrickContext, players: int) -> Lead | str:
    """The lead, or a sentence saying why these cards are not a lead.

    A bridge leads only the last trick (「最終巡を除きこのカードから回すことは出来ない」),
    singly or as a pair.  A hand of nothing but bridges needs no exception: it holds
    one bridge (its last trick) or both, which it leads as a pair on its last trick.
    """
    cards = tuple(cards)
    if len(cards) == 1:
        if cards[0].code == BRIDGE and not ctx.last:
            return gettext_noop("the bridge may be led only on the last trick")
        return Lead(LeadKind.SINGLE, cards)
    if not ctx.rettler:
        return gettext_noop("a Napoleon lead is one card")
    if len(cards) == 2 and cards[0] == cards[1]:
        if cards[0].code == BRIDGE and not ctx.last:
            return gettext_noop("a pair of bridges may be led only on the last trick")
        return Lead(LeadKind.PAIR, cards)
    jack = None if ctx.restricted else ctx.trump.jack_rank
    if jack is None or any(c.rank != jack for c in cards):
        return gettext_noop("a lead is one card, two equal cards (2枚回し) or a 原爆 of jacks")
    if len(cards) < BOMB_JACKS[players]:
        return f"a 原爆 needs {BOMB_JACKS[players]} jacks with {players} players"
    true_suits = bomb_true_suits(ctx)
    if true_suits is None:
        return gettext_noop("a no-trump 原爆 names its suit")
    if sum(1 for c in cards if c.suit in true_suits) < BOMB_TRUE_JACKS:
        return f"a 原爆 needs {BOMB_TRUE_JACKS} 正/裏 jacks of the trump"
    return Lead(LeadKind.BOMB, cards)


def bomb_true_suits(ctx: TrickContext) -> frozenset[Suit] | None:
    """The suits whose jacks count as 正/裏 for a 原爆 (the named suit's colour in no-trump)."""
    if ctx.trump.notrump:
        return None if ctx.named is None else frozenset({ctx.named, SAME_COLOUR[ctx.named]})
    suits = ctx.trump.suits(None)
    return suits | {SAME_COLOUR[s] for s in suits}


def lead_suit(lead: Lead, ctx: TrickContext) -> Suit | None:
    first = lead.cards[0]
    if lead.kind == LeadKind.BOMB or led_as_joker(first, ctx):
        if ctx.named is not None:
            return ctx.named
        return TRUMP_SUIT.get(ctx.trump.name)
    return first.suit


def duty_for(lead: Lead, ctx: TrickContext) -> follow.Duty:
    """What the other players must play to ``lead``.

    A ♠3 lead calls the joker (ジョーカー落とし) except on the first and last trick
    of an ordinary trump or red/black, where ♠3 is a plain spade (2.3.4: 「♠3 など)
    は一切無効」; 赤、黒 and Rettler follow that rule, 3.3.4).  The no-trump family
    has no such tricks, so there ♠3 calls the joker from the first trick on.
    """
    first = lead.cards[0]
    suit = lead_suit(lead, ctx)
    called = ctx.trump.called_suits(suit)
    if lead.kind == LeadKind.BOMB:
        return follow.bomb_answer(called, lead.size)
    if ctx.point_call:
        return follow.point_call(called if led_as_joker(first, ctx) else frozenset({first.suit}))  # type: ignore[arg-type]
    if first.code == JOKER_CALL and not ctx.restricted:
        return follow.give_up_joker()
    if led_as_joker(first, ctx):
        return follow.joker_call(called)
    return follow.follow_suit(first.suit)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who took a trick, and whether with a リトル (the next trick is then a 点札請求)."""

    winner: int
    little: bool = False


def resolve(plays: Sequence[Sequence[Card]], lead: Lead, ctx: TrickContext) -> Outcome:
    """The winner (index in order of play) of a trick."""
    if lead.kind == LeadKind.SINGLE:
        return Outcome(trick_winner([p[0] for p in plays], ctx))
    if lead.kind == LeadKind.BOMB:
        for i, play in enumerate(plays[1:], start=1):
            if len(play) == lead.size and all(c.rank == "2" for c in play):
                return Outcome(i)  # 原爆返し
        return Outcome(0)
    return _pair_winner([tuple(p) for p in plays], lead, ctx)


def strength_suit(plays: Sequence[Sequence[Card]], lead: Lead, ctx: TrickContext) -> Suit | None:
    """The suit a pair trick is played in, for strength (not for following).

    Decision, as :func:`engine.games.tricks.led_suit` takes it for a single joker:
    a double joker led on the first trick of an ordinary trump or red/black has no
    power (「「ジョーカー」に関しては初巡には無効」, L428; 赤、黒 L441-442; Rettler
    L1066), so the trick is won as if led by the first card played after the jokers.
    """
    if lead.cards[0].code == JOKER and ctx.trump.ordinary and ctx.first:
        return next((c.suit for play in plays[1:] for c in play if c.suit is not None), None)
    return lead_suit(lead, ctx)


def _first_pair(plays: list[tuple[Card, ...]], code: str) -> int | None:
    return next((i for i, p in enumerate(plays) if p[0].code == code and p[1].code == code), None)


def _pair_winner(plays: list[tuple[Card, ...]], lead: Lead, ctx: TrickContext) -> Outcome:
    double_mighty = _first_pair(plays, MIGHTY)
    if double_mighty is not None:
        winner = double_mighty
        for answer in ("HQ", "HK", "HA"):
            found = _first_pair(plays, answer)
            if found is None:
                break
            winner = found
        return Outcome(winner, little=winner == double_mighty)
    first = lead.cards[0]
    if first.code == JOKER and not (ctx.trump.ordinary and ctx.first):
        return Outcome(0, little=True)
    if first.code == BRIDGE and ctx.last:
        return Outcome(0)

    suit = strength_suit(plays, lead, ctx)
    trumps = frozenset() if ctx.restricted else ctx.trump.suits(suit)
    jack = None if ctx.restricted else ctx.trump.jack_rank
    true_suits = trumps
    false_suit = SAME_COLOUR[next(iter(trumps))] if len(trumps) == 1 else None

    def is_true(c: Card) -> bool:
        return jack is not None and c.rank == jack and c.suit in true_suits

    def is_false(c: Card) -> bool:
        return jack is not None and c.rank == jack and c.suit == false_suit

    doubles = {i for i, p in enumerate(plays) if p[0] == p[1] and (is_true(p[0]) or is_false(p[0]))}
    seiura = {i for i, p in enumerate(plays) if _is_seiura(p, is_true, is_false)}
    mighty_single = {i for i, p in enumerate(plays) if any(c.code == MIGHTY for c in p)}
    every_card_led = all(c.suit == suit for p in plays for c in p)

    if not (ctx.restricted or ctx.point_call) and first.code != JOKER_CALL and suit is not None:
        two = Card(suit.value + "2")
        pair_two = _first_pair(plays, two.code)
        if pair_two is not None:
            strict = bool(mighty_single or doubles or seiura)
            each = 2 if strict else 1
            if all(sum(1 for c in p if c.suit == suit) >= each for p in plays):
                return Outcome(pair_two)

    keys = [_key(p, suit, trumps, is_true, is_false, ctx) for p in plays]
    if ctx.point_call:
        keys[0] = max(keys[0], (75,))
    if every_card_led and not ctx.restricted and first.code != JOKER_CALL and not doubles:
        singles = [i for i, p in enumerate(plays) if p[0] != p[1] and any(c.rank == "2" for c in p)]
        if singles and not mighty_single:
            keys[singles[0]] = max(keys[singles[0]], (65,))
            if len(singles) > 1 and singles[-1] == len(plays) - 1:
                keys[singles[-1]] = (66,)  # セイム 2 返し
    best = min(range(len(plays)), key=lambda i: (tuple(-k for k in keys[i]), i))
    if keys[best] == (80,):  # マイティ would win: よろめき and its answers may take it
        flat = [c for p in plays for c in p]
        owner = [i for i, p in enumerate(plays) for _ in p]
        mighty_at = next(j for j, c in enumerate(flat) if c.code == MIGHTY)
        return Outcome(owner[mighty_chain(flat, mighty_at, rettler=True)])
    return Outcome(best, little=keys[best][0] in (85, 90))


def _worth(card: Card) -> int:
    return RANK_ORDER[card.rank] if card.rank else 0


def _key(
    play: tuple[Card, ...], suit: Suit | None, trumps: frozenset[Suit], is_true, is_false, ctx
) -> tuple[int, ...]:
    """The strength of one player's two cards (see the module's table); bigger is stronger."""
    a, b = play
    prefer = (1,) if a.suit == suit else (0,)
    if a == b:
        if a.code in (JOKER, BRIDGE):
            return (0,)
        if is_true(a):
            return (90,)
        if is_false(a):
            return (85,)
        worth = 2 * _worth(a)
        if ctx.restricted:
            return (20, worth) if a.suit == suit else (0,)
        if a.code in DOUBLE_ACES and a.suit in trumps:
            return (61, worth, *prefer)
        if a.code in DOUBLE_ACES and a.suit == suit:
            return (60, worth)
        if a.suit in trumps:
            return (40 if worth >= 12 else 30, worth, *prefer)
        if a.suit == suit:
            return (35, worth) if a.rank in ("K", "Q", "J") else (20, worth)
        return (0,)
    best = max(
        _single_key(a, suit, trumps, is_true, is_false, ctx),
        _single_key(b, suit, trumps, is_true, is_false, ctx),
    )
    if _is_seiura(play, is_true, is_false):
        best = max(best, (70,))
    return best


def _is_seiura(play: tuple[Card, ...], is_true, is_false) -> bool:
    """正裏: one 正ジャック and one 裏ジャック from the same player."""
    a, b = play
    return (is_true(a) and is_false(b)) or (is_false(a) and is_true(b))


def _single_key(card: Card, suit, trumps, is_true, is_false, ctx) -> tuple[int, ...]:
    if card.code == MIGHTY:
        return (80,)
    worth = _worth(card)
    if ctx.restricted:
        return (20, worth) if card.suit == suit else (0,)
    if is_true(card):
        return (55,)
    if is_false(card):
        return (50,)
    if card.suit in trumps:
        return (40 if worth >= 12 else 30, worth, 1 if card.suit == suit else 0)
    if card.suit == suit:
        return (20, worth)
    return (0,)
