"""Packing (Sid Sackson, *A Gamut of Games*): throw-off per suit and the race to 500.

2 players use one deck, 3 or more two decks.  With 4 and 6 players every other
seat is a partner, so the sides are ``players[0::2]`` and ``players[1::2]``;
``teams`` must say exactly that.  At the end of a deal, for each suit, the
smallest number of packs any side holds in that suit is thrown off by every
side, each side its lowest-scoring packs (the rulebook allows that choice; a
club always takes it).  The rest score A 20, K to 8 10, 7 to 2 5 (special pairs
count nothing at the end).  Every player receives their side's score.

A match ends when a side reaches ``target`` (default 500) alone at the top;
sides tied at the top at or over the target play another deal.

The dealer: a record may name them in ``dealer`` (default the last of
``players``, who are listed from the dealer's left); a full play's turns start at
the dealer's left (「ディーラーの左隣のプレイヤーから順に時計回りにプレイを行います。」).
In a match the deal rotates clockwise (「次回からは、ディーラーは時計回りに交代し
ます。」): the first deal is dealt by the last of ``players``, deal ``k + 1`` by
``players[k - 1]`` (:class:`PackingMatch`).

What a summary can never say (issue 18): a pack of one card or of two suits; a
card more often than the one or two decks hold it; teams other than the
alternate seats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, Suit, standard_deck
from engine.game import DealResult, Game, Scored
from engine.games.packing_play import count_cards, replay_packing
from engine.games.packing_random import random_packing_deal
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "table", "stock", "turns"})

END_VALUE = {"A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}
LOW_VALUE = 5


def card_value(card: Card) -> int:
    """A card's worth when a deal is scored (not its value during play)."""
    return END_VALUE.get(card.rank or "", LOW_VALUE)


def pack_value(pack: list[Card]) -> int:
    return sum(card_value(c) for c in pack)


