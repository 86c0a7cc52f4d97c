"""Comrade (カムレッド, ドミッチ): a cooperative no-trump trick game; all win or all lose.

Rulebook: ../shared/rules/003_…comrade.txt.

Variants by player count:

===  ==========================  ==============  =====  ======  ============
n    tricks deck, rank order     bid cards       total  tricks  titles
===  ==========================  ==============  =====  ======  ============
3    one deck without A–4: K…5   A–4 of it       12     12      3 games
4    52 cards: A K … 2           A–6 (2nd deck)  13     13      4 games
5    52 cards: A K … 2           A–4 + 2 jokers  10     10      5 games
===  ==========================  ==============  =====  ======  ============

Bidding: from the dealer round the table, at most three rounds; each turn takes
a bid card (a suit and a count, A 1) or passes.  A card of a suit the player
bid already must be higher, and it replaces the bid.  With five players a joker
adds 1 to one of the player's bids, or bids 1 in a new suit.  The bidding fails
at once (everyone loses) when the total passes the target, when three turns in
a row pass, when no card left can be taken without passing it, or when three
rounds end short of it; it ends when the total is exactly the target.

Play: the dealer leads, must follow suit, the highest card of the led suit
wins; a trick counts for its winner in the led suit.  The game fails at once
when someone wins a trick of a suit they did not bid or more than their bid;
it succeeds when every trick is played and every bid is met exactly.

A match is the series of one game per player (each deals once, in turn); the
number of games won gives the title (Excellent … Low).

Decisions: "三人連続でパス" stays three turns in a row with 4 and 5 players
(the variants do not change it).  "どのカードをとっても" counts every card still on
the table for every player (with the rule that a player's new card of a suit
must be higher).  With these decks no legal bidding seems to reach that
position (an ace or a card one above a bid is always left within reach), but
the check is made after every bid all the same.  A joker's own value is 1.
A player who never bid is left out of ``bids``.  A card laid on a joker
must still raise the bid (♠3 + joker is 4: only a higher spade card goes on).  Scores: +1 to everyone for a won
game, 0 for a lost one; the match's ``winners`` are everyone when every game
was won (Excellent), nobody otherwise.

What a summary can never say (issue 18; ``comrade_bids.bid_cards_allow``): a bid is the
top card of the player's stack of that suit (「上に重ねたカードのみを使います」)
and each bid card exists once (「すでに他の人が取っているカードを横どりすることは
できません」): with 3 players no bid above 4, with 4 above 6, and no two players
with the same count in one suit; with 5 players (A–4 and two jokers, 「ジョーカー
は任意の宣言カードに対し +1」) bids up to 6 that two jokers in all can make; and
at most three cards or jokers a player (「宣言のチャンスは最大で 3回」).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Suit
from engine.game import DealResult, Game, Scored
from engine.games.common import after, dealer
from engine.games.comrade_bids import bid_cards_allow
from engine.games.comrade_play import (
    FULL_PLAY_KEYS,
    SUITS,
    TARGET,
    bids_total,
    by_suit_name,
    random_deal,
    replay,
)
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

TITLES = {
    3: ("Low", "Bad", "Good", "Excellent"),
    4: ("Low", "Bad", "Average", "Good", "Excellent"),
    5: ("Low", "Bad", "Average", "Good", "Great", "Excellent"),
}


class Comrade(Game):
    name = "comrade"
    player_counts = frozenset({3, 4, 5})
    deal_keys = frozenset({"dealer", "bids", "tricks_won"}) | FULL_PLAY_KEYS
    inherited_keys = frozenset({"rules"})
    best_players = 3
    rated = False
    deals_follow_the_match = True

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        return random_deal(rng, list(state.players), state.next_deal()["dealer"])

    def sides(self, players: list[str]) -> list[list[str]]:
        return [list(players)]

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return ComradeMatch(self, players, rules, target)

    def progress(
        self, snapshot: Mapping[str, Any], players: Sequence[str], target: int | None
    ) -> tuple[int, int | None]:
        """One game (deal) per player."""
        return int(snapshot.get("played", 0)), len(players)

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        d = result.details
        return {"dealer": record["dealer"], "bids": d["bids"], "tricks_won": d["tricks_won"]}

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        deals_by = dealer(record, players, checker)
        if deals_by is None:
            return None
        n = len(players)
        failure: str | None
        if not FULL_PLAY_KEYS.isdisjoint(record):
            played = replay(record, players, deals_by, checker)
            if played is None:
                return None
            bids, won, failure = played
            for key, derived in (("bids", by_suit_name(bids)), ("tricks_won", by_suit_name(won))):
                checker.agrees(key, record.get(key, MISSING), derived)
        else:
            read_bids = _per_suit(record, "bids", players, 1, checker, required=False)
            read_won = _per_suit(record, "tricks_won", players, 0, checker, required=False)
            if read_bids is None or read_won is None:
                return None
            bids, won = read_bids, read_won
            if not bid_cards_allow(bids, n, checker):
                return None
            failure = _judge(bids, won, n, checker)
        if not checker.ok or failure is None:
            return None
        success = failure == "success"
        scores = {p: 1 if success else 0 for p in players}
        details = {
            "outcome": failure,
            "success": success,
            "bids": by_suit_name(bids),
            "tricks_won": by_suit_name(won),
            "bid_total": bids_total(bids),
        }
        return Scored(scores, tuple(players) if success else (), details)


def _per_suit(
    record: Mapping[str, Any],
    key: str,
    players: list[str],
    minimum: int,
    checker: Checker,
    required: bool = True,
) -> dict[str, dict[Suit, int]] | None:
    value = checker.require(record, key) if required or key == "bids" else record.get(key, {})
    raw = checker.per_player(value, players, key, required=False)
    if raw is None:
        return None
    table: dict[str, dict[Suit, int]] = {p: {} for p in players}
    for p, row in raw.items():
        obj = checker.typed(row, dict, join(key, p))
        if obj is None:
            continue
        for name, count in obj.items():
            path = join(join(key, p), name)
            if name not in SUITS:
                checker.add(
                    "unknown_suit",
                    path,
                    gettext_noop("'%(name)s' is not one of %(names)s"),
                    name=name,
                    names=", ".join(SUITS),
                )
                continue
            number = checker.integer(count, path, minimum=minimum, maximum=13)
            if number is not None:
                table[p][SUITS[name]] = number
    return table if checker.ok else None


def _judge(
    bids: Mapping[str, Mapping[Suit, int]],
    won: Mapping[str, Mapping[Suit, int]],
    n: int,
    checker: Checker,
) -> str | None:
    """The outcome of a summary record: ``success``, ``bidding``, ``wrong_suit``, ``too_many``
    or ``short`` (every trick played, some bid not met)."""
    total = bids_total(bids)
    tricks = bids_total(won)
    if total != TARGET[n]:
        if tricks:
            checker.add(
                "not_applicable",
                "tricks_won",
                gettext_noop(
                    "the bids make %(total)s, not %(target)s: the game failed in the bidding and no trick was played"
                ),
                total=total,
                target=TARGET[n],
            )
            return None
        return "bidding"
    excess = {
        (p, s): c - bids[p].get(s, 0)
        for p, row in won.items()
        for s, c in row.items()
        if c > bids[p].get(s, 0)
    }
    if sum(excess.values()) > 1:
        checker.add(
            "deal_over", "tricks_won", gettext_noop("the game ends at the first trick beyond a bid")
        )
        return None
    if tricks > TARGET[n]:
        checker.add(
            "out_of_range",
            "tricks_won",
            gettext_noop("%(tricks)s tricks; a game has %(target)s"),
            tricks=tricks,
            target=TARGET[n],
        )
        return None
    if excess:
        (p, s), _ = next(iter(excess.items()))
        return "too_many" if bids[p].get(s, 0) else "wrong_suit"
    if tricks < TARGET[n]:
        checker.add(
            "deal_not_over",
            "tricks_won",
            gettext_noop(
                "%(tricks)s of %(target)s tricks, and no bid was passed: the game goes on"
            ),
            tricks=tricks,
            target=TARGET[n],
        )
        return None
    met = all(won[p].get(s, 0) == c for p, row in bids.items() for s, c in row.items())
    return "success" if met else "short"


class ComradeMatch(MatchState):
    """One game per player, the deal going round; the games won give the title."""

    def __init__(
        self, game: Game, players: list[str], rules: dict[str, Any], target: int | None
    ) -> None:
        super().__init__(game, players, rules, target)
        self.dealer = players[0]
        self.wins = 0

    def saved_fields(self) -> tuple[str, ...]:
        return (*super().saved_fields(), "wins")

    dealer_key = "dealer"

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        if record.get("dealer") != self.dealer:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("the deal goes round: %(dealer)s deals game %(number)s"),
                dealer=self.dealer,
                number=self.played + 1,
            )

    def add(self, record: Mapping[str, Any], result: DealResult) -> None:
        self.played += 1
        if result.details["success"]:
            self.wins += 1
            for p in self.players:
                self.totals[p] += 1
                self.won[p] += 1
        self.dealer = after(self.players, str(record["dealer"]))
        self.finished = self.played >= len(self.players)

    def winning_sides(self, standings: Mapping[str, Any]) -> list[list[str]]:
        return [list(self.players)] if self.wins == len(self.players) else []

    def details(self) -> dict[str, Any]:
        titles = TITLES[len(self.players)]
        details: dict[str, Any] = {"games": len(self.players), "won": self.wins}
        if self.finished:
            details["title"] = titles[self.wins]
        return details


# -- random legal play (tests, demo data) ------------------------------------------------
