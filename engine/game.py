"""What every game provides, and the results the engine returns.

A game is a :class:`Game` subclass that reads its own fields of a deal record and
scores the deal; the match rules (who has won, when a match is over) are a few
hooks with defaults.  The envelope (``game``, ``players``, ``rules``) and the
match record are read once, in :mod:`engine.api`, for every game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.problems import Checker, Problem

if TYPE_CHECKING:
    from engine.match import MatchState

ENVELOPE_KEYS = frozenset({"game", "players", "rules"})


@dataclass(frozen=True, slots=True)
class Scored:
    """What a game's deal scoring produces for a valid deal."""

    scores: dict[str, int]
    """Score change per player, every player present."""
    winners: tuple[str, ...]
    """The players credited with winning this deal (for 'deals won')."""
    details: dict[str, Any] = field(default_factory=dict)
    """Game-specific facts, as documented in docs/deal-records.md."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """The engine's answer for one deal record."""

    game: str
    errors: tuple[Problem, ...]
    scores: dict[str, int]
    details: dict[str, Any]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(self.details.get("winners", ()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "valid": self.valid,
            "errors": [p.to_dict() for p in self.errors],
            "scores": dict(self.scores),
            "details": dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in a match's standings."""

    player: str
    total: int
    deals: int
    deals_won: int
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "total": self.total,
            "deals": self.deals,
            "deals_won": self.deals_won,
            "rank": self.rank,
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The engine's answer for one match record."""

    game: str
    errors: tuple[Problem, ...]
    standings: tuple[Standing, ...]
    finished: bool
    winner: str | None
    winners: tuple[str, ...]
    deals: tuple[DealResult, ...]
    next_dealer: str | None = None
    next_deal: dict[str, Any] = field(default_factory=dict)
    """What the next deal inherits from the match (``players``, and per game more)."""
    details: dict[str, Any] = field(default_factory=dict)
    """Game-specific facts about the match (eliminations, titles…)."""

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "valid": self.valid,
            "errors": [p.to_dict() for p in self.errors],
            "standings": [s.to_dict() for s in self.standings],
            "finished": self.finished,
            "winner": self.winner,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
            "next_deal": dict(self.next_deal),
            "details": dict(self.details),
            "deals": [d.to_dict() for d in self.deals],
        }


class Game(ABC):
    """The rules of one game, as far as scoring a record needs them."""

    name: ClassVar[str]
    """The ``game`` value of its records."""
    player_counts: ClassVar[frozenset[int]]
    """How many players a deal may have."""
    deal_keys: ClassVar[frozenset[str]]
    """The record fields besides the envelope."""
    rule_names: ClassVar[frozenset[str]] = frozenset()
    """The variants accepted in ``rules``."""
    inherited_keys: ClassVar[frozenset[str]] = frozenset()
    """Deal fields a match record may give once for all its deals (besides the envelope)."""
    default_target: ClassVar[int | None] = None
    """A match's default ``target``; ``None``: open-ended."""
    accepts_target: ClassVar[bool] = False
    """Whether a match record may give ``target`` (true whenever there is a default)."""

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        """Validate the values of ``rules`` (the names were checked already)."""
        return dict(rules)

    @abstractmethod
    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        """Check the game's fields and score the deal; ``None`` when problems were found."""

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        """The summary fields equivalent to a valid full-play ``record`` (``result`` is its check):
        a record of those fields scores the same.  Games without full play have none."""
        return {}

    # -- match rules -----------------------------------------------------------
    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        """The state :func:`engine.check_match` keeps between deals (default: scores add up)."""
        from engine.match import MatchState

        return MatchState(self, players, rules, target)

    def sides(self, players: list[str]) -> list[list[str]]:
        """Who wins or loses together: by default every player alone."""
        return [[p] for p in players]

    def rank_key(self, total: int, deals_won: int) -> tuple[int, ...]:
        """Order of the standings, best first (smaller sorts first)."""
        return (-total,)

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        """Whether the match is over after this many deals; open-ended by default."""
        return False

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        """Who deals the next deal after ``played`` deals (``None``: the game does not say)."""
        return None

    def winning_sides(
        self, sides: list[list[str]], standings: Mapping[str, Standing]
    ) -> list[list[str]]:
        """The sides ranked first once the match is finished (more than one: a shared win)."""
        best = min(standings[side[0]].rank for side in sides)
        return [side for side in sides if standings[side[0]].rank == best]
