"""Full-deal replay of Napoleon and Rettler records (docs/deal-records.md, "Full play").

Given the dealt hands, the widow, the declarer's discards and every trick, the
replay checks each play against the hand that made it and the rules of
following, finds each trick's winner with :func:`engine.games.tricks.trick_winner`,
and derives what a summary record states: the point cards each player won, the
discarded point cards and the adjutants (the players who held a named card
after the exchange; none when the declarer took them all: 1人立ち).

Every illegal play is reported with its path; the replay goes on after one, so
that a scorer sees all of them at once.  Rettler's pair leads (2枚回し), 点札請求
and 原爆 are not replayed yet: a play of more than one card is refused with
``pairs_not_supported``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.games.tricks import TRUMP_SUIT, TrickContext, Trump, legal_cards, trick_winner
from engine.problems import Checker, join

if TYPE_CHECKING:
    from engine.games.declarer import DeclarerGame

MISDEAL_RANKS = frozenset({"2", "4", "10", "J", "Q", "K", "A"})


def is_misdeal(hand: Iterable[Card]) -> bool:
    """倒れ (2.3.1, 3.3.1): a hand with no 2, 4, 10, J, Q, K, A and no joker may ask for a redeal."""
    return not any(card.is_joker or card.rank in MISDEAL_RANKS for card in hand)


RULE_MESSAGES = {
    "follow": "must follow the led suit",
    "joker_call": "a joker lead calls for the trump, or else a point card",
    "give_up_joker": "♠3 was led: the joker must be given up (ジョーカー落とし)",
    "bridge_lead": "the bridge may be led only on the last trick",
}
RULE_CODES = {
    "follow": "revoke",
    "joker_call": "revoke",
    "give_up_joker": "joker_not_given_up",
    "bridge_lead": "bridge_lead",
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


def replay(
    game: DeclarerGame,
    record: Mapping[str, Any],
    players: list[str],
    declaration: tuple[str, int, str, int] | None,
    checker: Checker,
) -> Replayed | None:
    n = len(players)
    hand_size = game.hand_size(n)
    widow_size = game.widow_size(n)
    hands = _hands(record, players, hand_size, checker)
    widow = checker.cards(checker.require(record, "widow"), "widow")
    if widow is not None and len(widow) != widow_size:
        checker.add(
            "wrong_card_count", "widow", f"the widow has {widow_size} cards, not {len(widow)}"
        )
    if hands is None or widow is None:
        return None
    dealt = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    dealt += [(join("widow", i), c) for i, c in enumerate(widow)]
    before = len(checker.problems)
    checker.deck_counts(dealt, game.deck())
    if len(checker.problems) == before and len(dealt) != sum(game.deck().values()):
        checker.add("incomplete_deck", "hands", "the hands and the widow are not the whole deck")
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
            f"the cards named could make {possible} adjutants, the declaration allows {allowed} (3.3.5)",
        )

    discards = checker.cards(checker.require(record, "discards"), "discards")
    if discards is None:
        return None
    if len(discards) != widow_size:
        checker.add(
            "wrong_card_count",
            "discards",
            f"the declarer puts away as many cards as the widow held ({widow_size}), not {len(discards)}",
        )
    pool = Counter(c.code for c in hands[declarer] + widow)
    for i, card in enumerate(discards):
        if pool[card.code] == 0:
            checker.add(
                "discard_not_held", join("discards", i), f"{declarer} does not hold {card.code}"
            )
        else:
            pool[card.code] -= 1
    # The replay goes on after a bad discard, so that the tricks are checked too.
    in_play = {p: list(hands[p]) for p in players}
    in_play[declarer] = [Card(code) for code in pool.elements()]
    adjutants = [
        p for p in players if p != declarer and any(c.code in named_codes for c in in_play[p])
    ]

    trump = Trump(trump_name)
    winners = _play_tricks(game, record, players, declarer, trump, in_play, hand_size, checker)
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
    )


def _hands(
    record: Mapping[str, Any], players: list[str], size: int, checker: Checker
) -> dict[str, list[Card]] | None:
    raw = checker.per_player(checker.require(record, "hands"), players, "hands")
    if raw is None:
        return None
    hands: dict[str, list[Card]] = {}
    for p, value in raw.items():
        cards = checker.cards(value, join("hands", p))
        if cards is None:
            continue
        if len(cards) != size:
            checker.add(
                "wrong_card_count", join("hands", p), f"a hand is {size} cards, not {len(cards)}"
            )
        hands[p] = cards
    return hands if len(hands) == len(players) else None


def _play_tricks(
    game: DeclarerGame,
    record: Mapping[str, Any],
    players: list[str],
    declarer: str,
    trump: Trump,
    hands: dict[str, list[Card]],
    hand_size: int,
    checker: Checker,
) -> list[tuple[str, list[Card]]] | None:
    tricks = checker.typed(checker.require(record, "tricks"), list, "tricks")
    if tricks is None:
        return None
    if len(tricks) != hand_size:
        checker.add(
            "wrong_trick_count", "tricks", f"a deal is {hand_size} tricks, {len(tricks)} are given"
        )
        return None
    n = len(players)
    leader = declarer
    result: list[tuple[str, list[Card]]] = []
    for t, trick in enumerate(tricks):
        path = join("tricks", t)
        trick = checker.typed(trick, dict, path)
        if trick is None:
            return None
        checker.known_keys(trick, {"plays"}, path)
        plays = checker.typed(checker.require(trick, "plays", path), list, join(path, "plays"))
        if plays is None:
            return None
        if len(plays) != n:
            checker.add(
                "wrong_play_count", join(path, "plays"), f"every one of the {n} players plays once"
            )
            return None
        named = None
        order = players[players.index(leader) :] + players[: players.index(leader)]
        played: list[Card] = []
        for k, play in enumerate(plays):
            play_path = join(join(path, "plays"), k)
            play = checker.typed(play, dict, play_path)
            if play is None:
                return None
            checker.known_keys(
                play, {"player", "cards", "suit"} if k == 0 else {"player", "cards"}, play_path
            )
            who = checker.player(
                checker.require(play, "player", play_path), players, join(play_path, "player")
            )
            cards = checker.cards(
                checker.require(play, "cards", play_path), join(play_path, "cards")
            )
            if who is None or cards is None:
                return None
            if who != order[k]:
                code = "wrong_leader" if k == 0 else "wrong_order"
                checker.add(code, join(play_path, "player"), f"{order[k]} plays here, not {who}")
                return None
            if len(cards) != 1:
                checker.add(
                    "pairs_not_supported"
                    if game.name == "rettler" and len(cards) > 1
                    else "wrong_card_count",
                    join(play_path, "cards"),
                    "each play is one card (Rettler's pair leads and 原爆 are not replayed yet)",
                )
                return None
            card = cards[0]
            if k == 0:
                named = _named_suit(play, card, trump, checker, play_path)
            ctx = TrickContext(trump, first=t == 0, last=t == hand_size - 1,
                               rettler=game.name == "rettler", named=named)  # fmt: skip
            hand = hands[who]
            if card not in hand:
                checker.add(
                    "card_not_held", join(play_path, "cards"), f"{who} does not hold {card.code}"
                )
            else:
                legal, rule = legal_cards(hand, played[0] if played else None, ctx)
                if card not in legal and rule is not None:
                    checker.add(RULE_CODES[rule], join(play_path, "cards"),
                                f"{who} played {card.code}: {RULE_MESSAGES[rule]}")  # fmt: skip
                hand.remove(card)
            played.append(card)
        winner = order[trick_winner(played, ctx)]
        result.append((winner, played))
        leader = winner
    return result if checker.ok else None


def _named_suit(
    play: Mapping[str, Any], card: Card, trump: Trump, checker: Checker, path: str
) -> Any:
    """The suit named on a joker lead (``suit`` on the lead play).

    Required in the no-trump family.  With red/black the contract lets the record
    name one of the two trump suits; the followers may still play either (2.3.4).
    """
    may_name = card.is_joker and (trump.notrump or trump.name in ("red", "black"))
    if "suit" not in play:
        if card.is_joker and trump.notrump:
            checker.add(
                "missing_field", join(path, "suit"), "a joker lead in no-trump names a suit"
            )
        return None
    name = play["suit"]
    if name not in TRUMP_SUIT:
        checker.add(
            "unknown_suit", join(path, "suit"), f"{name!r} is not spades, hearts, diamonds or clubs"
        )
        return None
    if not may_name:
        checker.add(
            "not_applicable",
            join(path, "suit"),
            "only a joker lead in no-trump or red/black names a suit",
        )
        return None
    if trump.name in ("red", "black") and TRUMP_SUIT[name] not in trump.suits(None):
        checker.add("unknown_suit", join(path, "suit"), f"{name} is not a {trump.name} trump suit")
        return None
    return TRUMP_SUIT[name]
