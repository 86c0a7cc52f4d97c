"""The web side of Rettler (レットラー): two decks, 40 point cards, 4 to 8 players."""

from __future__ import annotations

from typing import Any, ClassVar

from tournaments.games.base import DemoMatch, PlannedMatch
from tournaments.games.declarer import DeclarerLeagueGame
from tournaments.games.declarer_statistics import declarer_statistics


class RettlerLeague(DeclarerLeagueGame):
    name = "rettler"
    name_en = "Rettler"
    name_ja = "レットラー"
    bands = (29, 35)
    """The stake bands of table C.4: up to 29 ×1, 30–34 ×2, 35 and up ×4 or ×16."""
    statistics = declarer_statistics(*bands)
    point_total: ClassVar[int] = 40
    federation = (PlannedMatch(6),)

    def demo_matches(self) -> list[DemoMatch]:
        return [DemoMatch(0, "Table 1", ["aki", "ben", "chika", "dai", "emi", "fumi"], DEALS)]


DEALS: list[dict[str, Any]] = [
    {
        "declaration": {"player": "aki", "count": 28, "trump": "diamonds"},
        "adjutant_cards": ["SA"],
        "adjutants": ["chika", "dai"],
        "point_cards": {"aki": 16, "ben": 6, "chika": 10, "dai": 3, "emi": 1, "fumi": 2},
        "discarded_point_cards": 2,
    },
    {
        "declaration": {"player": "ben", "count": 30, "trump": "black"},
        "adjutant_cards": ["HJ", "CA"],
        "adjutants": ["emi"],
        "point_cards": {"aki": 5, "ben": 14, "chika": 6, "dai": 4, "emi": 9, "fumi": 2},
    },
    {
        "declaration": {"player": "fumi", "count": 25, "trump": "spades"},
        "adjutant_cards": ["SA"],
        "adjutants": ["aki", "ben"],
        "point_cards": {"aki": 8, "ben": 7, "chika": 5, "dai": 4, "emi": 3, "fumi": 12},
        "discarded_point_cards": 1,
    },
]
