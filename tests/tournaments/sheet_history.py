"""A club's paper history, as the tests and the benchmark import it: three seasons of a
game, two club nights each, played by the engine's random legal play."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from tournaments.games import league_game
from tournaments.models import Club, Player
from tournaments.sheets import template

NAMES = {"aki": "Aki Ito", "ben": "Ben Mori", "chika": "Chika Sato", "dai": "Dai Kato",
         "emi": "Emi Abe", "fumi": "Fumi Ueda", "gen": "Gen Oda", "hana": "Hana Ono"}  # fmt: skip
SEASONS = ("2023 Spring", "2023 Autumn", "2024 Spring")


def add_players(club: Club) -> dict[str, Player]:
    """The club's players who played the history, by handle."""
    return {h: Player.objects.create(club=club, handle=h, display_name=n) for h, n in NAMES.items()}


@dataclass
class PastMatch:
    season: str
    date: dt.date
    table: str
    handles: list[str]
    deals: list[dict[str, Any]]
    rules: dict[str, Any] = field(default_factory=dict)
    target: int | None = None

    @property
    def names(self) -> list[str]:
        return [NAMES[h] for h in self.handles]

    def rows(self, game: str) -> list[dict[str, str]]:
        return template.match_rows(
            game,
            self.season,
            self.date,
            self.table,
            self.names,
            self.handles,
            self.deals,
            rules=self.rules,
            target=self.target,
        )


def history(game: str, *, nights: int = 2, seed: int = 0, most: int = 6) -> list[PastMatch]:
    """Three seasons of ``game``: ``nights`` club nights each, one match a night per kind of
    match the federation generator plays (its table sizes and rules)."""
    plans = league_game(game).federation
    handles = list(NAMES)
    out = []
    for s, season in enumerate(SEASONS):
        for n in range(nights):
            date = dt.date(2023 + s // 2, 4 + 6 * (s % 2), 7 + 7 * n)
            for t, plan in enumerate(plans, 1):
                seated = (
                    handles[t - 1 :][: plan.players]
                    if plan.players <= 7
                    else handles[: plan.players]
                )
                seed_here = seed + 1000 * s + 10 * n + t
                deals = template.played(game, seed_here, seated, plan.rules, plan.target, most=most)
                out.append(
                    PastMatch(season, date, str(t), seated, deals, dict(plan.rules), plan.target)
                )
    return out


def sheet_rows(game: str, matches: list[PastMatch]) -> list[dict[str, str]]:
    return [row for m in matches for row in m.rows(game)]
