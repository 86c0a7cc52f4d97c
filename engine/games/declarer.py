"""What Napoleon and Rettler share: a declaration, adjutants, point cards and a zero-sum payout.

This module checks and scores both kinds of record (docs/deal-records.md): a
*summary* states who declared what, who turned out to be an adjutant and how many
point cards (10 J Q K A) each player won; a *full-play* record gives the hands
and every trick, and :mod:`engine.games.replay` derives the same facts from it
(:mod:`engine.games.simulate` plays such deals at random for both games).
The two games differ only in the hooks a subclass sets: how many point cards
exist, the lowest declaration, how many adjutants may be named, the hand and
widow sizes, the deck and the score table.

Decisions where the rulebook is silent or ambiguous (each has a test):

* 全付け (the army takes every point card) and the zero-sum settlement:
  :mod:`engine.games.settlement`.
* A summary record may name more adjutant cards than the declaration allows
  adjutants (形式的に, footnote 8): :mod:`engine.games.adjutants`.

What a summary can never say (issue 18; docs/deal-records.md): a count outside
table 2.3.2 / 3.2; more adjutants than the declaration allows, or than the named
cards have copies (an adjutant holds a named card: 「副官が 2 人の場合 … ♠A と指名
出来る」; Napoleon's deck holds each card once, Rettler's twice); the declarer as an
adjutant; an adjutant with no card named; named cards that could make too many
adjutants however the declarer's hand was dealt; more point cards discarded than the
widow has cards (「中のカード」を取って数枚捨てる); point cards that do not make
20 / 40.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.game import DealResult, Game, Scored
from engine.games import adjutants
from engine.games.declarations import TRUMPS, Bid
from engine.games.replay import replay
from engine.games.score_tables import Payout
from engine.games.settlement import Army, settle
from engine.games.simulate import random_full_deal
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

__all__ = ["FULL_PLAY_KEYS", "TRUMPS", "Bid", "DeclarerGame"]

FULL_PLAY_KEYS = frozenset({"hands", "widow", "discards", "tricks"})


class DeclarerGame(Game):
    """Summary scoring shared by Napoleon and Rettler.

    The rulebooks set no end to a match: a club plays until it stops.  A match record may
    give ``target``, a number of deals: the match is finished after that many (a round of
    a tournament, a night's agreed length); without it the match is open-ended, and the
    league ends it by hand.  Its winner is then the first by the cumulative points.
    """

    point_cards_total: ClassVar[int]
    accepts_target = True
    deal_keys = (
        frozenset(
            {"declaration", "adjutant_cards", "adjutants", "point_cards", "discarded_point_cards"}
        )
        | FULL_PLAY_KEYS
    )

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        """After ``target`` deals, when the match names a number of deals."""
        return target is not None and deals_played >= target

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        """A full-play deal of the match's players, by random legal choices."""
        return random_full_deal(self, list(state.players), rng)

    # -- what each game gives as a table ---------------------------------------------
    widows: ClassVar[Mapping[int, int]]
    """Cards left in the centre (中のカード) by number of players, tables 2.1 and 3.1."""
    hands: ClassVar[Mapping[int, int]]
    """Cards dealt to each player by number of players, tables 2.1 and 3.1."""

    def widow_size(self, players: int) -> int:
        return self.widows[players]

    def hand_size(self, players: int) -> int:
        return self.hands[players]

    # -- hooks -----------------------------------------------------------------

    @abstractmethod
    def adjutant_choices(self, players: int) -> tuple[int, ...]:
        """How many adjutants a declaration may allow with this many players."""

    @abstractmethod
    def minimum_count(self, players: int, adjutants: int) -> int:
        """The lowest declaration (2.3.2, table 3.2)."""

    @abstractmethod
    def deck(self) -> Mapping[str, int]:
        """How many of each card the deck holds."""

    def deck_for(self, players: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
        return self.deck()

    def count_range(self, players: int, adjutants: int) -> tuple[int, int]:
        """The counts a declaration may name (2.3.2, table 3.2): the lowest to every point card."""
        return self.minimum_count(players, adjutants), self.point_cards_total

    @abstractmethod
    def payout(
        self, players: int, count: int, allowed: int, won: bool, taken: int, found: int
    ) -> Payout:
        """The score table row for a decided (non-全付け) deal."""

    # -- declarations ----------------------------------------------------------
    def bid_priority(self, players: int, bid: Bid) -> tuple[int, int]:
        """Higher is stronger: the count (converted where table 3.3 says), then the trump."""
        return (self.comparable_count(players, bid), -TRUMPS.index(bid.trump))

    def comparable_count(self, players: int, bid: Bid) -> int:
        """The count two declarations are compared by (Rettler converts 5-player two-adjutant ones)."""
        return bid.count

    def outranks(self, players: int, bid: Bid, standing: Bid) -> bool:
        """Whether ``bid`` may be declared over ``standing`` (2.3.2, 3.3.2)."""
        return self.bid_priority(players, bid) > self.bid_priority(players, standing)

    # -- checking --------------------------------------------------------------
    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        points = result.details["point_cards"]
        return {
            "declaration": record["declaration"],
            "adjutant_cards": record["adjutant_cards"],
            "adjutants": result.details["adjutants"],
            "point_cards": points,
            "discarded_point_cards": self.point_cards_total - sum(points.values()),
        }

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        n = len(players)
        declaration = self._declaration(record, players, checker)
        allowed = declaration[3] if declaration else None
        if not FULL_PLAY_KEYS.isdisjoint(record):
            return self._score_full_play(record, players, declaration, checker)
        declarer = declaration[0] if declaration else None
        found = adjutants.found(record, players, declarer, allowed, checker)
        named = adjutants.named_cards(record, self.deck(), self.hand_size(n), allowed, checker)
        if found is not None and named is not None:
            adjutants.held_by_named(found, named, self.deck(), checker)
        points = self._point_cards(record, players, checker)
        discarded = checker.integer(
            record.get("discarded_point_cards", 0),
            "discarded_point_cards",
            minimum=0,
            maximum=self.widow_size(n),
        )
        if points is not None and discarded is not None:
            total = sum(points.values()) + discarded
            if total != self.point_cards_total:
                checker.add(
                    "point_cards_total",
                    "point_cards",
                    gettext_noop(
                        "the players' point cards (%(sum)s) and the discarded ones (%(discarded)s) add up to %(total)s, not %(point_cards_total)s"
                    ),
                    sum=sum(points.values()),
                    discarded=discarded,
                    total=total,
                    point_cards_total=self.point_cards_total,
                )
                return None
        if declaration is None or found is None or points is None or not checker.ok:
            return None
        declarer, count, _trump, allowed = declaration
        return self._settle(players, declarer, count, allowed, found, points)

    def _settle(
        self,
        players: list[str],
        declarer: str,
        count: int,
        allowed: int,
        adjutants: list[str],
        points: dict[str, int],
    ) -> Scored:
        army = Army(declarer, tuple(adjutants))
        return settle(players, army, count, allowed, points, self.point_cards_total, self.payout)

    def _score_full_play(
        self,
        record: Mapping[str, Any],
        players: list[str],
        declaration: tuple[str, int, str, int] | None,
        checker: Checker,
    ) -> Scored | None:
        """Replay the deal; summary fields given as well must agree with the replay."""
        replayed = replay(self, record, players, declaration, checker)
        if replayed is None or declaration is None:
            return None
        given = {
            "adjutants": replayed.adjutants,
            "point_cards": replayed.point_cards,
            "discarded_point_cards": replayed.discarded_point_cards,
        }
        for key, derived in given.items():
            checker.agrees(key, record.get(key, MISSING), derived, repr(derived))
        if not checker.ok:
            return None
        declarer, count, _trump, allowed = declaration
        scored = self._settle(
            players, declarer, count, allowed, replayed.adjutants, replayed.point_cards
        )
        scored.details["trick_winners"] = replayed.trick_winners
        scored.details["misdeal_hands"] = replayed.misdeal_hands
        if self.name == "rettler":
            scored.details["point_calls"] = replayed.point_calls
        return scored

    def _declaration(
        self, record: Mapping[str, Any], players: list[str], checker: Checker
    ) -> tuple[str, int, str, int] | None:
        raw = checker.typed(checker.require(record, "declaration"), dict, "declaration")
        if raw is None:
            return None
        checker.known_keys(raw, {"player", "count", "trump", "adjutants"}, "declaration")
        declarer = checker.player(
            checker.require(raw, "player", "declaration"), players, "declaration.player"
        )
        trump = checker.typed(
            checker.require(raw, "trump", "declaration"), str, "declaration.trump"
        )
        if trump is not None and trump not in TRUMPS:
            checker.add(
                "unknown_trump",
                "declaration.trump",
                gettext_noop("'%(trump)s' is not one of %(names)s"),
                trump=trump,
                names=", ".join(TRUMPS),
            )
            trump = None
        choices = self.adjutant_choices(len(players))
        allowed: int | None
        if "adjutants" in raw:
            allowed = checker.integer(raw["adjutants"], "declaration.adjutants")
            if allowed is not None and allowed not in choices:
                checker.add(
                    "adjutant_count",
                    "declaration.adjutants",
                    gettext_noop(
                        "with %(n_players)s players a declaration allows %(names)s adjutant(s), not %(allowed)s"
                    ),
                    n_players=len(players),
                    names=" or ".join(map(str, choices)),
                    allowed=allowed,
                )
                allowed = None
        elif len(choices) == 1:
            allowed = choices[0]
        else:
            checker.add(
                "missing_field",
                "declaration.adjutants",
                gettext_noop(
                    "with %(n_players)s players say whether the declaration allows %(names)s adjutants"
                ),
                n_players=len(players),
                names=" or ".join(map(str, choices)),
            )
            allowed = None
        count = checker.integer(checker.require(raw, "count", "declaration"), "declaration.count")
        if count is not None and allowed is not None:
            lowest, highest = self.count_range(len(players), allowed)
            if not lowest <= count <= highest:
                checker.add(
                    "count_out_of_range",
                    "declaration.count",
                    gettext_noop(
                        "with %(n_players)s players and %(allowed)s adjutant(s) a declaration is %(lowest)s to %(point_cards_total)s point cards, not %(count)s"
                    ),
                    n_players=len(players),
                    allowed=allowed,
                    lowest=lowest,
                    point_cards_total=self.point_cards_total,
                    count=count,
                )
                count = None
        if declarer is None or count is None or trump is None or allowed is None:
            return None
        return declarer, count, trump, allowed

    def _point_cards(
        self, record: Mapping[str, Any], players: list[str], checker: Checker
    ) -> dict[str, int] | None:
        raw = checker.per_player(checker.require(record, "point_cards"), players, "point_cards")
        if raw is None:
            return None
        points: dict[str, int] = {}
        for name, value in raw.items():
            number = checker.integer(
                value, join("point_cards", name), minimum=0, maximum=self.point_cards_total
            )
            if number is not None:
                points[name] = number
        return points if len(points) == len(players) else None
