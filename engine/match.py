"""A match in progress: what :func:`engine.check_match` keeps between deals.

The default :class:`MatchState` is the match of the headline games: every deal
is played by every player, scores add up, and the game's hooks
(:meth:`~engine.game.Game.is_finished`, :meth:`~engine.game.Game.next_dealer`,
:meth:`~engine.game.Game.rank_key`) say when it is over and who leads.  Games
whose matches are more than a sum (Twenty-Two's eliminations, Comrade's titles)
subclass it and return their own from :meth:`~engine.game.Game.new_match`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any, ClassVar, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from engine.problems import Checker
from engine.results import DealResult, Standing

P = TypeVar("P")
"""Whoever is ranked: a player's handle in a match, their id on a leaderboard."""


def competition_ranks(keys: Mapping[P, tuple[int, ...]]) -> dict[P, int]:
    """Standard competition ranking (1, 2, 2, 4) of each player by their key (smaller is
    better), best first; players with equal keys share a rank and keep the order given.
    The one ranking of a match's standings, a season's leaderboard and a correction's
    effect (:meth:`engine.game.Game.ranks`)."""
    ranks: dict[P, int] = {}
    previous: tuple[int, ...] | None = None
    rank = 0
    for position, player in enumerate(sorted(keys, key=keys.__getitem__), start=1):
        if keys[player] != previous:
            rank, previous = position, keys[player]
        ranks[player] = rank
    return ranks


class MatchRules(Protocol):
    """The hooks of :class:`~engine.game.Game` a match reads (this module does not import
    the game module: the game creates its match state, never the other way round)."""

    def sides(self, players: list[str]) -> list[list[str]]: ...

    def rank_key(self, total: int, deals_won: int) -> tuple[int, ...]: ...

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool: ...

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None: ...

    def winning_sides(
        self, sides: list[list[str]], standings: Mapping[str, Standing]
    ) -> list[list[str]]: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class MatchState:
    """The running totals of a match; ``add`` one valid deal at a time."""

    dealer_key: ClassVar[str | None] = None
    """The field of a deal that names who deals it, in games where the deal passes on
    from deal to deal (the match's ``dealer``, which each deal inherits and must keep);
    ``None``: the match does not say who deals."""

    def __init__(
        self, game: MatchRules, players: list[str], rules: dict[str, Any], target: int | None
    ) -> None:
        self.game = game
        self.players = players
        self.rules = rules
        self.target = target
        self.sides = game.sides(players)
        self.totals: dict[str, int] = dict.fromkeys(players, 0)
        self.won: dict[str, int] = dict.fromkeys(players, 0)
        self.played = 0
        self.finished = False
        self.dealer: str | None = None

    # -- kept between two requests -------------------------------------------------
    def saved_fields(self) -> tuple[str, ...]:
        """The attributes a snapshot keeps: what deals change (the rest follows from the
        match's players, rules and target).  A subclass adds its own."""
        return ("totals", "won", "played", "finished", "dealer")

    def snapshot(self) -> dict[str, Any]:
        """The match so far as a JSON value: :meth:`restore` on a new state of the same
        match (players, rules, target) continues it exactly where this one stands."""
        return {name: deepcopy(getattr(self, name)) for name in self.saved_fields()}

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        for name in self.saved_fields():
            setattr(self, name, deepcopy(snapshot[name]))

    # -- before a deal -------------------------------------------------------------
    def next_deal(self) -> dict[str, Any]:
        """The fields the next deal inherits from the match: its ``players``, who deals
        it where the deal passes on (:attr:`dealer_key`), and in games that say so more
        (how many cards)."""
        deal: dict[str, Any] = {"players": list(self.players)}
        if self.dealer_key is not None and self.dealer is not None:
            deal[self.dealer_key] = self.dealer
        return deal

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        """Cross-deal checks of a valid deal against the match so far (paths are the deal's)."""

    # -- after a deal --------------------------------------------------------------
    def add(self, record: Mapping[str, Any], result: DealResult) -> None:
        self.played += 1
        self.dealer = self.game.next_dealer(self.players, self.played, result) or self.dealer
        for player, score in result.scores.items():
            self.totals[player] += score
        for player in result.winners:
            self.won[player] += 1
        self.finished = self.game.is_finished(
            [self.totals[side[0]] for side in self.sides], self.played, self.target
        )

    # -- the outcome ---------------------------------------------------------------
    def rank_key(self, player: str) -> tuple[int, ...]:
        return self.game.rank_key(self.totals[player], self.won[player])

    def standings(self) -> tuple[Standing, ...]:
        """Standard competition ranking (1, 2, 2, 4) by :meth:`rank_key`; ties keep seat order."""
        ranks = competition_ranks({player: self.rank_key(player) for player in self.players})
        return tuple(
            Standing(player, self.totals[player], self.played, self.won[player], rank)
            for player, rank in ranks.items()
        )

    def winning_sides(self, standings: Mapping[str, Standing]) -> list[list[str]]:
        """The sides that won the finished match (more than one: a shared win)."""
        return self.game.winning_sides(self.sides, standings)

    def next_dealer(self) -> str | None:
        return None if self.finished else self.dealer

    def details(self) -> dict[str, Any]:
        """Game-specific facts about the match (docs/deal-records.md, "Matches")."""
        return {}
