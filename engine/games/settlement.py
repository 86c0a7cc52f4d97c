"""A declarer game's deal settled on its zero-sum score table (Napoleon and Rettler):
who is in the army (the declarer and the adjutants) and who in the coalition, what each
is paid, and the deal's details.

Decisions where the rulebook is silent or ambiguous (each has a test):

* 全付け (the army takes every point card) loses unless the declaration was the
  maximum (2.3.5, and the chapter 3 footnote).  It moves a flat 240, shared
  equally inside the army (1:1, and 1:1:1 with two adjutants) and equally by the
  coalition.  With 8-player Rettler and a lone Rettler, 240 does not divide by
  the 7 coalition members: the book's own 8-player rounding is used (the lone
  columns of C.5/C.6 use 63 = 7 × 9 instead of 60), so the Rettler pays 252 and
  each member gains 36.  ``multiplier`` is ``null`` for 全付け.
* A deal is "won" (for the standings' deals-won count) by every player whose
  score went up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.game import Scored
from engine.games.score_tables import Payout

ALL_TAKEN_POINTS = 240
EIGHT_PLAYER_LONE_ALL_TAKEN = 252

PayoutOf = Callable[[int, int, int, bool, int, int], Payout]
"""The game's score table: (players, count, allowed adjutants, won, taken, adjutants)."""


@dataclass(frozen=True, slots=True)
class Army:
    """The declarer and the adjutants found."""

    declarer: str
    adjutants: tuple[str, ...]


def settle(
    players: list[str],
    army: Army,
    count: int,
    allowed: int,
    points: dict[str, int],
    total: int,
    payout: PayoutOf,
) -> Scored:
    """The deal's scores: ``points`` won by each player of the ``total`` there are, paid
    by the table ``payout`` (全付け apart)."""
    side = [army.declarer, *army.adjutants]
    coalition = [p for p in players if p not in side]
    taken = sum(points[p] for p in side)
    multiplier: int | None
    if taken == total and count < total:
        outcome = "all_taken"
        multiplier = None
        leader, each_adjutant, each_coalition = all_taken(len(players), len(side))
    else:
        won = taken >= count
        outcome = "declarer_win" if won else "coalition_win"
        pay = payout(len(players), count, allowed, won, taken, len(army.adjutants))
        multiplier = pay.multiplier
        leader, each_adjutant, each_coalition = pay.leader, pay.adjutant or 0, pay.coalition
    scores = {p: each_coalition for p in players}
    scores[army.declarer] = leader
    for adjutant in army.adjutants:
        scores[adjutant] = each_adjutant
    if sum(scores.values()) != 0:  # pragma: no cover - the tables are zero-sum
        raise AssertionError(f"score table row is not zero-sum: {scores}")
    winners = tuple(p for p in players if scores[p] > 0)
    return Scored(
        scores=scores,
        winners=winners,
        details={
            "point_cards": dict(points),
            "adjutants": list(army.adjutants),
            "coalition": coalition,
            "army_point_cards": taken,
            "outcome": outcome,
            "multiplier": multiplier,
        },
    )


def all_taken(players: int, army: int) -> tuple[int, int, int]:
    """全付け: 240 split equally in the army and in the coalition (see the module doc):
    what the declarer, each adjutant and each coalition member get."""
    coalition = players - army
    if ALL_TAKEN_POINTS % coalition:
        # Only 8-player lone Rettler (7 members): the book's 63 rounding, 63 × 4 = 252 = 7 × 36.
        each = EIGHT_PLAYER_LONE_ALL_TAKEN // coalition
        return -EIGHT_PLAYER_LONE_ALL_TAKEN, 0, each
    return -ALL_TAKEN_POINTS // army, -ALL_TAKEN_POINTS // army, ALL_TAKEN_POINTS // coalition