class Packing(Game):
    name = "packing"
    player_counts = frozenset({2, 3, 4, 6})
    deal_keys = frozenset({"teams", "packs", "dealer"}) | FULL_PLAY_KEYS
    inherited_keys = frozenset({"teams"})
    default_target = 500
    accepts_target = True
    best_players = 4
    goal = "points"

    def sides(self, players: list[str]) -> list[list[str]]:
        if len(players) in (4, 6):
            return [players[0::2], players[1::2]]
        return [[p] for p in players]

    def match_fields(self, players: list[str]) -> dict[str, Any]:
        return {"teams": self.sides(players)} if len(players) in (4, 6) else {}

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        players = list(state.players)
        teams = self.sides(players) if len(players) in (4, 6) else None
        dealer = state.next_deal().get("dealer")
        return random_packing_deal(players, self.deck(len(players)), rng, teams, dealer)

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return PackingMatch(self, players, rules, target)

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        return {"packs": result.details["packs"]} if "packs" in result.details else {}

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        sides = self.sides(players)
        self._check_teams(record, players, sides, checker)
        dealer: str | None = players[-1]
        if "dealer" in record:  # a summary's only says who it was
            dealer = checker.player(record["dealer"], players, "dealer")
        full = not FULL_PLAY_KEYS.isdisjoint(record)
        if full:
            if dealer is None:
                return None
            packs = replay_packing(record, players, self.deck(len(players)), checker, dealer)
            if packs is not None and "packs" in record:
                given = self._packs(record, players, checker)
                checker.agrees("packs", MISSING if given is None else _codes(given), _codes(packs))
        else:
            packs = self._packs(record, players, checker)
        if packs is None or not checker.ok:
            return None

        side_scores: list[int] = []
        thrown: list[list[list[str]]] = []
        for side in sides:
            side_packs = [pack for p in side for pack in packs[p]]
            kept, off = _throw_off(side_packs, [[q for p in s for q in packs[p]] for s in sides])
            side_scores.append(sum(pack_value(pack) for pack in kept))
            thrown.append([[c.code for c in pack] for pack in off])
        best = max(side_scores)
        scores = {p: side_scores[i] for i, side in enumerate(sides) for p in side}
        winners = tuple(p for i, side in enumerate(sides) if side_scores[i] == best for p in side)
        details: dict[str, Any] = {"sides": sides, "side_scores": side_scores, "thrown_off": thrown}
        if full:
            details["packs"] = _codes(packs)
        return Scored(scores=scores, winners=winners, details=details)

    def _check_teams(
        self,
        record: Mapping[str, Any],
        players: list[str],
        sides: list[list[str]],
        checker: Checker,
    ) -> None:
        if len(players) not in (4, 6):
            if "teams" in record:
                checker.add(
                    "not_applicable",
                    "teams",
                    gettext_noop("%(n_players)s players play without partners"),
                    n_players=len(players),
                )
            return
        teams = checker.typed(checker.require(record, "teams"), list, "teams")
        if teams is None:
            return
        wanted = sorted(sorted(side) for side in sides)
        given = sorted(
            sorted(t) for t in teams if isinstance(t, list) and all(isinstance(p, str) for p in t)
        )
        if given != wanted:
            checker.add(
                "wrong_teams",
                "teams",
                gettext_noop("partners sit alternately: the teams are %(sides)s and %(sides2)s"),
                sides=sides[0],
                sides2=sides[1],
            )

    def _packs(
        self, record: Mapping[str, Any], players: list[str], checker: Checker
    ) -> dict[str, list[list[Card]]] | None:
        raw = checker.per_player(checker.require(record, "packs"), players, "packs")
        if raw is None:
            return None
        packs: dict[str, list[list[Card]]] = {}
        groups: list[tuple[str, list[Card]]] = []  # each pack, for the card count
        for p, value in raw.items():
            path = join("packs", p)
            items = checker.typed(value, list, path)
            if items is None:
                continue
            packs[p] = []
            for i, pack_raw in enumerate(items):
                pack_path = join(path, i)
                pack = checker.cards(pack_raw, pack_path)
                if pack is None:
                    continue
                if len(pack) < 2:
                    checker.add(
                        "short_pack",
                        pack_path,
                        gettext_noop("a pack is a field card and at least one card from hand"),
                    )
                if any(c.suit is None for c in pack) or len({c.suit for c in pack}) > 1:
                    checker.add(
                        "mixed_suits", pack_path, gettext_noop("a pack holds cards of one suit")
                    )
                groups.append((pack_path, pack))
                packs[p].append(pack)
        count_cards(groups, self.deck(len(players)), checker)
        return packs if len(packs) == len(players) else None

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        """The deal rotates clockwise: ``players`` starts left of the first dealer, who is the
        last of them; after ``played`` deals the dealer is ``players[played - 1]``."""
        return players[(played - 1) % len(players)]

    def deck(self, players: int) -> Mapping[str, int]:
        """One deck for two players, two decks (104 cards) for three or more."""
        return standard_deck(copies=1 if players == 2 else 2)

    def deck_for(self, players: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
        return self.deck(players)

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        best = max(side_totals)
        return target is not None and best >= target and list(side_totals).count(best) == 1

    def progress(
        self, snapshot: Mapping[str, Any], players: Sequence[str], target: int | None
    ) -> tuple[int, int | None]:
        """The leading side's points, of ``target`` (every player holds their side's)."""
        return max((int(t) for t in snapshot.get("totals", {}).values()), default=0), target


class PackingMatch(MatchState):
    """The race to ``target``; the deal rotates clockwise (「次回からは、ディーラーは
    時計回りに交代します。」): ``players`` starts at the first dealer's left, so the
    first deal is dealt by the last of them and deal ``k + 1`` by ``players[k - 1]``.
    A deal inherits ``dealer``; one naming another player is ``wrong_dealer``."""

    dealer_key = "dealer"

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        first = self.players[-1]
        dealer = self.dealer if self.dealer is not None else first
        if record.get("dealer", first) != dealer:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("the deal rotates clockwise: %(dealer)s deals deal %(number)s"),
                dealer=dealer,
                number=self.played + 1,
            )


def _throw_off(
    own: list[list[Card]], every_side: list[list[list[Card]]]
) -> tuple[list[list[Card]], list[list[Card]]]:
    """Split one side's packs into (kept, thrown off)."""
    kept: list[list[Card]] = []
    off: list[list[Card]] = []
    for suit in Suit:
        mine = sorted((p for p in own if p[0].suit == suit), key=pack_value)
        least = min(sum(1 for p in side if p[0].suit == suit) for side in every_side)
        off.extend(mine[:least])
        kept.extend(mine[least:])
    return kept, off


def _codes(packs: Mapping[str, list[list[Card]]]) -> dict[str, list[list[str]]]:
    return {
        p: [[c.code for c in pack] for pack in player_packs] for p, player_packs in packs.items()
    }
