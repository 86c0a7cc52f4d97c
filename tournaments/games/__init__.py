"""The web side of every game, by the engine's name of the game.

One module per game (like ``engine/registry.py``'s engine games); adding a game is
one import and one entry here, after its engine module is registered.
"""

from __future__ import annotations

from tournaments.games.base import LeagueGame
from tournaments.games.bhabhi import BhabhiLeague
from tournaments.games.comp13 import Comp13League
from tournaments.games.comrade import ComradeLeague
from tournaments.games.napoleon import NapoleonLeague
from tournaments.games.onetwothreefour import OneTwoThreeFourLeague
from tournaments.games.packing import PackingLeague
from tournaments.games.rettler import RettlerLeague
from tournaments.games.twentytwo import TwentyTwoLeague

LEAGUE_GAMES: dict[str, LeagueGame] = {
    game.name: game
    for game in (
        RettlerLeague(),
        NapoleonLeague(),
        Comp13League(),
        PackingLeague(),
        TwentyTwoLeague(),
        OneTwoThreeFourLeague(),
        BhabhiLeague(),
        ComradeLeague(),
    )
}
"""Every game the league app offers, in the order pages list them."""


def league_game(name: str) -> LeagueGame:
    """The web side of the game called ``name`` (``KeyError`` when there is none)."""
    return LEAGUE_GAMES[name]


def label(name: str) -> str:
    """How pages and exports name a game (its name when unknown)."""
    game = LEAGUE_GAMES.get(name)
    return game.label if game is not None else name
