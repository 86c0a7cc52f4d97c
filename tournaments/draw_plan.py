"""A night that follows a known design (issue 57): when the secretary declares the
night's rounds, its players (the attendance) and its table size up front, the rounds
follow a schedule of the library (``tournaments.designs``) in which nobody meets anyone
twice, relabelled at random, and seated so that seats rotate fairly.

Pure functions: the plan is kept on the night (``ClubNight.draw_plan``) as JSON.  Each
round follows it only while the night has followed it so far: the same players, every
earlier round seated as planned.  Anything else (a late arrival, a player gone home, a
table changed by hand) and the round is drawn by the search, as any round.  A night
longer than the design plays its design's rounds first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments import designs


@dataclass(frozen=True)
class Plan:
    players: frozenset[int]
    design: str
    rounds: list[list[list[int]]]
    """Each round's tables, player ids in seat order."""

    def as_json(self) -> dict[str, Any]:
        return {"players": sorted(self.players), "design": self.design, "rounds": self.rounds}

    @classmethod
    def from_json(cls, data: Any) -> Plan | None:
        try:
            return cls(frozenset(data["players"]), str(data["design"]), data["rounds"])
        except (KeyError, TypeError):
            return None


def start(players: Sequence[int], size: int, rounds: int, rng: random.Random) -> Plan | None:
    """A plan for ``rounds`` rounds of ``players`` at tables of ``size``: the library's
    design for as many of those rounds as it knows (None: none, or tables that do not
    seat everyone)."""
    if not players or len(players) % size:
        return None
    most = min(rounds, designs.most_rounds(len(players), size))
    found = designs.schedule(len(players), size, most) if most > 0 else None
    if found is None:
        return None
    return Plan(frozenset(players), found.name, designs.relabel(found, list(players), rng))


def follow(
    plan: Plan, players: Sequence[int], played: Sequence[Sequence[Sequence[int]]]
) -> list[list[int]] | None:
    """The next round's tables by ``plan``, given the rounds ``played`` so far; None once
    the night left the plan (other players, a round not as planned) or the plan is done."""
    if frozenset(players) != plan.players or len(played) >= len(plan.rounds):
        return None
    for was, planned in zip(played, plan.rounds, strict=False):
        if _tables(was) != _tables(planned):
            return None
    return [list(t) for t in plan.rounds[len(played)]]


def _tables(tables: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    return {frozenset(t) for t in tables}


def stored(data: Any) -> list[Plan]:
    """The plans a night keeps (one per division drawn apart)."""
    plans = data.get("plans", []) if isinstance(data, dict) else []
    return [p for p in map(Plan.from_json, plans) if p is not None]


def to_store(plans: Sequence[Plan]) -> dict[str, Any]:
    return {"plans": [p.as_json() for p in plans]}
