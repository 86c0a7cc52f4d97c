"""What every game provides, and the results the engine returns.

A game is a :class:`Game` subclass that reads its own fields of a deal record and
scores the deal; the match rules (who has won, when a match is over) are a few
hooks with defaults.  The envelope (``game``, ``players``, ``rules``) and the
match record are read once, in :mod:`engine.api`, for every game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.cards import standard_deck
from engine.match import MatchState, P, competition_ranks
from engine.problems import Checker
from engine.results import DealResult, MatchResult, Scored, Standing

__all__ = ["ENVELOPE_KEYS", "DealResult", "Game", "MatchResult", "Scored", "Standing"]

ENVELOPE_KEYS = frozenset({"game", "players", "rules"})


@mypyc_attr(allow_interpreted_subclasses=True)
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
    best_players: ClassVar[int]
    """The rulebook's best table size (what a paper sheet and a table draw start from)."""
    rated: ClassVar[bool] = True
    """Whether players are ranked against each other (false: a cooperative game)."""
    deals_follow_the_match: ClassVar[bool] = False
    """Whether a deal's players, dealer or hand size follow from the deals before it
    (:meth:`MatchState.next_deal` says more than the match's players): the league then
    completes every record it stores with them.  Comp-13's ``provisional_dealer`` and
    Packing's ``dealer`` follow too, but only a full play depends on them: those games
    leave this false, and the match
    check (:func:`engine.check_match`, :func:`engine.add_deal`) gives each deal what it
    inherits."""
    goal: ClassVar[str] = "deals"
    """What :meth:`progress` counts toward the end of a match: ``"deals"`` (deals played,
    of ``target`` or open-ended), ``"points"`` (the leading side's points, of ``target``),
    ``"eliminations"`` (players put out, of all but the last one)."""

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        """Validate the values of ``rules`` (the names were checked already)."""
        return dict(rules)

    def deck_for(self, players: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
        """The deck a deal of ``players`` is played with under the match's ``rules``: how
        many of each card code it holds.  A record naming a card outside it is refused, and
        an entry form's card pads offer only its cards.  By default one deck of 52."""
        return standard_deck()

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
        return MatchState(self, players, rules, target)

    def match_fields(self, players: list[str]) -> dict[str, Any]:
        """Deal fields that follow from the match's seating alone (Packing's ``teams``);
        a stored match gives them to every deal it stores."""
        return {}

    # -- random legal play (demo, load tests, property tests) -----------------------------
    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        """A full-play record of the next deal of the match ``state``, played by random
        legal choices (:func:`engine.deal.play_match` plays whole matches with it);
        ``None``: the game has no generator."""
        return None

    def sides(self, players: list[str]) -> list[list[str]]:
        """Who wins or loses together: by default every player alone."""
        return [[p] for p in players]

    def ranked_by(self) -> tuple[str, ...]:
        """What the standings rank by, each the more the better: ``"total"`` (points),
        then, in games that break ties so, ``"deals_won"``.  A league may rank in its
        database with these; :meth:`rank_key` is the same order in Python."""
        return ("total",)

    def rank_key(self, total: int, deals_won: int) -> tuple[int, ...]:
        """Order of the standings, best first (smaller sorts first)."""
        values = {"total": total, "deals_won": deals_won}
        return tuple(-values[name] for name in self.ranked_by())

    def ranks(self, lines: Mapping[P, tuple[int, int]]) -> dict[P, int]:
        """Each player's rank among ``lines`` (player: their total and deals won), by
        :meth:`rank_key`: a season's leaderboard, and a correction's effect on it."""
        return competition_ranks({p: self.rank_key(*line) for p, line in lines.items()})

    def is_finished(
        self, side_totals: Sequence[int], deals_played: int, target: int | None
    ) -> bool:
        """Whether the match is over after this many deals; open-ended by default."""
        return False

    def progress(
        self, snapshot: Mapping[str, Any], players: Sequence[str], target: int | None
    ) -> tuple[int, int | None]:
        """How far a match has gone toward its end, in :attr:`goal`'s unit, from the
        snapshot of its state (:meth:`MatchState.snapshot`): (so far, of how many);
        ``None``: the match is open-ended.  By default the deals played, of ``target``."""
        return int(snapshot.get("played", 0)), target

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        """Who deals the next deal after ``played`` deals (``None``: the game does not say)."""
        return None

    @property
    def has_dealer(self) -> bool:
        """Whether the game says who deals (:meth:`next_dealer`): then the first seat deals
        first, and a club evens out who takes it over a season."""
        return type(self).next_dealer is not Game.next_dealer

    def winning_sides(
        self, sides: list[list[str]], standings: Mapping[str, Standing]
    ) -> list[list[str]]:
        """The sides ranked first once the match is finished (more than one: a shared win)."""
        best = min(standings[side[0]].rank for side in sides)
        return [side for side in sides if standings[side[0]].rank == best]
