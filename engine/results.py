"""The results the engine returns: a deal's score, a match's standings.

Plain frozen data, shared by :mod:`engine.game` (what a game produces),
:mod:`engine.match` (what a match keeps) and :mod:`engine.api`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.problems import Problem


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
    rewritten: tuple[tuple[str, str], ...] = ()
    """Cards written otherwise than their code: (path, code), for ``engine.canonical``."""

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
    snapshot: dict[str, Any] = field(default_factory=dict)
    """The match after its valid deals, as JSON: :func:`engine.add_deal` continues from it."""

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


@dataclass(frozen=True, slots=True)
class NextDeal:
    """:func:`engine.add_deal`'s answer: the deal's result, every problem found (the deal's
    own and those against the match so far), whether the match is now over, and the
    match's snapshot after the deal (unchanged when there were problems)."""

    result: DealResult
    errors: tuple[Problem, ...]
    finished: bool
    snapshot: dict[str, Any]

    @property
    def valid(self) -> bool:
        return not self.errors
