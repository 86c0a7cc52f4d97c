"""Full-deal replay of Napoleon and Rettler records (docs/deal-records.md, "Full play").

Given the dealt hands, the widow, the declarer's discards and every trick, the
replay checks each play against the hand that made it and the rules of
following, finds each trick's winner with :func:`engine.games.tricks.trick_winner`,
and derives what a summary record states: the point cards each player won, the
discarded point cards and the adjutants (the players who held a named card
after the exchange; none when the declarer took them all: 1人立ち).

Every illegal play is reported with its path; the replay goes on after one, so
that a scorer sees all of them at once.  Leads, Rettler's pairs (2枚回し), 点札請求
and 原爆 are in :mod:`engine.games.leads`, the duties of following in
:mod:`engine.games.follow`; a trick is read from the record by
:mod:`engine.games.trick_records`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import BY_CODE, Card
from engine.games.follow import is_legal
from engine.games.leads import classify_lead, duty_for, resolve
from engine.games.trick_records import named_suit, read_plays
from engine.games.tricks import TrickContext, Trump
from engine.problems import Checker, gettext_noop, join


class DeclarerRules(Protocol):
    """What the replay reads of :class:`~engine.games.declarer.DeclarerGame` (this module
    is below the game module, which replays its records: it does not import it)."""

    @property
    def name(self) -> str: ...

    def hand_size(self, players: int) -> int: ...

    def widow_size(self, players: int) -> int: ...

    def deck(self) -> Mapping[str, int]: ...


MISDEAL_RANKS = frozenset({"2", "4", "10", "J", "Q", "K", "A"})


def is_misdeal(hand: Iterable[Card]) -> bool:
    """倒れ (2.3.1, 3.3.1): a hand with no 2, 4, 10, J, Q, K, A and no joker may ask for a redeal."""
    return not any(card.is_joker or card.rank in MISDEAL_RANKS for card in hand)


RULE_MESSAGES = {
    "follow": gettext_noop("must follow the led suit"),
    "joker_call": gettext_noop("a joker lead calls for the trump, or else a point card"),
    "give_up_joker": gettext_noop("♠3 was led: the joker must be given up (ジョーカー落とし)"),
    "point_call": gettext_noop("点札請求: point cards of the led suit, or else any point card"),
    "bomb": gettext_noop("原爆: マイティ, then trumps, then point cards (or as many 2s)"),
}
RULE_CODES = {
    "follow": "revoke",
    "joker_call": "revoke",
    "give_up_joker": "joker_not_given_up",
    "point_call": "revoke",
    "bomb": "revoke",
}


@dataclass(frozen=True, slots=True)
class Replayed:
    """What a replay derives."""

    point_cards: dict[str, int]
    discarded_point_cards: int
    adjutants: list[str]
    trick_winners: list[str]
    misdeal_hands: list[str]
    """Players whose dealt hand was 倒れ (they could have asked for a redeal)."""
    point_calls: list[int]
    """The tricks (0-based) that were 点札請求."""


def replay(
    game: DeclarerRules,
    record: Mapping[str, Any],
    players: list[str],
    declaration: tuple[str, int, str, int] | None,
    checker: Checker,
) -> Replayed | None:
    n = len(players)
    hand_size = game.hand_size(n)
    widow_size = game.widow_size(n)
    hands = checker.dealt_hands(record, players, hand_size)
    widow = checker.cards(checker.require(record, "widow"), "widow")
    if widow is not None and len(widow) != widow_size:
        checker.add(
            "wrong_card_count",
            "widow",
            gettext_noop("the widow has %(widow_size)s cards, not %(n_widow)s"),
            widow_size=widow_size,
            n_widow=len(widow),
        )
    if hands is None or widow is None:
        return None
    counts = Counter(c.code for p in players for c in hands[p])
    counts.update(c.code for c in widow)
    deck = game.deck()
    if any(k > deck.get(code, 0) for code, k in counts.items()):  # name each excess copy
        dealt = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
        dealt += [(join("widow", i), c) for i, c in enumerate(widow)]
        checker.deck_counts(dealt, deck)
    elif counts.total() != deck_size(deck):
        checker.add(
            "incomplete_deck",
            "hands",
            gettext_noop("the hands and the widow are not the whole deck"),
        )
    if declaration is None or not checker.ok:
        return None
    declarer, _count, trump_name, allowed = declaration

    named = checker.cards(checker.require(record, "adjutant_cards"), "adjutant_cards") or []
    named_codes = {c.code for c in named}
    possible = sum(
        game.deck()[code] - sum(1 for c in hands[declarer] if c.code == code)
        for code in named_codes
    )
    if possible > allowed:
        checker.add(
            "too_many_adjutant_cards",
            "adjutant_cards",
            gettext_noop(
                "the cards named could make %(possible)s adjutants, the declaration allows %(allowed)s (3.3.5)"
            ),
            possible=possible,
            allowed=allowed,
        )

    discards = checker.cards(checker.require(record, "discards"), "discards")
    if discards is None:
        return None
    if len(discards) != widow_size:
        checker.add(
            "wrong_card_count",
            "discards",
            gettext_noop(
                "the declarer puts away as many cards as the widow held (%(widow_size)s), not %(n_discards)s"
            ),
            widow_size=widow_size,
            n_discards=len(discards),
        )
    pool = Counter(c.code for c in hands[declarer] + widow)
    for i, card in enumerate(discards):
        if pool[card.code] == 0:
            checker.add(
                "discard_not_held",
                join("discards", i),
                gettext_noop("%(declarer)s does not hold %(code_)s"),
                declarer=declarer,
                code_=card.code,
            )
        else:
            pool[card.code] -= 1
    # The replay goes on after a bad discard, so that the tricks are checked too.
    # Hands in play are counts by card code: the replay looks cards up for every play.
    in_play = {p: Counter(c.code for c in hands[p]) for p in players}
    in_play[declarer] = +pool
    adjutants = [p for p in players if p != declarer and named_codes & in_play[p].keys()]

    trump = Trump(trump_name)
    point_calls: list[int] = []
    winners = _play_tricks(game, record, players, declarer, trump, in_play, checker, point_calls)
    if winners is None:
        return None
    points = dict.fromkeys(players, 0)
    for winner, cards in winners:
        points[winner] += sum(1 for c in cards if c.is_face)
    return Replayed(
        point_cards=points,
        discarded_point_cards=sum(1 for c in discards if c.is_face),
        adjutants=adjutants,
        trick_winners=[w for w, _ in winners],
        misdeal_hands=[p for p in players if is_misdeal(hands[p])],
        point_calls=point_calls,
    )


def deck_size(deck: Mapping[str, int]) -> int:
    return sum(deck.values())


def _play_tricks(
    game: DeclarerRules,
    record: Mapping[str, Any],
    players: list[str],
    declarer: str,
    trump: Trump,
    hands: dict[str, Counter[str]],
    checker: Checker,
    point_calls: list[int],
) -> list[tuple[str, list[Card]]] | None:
    """Play every trick; this loop runs for every card of every deal, so it is kept tight."""
    tricks = checker.typed(checker.require(record, "tricks"), list, "tricks")
    if tricks is None:
        return None
    n = len(players)
    rettler = game.name == "rettler"
    seat = {p: i for i, p in enumerate(players)}
    sizes = {p: hands[p].total() for p in players}
    # Cards left in each suit, per player: following suit is checked in O(1).
    suits: dict[str, Counter[Any]] = {p: Counter() for p in players}
    for p in players:
        for code, count in hands[p].items():
            suits[p][BY_CODE[code].suit] += count
    leader = declarer
    point_call = False
    result: list[tuple[str, list[Card]]] = []
    for t, trick in enumerate(tricks):
        if not sizes[leader]:
            checker.add(
                "wrong_trick_count",
                f"tricks[{t}]",
                gettext_noop("the hands are empty: the deal is over"),
            )
            return None
        plays = read_plays(trick, f"tricks[{t}]", n, checker)
        if plays is None:
            return None
        start = seat[leader]
        order = [players[(start + k) % n] for k in range(n)]
        for k in range(n):
            if plays[k][0] != order[k]:
                code = "wrong_leader" if k == 0 else "wrong_order"
                checker.add(
                    code,
                    f"tricks[{t}].plays[{k}].player",
                    gettext_noop("%(order)s plays here, not %(value)s"),
                    order=order[k],
                    value=plays[k][0],
                )
                return None
        lead_cards, lead_raw = plays[0][1], plays[0][2]
        named = None
        if "suit" in lead_raw or lead_cards[0].is_joker or len(lead_cards) > 2:
            named = named_suit(lead_raw, lead_cards, trump, checker, f"tricks[{t}].plays[0]")
        ctx = TrickContext(
            trump, t == 0, len(lead_cards) == sizes[leader], rettler, named, point_call
        )
        if point_call:
            point_calls.append(t)
        lead = classify_lead(lead_cards, ctx, n)
        if isinstance(lead, str):
            checker.add("illegal_lead", f"tricks[{t}].plays[0].cards", lead)
            return None
        duty = duty_for(lead, ctx)
        size = lead.size
        plain_suit = lead.cards[0].suit if duty.rule == "follow" else False
        for k in range(n):
            who, cards, _raw = plays[k]
            if len(cards) != size:
                checker.add(
                    "wrong_card_count",
                    f"tricks[{t}].plays[{k}].cards",
                    gettext_noop("every player plays %(size)s card(s) to this lead"),
                    size=size,
                )
                return None
            hand = hands[who]
            if size == 1:
                missing = [] if hand.get(cards[0].code) else [cards[0].code]
            else:
                need = Counter(c.code for c in cards)
                missing = [code for code, count in need.items() if hand.get(code, 0) < count]
            if missing:
                checker.add(
                    "card_not_held",
                    f"tricks[{t}].plays[{k}].cards",
                    gettext_noop("%(who)s does not hold %(names)s"),
                    who=who,
                    names=", ".join(sorted(missing)),
                )
                return None
            if not k:
                legal = True
            elif plain_suit is not False:  # plain following: as many of the suit as held
                given = (
                    sum(1 for c in cards if c.suit is plain_suit)
                    if size > 1
                    else int(cards[0].suit is plain_suit)
                )
                legal = given >= size or given >= suits[who][plain_suit]
            else:
                legal = is_legal(cards, hand, duty)
            if not legal:
                rule = duty.rule_for(hand)
                checker.add(
                    RULE_CODES[rule],
                    f"tricks[{t}].plays[{k}].cards",
                    gettext_noop("%(who)s played %(cards)s: %(rule)s"),
                    who=who,
                    cards=" ".join(c.code for c in cards),
                    rule=RULE_MESSAGES[rule],
                )
            for card in cards:
                hand[card.code] -= 1
                suits[who][card.suit] -= 1
            sizes[who] -= size
        outcome = resolve([p[1] for p in plays], lead, ctx)
        leader = order[outcome.winner]
        result.append((leader, [c for p in plays for c in p[1]]))
        point_call = outcome.little
    left = [p for p in players if sizes[p]]
    if left:
        checker.add(
            "wrong_trick_count",
            "tricks",
            gettext_noop("the tricks end with cards still in hand (%(names)s)"),
            names=", ".join(left),
        )
    return result if checker.ok else None
