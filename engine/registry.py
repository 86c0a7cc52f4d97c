"""Which games the engine knows, by their record name.

A game module defines a :class:`~engine.game.Game` subclass; adding a game is
one import and one entry here.
"""

from __future__ import annotations

from engine.game import Game
from engine.games.bhabhi import Bhabhi
from engine.games.comp13 import Comp13
from engine.games.comrade import Comrade
from engine.games.napoleon import Napoleon
from engine.games.onetwothreefour import OneTwoThreeFour
from engine.games.packing import Packing
from engine.games.rettler import Rettler
from engine.games.twentytwo import TwentyTwo

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Napoleon(),
        Rettler(),
        Comp13(),
        Packing(),
        TwentyTwo(),
        OneTwoThreeFour(),
        Bhabhi(),
        Comrade(),
    )
}
"""Every implemented game, by the ``game`` value of its records."""


def get_game(name: str) -> Game | None:
    """The game called ``name``, or ``None`` when the engine does not implement it."""
    return GAMES.get(name)
