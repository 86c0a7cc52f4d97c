"""Comp-13 (コンプ・イチサン): deal scores from captured face cards, a 12-deal match.

Deal score (rulebook, ゲームの各回の終了と得点計算): +1 per captured card, +3 for
a captured joker (instead of +1), −1 per face card (A 10 J Q K) left in hand, −2
per joker left in hand, +3 when the four kings are captured, +2 for each other
face rank captured four of a kind.  Ranking: score; then fewer penalty points;
then the higher sum of the captured cards' ranks (A 1 … K 13, joker 0); then
order of play from the dealer.  The deal's winner is the next provisional
dealer (仮親): 「次の回は、今回の勝者を仮親として親決めより始める」.  The 仮親
starts the 親決め of a full play (field A is turned up in front of them); a record
names them in ``provisional_dealer`` (default ``players[0]``).  In a match the
first deal's 仮親 is whoever the record says (the book: the eldest, 「初回は
年長者」), every later deal's is the last deal's winner (:class:`Comp13Match`).

Decisions: the rulebook plays with 4 (2 possible); 3 players are accepted too.
A match of ``target`` deals (default 12) is won by the highest total, ties by
more deals won; players still tied share the win (``winner`` is null and
``winners`` names them all).

What a summary can never say (issue 18): a captured or in-hand card that is
not A 10 J Q K or a joker (only face cards score), or a card more often than the
deck holds it (jokers: ``rules.jokers``).  A hand grows by drawing (one of the
five plays), so its size has no other limit.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, standard_deck
from engine.game import DealResult, Game, Scored
from engine.games.comp13_play import random_comp13_deal, replay_comp13
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "stock", "moves", "dealer_card"})

RANK_VALUE = {"A": 1, "10": 10, "J": 11, "Q": 12, "K": 13}
FOUR_KINGS_BONUS = 3
FOUR_OF_A_KIND_BONUS = 2


class Comp13(Game):
    name = "comp13"
    player_counts = frozenset({2, 3, 4})
    deal_keys = FULL_PLAY_KEYS | {"captured", "hand_faces", "dealer", "provisional_dealer"}
    rule_names = frozenset({"jokers"})
    inherited_keys = frozenset({"rules"})
    default_target = 12
    accepts_target = True
    best_players = 4

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        jokers = int(state.rules.get("jokers", 0))
        deck = standard_deck(jokers=jokers)
        provisional = state.next_deal().get("provisional_dealer")
        return random_comp13_deal(list(state.players), deck, rng, jokers, provisional)

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return Comp13Match(self, players, rules, target)

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        jokers = checker.integer(rules.get("jokers", 0), join(path, "jokers"), minimum=0, maximum=3)
        return {"jokers": jokers or 0}

    def deck_for(self, players: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
        """One deck, with the match's jokers (``rules.jokers``; none unless it says so)."""
        return standard_deck(jokers=int(rules.get("jokers") or 0))

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        summary = {
            "captured": result.details["captured"],
            "hand_faces": result.details["hand_faces"],
        }
        if result.details["dealer"] is not None:
            summary["dealer"] = result.details["dealer"]
        return summary

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        deck = self.deck_for(len(players), rules)
        provisional: str | None = players[0]
        if "provisional_dealer" in record:  # a summary's only says who it was
            provisional = checker.player(
                record["provisional_dealer"], players, "provisional_dealer"
            )
        if not FULL_PLAY_KEYS.isdisjoint(record):
            if provisional is None:
                return None
            return self._score_full_play(record, players, deck, provisional, checker)
        captured = self._cards_by_player(record, "captured", players, checker)
        in_hand = self._cards_by_player(record, "hand_faces", players, checker)
        if captured is None or in_hand is None:
            return None
        placed = [
            (join(join(field, p), i), card)
            for field, cards in (("captured", captured), ("hand_faces", in_hand))
            for p in players
            for i, card in enumerate(cards[p])
        ]
        checker.deck_counts(placed, deck)
        order = players
        if "dealer" in record:
            dealer = checker.player(record["dealer"], players, "dealer")
            if dealer is not None:
                start = players.index(dealer)
                order = players[start:] + players[:start]
        if not checker.ok:
            return None
        return self.settle(order, captured, in_hand)

    def _score_full_play(
        self,
        record: Mapping[str, Any],
        players: list[str],
        deck: Mapping[str, int],
        provisional: str,
        checker: Checker,
    ) -> Scored | None:
        """Replay the moves from the 親決め of the 仮親 ``provisional``; ``captured``/
        ``hand_faces`` and the dealer (``dealer``, the 親 of a summary) given as well must
        agree: the 親決め of the deal decides who the 親 is."""
        replayed = replay_comp13(record, players, deck, checker, provisional)
        if replayed is None:
            return None
        if "dealer" in record:
            named = checker.player(record["dealer"], players, "dealer")
            checker.agrees("dealer", MISSING if named is None else named, replayed.dealer)
        for key, derived in (("captured", replayed.captured), ("hand_faces", replayed.hand_faces)):
            if key in record:
                given = self._cards_by_player(record, key, players, checker)
                compared = MISSING if given is None else _as_sets(given)
                checker.agrees(key, compared, _as_sets(derived), _as_codes(derived))
        if not checker.ok:
            return None
        scored = self.settle(replayed.order_from_dealer, replayed.captured, replayed.hand_faces)
        scored.details.update(
            dealer=replayed.dealer,
            ended=replayed.ended,
            captured=_as_codes(replayed.captured),
            hand_faces=_as_codes(replayed.hand_faces),
        )
        return scored

    def settle(
        self,
        order: list[str],
        captured: Mapping[str, list[Card]],
        in_hand: Mapping[str, list[Card]],
    ) -> Scored:
        """Score and rank a deal; ``order`` is the order of play from the dealer (the last tie-break)."""
        scores: dict[str, int] = {}
        penalties: dict[str, int] = {}
        rank_sums: dict[str, int] = {}
        for p in order:
            penalty = sum(2 if c.is_joker else 1 for c in in_hand[p])
            scores[p] = _captured_points(captured[p]) - penalty
            penalties[p] = penalty
            rank_sums[p] = sum(RANK_VALUE.get(c.rank or "", 0) for c in captured[p])
        ranking = sorted(
            order, key=lambda p: (-scores[p], penalties[p], -rank_sums[p], order.index(p))
        )
        return Scored(
            scores=scores,
            winners=(ranking[0],),
            details={
                "ranking": ranking,
                "winner": ranking[0],
                "next_dealer": ranking[0],
                "penalties": penalties,
                "captured_rank_sum": rank_sums,
            },
        )

    def _cards_by_player(
        self, record: Mapping[str, Any], field: str, players: list[str], checker: Checker
    ) -> dict[str, list[Card]] | None:
        raw = checker.per_player(checker.require(record, field), players, field)
        if raw is None:
            return None
        result: dict[str, list[Card]] = {}
        for p, value in raw.items():
            cards = checker.cards(value, join(field, p))
            if cards is None:
                continue
            for i, card in enumerate(cards):
                if not (card.is_face or card.is_joker):
                    checker.add(
                        "not_a_face_card",
                        join(join(field, p), i),
                        gettext_noop("%(code_)s is not a face card (A 10 J Q K) or a joker"),
                        code_=card.code,
                    )
            result[p] = cards
        return result if len(result) == len(players) else None

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        """The deal's winner is the next provisional dealer (仮親)."""
        return result.details["next_dealer"]

    def ranked_by(self) -> tuple[str, ...]:
        return ("total", "deals_won")

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        return target is not None and deals_played >= target


