"""The web side of Napoleon (ナポレオン): one deck, 20 point cards, 3 to 6 players."""

from __future__ import annotations

from typing import Any, ClassVar

from tournaments.games.base import DemoMatch, PlannedMatch
from tournaments.games.declarer import DeclarerLeagueGame
from tournaments.games.declarer_statistics import declarer_statistics


class NapoleonLeague(DeclarerLeagueGame):
    name = "napoleon"
    name_en = "Napoleon"
    name_ja = "ナポレオン"
    bands = (15, 18)
    """The stake bands of the 5-player table: up to 15 ×1, 16–17 ×2, 18 and up ×4 or ×16."""
    statistics = declarer_statistics(*bands)
    point_total: ClassVar[int] = 20
    federation = (PlannedMatch(4), PlannedMatch(5))

    def demo_matches(self) -> list[DemoMatch]:
        return [DemoMatch(0, "Table 2", ["gen", "hana", "ito", "jun"], DEALS)]


DEALS: list[dict[str, Any]] = [
    {
        "declaration": {"player": "gen", "count": 15, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": ["ito"],
        "point_cards": {"gen": 9, "hana": 3, "ito": 7, "jun": 1},
    },
    {
        "declaration": {"player": "hana", "count": 16, "trump": "spades"},
        "adjutant_cards": ["HK"],
        "adjutants": [],
        "point_cards": {"gen": 3, "hana": 12, "ito": 2, "jun": 2},
        "discarded_point_cards": 1,
    },
    {
        "declaration": {"player": "jun", "count": 14, "trump": "notrump"},
        "adjutant_cards": ["JK"],
        "adjutants": ["gen"],
        "point_cards": {"gen": 6, "hana": 4, "ito": 2, "jun": 8},
    },
]
