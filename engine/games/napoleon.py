"""Napoleon (ナポレオン), rulebook chapter 2: 3 to 5 players, one deck and a joker, 20 point cards."""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import standard_deck
from engine.games.declarer import DeclarerGame
from engine.games.score_tables import Payout, napoleon_payout

WIDOW = {3: 5, 4: 5, 5: 3}
"""Table 2.1: cards left in the centre (hands are 16, 12 and 10)."""

HAND = {3: 16, 4: 12, 5: 10}
"""Table 2.1: cards dealt to each player."""

MINIMUM = {3: 16, 4: 14, 5: 12}
"""2.3.2: the lowest declaration by player count."""


class Napoleon(DeclarerGame):
    name = "napoleon"
    player_counts = frozenset(WIDOW)
    point_cards_total = 20

    def widow_size(self, players: int) -> int:
        return WIDOW[players]

    def hand_size(self, players: int) -> int:
        return HAND[players]

    def adjutant_choices(self, players: int) -> tuple[int, ...]:
        return (1,)

    def minimum_count(self, players: int, adjutants: int) -> int:
        return MINIMUM[players]

    def deck(self) -> Mapping[str, int]:
        return standard_deck(jokers=1)

    def payout(
        self, players: int, count: int, allowed: int, won: bool, taken: int, found: int
    ) -> Payout:
        return napoleon_payout(players, count, won, taken, lone=found == 0)