class Comp13Match(MatchState):
    """A match of ``target`` deals: each deal after the first starts its 親決め with the
    last deal's winner as 仮親 (■ゲームの各回の終了と得点計算, 7: 「次の回は、今回の
    勝者を仮親として親決めより始める」).  A deal inherits ``provisional_dealer``; one
    naming another player is ``wrong_dealer``.  The first deal's 仮親 is not checked: the
    book's 「初回は年長者」 needs the players' ages."""

    dealer_key = "provisional_dealer"

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        if self.dealer is not None and record.get("provisional_dealer") != self.dealer:
            checker.add(
                "wrong_dealer",
                "provisional_dealer",
                gettext_noop("%(dealer)s won the last deal and is the provisional dealer (仮親)"),
                dealer=self.dealer,
            )


def _captured_points(cards: list[Card]) -> int:
    points = sum(3 if c.is_joker else 1 for c in cards)
    for rank in RANK_VALUE:
        if sum(1 for c in cards if c.rank == rank) == 4:
            points += FOUR_KINGS_BONUS if rank == "K" else FOUR_OF_A_KIND_BONUS
    return points


def _as_codes(cards: Mapping[str, list[Card]]) -> dict[str, list[str]]:
    return {p: [c.code for c in cs] for p, cs in cards.items()}


def _as_sets(cards: Mapping[str, list[Card]]) -> dict[str, list[str]]:
    return {p: sorted(c.code for c in cs) for p, cs in cards.items()}
