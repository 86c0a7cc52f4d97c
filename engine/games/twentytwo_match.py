"""Twenty-Two's match (the rules: :mod:`engine.games.twentytwo`): the penalties added up,
a player out at 22 (30 in the gambling game), the loser's deal and hand size from the
cards left, buy-backs, and the survivor's win."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import DealResult, Game
from engine.games.twentytwo_play import FIRST_HAND
from engine.match import MatchState
from engine.problems import Checker, gettext_noop, join

LIMIT = 22
GAMBLING_LIMIT = 30


def default_decks(players: int) -> int:
    """Two decks from 7 players."""
    return 1 if players <= 6 else 2


class TwentyTwoMatch(MatchState):
    """Eliminations, the loser's deal and hand size, buy-backs, the survivor's win."""

    def __init__(
        self, game: Game, players: list[str], rules: dict[str, Any], target: int | None
    ) -> None:
        super().__init__(game, players, rules, target)
        self.gambling = bool(rules.get("gambling", False))
        self.all_out = str(rules.get("all_out") or "last_out")
        self.limit = GAMBLING_LIMIT if self.gambling else LIMIT
        self.decks = default_decks(len(players))
        self.alive = list(players)
        self.out_at: dict[str, int] = {}
        self.bought: dict[str, int] = {}
        self.hand_size = FIRST_HAND
        self.losers: list[str] = []
        self.winners: list[str] = []
        self.removed: dict[str, int] = {}
        """Penalty cards placed in front of the losers: out of the deck for the match."""

    def saved_fields(self) -> tuple[str, ...]:
        return (
            *super().saved_fields(),
            "alive",
            "out_at",
            "bought",
            "hand_size",
            "losers",
            "winners",
            "removed",
        )

    def next_deal(self) -> dict[str, Any]:
        deal: dict[str, Any] = {
            "players": list(self.alive),
            "hand_size": self.hand_size,
            "decks": self.decks,
        }
        if self.dealer is not None:
            deal["dealer"] = self.dealer
        return deal

    def penalty(self, player: str) -> int:
        return -self.totals[player]

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        if record.get("hand_size") != self.hand_size:
            checker.add(
                "wrong_hand_size",
                "hand_size",
                gettext_noop("this deal is dealt %(hand_size)s cards each"),
                hand_size=self.hand_size,
            )
        if record.get("decks") != self.decks:
            checker.add(
                "wrong_decks",
                "decks",
                gettext_noop("this match is played with %(decks)s deck(s)"),
                decks=self.decks,
            )
        drawers = self.alive if not self.losers else self.losers
        if self.dealer is not None and record.get("dealer") != self.dealer:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("%(dealer)s lost the last deal and deals"),
                dealer=self.dealer,
            )
        elif record.get("dealer") not in drawers:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("the dealer is drawn among %(names)s"),
                names=", ".join(drawers),
            )
        if "draw" in record and self.dealer is None:
            first = record["draw"][0] if isinstance(record["draw"], list) else {}
            if sorted(first) != sorted(drawers):
                checker.add(
                    "wrong_draw",
                    "draw[0]",
                    gettext_noop("%(names)s draw for the deal"),
                    names=", ".join(drawers),
                )
        for who, code in result.details["last_trick"].items():
            if self.removed.get(code, 0) >= self.decks:
                checker.add(
                    "card_out",
                    join("last_trick", who),
                    gettext_noop("%(code_)s lies in front of a loser: it is out of the deck"),
                    code_=code,
                )
        points = int(result.details["penalty"])
        for i, who in enumerate(result.details["buy_back"]):
            if who in self.bought:
                checker.add(
                    "bought_back_twice",
                    join("buy_back", i),
                    gettext_noop("%(who)s bought back already"),
                    who=who,
                )
            elif self.penalty(who) + points < self.limit:
                checker.add(
                    "not_eliminated",
                    join("buy_back", i),
                    gettext_noop("%(who)s would have %(number)s, under %(limit)s"),
                    who=who,
                    number=self.penalty(who) + points,
                    limit=self.limit,
                )

    def add(self, record: Mapping[str, Any], result: DealResult) -> None:
        self.played += 1
        for player, score in result.scores.items():
            self.totals[player] += score
        for player in result.winners:
            self.won[player] += 1
        losers = list(result.details["losers"])
        for player in losers:
            code = result.details["last_trick"][player]
            self.removed[code] = self.removed.get(code, 0) + 1
        for player in result.details["buy_back"]:
            self.bought[player] = self.played
        before = len(self.alive)
        out = [p for p in self.alive if self.penalty(p) >= self.limit]
        for player in out:
            self.out_at[player] = self.played
        self.alive = [p for p in self.alive if p not in out]
        self.losers = [p for p in losers if p in self.alive]
        self.dealer = self.losers[0] if len(self.losers) == 1 else None
        if self.alive:
            left = 52 * self.decks - sum(self.removed.values())
            self.hand_size = min(int(result.details["penalty"]), left // len(self.alive))
        if len(self.alive) <= 1 or (self.gambling and out and before <= 3):
            self.finished = True
            self.winners = self._winners(out)

    def _winners(self, last_out: list[str]) -> list[str]:
        pool = self.alive or last_out
        if self.alive and not self.gambling:
            return list(self.alive)
        if not self.alive and self.all_out == "last_out":
            return list(last_out)
        fewest = min(self.penalty(p) for p in pool)
        return [p for p in pool if self.penalty(p) == fewest]

    def rank_key(self, player: str) -> tuple[int, ...]:
        if player in self.winners:
            return (0,)
        return (1, -self.out_at.get(player, self.played + 1), self.penalty(player))

    def winning_sides(self, standings: Mapping[str, Any]) -> list[list[str]]:
        return [[p] for p in self.winners]

    def details(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "penalties": {p: self.penalty(p) for p in self.players},
            "eliminated": dict(self.out_at),
            "bought_back": dict(self.bought),
            "in": list(self.alive),
        }
