"""Napoleon (ナポレオン), rulebook chapter 2: 3 to 5 players, one deck and a joker, 20 point cards.

6 players play with two adjutants (6.1.4, "otherwise the same").  The book gives
no hands, widow or lowest declaration for them: 53 cards deal 8 each with 5 in
the widow, and the lowest declaration is kept at 12, the 5-player minimum (the
army of three is as strong as Rettler's 6-player army of three, whose minimum is
25 of 40).  Scores follow appendix C's formulas (score_tables.napoleon_payout).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import standard_deck
from engine.games.declarer import DeclarerGame
from engine.games.score_tables import Payout, napoleon_payout

WIDOW = {3: 5, 4: 5, 5: 3, 6: 5}
"""Table 2.1: cards left in the centre (hands are 16, 12 and 10)."""

HAND = {3: 16, 4: 12, 5: 10, 6: 8}
"""Table 2.1: cards dealt to each player."""

MINIMUM = {3: 16, 4: 14, 5: 12, 6: 12}
"""2.3.2: the lowest declaration by player count."""


class Napoleon(DeclarerGame):
    name = "napoleon"
    player_counts = frozenset(WIDOW)
    best_players = 4
    point_cards_total = 20

    widows = WIDOW
    hands = HAND

    def adjutant_choices(self, players: int) -> tuple[int, ...]:
        return (2,) if players == 6 else (1,)

    def minimum_count(self, players: int, adjutants: int) -> int:
        return MINIMUM[players]

    def deck(self) -> Mapping[str, int]:
        return standard_deck(jokers=1)

    def payout(
        self, players: int, count: int, allowed: int, won: bool, taken: int, found: int
    ) -> Payout:
        return napoleon_payout(players, count, won, taken, found)
