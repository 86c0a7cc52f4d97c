"""1234 (Thailand, ヌン・ソーン・サーム・シィー): play 1 to 4 above the last number, or pass, or drop out.

Rulebook: ../shared/rules/002_…twentytwo-1234-bhabhi.txt, 「1234」.

A game (one deal record): five cards each and a start card face up.  Turns go
to the right, which is the order of ``players``, starting after the dealer.  A
turn is a *play* (cards whose values, A 1 … K 13, add up to 1–4 above the last
number: the start card or the last play), a *pass* (one ace; two number cards
of a rank and a face card; three of a suit; three of a rank; two pairs of
number cards), or, only when neither is possible, a *drop-out*.  After a play
or pass the player draws up to three cards, never above five.  The game ends
when one player is left (the winner) or the stock runs out while refilling
(the highest card still in a hand wins, then the next highest, …).

Scoring across games (the rulebook's three proposals, ``rules.scoring``):
``winner_plus`` (default; the winner scores the cards left in every other
hand), ``loser_minus`` (every other player loses their own cards' sum) and
``chips`` (every other player pays their sum to the winner).  A dropped
player's hand is the cards put face down.  The winner deals the next game.

Decisions: a complete tie in the stock ending goes to the tied player who is
first in order of play from the dealer's right (the first turn).  ``rules.limit``
ends a match early: points to win (``winner_plus``), a loss limit
(``loser_minus``, the fewest losses then win) or the starting chips
(``chips``: a player with none left ends it).  ``target`` is the number of games.
Two pairs may be the same rank (four of a kind is two pairs).

What a summary can never say (issue 18): more than five cards in a hand (「各プレイヤーは
最大5枚の手札を持ち」); a card twice; a winner who dropped out; every player dropped out;
a winner of the stock ending without the highest cards; a dropped player whose
cards left hold a pass (「手番にプレイもパスもできない時は、手札をすべて裏向きに
自分の前に置き、ドロップアウト」: e.g. an ace, three of a suit).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.game import DealResult, Game, Scored
from engine.games.common import after, dealer
from engine.games.onetwothreefour_play import (
    HAND,
    best_hand,
    is_pass,
    random_deal,
    replay,
    subsets,
    value,
)
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "start", "stock", "turns"})
SCORING = ("winner_plus", "loser_minus", "chips")


class OneTwoThreeFour(Game):
    name = "1234"
    player_counts = frozenset({2, 3, 4, 5})
    deal_keys = frozenset({"dealer", "winner", "dropped", "hands_left"}) | FULL_PLAY_KEYS
    rule_names = frozenset({"scoring", "limit"})
    inherited_keys = frozenset({"rules"})
    accepts_target = True
    best_players = 4
    deals_follow_the_match = True

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        """The first game is dealt by the last player; then the last winner deals."""
        players = list(state.players)
        return random_deal(rng, players, state.next_deal().get("dealer", players[-1]))

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        scoring = checker.typed(rules.get("scoring", SCORING[0]), str, join(path, "scoring"))
        if scoring is not None and scoring not in SCORING:
            checker.add(
                "out_of_range",
                join(path, "scoring"),
                gettext_noop("one of %(names)s"),
                names=", ".join(SCORING),
            )
        limit = None
        if "limit" in rules:
            limit = checker.integer(rules["limit"], join(path, "limit"), minimum=1)
        return {"scoring": scoring, "limit": limit}

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return OneTwoThreeFourMatch(self, players, rules, target)

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        return str(result.details["winner"])

    def most_dropped(self, players: int) -> int:
        """How many players may drop out of a game: all but the last one left."""
        return players - 1

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        d = result.details
        return {
            "dealer": record["dealer"],
            "winner": d["winner"],
            "dropped": d["dropped"],
            "hands_left": d["hands_left"],
        }

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        deals_by = dealer(record, players, checker)
        if deals_by is None or not checker.ok:
            return None
        first = after(players, deals_by)
        order = [after(players, first, k) for k in range(len(players))]
        details: dict[str, Any] = {}
        if not FULL_PLAY_KEYS.isdisjoint(record):
            played = replay(record, players, first, checker)
            if played is None:
                return None
            hands, dropped, winner, ended = played
            details["ended"] = ended
            for key, derived in (
                ("hands_left", _codes(hands)),
                ("dropped", dropped),
                ("winner", winner),
            ):
                checker.agrees(key, record.get(key, MISSING), derived)
        else:
            read = self._summary(record, players, order, checker)
            if read is None:
                return None
            hands, dropped, winner = read
        if not checker.ok:
            return None
        sums = {p: sum(value(c) for c in hands[p]) for p in players}
        pot = sum(sums[p] for p in players if p != winner)
        method = rules["scoring"]
        scores = {
            p: 0 if p == winner else (0 if method == "winner_plus" else -sums[p]) for p in players
        }
        if method != "loser_minus":
            scores[winner] = pot
        details.update(
            {"winner": winner, "dropped": dropped, "hands_left": _codes(hands), "hand_sums": sums}
        )
        return Scored(scores, (winner,), details)

    def _summary(
        self, record: Mapping[str, Any], players: list[str], order: list[str], checker: Checker
    ) -> tuple[dict[str, list[Card]], list[str], str] | None:
        raw = checker.per_player(checker.require(record, "hands_left"), players, "hands_left")
        dropped_raw = checker.typed(record.get("dropped", []), list, "dropped")
        winner = checker.player(checker.require(record, "winner"), players, "winner")
        if raw is None or dropped_raw is None or winner is None:
            return None
        hands: dict[str, list[Card]] = {}
        placed: list[tuple[str, Card]] = []
        for p, v in raw.items():
            cards = checker.cards(v, join("hands_left", p))
            if cards is None:
                continue
            if len(cards) > HAND:
                checker.add(
                    "wrong_card_count",
                    join("hands_left", p),
                    gettext_noop("a hand holds at most %(hand)s cards"),
                    hand=HAND,
                )
            hands[p] = cards
            placed += [(join(join("hands_left", p), i), c) for i, c in enumerate(cards)]
        checker.deck_counts(placed, self.deck_for(len(players), {}))
        dropped: list[str] = []
        for i, v in enumerate(dropped_raw):
            who = checker.player(v, players, join("dropped", i))
            if who in dropped:
                checker.add(
                    "duplicate_player",
                    join("dropped", i),
                    gettext_noop("%(who)s dropped out once"),
                    who=who,
                )
            elif who is not None:
                dropped.append(who)
        if len(hands) != len(players) or not checker.ok:
            return None
        for p in dropped:
            held = next((c for c in subsets(hands[p]) if is_pass(c)), None)
            if held is not None:
                codes = " ".join(c.code for c in held)
                checker.add(
                    "could_play",
                    join("hands_left", p),
                    gettext_noop(
                        "%(p)s dropped out holding a pass (%(codes)s): a drop-out is allowed only when no play and no pass is possible"
                    ),
                    p=p,
                    codes=codes,
                )
        if winner in dropped:
            checker.add(
                "wrong_winner", "winner", gettext_noop("%(winner)s dropped out"), winner=winner
            )
        elif len(dropped) > self.most_dropped(len(players)):
            checker.add(
                "out_of_range", "dropped", gettext_noop("the last player left never drops out")
            )
        elif len(dropped) < len(players) - 1:
            left = [p for p in order if p not in dropped]
            best = best_hand(hands, left)
            if best != winner:
                checker.add(
                    "wrong_winner",
                    "winner",
                    gettext_noop("the stock ran out: %(best)s holds the highest cards"),
                    best=best,
                )
        return hands, dropped, winner


def _codes(hands: Mapping[str, list[Card]]) -> dict[str, list[str]]:
    return {p: [c.code for c in h] for p, h in hands.items()}


class OneTwoThreeFourMatch(MatchState):
    """A series of games: ``target`` games, or until ``rules.limit`` is reached; the
    winner of a game deals the next ("前回の勝者がディーラーになる")."""

    dealer_key = "dealer"

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        if self.dealer is not None and record.get("dealer") != self.dealer:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("%(dealer)s won the last game and deals"),
                dealer=self.dealer,
            )

    def add(self, record: Mapping[str, Any], result: DealResult) -> None:
        super().add(record, result)
        limit = self.rules.get("limit")
        method = self.rules.get("scoring")
        reached = False
        if limit is not None:
            if method == "winner_plus":
                reached = max(self.totals.values()) >= limit
            else:
                reached = min(self.totals.values()) <= -limit
        self.finished = reached or (self.target is not None and self.played >= self.target)

    def details(self) -> dict[str, Any]:
        method = self.rules.get("scoring")
        limit = self.rules.get("limit")
        details: dict[str, Any] = {"scoring": method}
        if method == "chips" and limit is not None:
            details["chips"] = {p: limit + t for p, t in self.totals.items()}
        return details
