"""A Napoleon or Rettler declaration's words: the trumps by priority, and a bid as said.

Below :mod:`engine.games.declarer` (which reads declarations and compares bids) and
:mod:`engine.games.simulate` (which declares at random), which both import it.
"""

from __future__ import annotations

from dataclasses import dataclass

TRUMPS: tuple[str, ...] = (
    "black",
    "red",
    "igo-notrump",
    "notrump",
    "chigaku-notrump",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
)
"""Trumps from the highest priority to the lowest (黒 > 赤 > 囲碁将棋部ノートラ > … > クラブ)."""


@dataclass(frozen=True, slots=True)
class Bid:
    """A declaration as said at the table: 「ハート 15 枚で立つ」."""

    count: int
    trump: str
    adjutants: int | None = None
    """Only where the player count offers a choice (5-player Rettler)."""
