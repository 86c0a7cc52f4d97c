"""Rettler (レットラー), rulebook chapter 3: 4 to 8 players, two decks (108 cards), 40 point cards.

With 5 players a declaration allows one adjutant (from 20) or two (from 30);
a two-adjutant count is converted with table 3.3 before the score table is read
(appendix C.2: 変換してから計算する), and the cards taken are compared with
the bands of the converted count's row, as the book reads literally.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import standard_deck
from engine.games.declarations import Bid
from engine.games.declarer import DeclarerGame
from engine.games.score_tables import (
    Payout,
    rettler_five_player_conversion,
    rettler_multiplier,
    rettler_payout,
)

WIDOW = {4: 4, 5: 3, 6: 6, 7: 3, 8: 4}
"""Table 3.1: cards left in the centre (hands are 26, 21, 17, 15 and 13)."""

HAND = {4: 26, 5: 21, 6: 17, 7: 15, 8: 13}
"""Table 3.1: cards dealt to each player."""

MINIMUM = {(4, 1): 25, (5, 1): 20, (5, 2): 30, (6, 2): 25, (7, 2): 23, (8, 2): 20}
"""Table 3.2: the lowest declaration by player count and adjutants allowed."""


class Rettler(DeclarerGame):
    name = "rettler"
    player_counts = frozenset(WIDOW)
    best_players = 6
    point_cards_total = 40

    widows = WIDOW
    hands = HAND

    def adjutant_choices(self, players: int) -> tuple[int, ...]:
        return tuple(adjutants for (n, adjutants) in MINIMUM if n == players)

    def minimum_count(self, players: int, adjutants: int) -> int:
        return MINIMUM[(players, adjutants)]

    def deck(self) -> Mapping[str, int]:
        return standard_deck(copies=2, jokers=2, bridges=2)

    def comparable_count(self, players: int, bid: Bid) -> int:
        if players == 5 and bid.adjutants == 2:
            return rettler_five_player_conversion()[bid.count]
        return bid.count

    def payout(
        self, players: int, count: int, allowed: int, won: bool, taken: int, found: int
    ) -> Payout:
        if players == 5 and allowed == 2:
            count = rettler_five_player_conversion()[count]
        multiplier = rettler_multiplier(count, won, taken)
        return rettler_payout(players, multiplier, won, found)
